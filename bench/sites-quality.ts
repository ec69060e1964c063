/**
 * Retrieval on the docs-site fixtures (`tests/fixtures/sites/`, issue 17): per corpus, hit@1 and
 * hit@5 of the real service over HTTP next to plain BM25 (minisearch defaults over every Markdown
 * file), the questions whose sources or suggested pages leave the question's language, and the
 * same counts for the service as it was before site-aware loading (every file indexed at its file
 * path, no language scoping). `measureSites()` runs it; `sitesSection()` renders the recorded JSON
 * for `bench/results.md`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocsIndex, parseDocument } from '../packages/docs-assistant-server/src/retrieval';
import {
  CORPORA,
  type Corpus,
  type CorpusFigures,
  corpusDir,
  figures,
  runCorpus,
  siteQuestions,
} from '../tests/server/sites-corpora';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SITES_RESULTS = `${ROOT}bench/results/sites-quality.json`;

export interface SitesQuality {
  at: string;
  k: number;
  corpora: Array<
    CorpusFigures & {
      /** The service before site-aware loading, on the same questions. */
      before: { hitAt1: number; hitAt5: number; englishMixed: number; mixed: number; notPublished: number };
    }
  >;
}

/** Language of a file by the layouts of the fixtures: `fr/…`, `i18n/fr/…`, `….fr.md`. */
function fileLanguage(file: string): string {
  const match = /(?:^|\/)(?:i18n\/)?(fr|es|zh)\/|\.(fr|es|zh)\.mdx?$/.exec(file);
  return match?.[1] ?? match?.[2] ?? 'en';
}

/** The old loader: every `.md`/`.mdx` outside dot-folders and node_modules, at its file path. */
async function before(corpus: Corpus, published: Set<string>) {
  const root = corpusDir(corpus);
  const files: string[] = [];
  const walk = async (dir: string, prefix: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      if (entry.isDirectory()) await walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      else if (/\.mdx?$/i.test(entry.name)) files.push(`${prefix}${entry.name}`);
    }
  };
  await walk(root, '');
  const pages = await Promise.all(
    files.sort().map(async (file) => parseDocument(file, await readFile(join(root, file), 'utf8'))),
  );
  const fileOf = new Map(pages.map((page) => [page.path, page.file]));
  const index = new DocsIndex(pages);
  let hitAt1 = 0;
  let hitAt5 = 0;
  let englishMixed = 0;
  let mixed = 0;
  let notPublished = 0;
  for (const q of siteQuestions(corpus)) {
    const found = [
      ...new Set(index.query({ question: q.question, limit: 15 }).hits.map((h) => h.section.pagePath)),
    ];
    const top = found.slice(0, 5);
    const rank = top.findIndex((path) => fileOf.get(path) === q.file) + 1;
    if (rank === 1) hitAt1++;
    if (rank > 0) hitAt5++;
    const crosses = top.some((path) => fileLanguage(fileOf.get(path) ?? '') !== q.language);
    if (crosses) mixed++;
    if (crosses && q.language === 'en') englishMixed++;
    if (top.some((path) => !published.has(path))) notPublished++;
  }
  return { hitAt1, hitAt5, englishMixed, mixed, notPublished };
}

export async function measureSites(): Promise<SitesQuality> {
  const corpora: SitesQuality['corpora'] = [];
  for (const corpus of CORPORA) {
    const run = await runCorpus(corpus);
    const published = new Set(run.pages.map((page) => page.path));
    corpora.push({ ...figures(run), before: await before(corpus, published) });
  }
  return { at: new Date().toISOString(), k: 5, corpora };
}

/** Measures and records the figures (`npm run bench` runs it; `sitesSection()` renders them). */
export async function runSitesBench(): Promise<SitesQuality> {
  const result = await measureSites();
  await mkdir(dirname(SITES_RESULTS), { recursive: true });
  await writeFile(SITES_RESULTS, `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

/** The section of `bench/results.md`; empty when no run has been recorded. */
export function sitesSection(file = SITES_RESULTS): string {
  if (!existsSync(file)) return '';
  const data = JSON.parse(readFileSync(file, 'utf8')) as SitesQuality;
  const rows = data.corpora.map(
    (c) =>
      `| ${c.corpus} | ${c.pages} | ${c.questions} | ${c.hitAt1} / ${c.hitAt5} | ${c.bm25HitAt1} / ${c.bm25HitAt5} | ${c.englishMixed} (${c.mixed}) | ${c.before.hitAt1} / ${c.before.hitAt5} | ${c.before.englishMixed} (${c.before.mixed}) | ${c.before.notPublished} |`,
  );
  return `## Retrieval on docs sites (\`npx tsx bench/retrieval-quality.ts --sites\`)

The fixtures of \`tests/fixtures/sites/\` (one per docs framework layout: Mintlify \`docs.json\`,
Docusaurus, VitePress, MkDocs with the i18n plugin, Starlight, a plain folder; each with French and Spanish
translations, repository files, a hidden page, and versions where the framework has them), each
with 10 English, 2 French and 2 Spanish questions and the page that answers them. The service is
asked over HTTP (5 sources); plain BM25 is minisearch with its defaults over every Markdown file of
the folder. "Mixed" counts questions with a source or suggested page in another language than the
question's (English questions, then all in brackets). "Before" is the service as it was before
site-aware loading: every file indexed at its file path, no language scoping; "not published"
counts its questions with a source whose URL the site does not publish. Recorded ${data.at}.

| corpus | pages | questions | hit@1 / hit@5 | BM25 hit@1 / hit@5 | mixed | before: hit@1 / hit@5 | before: mixed | before: not published |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
}
