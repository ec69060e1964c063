/**
 * Insights benchmark (issue 38), part of `npm run bench`; alone:
 * `npx tsx bench/insights.ts [--quick] [--no-overhead] [--no-sqlite] [--no-postgres]`.
 *
 * 1. Recording overhead per answer: the same questions answered over HTTP by two services of one
 *    process, insights on and off (SQLite data folders), alternating one answer each so both see
 *    the same machine; the ratio of their median answer times.
 * 2. Each insights API call's latency with 1,000,000 recorded questions (the deterministic traffic
 *    of tests/server/insights-traffic.ts, loaded through the recorder's batch API) on SQLite and
 *    on PostgreSQL (a throwaway local server, fsync on): the median and worst of 5 calls each.
 *
 * Figures go to `bench/results/insights.json`. Wall-clock figures of a shared machine.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  ADMIN_KEY,
  authHeaders,
  body,
  DOMAIN,
  type RunningService,
  startService,
} from '../tests/server/helpers';
import { generateTraffic } from '../tests/server/insights-traffic';
import { startTestPostgres, type TestPostgres } from '../tests/server/storage-postgres';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = join(ROOT, 'bench', 'results', 'insights.json');
const LIMITS = { rateLimits: { perIp: { limit: 1e9 }, perOrganization: { limit: 1e9 } } };
const QUESTIONS = [
  'How do I install the widget?',
  'How do I change the theme colors?',
  'What does the API return?',
  'Kubernetes helm chart values',
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (n: number) => Math.round(n * 100) / 100;

async function answerMs(running: RunningService, question: string, n: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(running.endpoint(), {
    method: 'POST',
    headers: { ...authHeaders(), Origin: 'https://docs.example.com' },
    body: JSON.stringify(body(question, { fp: `bench-${n % 50}` })),
  });
  await response.text();
  return performance.now() - started;
}

/** Median answer time with insights on and off, answers alternating between the two services. */
async function overhead(answers: number) {
  const folders = [mkdtempSync(join(tmpdir(), 'insights-on-')), mkdtempSync(join(tmpdir(), 'insights-off-'))];
  const on = await startService({ ...LIMITS, dataDir: folders[0] });
  const off = await startService({ ...LIMITS, dataDir: folders[1], insights: { enabled: false } });
  try {
    const times = { on: [] as number[], off: [] as number[] };
    // Warm both (index, statements, JIT) before measuring.
    for (let n = 0; n < 20; n++) {
      await answerMs(on, QUESTIONS[n % QUESTIONS.length]!, n);
      await answerMs(off, QUESTIONS[n % QUESTIONS.length]!, n);
    }
    for (let n = 0; n < answers; n++) {
      const question = QUESTIONS[n % QUESTIONS.length]!;
      // Which goes first alternates too, so neither always follows the other's flush.
      const order = n % 2 ? ([on, off] as const) : ([off, on] as const);
      for (const running of order)
        (running === on ? times.on : times.off).push(await answerMs(running, question, n));
    }
    await on.service.insights!.flush();
    const result = { answers, onMedianMs: round(median(times.on)), offMedianMs: round(median(times.off)) };
    return { ...result, ratio: round(median(times.on) / median(times.off)) };
  } finally {
    await Promise.all([on.close(), off.close()]);
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }
}

const CALLS = [
  '/stats',
  '/questions?limit=50',
  '/gaps?limit=50',
  '/search?limit=50',
  '/pages?limit=50',
  '/conversations?limit=50',
  '/conversations?limit=50&uncertain=1',
  '/stats?format=csv',
];

/** Loads `questions` generated questions, then times each API call. */
async function apiLatency(running: RunningService, questions: number) {
  const chunk = 50_000;
  const started = performance.now();
  for (let made = 0; made < questions; made += chunk) {
    const traffic = generateTraffic({
      questions: Math.min(chunk, questions - made),
      days: 30,
      lastDay: '2026-11-30',
      seed: 1000 + made,
      domain: DOMAIN,
    });
    for (let at = 0; at < traffic.events.length; at += 5_000) {
      await running.service.insights!.recordBatch(traffic.events.slice(at, at + 5_000));
    }
    console.log(`bench: insights ${(made + chunk).toLocaleString('en')} questions loaded`);
  }
  const loadSeconds = round((performance.now() - started) / 1000);
  const range = 'from=2026-11-01&to=2026-11-30';
  const calls: Record<string, { medianMs: number; maxMs: number }> = {};
  for (const call of [...CALLS, '/conversations/thr_gen_1000_1']) {
    const times: number[] = [];
    for (let n = 0; n < 5; n++) {
      const t0 = performance.now();
      const response = await fetch(
        `${running.url}/discovery/v1/insights/${DOMAIN}${call}${call.includes('?') ? '&' : '?'}${range}`,
        {
          headers: { Authorization: `Bearer ${ADMIN_KEY}` },
        },
      );
      if (response.status !== 200) throw new Error(`${call}: ${response.status} ${await response.text()}`);
      await response.text();
      times.push(performance.now() - t0);
    }
    calls[call] = { medianMs: round(median(times)), maxMs: round(Math.max(...times)) };
  }
  return { questions, loadSeconds, calls };
}

type Results = {
  at: string;
  quick: boolean;
  recording?: Awaited<ReturnType<typeof overhead>>;
  backends: Record<string, Awaited<ReturnType<typeof apiLatency>>>;
};

/** Adds this run's parts to the results file (parts may run as separate processes). */
async function save(part: Partial<Results>, quick: boolean): Promise<void> {
  let results: Results = { at: new Date().toISOString(), quick, backends: {} };
  if (existsSync(RESULTS)) results = JSON.parse(readFileSync(RESULTS, 'utf8')) as Results;
  results = {
    ...results,
    ...part,
    at: new Date().toISOString(),
    quick,
    backends: { ...results.backends, ...part.backends },
  };
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
}

async function backend(name: 'sqlite' | 'postgres', questions: number, quick: boolean) {
  let postgres: TestPostgres | undefined;
  const folder = mkdtempSync(join(tmpdir(), 'insights-api-'));
  try {
    let databaseUrl: string | undefined;
    if (name === 'postgres') {
      postgres = await startTestPostgres({ durable: true });
      databaseUrl = await postgres.createDatabase('insights_bench');
    }
    const running = await startService({
      ...LIMITS,
      ...(databaseUrl ? { databaseUrl } : { dataDir: folder }),
    });
    const run = await apiLatency(running, questions).finally(() => running.close());
    await save({ backends: { [name]: run } }, quick);
    console.log(`\n${name}: ${run.questions.toLocaleString('en')} questions loaded in ${run.loadSeconds} s`);
    for (const [call, t] of Object.entries(run.calls)) {
      console.log(`  GET ${call}: median ${t.medianMs} ms, max ${t.maxMs} ms`);
    }
  } finally {
    postgres?.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Each part is written to the results file as it finishes, so a run cut short keeps what it measured. */
export async function runInsightsBench(
  options: { quick?: boolean; overhead?: boolean; sqlite?: boolean; postgres?: boolean } = {},
) {
  const quick = !!options.quick;
  if (options.overhead !== false) {
    console.log('bench: insights recording overhead per answer…');
    const recording = await overhead(quick ? 60 : 300);
    console.log(
      `bench: insights on ${recording.onMedianMs} ms, off ${recording.offMedianMs} ms an answer (×${recording.ratio})`,
    );
    await save({ recording }, quick);
  }
  const questions = quick ? 100_000 : 1_000_000;
  if (options.sqlite !== false) await backend('sqlite', questions, quick);
  if (options.postgres !== false) await backend('postgres', questions, quick);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const flag = (name: string) => process.argv.includes(name);
  await runInsightsBench({
    quick: flag('--quick'),
    overhead: !flag('--no-overhead'),
    sqlite: !flag('--no-sqlite'),
    postgres: !flag('--no-postgres'),
  });
}
