/**
 * Insights benchmark (issue 38), part of `npm run bench`; alone:
 * `npx tsx bench/insights.ts [--quick] [--rounds N] [--no-overhead] [--no-sqlite] [--no-postgres]`.
 *
 * 1. Recording overhead per answer, and whether it is measurable at all: three services, each in a
 *    process of its own (so a process pays for its own recording, batch writes included), one with
 *    insights on and two with insights off, answer the same questions over HTTP one after another,
 *    the order of the three rotating each round. The ratio of medians on/off A is set beside the
 *    ratio off B/off A of the same run (an A/A comparison: what two identical services differ by on
 *    this machine), each with a bootstrap 95% interval over the rounds. The difference is
 *    measurable only where the on/off interval leaves out 1 and does not overlap the A/A interval.
 * 2. Each insights API call's latency with 1,000,000 recorded questions (the deterministic traffic
 *    of tests/server/insights-traffic.ts, loaded through the recorder's batch API) on SQLite and
 *    on PostgreSQL (a throwaway local server, fsync on): the median and worst of 5 calls each.
 *
 * Figures go to `bench/results/insights.json`. Wall-clock figures of a shared machine.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
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
const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

async function answerMs(url: string, question: string, n: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/discovery/v1/assistant/${DOMAIN}/message`, {
    method: 'POST',
    headers: { ...authHeaders(), Origin: 'https://docs.example.com' },
    body: JSON.stringify(body(question, { fp: `bench-${n % 50}` })),
  });
  if (response.status !== 200) throw new Error(`answer: ${response.status} ${await response.text()}`);
  await response.text();
  return performance.now() - started;
}

/**
 * `--serve on|off`: this file as one of the overhead part's services. It prints its URL, and
 * when its stdin ends it writes what insights still queue, stops and removes its data folder.
 */
async function serveForBench(insights: boolean): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), `insights-${insights ? 'on' : 'off'}-`));
  const running = await startService({
    ...LIMITS,
    dataDir: folder,
    ...(insights ? {} : { insights: { enabled: false } }),
  });
  process.stdout.write(`${JSON.stringify({ url: running.url })}\n`);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.once('end', resolve));
  await running.service.insights?.flush();
  await running.close();
  rmSync(folder, { recursive: true, force: true });
}

interface BenchProcess {
  url: string;
  stop: () => Promise<void>;
}

/** Starts `--serve on|off` in a child process (the same loader flags as this process: tsx). */
async function spawnService(mode: 'on' | 'off'): Promise<BenchProcess> {
  const child = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--serve', mode],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bench service (${mode}) exited with ${code}`)));
  });
  const { url } = JSON.parse(line) as { url: string };
  return {
    url,
    stop: async () => {
      child.stdin!.end();
      await exited;
    },
  };
}

/** A seeded generator (mulberry32), so the bootstrap's intervals are the same for the same times. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The ratio of medians `a`/`b` over the same rounds, with its bootstrap 95% interval: rounds drawn
 * again with replacement (a round keeps its pair of answers, which shared the machine's moment).
 */
function ratioWithInterval(a: number[], b: number[], resamples = 2_000) {
  const random = seeded(38);
  const ratios: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < a.length; i++) {
      const pick = Math.floor(random() * a.length);
      xs.push(a[pick]!);
      ys.push(b[pick]!);
    }
    ratios.push(median(xs) / median(ys));
  }
  ratios.sort((x, y) => x - y);
  return {
    ratio: round4(median(a) / median(b)),
    low: round4(ratios[Math.floor(resamples * 0.025)]!),
    high: round4(ratios[Math.floor(resamples * 0.975)]!),
  };
}

const ORDERS = [
  [0, 1, 2],
  [1, 2, 0],
  [2, 0, 1],
  [0, 2, 1],
  [2, 1, 0],
  [1, 0, 2],
] as const;

/** Answer times of three services (on, off A, off B), one answer each per round, order rotating. */
async function overhead(rounds: number) {
  const services = [await spawnService('on'), await spawnService('off'), await spawnService('off')];
  try {
    const times: [number[], number[], number[]] = [[], [], []];
    // Warm all three (index, statements, JIT) before measuring.
    for (let n = 0; n < 30; n++) {
      for (const service of services) await answerMs(service.url, QUESTIONS[n % QUESTIONS.length]!, n);
    }
    for (let n = 0; n < rounds; n++) {
      const question = QUESTIONS[n % QUESTIONS.length]!;
      // Each service answers first, second and third as often, so none always follows another.
      for (const which of ORDERS[n % ORDERS.length]!) {
        times[which].push(await answerMs(services[which]!.url, question, n));
      }
    }
    const [on, offA, offB] = times;
    const onOff = ratioWithInterval(on, offA);
    const aa = ratioWithInterval(offB, offA);
    const measurable = (onOff.low > 1 || onOff.high < 1) && (onOff.low > aa.high || onOff.high < aa.low);
    return {
      rounds,
      medianMs: { on: round(median(on)), offA: round(median(offA)), offB: round(median(offB)) },
      onOverOffA: onOff,
      offBOverOffA: aa,
      measurable,
    };
  } finally {
    await Promise.all(services.map((service) => service.stop()));
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
  options: {
    quick?: boolean;
    overhead?: boolean;
    sqlite?: boolean;
    postgres?: boolean;
    rounds?: number;
  } = {},
) {
  const quick = !!options.quick;
  if (options.overhead !== false) {
    console.log('bench: insights recording overhead per answer (on vs off, and off vs off)…');
    const recording = await overhead(options.rounds ?? (quick ? 90 : 400));
    const { medianMs: m, onOverOffA: r, offBOverOffA: aa } = recording;
    console.log(
      `bench: insights on ${m.on} ms, off A ${m.offA} ms, off B ${m.offB} ms an answer (median); ` +
        `on/off A ×${r.ratio} [${r.low}, ${r.high}], A/A ×${aa.ratio} [${aa.low}, ${aa.high}]: ` +
        `${recording.measurable ? 'measurable' : 'not measurable'}`,
    );
    await save({ recording }, quick);
  }
  const questions = quick ? 100_000 : 1_000_000;
  if (options.sqlite !== false) await backend('sqlite', questions, quick);
  if (options.postgres !== false) await backend('postgres', questions, quick);
}

const serveMode = process.argv[process.argv.indexOf('--serve') + 1];
if (process.argv.includes('--serve')) {
  await serveForBench(serveMode === 'on');
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const flag = (name: string) => process.argv.includes(name);
  await runInsightsBench({
    quick: flag('--quick'),
    overhead: !flag('--no-overhead'),
    sqlite: !flag('--no-sqlite'),
    postgres: !flag('--no-postgres'),
    ...(flag('--rounds') ? { rounds: Number(process.argv[process.argv.indexOf('--rounds') + 1]) } : {}),
  });
}
