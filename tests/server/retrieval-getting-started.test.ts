/**
 * A question that asks how to start using what the docs are about ("How do I add the assistant to
 * my site?", the demo's first starter question) finds the site's getting-started page, though its
 * words ("install the package") are not the reader's ("add it to my site"); a question that names
 * anything else it sets up (an API key, search, a page of the navigation) is searched as before.
 * Over this repository's docs (named by their home page) and the Orbit fixture (named "Orbit" in
 * docs.json).
 */
import { fileURLToPath } from 'node:url';
import { DocsIndex, loadDocs } from '../../packages/docs-assistant-server/src/retrieval';

const folder = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const first = (index: DocsIndex, question: string) =>
  index.query({ question, limit: 5 }).hits[0]?.section.id ?? '(nothing)';

describe('questions about starting to use the docs’ subject', () => {
  let docs: DocsIndex;
  let orbit: DocsIndex;
  beforeAll(async () => {
    docs = new DocsIndex(await loadDocs([folder('../../docs')], { warn: () => {} }));
    orbit = new DocsIndex(await loadDocs([folder('../fixtures/sites/orbit')], { warn: () => {} }));
  });

  it.each([
    'How do I add the assistant to my site?',
    'How do I set up docs-assistant on my website?',
    'How do I install it?',
  ])('finds Getting started first in this repository’s docs: %s', (question) => {
    expect(first(docs, question)).toMatch(/^\/getting-started#install-the-package$/);
  });

  it.each(['How do I add Orbit to my project?', 'How do I get started?'])(
    'finds the Quickstart first in the Orbit docs: %s',
    (question) => {
      expect(first(orbit, question)).toMatch(/^\/quickstart#/);
    },
  );

  it.each([
    ['docs', 'How do I add an API key to my site?', /^\/props#connection-props/],
    ['docs', 'How do I add a custom renderer?', /^\/custom-renderers#/],
    ['orbit', 'How do I add a page to the navigation?', /^\/navigation#add-a-page/],
    ['orbit', 'How do I add an API key?', /^\/api\/authentication#create-an-api-key/],
  ] as const)(
    'leaves a question that sets up something else to its own words (%s: %s)',
    (site, question, expected) => {
      expect(first(site === 'docs' ? docs : orbit, question)).toMatch(expected);
    },
  );
});
