/**
 * Retrieval quality on this repo's `docs/`: the hand-written questions of
 * `tests/server/fixtures/retrieval-questions.json` through the service's own index, as the
 * assistant endpoint searches (no thread, no current page, 5 results). Prints hit@1 and hit@5,
 * for all questions and for the held-out ones, and every question whose page was not first.
 *
 * Run: `npx tsx bench/retrieval-quality.ts` (add `--json` to print the report as JSON). Records
 * the report in `bench/results/retrieval-quality.json`. With `--sites`, measures the docs-site
 * fixtures instead (`bench/sites-quality.ts`) into `bench/results/sites-quality.json`, which
 * `npm run bench` renders into `bench/results.md`.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  DocsIndex,
  type EvalQuestion,
  type EvalReport,
  evaluateRetrieval,
  loadDocs,
} from '../packages/docs-assistant-server/src/retrieval';
import { runSitesBench, sitesSection } from './sites-quality';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const QUESTIONS = `${ROOT}tests/server/fixtures/retrieval-questions.json`;
// Results per question, as the widget's default retrievalPageSize.
const K = 5;

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

function summary(label: string, report: EvalReport): string {
  const hits1 = report.outcomes.filter((o) => o.rank === 1).length;
  const hitsK = report.outcomes.filter((o) => o.rank > 0).length;
  return `${label.padEnd(10)} hit@1 ${percent(report.hitAt1)} (${hits1}/${report.count})  hit@${report.k} ${percent(report.hitAtK)} (${hitsK}/${report.count})`;
}

async function main(): Promise<void> {
  const { questions } = JSON.parse(await readFile(QUESTIONS, 'utf8')) as { questions: EvalQuestion[] };
  const index = new DocsIndex(await loadDocs([`${ROOT}docs`], { warn: () => {} }));
  const all = evaluateRetrieval(index, questions, K);
  const tuned = evaluateRetrieval(
    index,
    questions.filter((q) => !q.heldOut),
    K,
  );
  const heldOut = evaluateRetrieval(
    index,
    questions.filter((q) => q.heldOut),
    K,
  );
  const record = {
    k: K,
    all: { count: all.count, hitAt1: all.hitAt1, hitAtK: all.hitAtK },
    tuned: { count: tuned.count, hitAt1: tuned.hitAt1, hitAtK: tuned.hitAtK },
    heldOut: { count: heldOut.count, hitAt1: heldOut.hitAt1, hitAtK: heldOut.hitAtK },
    notFirst: all.outcomes.filter((o) => o.rank !== 1),
  };
  await mkdir(`${ROOT}bench/results`, { recursive: true });
  await writeFile(`${ROOT}bench/results/retrieval-quality.json`, `${JSON.stringify(record, null, 2)}\n`);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(record, null, 2));
    return;
  }
  console.log(`Retrieval quality over ${index.pages.length} pages (${index.sections.length} sections)\n`);
  console.log(summary('all', all));
  console.log(summary('tuned', tuned));
  console.log(summary('held out', heldOut));
  const notFirst = all.outcomes.filter((o) => o.rank !== 1);
  if (notFirst.length) {
    console.log(`\nNot first (rank 0 = missed in the top ${K}):`);
    for (const o of notFirst) {
      console.log(
        `  rank ${o.rank}${o.heldOut ? ' (held out)' : ''}  "${o.question}"\n    expected ${o.pages.join(' or ')}; got ${o.found.join(', ') || 'nothing'}`,
      );
    }
  }
}

async function sites(): Promise<void> {
  await runSitesBench();
  console.log(sitesSection());
}

await (process.argv.includes('--sites') ? sites() : main());
