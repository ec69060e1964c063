/**
 * Extractive answers a reader can use without a model: over MDX docs no answer shows raw
 * MDX/JSX/front matter, "how do I…" answers lead with the page's steps, sentences are whole
 * (code they introduce comes with them), every `[n]` is the n-th source, and a follow-up on a new
 * topic gets the new topic's page first (on the MDX fixtures and on this repository's docs/, which
 * the demo serves).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocsIndex, loadDocs } from '../../packages/docs-assistant-server/src/retrieval';
import { createAssistantService } from '../../packages/docs-assistant-server/src/service';
import { extractiveAnswer } from './extractive';
import { ask, userMessage } from './helpers';
import { loadMdxFixtures, MDX_FIXTURES, RAW_MARKUP } from './mdx-fixtures';

const DOCS = fileURLToPath(new URL('../../docs', import.meta.url));
const SITES = fileURLToPath(new URL('../fixtures/sites', import.meta.url));

const mdxIndex = new DocsIndex(loadMdxFixtures());

const answer = (index: DocsIndex, question: string, history: string[] = []) =>
  extractiveAnswer(index, question, { history });

/** The answer without its code, fenced or inline (code may hold JSX), and without its suggestions block. */
const prose = (text: string) =>
  text
    .replace(/```[\s\S]*?```/g, '')
    .replace(/(?<!\\)`[^`\n]+`/g, '')
    .replace(/\\[\\`*_[\]<~]/g, '');

/** Questions a reader asks of each section: its heading, as a "how do I" and a "what is". */
function questionsOf(index: DocsIndex): string[] {
  const questions = new Set<string>();
  for (const section of index.sections) {
    const heading = section.headingPath[section.headingPath.length - 1] ?? section.pageTitle;
    questions.add(`How do I ${heading.toLowerCase()}?`);
    questions.add(`What is ${heading.toLowerCase()}?`);
    questions.add(`${section.pageTitle}?`);
  }
  return [...questions];
}

describe('extractive answers over MDX', () => {
  it('never show raw MDX, JSX or front matter, for any question about any section', () => {
    const questions = questionsOf(mdxIndex);
    expect(questions.length).toBeGreaterThan(20);
    const found: string[] = [];
    for (const question of questions) {
      const text = prose(answer(mdxIndex, question).text);
      for (const [what, pattern] of RAW_MARKUP)
        if (pattern.test(text)) found.push(`${question}: ${what}\n${text}`);
    }
    expect(found).toEqual([]);
  });

  it('never show raw markup on the docs-site fixtures either (every framework layout)', async () => {
    const found: string[] = [];
    for (const site of readdirSync(SITES)) {
      if (!statSync(join(SITES, site)).isDirectory()) continue;
      const index = new DocsIndex(await loadDocs([join(SITES, site)], { warn: () => {} }));
      expect(index.pages.length, site).toBeGreaterThan(3);
      for (const question of questionsOf(index)) {
        const text = prose(answer(index, question).text);
        for (const [what, pattern] of RAW_MARKUP)
          if (pattern.test(text)) found.push(`${site}: ${question}: ${what}\n${text}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('lead a "how do I" answer with the steps of the matching section, code inside its step', () => {
    const { text } = answer(mdxIndex, 'How do I set up a custom domain?');
    const lines = text.split('\n');
    // The intro, then the numbered steps in the page's order, before any other quote.
    expect(lines[0]).toMatch(/^From \*\*Set up a custom domain\*\* in \*Custom domain\* \[1\]:$/);
    const steps = lines.filter((line) => /^\d+\. /.test(line));
    expect(steps).toEqual([
      expect.stringMatching(/^1\. \*\*Add the domain in the dashboard\*\*: Open Settings/),
      expect.stringMatching(
        /^2\. \*\*Add a CNAME record\*\*: At your DNS provider, add a `CNAME` record .*:$/,
      ),
      expect.stringMatching(/^3\. \*\*Wait for the certificate\*\*/),
    ]);
    // The DNS record itself, as code, indented under its step.
    expect(text).toContain('   ```text\n   docs  CNAME  cname.docs-host.example\n   ```');
  });

  it('lead with a numbered list of Markdown steps too, and a Steps component with an empty step', () => {
    const install = answer(mdxIndex, 'How do I install the CLI and sign in?').text;
    expect(install).toMatch(/^From \*\*Install and sign in\*\* in \*Install the CLI\* \[1\]:\n\n1\. Install/);
    expect(install).toContain('   npm install -g acme-cli');
    expect(install).toMatch(
      /2\. Sign in with your account, e\.g\. `acme login --sso`, and follow the link it prints\./,
    );
    const rotate = answer(mdxIndex, 'How do I rotate the signing secret?').text;
    expect(rotate).toContain('3. **Revoke the old secret**');
    expect(rotate).toContain('   ```bash\n   export WEBHOOK_SECRET=whsec_new\n   ```');
  });

  it('never ends a sentence on a word that needs what followed it', () => {
    const dangling = /\b(use|is|are|the|a|an|with|to|of|and|or|like|as|at|run|set|enter)( \[\d+\])?[.:]$/;
    const found: string[] = [];
    for (const question of questionsOf(mdxIndex)) {
      const text = answer(mdxIndex, question).text;
      for (const line of prose(text).split('\n')) {
        if (dangling.test(line.trim())) found.push(`${question}: ${line}`);
      }
    }
    expect(found).toEqual([]);
    // The inline code of the canonical-URL tip is kept, so its sentence ends where the docs' does.
    expect(answer(mdxIndex, 'What should I use as the canonical URL for a custom domain?').text).toContain(
      'you would use `https://docs.example.com` as the canonical URL',
    );
  });

  it('cites [n] as the n-th source, and lists each cited source', () => {
    for (const question of questionsOf(mdxIndex)) {
      const { text, cited, sources } = answer(mdxIndex, question);
      const numbers = [...text.matchAll(/ \[(\d+)\]/g)].map((m) => Number(m[1]));
      for (const n of numbers) {
        expect(n).toBeGreaterThanOrEqual(1);
        expect(sources[n - 1], `${question}: [${n}]`).toBeDefined();
        expect(cited).toContain(sources[n - 1]);
      }
      // Nothing cited that the text does not cite.
      expect(cited.map((source) => sources.indexOf(source) + 1).sort()).toEqual([...new Set(numbers)].sort());
    }
  });

  it('keeps inline code that names a tag as code a reader sees, not as markup', () => {
    const { text } = answer(mdxIndex, 'How do I document long scripts when I upgrade?');
    expect(text).toContain('`<Steps>`');
    expect(prose(text)).not.toMatch(/<Steps>/);
  });
});

/** Two-turn conversations: the second question is on a new topic; `page` answers it. */
const FIXTURE_CONVERSATIONS: { first: string; second: string; page: string }[] = [
  { first: 'How do I set up a custom domain?', second: 'How often are webhooks retried?', page: '/nested' },
  { first: 'How do I install the CLI?', second: 'Which components does the tour show?', page: '/components' },
  { first: 'How often are webhooks retried?', second: 'How do I uninstall the CLI?', page: '/install' },
  {
    first: 'Why is my build slow?',
    second: 'How long until the TLS certificate is issued?',
    page: '/custom-domain',
  },
];

const DOCS_CONVERSATIONS: { first: string; second: string; page: string }[] = [
  {
    first: 'How do I enable dark mode?',
    second: 'How do I start a static export job?',
    page: '/static-export',
  },
  {
    first: 'How do I change the colors of the panel?',
    second: 'Where are conversations stored?',
    page: '/threads-and-storage',
  },
  {
    first: 'What does the X-Thread-Key header do?',
    second: 'How do I change the keyboard shortcut in the props?',
    page: '/props',
  },
  {
    first: 'How do I start the reference service from the command line?',
    second: 'How do I style the launcher for right-to-left languages?',
    page: '/theming',
  },
  {
    first: 'How do I deploy the bundle with Helm?',
    second: 'How do I turn off the Ask AI buttons on code blocks?',
    page: '/context-collectors',
  },
];

describe('follow-ups', () => {
  it('put the new topic first on the MDX fixtures', () => {
    for (const { first, second, page } of FIXTURE_CONVERSATIONS) {
      const { retrieval } = answer(mdxIndex, second, [first]);
      expect(retrieval.hits[0]?.section.pagePath, `${first} → ${second}`).toBe(page);
    }
  });

  it('put the new topic first on docs/, and keep the thread for a follow-up that leans on it', async () => {
    const index = new DocsIndex(await loadDocs([DOCS], { warn: () => {} }));
    for (const { first, second, page } of DOCS_CONVERSATIONS) {
      const { retrieval } = answer(index, second, [first]);
      expect(retrieval.hits[0]?.section.pagePath, `${first} → ${second}`).toBe(page);
    }
    // "it" is the bundle link of the question before.
    const leaning = answer(index, 'How long does it stay valid?', ['How do I generate the bundle link?']);
    expect(leaning.retrieval.hits[0]?.section.id).toBe('/static-export#how-long-a-bundle-link-stays-valid');
  });

  it('put the new topic first through the service, with the earlier question in the request', async () => {
    const service = createAssistantService({
      docs: MDX_FIXTURES,
      domain: 'acme',
      assistantKey: 'svc_dsc_test_assistant',
      warn: () => {},
    });
    await service.ready();
    try {
      for (const { first, second, page } of FIXTURE_CONVERSATIONS) {
        const messages = [
          userMessage(first, 'q1'),
          {
            id: 'a1',
            role: 'assistant',
            content: 'Earlier answer.',
            parts: [{ type: 'text', text: 'Earlier answer.' }],
          },
          userMessage(second, 'q2'),
        ];
        const reply = await ask(service, second, { messages });
        expect(reply.searchResults[0]?.path, `${first} → ${second}`).toBe(page);
      }
    } finally {
      await service.close();
    }
  });
});
