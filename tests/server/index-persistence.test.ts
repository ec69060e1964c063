/**
 * The persisted index (`retrieval/persist.ts`): saved under the data folder, restored at the next
 * start while no file changed, rebuilt parsing only the changed files when one did, and discarded
 * with a warning (then rebuilt) when the saved file is corrupt or of another format version.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  INDEX_FORMAT_VERSION,
  type IndexBuild,
  PersistedDocsIndex,
} from '../../packages/docs-assistant-server/src/retrieval/persist';
import type { DocsIndex } from '../../packages/docs-assistant-server/src/retrieval/search-index';
import { createAssistantService } from '../../packages/docs-assistant-server/src/service';
import { ask } from './helpers';
import { MDX_FIXTURES } from './mdx-fixtures';

const QUESTIONS = [
  'How do I set up a custom domain?',
  'How often are webhooks retried?',
  'How do I install the CLI?',
  'Why is my build slow?',
];

let root: string;
let docs: string;
let dataDir: string;
let warnings: string[];

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'docs-assistant-persist-'));
  docs = join(root, 'docs');
  dataDir = join(root, 'data');
  cpSync(MDX_FIXTURES, docs, { recursive: true });
  warnings = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const store = () => new PersistedDocsIndex({ folders: [docs], dataDir, warn: (m) => warnings.push(m) });

async function openSaved(): Promise<IndexBuild> {
  const opened = store();
  const build = await opened.open();
  await opened.saved();
  return build;
}

/** What a search returns: section ids and scores, best first. */
const results = (index: DocsIndex) =>
  QUESTIONS.map((question) =>
    index.query({ question, limit: 5 }).hits.map((hit) => `${hit.section.id} ${hit.score.toFixed(9)}`),
  );

const savedFile = () => {
  const folder = join(dataDir, 'index');
  const [file] = readdirSync(folder).filter((name) => name.endsWith('.bin'));
  if (!file) throw new Error(`no saved index in ${folder}`);
  return join(folder, file);
};

const markdownFiles = () => readdirSync(docs).filter((name) => name.endsWith('.mdx')).length;

describe('persisted index', () => {
  it('restores the saved index when no file changed: same pages, same results, nothing parsed', async () => {
    const first = await openSaved();
    expect(first.how).toBe('built');
    expect(first.parsedFiles).toBe(markdownFiles());
    const second = await openSaved();
    expect(second.how).toBe('restored');
    expect(second.parsedFiles).toBe(0);
    expect(second.changedFiles).toEqual([]);
    expect(second.index.pages).toEqual(first.index.pages);
    expect(results(second.index)).toEqual(results(first.index));
    expect(warnings).toEqual([]);
  });

  it('parses only the changed file at the next start, and answers from its new text', async () => {
    await openSaved();
    const file = join(docs, 'install.mdx');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Node.js 20', 'Node.js 22 (Zanzibar release)'));
    const next = await openSaved();
    expect(next.how).toBe('updated');
    expect(next.changedFiles).toEqual(['0:install.mdx']);
    expect(next.parsedFiles).toBe(1);
    const hit = next.index.query({ question: 'zanzibar release', limit: 1 }).hits[0];
    expect(hit?.section.pagePath).toBe('/install');
    // The start after that restores the updated index.
    expect((await openSaved()).how).toBe('restored');
  });

  it('reads only files whose size or time changed, once they are older than the last hashing', async () => {
    // Files from an hour ago: not "racy" (changed too close to a hashing to trust their time).
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const name of readdirSync(docs)) utimesSync(join(docs, name), hourAgo, hourAgo);
    const files = readdirSync(docs).length;
    expect((await openSaved()).readFiles).toBe(files);
    const restored = await openSaved();
    expect(restored.how).toBe('restored');
    expect(restored.readFiles).toBe(0);
    // A changed file has a new time: read, hashed, and the only one parsed.
    const file = join(docs, 'components.mdx');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nA closing line about wombats.\n`);
    const updated = await openSaved();
    expect(updated.how).toBe('updated');
    expect(updated.readFiles).toBe(1);
    expect(updated.parsedFiles).toBe(1);
    expect(updated.index.query({ question: 'wombats', limit: 1 }).hits[0]?.section.pagePath).toBe(
      '/components',
    );
  });

  it('parses every file again when a non-page file (the site config) changed', async () => {
    await openSaved();
    writeFileSync(join(docs, 'settings.json'), '{ "name": "Acme" }\n');
    const next = await openSaved();
    expect(next.how).toBe('updated');
    expect(next.changedFiles).toEqual(['0:settings.json']);
    expect(next.parsedFiles).toBe(markdownFiles());
  });

  it('notices removed and added pages', async () => {
    const first = await openSaved();
    rmSync(join(docs, 'nested.mdx'));
    writeFileSync(join(docs, 'new-page.mdx'), '---\ntitle: New page\n---\n\nBrand new words: quokka.\n');
    const next = await openSaved();
    expect(next.changedFiles.sort()).toEqual(['0:nested.mdx', '0:new-page.mdx']);
    expect(next.parsedFiles).toBe(1);
    expect(next.index.pages.map((p) => p.path)).not.toContain('/nested');
    expect(next.index.pages.length).toBe(first.index.pages.length);
    expect(next.index.query({ question: 'quokka', limit: 1 }).hits[0]?.section.pagePath).toBe('/new-page');
  });

  it('discards a corrupt saved file with a warning and rebuilds it', async () => {
    const first = await openSaved();
    const file = savedFile();
    const bytes = readFileSync(file);
    // Cut in the middle of the postings.
    writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length * 0.8)));
    const next = await openSaved();
    expect(next.how).toBe('built');
    expect(warnings.join('\n')).toMatch(/cut short|discarded/);
    expect(results(next.index)).toEqual(results(first.index));
    // Rebuilt and saved whole again.
    warnings = [];
    expect((await openSaved()).how).toBe('restored');
    expect(warnings).toEqual([]);
  });

  it('discards garbage and a file of another format version, naming the version', async () => {
    await openSaved();
    const file = savedFile();
    const bytes = readFileSync(file);
    // The format version follows the 8-byte magic.
    bytes.writeUInt32LE(INDEX_FORMAT_VERSION + 1, 8);
    writeFileSync(file, bytes);
    expect((await openSaved()).how).toBe('built');
    expect(warnings.join('\n')).toContain(`index format ${INDEX_FORMAT_VERSION + 1}`);
    writeFileSync(savedFile(), 'not an index at all');
    warnings = [];
    expect((await openSaved()).how).toBe('built');
    expect(warnings.join('\n')).toContain('not a docs-assistant index file');
  });

  it('keeps the index in <dataDir>/index across service restarts', async () => {
    const builds: IndexBuild['how'][] = [];
    const start = async () => {
      const service = createAssistantService({
        docs,
        domain: 'acme',
        assistantKey: 'svc_dsc_test_assistant',
        dataDir,
        warn: () => {},
        onIndex: (_domain, build) => builds.push(build.how),
      });
      await service.ready();
      return service;
    };
    const first = await start();
    const before = await ask(first, 'How do I set up a custom domain?');
    await first.close();
    const second = await start();
    const after = await ask(second, 'How do I set up a custom domain?');
    await second.close();
    expect(builds).toEqual(['built', 'restored']);
    expect(after.text).toBe(before.text);
    expect(after.text).toContain('Add a CNAME record');
  });
});
