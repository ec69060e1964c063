/**
 * What the extractive engine leads with (issue 37), on small pages written for each rule: a
 * heading that acts against the question never leads and never lends its steps, steps come from
 * the section the lead cites, text for AI agents is never quoted, one sentence and the pages when
 * no section answers as asked, and a selected passage is explained from where it stands.
 */
import { notForReaders, opposes, polarity } from '../../packages/docs-assistant-server/src/engines/intent';
import type { AnswerContext } from '../../packages/docs-assistant-server/src/engines/types';
import { DocsIndex, parseDocument } from '../../packages/docs-assistant-server/src/retrieval';
import { extractiveAnswer } from './extractive';

const PAGES = {
  'sso.md': `---
title: Single sign-on
---

Single sign-on lets members sign in with your identity provider.

## Enable SCIM provisioning

1. Open the security settings and select **Enable SCIM**.
2. Copy the token into your identity provider and assign the users to provision.

## Disable SCIM provisioning

1. Unassign the app from your users in the identity provider.
2. Open the security settings and select **Disable SCIM**.
`,
  'analytics.md': `---
title: Analytics
---

## Stop collecting analytics

Set \`analytics: false\` in the config file. Page views are no longer counted after the next deploy.

## Connect a tracker

1. Create a tracker in your analytics provider.
2. Add its ID to the config file as \`analytics.id\`.
`,
  'setup.md': `---
title: Set up with an agent
---

## Install with your coding agent

1. Install the CLI with \`npm install -g acme\`.
2. If it is missing or older, tell me before continuing.
3. Run \`acme init\` in your project.

## Keep pages indexable

Pages are indexable by default, and listed in the sitemap.
`,
};

const index = new DocsIndex(Object.entries(PAGES).map(([file, source]) => parseDocument(file, source)));

const answer = (question: string, context: AnswerContext['context'] = []) =>
  extractiveAnswer(index, question, { context }).text;

describe('the intent of a question and a heading', () => {
  it('tells which way a text acts, and when a heading acts against the question', () => {
    expect(polarity('How do I turn on SCIM?')).toBe(1);
    expect(polarity('Disable SCIM')).toBe(-1);
    expect(polarity('Keep a page indexable')).toBe(1);
    expect(polarity('How do I stop search engines from indexing a page?')).toBe(-1);
    expect(polarity('Remove the old key and add a new one')).toBe(-1);
    expect(polarity('How do I turn off SCIM provisioning?')).toBe(-1);
    expect(polarity('What attributes does SCIM sync?')).toBe(0);
    expect(opposes('How do I automatically provision users with SCIM?', 'Disable SCIM')).toBe(true);
    expect(opposes('How do I hide a page from the sidebar?', 'Add a page to navigation')).toBe(true);
    expect(opposes('How do I revoke an API key?', 'Revoke an API key')).toBe(false);
    expect(opposes('What attributes does SCIM sync?', 'Disable SCIM')).toBe(false);
  });

  it('knows text written for AI agents or for the docs authors', () => {
    expect(notForReaders('If it is missing or older, tell me before continuing.')).toBe(true);
    expect(notForReaders('You are setting up Orbit docs in this repository.')).toBe(true);
    expect(notForReaders('TODO: add the Windows notes.')).toBe(true);
    expect(notForReaders('Paste this prompt into your coding agent.')).toBe(false);
    expect(notForReaders('Run orbit dev in the folder that holds docs.json.')).toBe(false);
  });
});

describe('the extractive lead', () => {
  it('takes the steps of the section that acts as asked, never the opposite procedure', () => {
    const enable = answer('How do I provision users with SCIM?');
    expect(enable).toMatch(/^From \*\*Enable SCIM provisioning\*\* in \*Single sign-on\* \[\d\]:/);
    expect(enable).not.toContain('Disable SCIM');
    const disable = answer('How do I turn off SCIM provisioning?');
    expect(disable).toMatch(/^From \*\*Disable SCIM provisioning\*\*/);
    expect(disable).not.toContain('select **Enable SCIM**');
  });

  it('leads with the section that answers, without steps from another result', () => {
    const text = answer('How do I disable analytics?');
    expect(text).toMatch(/^Set `analytics: false` in the config file\./);
    expect(text).not.toMatch(/Create a tracker|Unassign the app/);
  });

  it('never quotes text addressed to an AI agent, in steps or prose', () => {
    const text = answer('How do I install the CLI with my coding agent?');
    // Steps 1 and 3 are the reader's; step 2 speaks to the agent.
    expect(text).toMatch(
      /^From \*\*Install with your coding agent\*\*.*:\n\n1\. Install the CLI with `npm install -g acme`\.\n2\. Run `acme init` in your project\./,
    );
    expect(text).not.toMatch(/tell me before continuing/);
  });

  it('says in one sentence that no section answers as asked when every one acts against it', () => {
    const text = answer('How do I stop the pages from being indexable?');
    expect(text).toMatch(
      /^I could not tell which part of the Acme docs answers this; these pages are the closest\.\n\n```suggestions\n/,
    );
    expect(text).not.toMatch(/indexable by default/);
  });

  it('explains a selected passage from its section rather than declining', () => {
    const text = answer('Explain this in simpler words', [
      {
        type: 'textSelection',
        value: 'Page views are no longer counted after the next deploy.',
        path: '/analytics',
      },
    ]);
    expect(text).toMatch(
      /^This passage is from \*\*Stop collecting analytics\*\* in \*Analytics\*, which says: Set `analytics: false`/,
    );
    expect(text).not.toMatch(/don't cover/);
  });
});
