/**
 * Incremental indexing (`TermIndex.update`, `DocsIndex` built over the index it replaces,
 * `retrieval/persist.ts`): when files change, only their sections are read into the term index,
 * and the result is the index a full build of the changed docs gives, bit for bit: the same flat
 * postings, the same hits and the same scores (compared exactly, not rounded).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { docsMarkdown, seeded } from '../../bench/corpus';
import {
  type IndexBuild,
  PersistedDocsIndex,
} from '../../packages/docs-assistant-server/src/retrieval/persist';
import {
  type DocsIndex,
  processTerm,
  type RetrievalQuery,
  TERM_MATCHING,
  tokenize,
} from '../../packages/docs-assistant-server/src/retrieval/search-index';
import { TermIndex } from '../../packages/docs-assistant-server/src/retrieval/term-index';

const REPO_DOCS = fileURLToPath(new URL('../../docs', import.meta.url));
const GENERATED = 40;

const QUERIES: Omit<RetrievalQuery, 'limit'>[] = [
  { question: 'How do I change the theme colors in dark mode?' },
  { question: 'configure the launcher keyboard shortcut' },
  { question: 'retreival page sise' },
  { question: 'export bundle job status', filter: { language: 'en' } },
  { question: 'and the rate limit?', history: ['How do I create an api key?'] },
  { question: 'zanzibar release notes' },
  { question: 'quokkaonly' },
  { question: 'widget install', currentPath: '/generated/page-3' },
];

let root: string;
let docs: string;
let dataDir: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'docs-assistant-incremental-'));
  docs = join(root, 'docs');
  dataDir = join(root, 'data');
  cpSync(REPO_DOCS, docs, { recursive: true });
  mkdirSync(join(docs, 'generated'));
  for (let i = 0; i < GENERATED; i++) {
    const body = docsMarkdown(300, 500 + i).replace(/^# /, `# Generated ${i}: `);
    writeFileSync(join(docs, 'generated', `page-${i}.md`), `---\ntitle: Generated ${i}\n---\n\n${body}\n`);
  }
  // A word no other page has: it leaves the index with the page.
  writeFileSync(join(docs, 'generated', 'lonely.md'), '# Lonely\n\nOnly this page says quokkaonly.\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Every hit of every query with its exact score, and the term index's flat arrays. */
function fingerprint(index: DocsIndex) {
  return {
    sections: index.sections.map((section) => section.id),
    hits: QUERIES.map((query) =>
      index.query({ ...query, limit: 50 }).hits.map((hit) => [hit.section.id, hit.score, hit.questionTerms]),
    ),
    snapshot: index.snapshot(),
  };
}

/** The index of the docs as they are now, built from nothing (no data folder, nothing kept). */
async function fullBuild(): Promise<DocsIndex> {
  return (await new PersistedDocsIndex({ folders: [docs], warn: () => {} }).open()).index;
}

async function openSaved(): Promise<IndexBuild> {
  const store = new PersistedDocsIndex({ folders: [docs], dataDir, warn: () => {} });
  const build = await store.open();
  await store.saved();
  return build;
}

/** Edits a page (a new word, a heading gone), removes the lonely page and adds one. */
function changeDocs() {
  const themed = join(docs, 'theming.md');
  const text = readFileSync(themed, 'utf8');
  const heading = text.match(/^## .+$/m)?.[0];
  if (!heading) throw new Error('theming.md has no second-level heading to remove');
  writeFileSync(
    themed,
    `${text.replace(heading, '')}\n\n## Zanzibar release\n\nThe zanzibar release notes.\n`,
  );
  rmSync(join(docs, 'generated', 'lonely.md'));
  writeFileSync(join(docs, 'generated', 'added.md'), '# Added\n\nA new page about the launcher shortcut.\n');
}

describe('incremental indexing equals a full build', () => {
  it('at a restart with --data-dir after pages were edited, removed and added', async () => {
    const first = await openSaved();
    expect(first.how).toBe('built');
    changeDocs();
    const next = await openSaved();
    expect(next.how).toBe('updated');
    expect(next.parsedFiles).toBe(2);
    // Only the edited and the added pages' sections were read into the term index.
    const changedSections = next.index.sections.filter(
      (section) => section.pagePath.endsWith('/theming') || section.pagePath.endsWith('/added'),
    ).length;
    expect(next.index.readSections).toBe(changedSections);
    expect(next.index.readSections).toBeLessThan(next.index.sections.length / 10);
    const full = await fullBuild();
    expect(full.readSections).toBe(full.sections.length);
    expect(fingerprint(next.index)).toEqual(fingerprint(full));
    // The removed page's only word is gone from the index, the new one is in it.
    expect(next.index.query({ question: 'quokkaonly', limit: 5 }).hits).toEqual([]);
    expect(next.index.query({ question: 'zanzibar', limit: 1 }).hits[0]?.section.pagePath).toMatch(
      /theming$/,
    );
    // And the start after that restores the updated index as saved.
    const restored = await openSaved();
    expect(restored.how).toBe('restored');
    expect(fingerprint(restored.index)).toEqual(fingerprint(full));
  });

  it('while watching: an update after one file changed reads only that page', async () => {
    const store = new PersistedDocsIndex({ folders: [docs], incremental: true, warn: () => {} });
    await store.open();
    const file = join(docs, 'generated', 'page-7.md');
    writeFileSync(
      file,
      `${readFileSync(file, 'utf8')}\n## Zanzibar release\n\nZanzibar release notes here.\n`,
    );
    const updated = await store.update();
    expect(updated.parsedFiles).toBe(1);
    const pageSections = updated.index.sections.filter((s) => s.pagePath.endsWith('/page-7')).length;
    expect(updated.index.readSections).toBe(pageSections);
    expect(fingerprint(updated.index)).toEqual(fingerprint(await fullBuild()));
  });
});

describe('TermIndex.update', () => {
  const random = seeded(3);
  const words = 'widget theme themes theming color colour install configure config key keys zebra'.split(' ');
  const text = (n: number) =>
    Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(' ');
  const documents = Array.from({ length: 120 }, (_, i) => [
    text(3),
    text(20 + (i % 30)),
    i % 4 ? '' : `${text(2)}Key`,
  ]);
  // Only document 0 has this word, and it is removed below: the term must leave the index.
  documents[0]![1] += ' vanishingword';
  const options = { tokenize, processTerm };
  const queries = [
    'vanishingword',
    'configure the widget theme',
    'colr instal',
    'keys key',
    'themeing',
    'zebra',
    'unique words',
  ];
  const scores = (index: TermIndex) =>
    queries.map((query) => {
      const result = index.score(query, { fieldBoost: [1.5, 1, 0.6], matching: TERM_MATCHING });
      return [[...result.scores], result.matched.map((doc) => result.termsOf(doc))];
    });

  it('with the kept documents reordered, new terms and terms that vanish, equals a build', () => {
    const before = new TermIndex(documents, options);
    // Every third document goes, the rest are kept in reverse, two new documents join in the middle.
    const kept = documents
      .map((_, d) => d)
      .filter((d) => d % 3 !== 0)
      .reverse();
    const added = [
      ['unique words here', 'nothing else', ''],
      ['zebra', 'unique', 'aNewKey'],
    ];
    const changed = [...kept.slice(0, 10), ...added, ...kept.slice(10)];
    const updated = before.update(changed);
    const built = new TermIndex(
      changed.map((d) => (typeof d === 'number' ? documents[d]! : d)),
      options,
    );
    expect(updated.readDocuments).toBe(2);
    expect(before.snapshot().terms).toContain('vanishingword');
    expect(updated.snapshot().terms).not.toContain('vanishingword');
    expect(updated.snapshot()).toEqual(built.snapshot());
    expect(scores(updated)).toEqual(scores(built));
  });

  it('with the kept documents in their order (merged term by term), equals a build', () => {
    const before = new TermIndex(documents, options);
    const kept = documents.map((_, d) => d).filter((d) => d % 5 !== 0);
    const added = [
      ['unique words here', 'nothing else', ''],
      ['zebra', 'unique', 'aNewKey'],
      ['theme', 'themes and colours', ''],
    ];
    // New documents first, in the middle and last; document 0 (the only 'vanishingword') is gone.
    const changed = [added[0]!, ...kept.slice(0, 30), added[1]!, ...kept.slice(30), added[2]!];
    const updated = before.update(changed);
    const built = new TermIndex(
      changed.map((d) => (typeof d === 'number' ? documents[d]! : d)),
      options,
    );
    expect(updated.readDocuments).toBe(3);
    expect(updated.snapshot().terms).not.toContain('vanishingword');
    expect(updated.snapshot()).toEqual(built.snapshot());
    expect(scores(updated)).toEqual(scores(built));
    // Unchanged documents only: the same index.
    expect(before.update(documents.map((_, d) => d)).snapshot()).toEqual(before.snapshot());
  });

  it('refuses a document number twice or out of range', () => {
    const before = new TermIndex(documents, options);
    expect(() => before.update([1, 1])).toThrow(/not one of the earlier index, once/);
    expect(() => before.update([documents.length])).toThrow(/not one of the earlier index, once/);
  });
});
