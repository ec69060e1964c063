/**
 * Index build and query time of the service's retrieval (MiniSearch) on this repo's `docs/` and on
 * a synthetic corpus of 1,000 pages. Run: `npx tsx bench/retrieval-libraries.ts`. Writes
 * `bench/results/retrieval.json`. Bounded: a fixed number of runs, no servers.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type DocPage, DocsIndex, loadDocs, parseDocument } from '../server/retrieval';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const QUERIES = [
  'How do I change the theme colors?',
  'How do I enable dark mode?',
  'What happens when I exceed the rate limit?',
  'How do I export the docs as a static bundle?',
  'Which props does the widget accept?',
  'How do I bake sourdough bread?',
];
// Timed runs per measurement; the median is reported.
const BUILD_RUNS = 5;
const QUERY_ROUNDS = 20;

const WORDS = (
  'widget panel theme color dark mode launcher keyboard focus token bearer key admin assistant ' +
  'export bundle job status progress page section heading anchor search index retrieval answer ' +
  'stream thread follow-up question context selection code snippet install configure deploy helm ' +
  'chart version language filter limit hour day request organization domain error retry header'
).split(' ');

/** A deterministic pseudo-random corpus: same pages every run. */
function syntheticPages(count: number): DocPage[] {
  let seed = 42;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  // Real docs have a long tail of rare words: a few thousand pseudo-words, drawn with a skew
  // (squared uniform) so the domain words stay common, as they are in a product's docs.
  const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'shi', 'po', 'ven', 'dor', 'al', 'ex', 'qui', 'zo'];
  const tail = Array.from({ length: 3000 }, (_, i) => {
    let w = '';
    for (let n = i + 1; n > 0; n = Math.floor(n / syllables.length)) w += syllables[n % syllables.length];
    return w;
  });
  const vocabulary = [...WORDS, ...tail];
  const word = () => vocabulary[Math.floor(next() ** 2 * vocabulary.length)]!;
  const sentence = () => {
    const words = Array.from({ length: 8 + Math.floor(next() * 12) }, word).join(' ');
    return `${words[0]!.toUpperCase()}${words.slice(1)}.`;
  };
  const pages: DocPage[] = [];
  for (let i = 0; i < count; i++) {
    const sections = Array.from({ length: 3 + Math.floor(next() * 4) }, (_, s) => {
      const paragraphs = Array.from({ length: 2 + Math.floor(next() * 3) }, () =>
        Array.from({ length: 3 + Math.floor(next() * 4) }, sentence).join(' '),
      );
      return `## ${word()} ${word()} ${s}\n\n${paragraphs.join('\n\n')}\n`;
    });
    pages.push(
      parseDocument(
        `area-${i % 20}/page-${i}.md`,
        `# Page ${i} ${word()}\n\n${sentence()}\n\n${sections.join('\n')}`,
      ),
    );
  }
  return pages;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function measure(name: string, pages: DocPage[]) {
  const builds: number[] = [];
  let index: DocsIndex | undefined;
  for (let run = 0; run < BUILD_RUNS; run++) {
    const start = performance.now();
    index = new DocsIndex(pages);
    builds.push(performance.now() - start);
  }
  const queries: number[] = [];
  for (let round = 0; round < QUERY_ROUNDS; round++) {
    for (const question of QUERIES) {
      const start = performance.now();
      index!.query({ question, history: ['How do I enable dark mode?'], limit: 5 });
      queries.push(performance.now() - start);
    }
  }
  const result = {
    corpus: name,
    pages: pages.length,
    sections: index!.sections.length,
    buildMsMedian: Number(median(builds).toFixed(2)),
    queryMsMedian: Number(median(queries).toFixed(3)),
    queryMsP95: Number([...queries].sort((a, b) => a - b)[Math.floor(queries.length * 0.95)]!.toFixed(3)),
  };
  console.log(JSON.stringify(result));
  return result;
}

const repoDocs = await loadDocs([`${ROOT}docs`], { warn: () => {} }).catch(() => []);
const results = [measure('repo docs/', repoDocs), measure('synthetic 1,000 pages', syntheticPages(1000))];
await mkdir(`${ROOT}bench/results`, { recursive: true });
await writeFile(
  `${ROOT}bench/results/retrieval.json`,
  `${JSON.stringify({ library: 'minisearch@7.2.0', node: process.version, at: new Date().toISOString(), results }, null, 2)}\n`,
);
