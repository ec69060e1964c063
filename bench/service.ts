/**
 * The reference service under load, over synthetic docs corpora of growing size: index build time
 * and heap growth, then time to first byte and to the finish part (`d:`) of answers from the
 * extractive engine, with a fixed number of requests 50 at a time over real HTTP on 127.0.0.1.
 *
 * Each corpus is served by a child process of its own (`--serve`), so its heap is measured alone
 * and the load generator does not share its event loop. Every run is bounded: a fixed number of
 * requests, and a child that exits by itself after `CHILD_LIFETIME_MS` whatever happens.
 *
 * Then the index on its own (`indexBench`), over 1,100- and 10,000-page corpora: the time to index
 * at start, to restore from `--data-dir` when no file changed (and to answer the first question
 * then) and when one did, and to update after a `--watch` change, each in a fresh process right
 * after a baseline process (read every file, one pass over the text) whose time each start is
 * also given as a ratio to; written to `bench/results/index.json` (rendered by `indexSection()` in
 * `bench/results.md`).
 *
 * Run alone: `npx tsx bench/service.ts [--quick]` (`--index-only` for the index figures alone);
 * `npm run bench` runs it too.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { IndexBuild } from '../packages/docs-assistant-server/src/retrieval/persist';
import { docsMarkdown, seeded } from './corpus';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DOMAIN = 'bench';
const KEY = 'svc_dsc_benchbenchbenchbenchbench';
/** Requests in flight at once. */
export const CONCURRENCY = 50;
/** A serving child exits by itself after this long (ms), even if the parent died. */
const CHILD_LIFETIME_MS = 5 * 60_000;
/** Stream tokens of a synthetic page (about 2.5 kB of Markdown, a typical docs page). */
const PAGE_TOKENS = 800;

export interface ServiceRun {
  pages: number;
  sections: number;
  corpusMB: number;
  buildMs: number;
  heapDeltaMB: number;
  requests: number;
  failed: number;
  ttfbMs: { p50: number; p99: number };
  finishMs: { p50: number; p99: number };
  throughputPerSecond: number;
}

// --- child: build the index, report, serve -------------------------------------------------------

async function serveChild(docsDir: string): Promise<void> {
  setTimeout(() => process.exit(0), CHILD_LIFETIME_MS).unref();
  const { serve } = await import('@hono/node-server');
  const { createAssistantService } = await import('../packages/docs-assistant-server/src/service');
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const service = createAssistantService({
    docs: docsDir,
    domain: DOMAIN,
    assistantKey: KEY,
    // Raised for the run: the benchmark measures answering, not the limiter.
    rateLimits: { perOrganization: { limit: 1e9 }, perIp: { limit: 1e9 } },
    warn: () => {},
  });
  const start = performance.now();
  await service.ready();
  const buildMs = performance.now() - start;
  gc?.();
  const heapDeltaMB = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
  const index = await service.index(DOMAIN);
  const server = serve({ fetch: service.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
    const line = { port: info.port, buildMs, heapDeltaMB, sections: index.sections.length };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  });
  // The parent closes stdin when it is done (or dies): stop then.
  process.stdin.resume();
  process.stdin.on('end', () => {
    server.close();
    process.exit(0);
  });
}

// --- parent: corpus, child, load -----------------------------------------------------------------

export async function writeCorpus(dir: string, pages: number): Promise<number> {
  let bytes = 0;
  for (let area = 0; area < Math.ceil(pages / 100); area++) await mkdir(join(dir, `area-${area}`));
  for (let i = 0; i < pages; i++) {
    const body = docsMarkdown(PAGE_TOKENS, 1000 + i).replace(/^# /, `# Page ${i}: `);
    const text = `---\ntitle: Page ${i}\n---\n\n${body}\n`;
    bytes += Buffer.byteLength(text);
    await writeFile(join(dir, `area-${Math.floor(i / 100)}`, `page-${i}.md`), text);
  }
  return bytes;
}

interface ChildInfo {
  port: number;
  buildMs: number;
  heapDeltaMB: number;
  sections: number;
}

function startChild(docsDir: string): Promise<{ child: ChildProcess; info: ChildInfo }> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--serve', docsDir],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      try {
        resolve({ child, info: JSON.parse(line) as ChildInfo });
      } catch (error) {
        reject(new Error(`service bench: the serving child said ${JSON.stringify(line)} (${String(error)})`));
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`service bench: the serving child exited (${code}) before serving`)),
    );
  });
}

const WORDS = [
  'theme',
  'dark mode',
  'install',
  'export bundle',
  'rate limit',
  'api key',
  'thread',
  'filter',
  'language',
];

function question(random: () => number): string {
  const a = WORDS[Math.floor(random() * WORDS.length)]!;
  const b = WORDS[Math.floor(random() * WORDS.length)]!;
  return `How do I configure the ${a} and the ${b} of the widget?`;
}

async function ask(port: number, text: string, id: number): Promise<{ ttfb: number; finish: number }> {
  const start = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}/discovery/v1/assistant/${DOMAIN}/message`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      fp: `bench-${id % 50}`,
      messages: [{ id: `q${id}`, role: 'user', content: text, parts: [{ type: 'text', text }] }],
      retrievalPageSize: 5,
    }),
  });
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let ttfb = -1;
  let tail = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (ttfb < 0) ttfb = performance.now() - start;
    tail = (tail + decoder.decode(value, { stream: true })).slice(-4096);
    // The finish part of the v4 data stream: a line that starts with `d:`.
    if (/(^|\n)d:\{/.test(tail)) {
      const finish = performance.now() - start;
      await reader.cancel().catch(() => {});
      return { ttfb, finish };
    }
  }
  throw new Error('the stream ended without a finish part (d:)');
}

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

async function load(port: number, requests: number) {
  const random = seeded(99);
  const questions = Array.from({ length: requests }, () => question(random));
  // Warm-up (JIT, first-use caches), not counted.
  await Promise.all(questions.slice(0, 5).map((q, i) => ask(port, q, -1 - i)));
  const ttfb: number[] = [];
  const finish: number[] = [];
  let failed = 0;
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    for (let i = next++; i < requests; i = next++) {
      try {
        const timing = await ask(port, questions[i]!, i);
        ttfb.push(timing.ttfb);
        finish.push(timing.finish);
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - start) / 1000;
  return { ttfb, finish, failed, throughput: (requests - failed) / seconds };
}

export async function serviceBench(options: {
  sizes: { pages: number; requests: number }[];
  onRun?: (run: ServiceRun) => void;
}): Promise<ServiceRun[]> {
  const runs: ServiceRun[] = [];
  for (const { pages, requests } of options.sizes) {
    const dir = await mkdtemp(join(tmpdir(), 'docs-assistant-corpus-'));
    let child: ChildProcess | undefined;
    try {
      const bytes = await writeCorpus(dir, pages);
      const started = await startChild(dir);
      child = started.child;
      const result = await load(started.info.port, requests);
      const run: ServiceRun = {
        pages,
        sections: started.info.sections,
        corpusMB: bytes / 1e6,
        buildMs: started.info.buildMs,
        heapDeltaMB: started.info.heapDeltaMB,
        requests,
        failed: result.failed,
        ttfbMs: { p50: percentile(result.ttfb, 50), p99: percentile(result.ttfb, 99) },
        finishMs: { p50: percentile(result.finish, 50), p99: percentile(result.finish, 99) },
        throughputPerSecond: result.throughput,
      };
      runs.push(run);
      options.onRun?.(run);
    } finally {
      child?.stdin?.end();
      child?.kill();
      await rm(dir, { recursive: true, force: true });
    }
  }
  return runs;
}

/** Corpus sizes and how many answers each is asked for. */
export function serviceSizes(quick: boolean) {
  return quick
    ? [
        { pages: 100, requests: 100 },
        { pages: 1_000, requests: 100 },
      ]
    : [
        { pages: 100, requests: 300 },
        { pages: 1_000, requests: 300 },
        { pages: 10_000, requests: 150 },
      ];
}

// --- the index alone: start, restart unchanged, restart after one change ------------------------

export const INDEX_RESULTS = `${ROOT}bench/results/index.json`;
/** Corpora of the index figures (pages): a mid-size site (the issue's 1,100-page one) and a large one. */
const INDEX_SIZES = [1_100, 10_000];

/** One start of the service in a process of its own, as it reports it. */
interface IndexStart {
  how: 'built' | 'restored' | 'updated';
  /** From opening the docs to an index that answers (`IndexBuild.ms`). */
  ms: number;
  /** CPU time of the process over the same span (user + system), for a machine shared with other work. */
  cpuMs: number;
  pages: number;
  sections: number;
  parsedFiles: number;
  /** Files read to hash them (unchanged files keep their hash unread). */
  readFiles: number;
  /** Sections read into the term index (the others restored or taken over unchanged). */
  readSections: number;
  changedFiles: number;
}

/** The same run's yardstick: read every file of the corpus and pass over its text once, in a fresh process. */
interface Baseline {
  ms: number;
  cpuMs: number;
}

/** A restart with `--data-dir`, no file changed, up to its first answer. */
interface FirstAnswer {
  how: IndexStart['how'];
  /** From creating the service to the end of the first answer's stream. */
  ms: number;
  cpuMs: number;
  /** From the process's start (Node and TypeScript loading through tsx included). */
  processMs: number;
}

/** Medians over the rounds, each start beside the ratio to the baseline measured just before it. */
interface Measured<T> {
  median: T;
  /** Median of (start ms / baseline ms), each pair measured one after the other. */
  ratio: number;
}

export interface IndexSize {
  pages: number;
  sections: number;
  corpusMB: number;
  /** Size of the saved index (`<data-dir>/index/*.bin`). */
  savedMB: number;
  baseline: Baseline;
  cold: Measured<IndexStart>;
  coldSaving: Measured<IndexStart>;
  restoredUnchanged: Measured<IndexStart>;
  restoredOneChanged: Measured<IndexStart>;
  watchOneChanged: Measured<IndexStart>;
  firstAnswer: Measured<FirstAnswer>;
  /** The machine's 1-minute load average before each start: lowest and highest (other work on it). */
  load: { min: number; max: number; cores: number };
}

export interface IndexFigures {
  at: string;
  starts: number;
  sizes: IndexSize[];
}

function cpuSince(start: NodeJS.CpuUsage): number {
  const cpu = process.cpuUsage(start);
  return (cpu.user + cpu.system) / 1000;
}

function startReport(build: IndexBuild, cpuMs: number): IndexStart {
  return {
    how: build.how,
    ms: build.ms,
    cpuMs,
    pages: build.index.pages.length,
    sections: build.index.sections.length,
    parsedFiles: build.parsedFiles,
    readFiles: build.readFiles,
    readSections: build.index.readSections,
    changedFiles: build.changedFiles.length,
  };
}

async function indexChild(docsDir: string, dataDir: string | undefined): Promise<void> {
  const { createAssistantService } = await import('../packages/docs-assistant-server/src/service');
  let report: IndexStart | undefined;
  let cpuStart = process.cpuUsage();
  const service = createAssistantService({
    docs: docsDir,
    domain: DOMAIN,
    assistantKey: KEY,
    ...(dataDir ? { dataDir } : {}),
    warn: (message) => process.stderr.write(`${message}\n`),
    onIndex: (_domain, build) => {
      report = startReport(build, cpuSince(cpuStart));
    },
  });
  cpuStart = process.cpuUsage();
  await service.index(DOMAIN);
  // Waits for the index to be saved, so the next start finds it.
  await service.close();
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

/** A `--watch` change: the index is open, one file changes, the index is updated (that update measured). */
async function watchChild(docsDir: string, changedFile: string): Promise<void> {
  const { PersistedDocsIndex } = await import('../packages/docs-assistant-server/src/retrieval/persist');
  const store = new PersistedDocsIndex({ folders: [docsDir], incremental: true, warn: () => {} });
  await store.open();
  await appendFile(changedFile, '\nEdited while watching: one more paragraph about the launcher.\n');
  const cpuStart = process.cpuUsage();
  const build = await store.update();
  process.stdout.write(`${JSON.stringify(startReport(build, cpuSince(cpuStart)))}\n`);
}

/** A restart with `--data-dir`: from creating the service to the end of its first answer. */
async function answerChild(docsDir: string, dataDir: string): Promise<void> {
  const { createAssistantService } = await import('../packages/docs-assistant-server/src/service');
  let how: IndexStart['how'] = 'built';
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const service = createAssistantService({
    docs: docsDir,
    domain: DOMAIN,
    assistantKey: KEY,
    dataDir,
    warn: (message) => process.stderr.write(`${message}\n`),
    onIndex: (_domain, build) => {
      how = build.how;
    },
  });
  const text = 'How do I configure the theme of the widget?';
  const response = await service.fetch(
    new Request(`http://127.0.0.1/discovery/v1/assistant/${DOMAIN}/message`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        fp: 'bench',
        messages: [{ id: 'q1', role: 'user', content: text, parts: [{ type: 'text', text }] }],
      }),
    }),
  );
  const body = await response.text();
  if (!response.ok || !/(^|\n)d:\{/.test(body)) {
    throw new Error(`index bench: the first answer failed (HTTP ${response.status}): ${body.slice(0, 300)}`);
  }
  const answer: FirstAnswer = {
    how,
    ms: performance.now() - start,
    cpuMs: cpuSince(cpuStart),
    processMs: performance.now(),
  };
  await service.close();
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}

/** The yardstick: every file of the folder read as text, and one pass over each text's characters. */
function baselineChild(docsDir: string): void {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  let sum = 0;
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile()) {
        const text = readFileSync(path, 'utf8');
        for (let i = 0; i < text.length; i++) sum = (sum + text.charCodeAt(i)) | 0;
      }
    }
  };
  visit(docsDir);
  const baseline: Baseline & { sum: number } = {
    ms: performance.now() - start,
    cpuMs: cpuSince(cpuStart),
    sum,
  };
  process.stdout.write(`${JSON.stringify(baseline)}\n`);
}

function runChild<T>(args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), ...args],
      { cwd: ROOT, timeout: CHILD_LIFETIME_MS, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`index bench: the child failed (${error.message}): ${stderr}`));
        try {
          resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as T);
        } catch (parseError) {
          reject(new Error(`index bench: the child said ${JSON.stringify(stdout)} (${String(parseError)})`));
        }
      },
    );
  });
}

const medianOf = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The run of median time, and the median of the ratios to the baselines measured just before each. */
function measured<T extends { ms: number }>(runs: Array<{ run: T; baseline: Baseline }>): Measured<T> {
  const byMs = [...runs].sort((a, b) => a.run.ms - b.run.ms);
  return {
    median: byMs[Math.floor((byMs.length - 1) / 2)]!.run,
    ratio: medianOf(runs.map(({ run, baseline }) => run.ms / baseline.ms)),
  };
}

/** One size's figures: each kind of start `starts` times in fresh processes, a baseline before each. */
async function indexSize(pages: number, starts: number, log: (line: string) => void): Promise<IndexSize> {
  const root = await mkdtemp(join(tmpdir(), 'docs-assistant-index-bench-'));
  try {
    const docs = join(root, 'docs');
    await mkdir(docs);
    const bytes = await writeCorpus(docs, pages);
    const changedFile = join(docs, 'area-0', 'page-0.md');
    type Pair<T> = { run: T; baseline: Baseline };
    const runs = {
      cold: [] as Pair<IndexStart>[],
      coldSaving: [] as Pair<IndexStart>[],
      unchanged: [] as Pair<IndexStart>[],
      changed: [] as Pair<IndexStart>[],
      watch: [] as Pair<IndexStart>[],
      answer: [] as Pair<FirstAnswer>[],
    };
    const baselines: Baseline[] = [];
    const loads: number[] = [];
    // Each start right after a baseline of its own: the machine's speed moves within minutes.
    const paired = async <T>(list: Pair<T>[], args: string[]) => {
      loads.push(loadavg()[0]!);
      const baseline = await runChild<Baseline>(['--baseline-child', docs]);
      baselines.push(baseline);
      list.push({ baseline, run: await runChild<T>(args) });
    };
    let savedBytes = 0;
    for (let i = 0; i < starts; i++) {
      const dataDir = join(root, `data-${i}`);
      await paired(runs.cold, ['--index-child', docs]);
      await paired(runs.coldSaving, ['--index-child', docs, dataDir]);
      await paired(runs.unchanged, ['--index-child', docs, dataDir]);
      await paired(runs.answer, ['--answer-child', docs, dataDir]);
      const saved = join(dataDir, 'index');
      for (const file of await readdir(saved)) savedBytes = (await stat(join(saved, file))).size;
      await appendFile(changedFile, `\nEdited for start ${i}: one more paragraph about the launcher.\n`);
      await paired(runs.changed, ['--index-child', docs, dataDir]);
      await paired(runs.watch, ['--watch-child', docs, changedFile]);
      const last = <T>(list: Pair<T>[]) => list.at(-1)!.run as T & { ms: number };
      log(
        `  ${pages} pages, round ${i + 1}: baseline ${ms(baselines.at(-1)!.ms)}, cold ${ms(last(runs.cold).ms)}, cold + save ${ms(last(runs.coldSaving).ms)}, restored ${ms(last(runs.unchanged).ms)}, first answer ${ms(last(runs.answer).ms)}, one file changed ${ms(last(runs.changed).ms)}, watch change ${ms(last(runs.watch).ms)}`,
      );
    }
    const cold = measured(runs.cold);
    return {
      pages: cold.median.pages,
      sections: cold.median.sections,
      corpusMB: bytes / 1e6,
      savedMB: savedBytes / 1e6,
      baseline: { ms: medianOf(baselines.map((b) => b.ms)), cpuMs: medianOf(baselines.map((b) => b.cpuMs)) },
      cold,
      coldSaving: measured(runs.coldSaving),
      restoredUnchanged: measured(runs.unchanged),
      restoredOneChanged: measured(runs.changed),
      watchOneChanged: measured(runs.watch),
      firstAnswer: measured(runs.answer),
      load: { min: Math.min(...loads), max: Math.max(...loads), cores: availableParallelism() },
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** The index figures: every size, each kind of start `starts` times, in fresh processes. */
export async function indexBench(options: {
  starts: number;
  sizes?: number[];
  log?: (line: string) => void;
}) {
  const sizes: IndexSize[] = [];
  for (const pages of options.sizes ?? INDEX_SIZES) {
    sizes.push(await indexSize(pages, options.starts, options.log ?? (() => {})));
  }
  const figures: IndexFigures = { at: new Date().toISOString(), starts: options.starts, sizes };
  return figures;
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;

/** Measures the index figures and records them in `bench/results/index.json`. */
export async function runIndexBench(options: { quick: boolean }): Promise<IndexFigures> {
  console.log(
    `bench: index of ${INDEX_SIZES.map((n) => n.toLocaleString('en-US')).join(' and ')} pages (start, restart, one file changed, first answer)…`,
  );
  const figures = await indexBench({ starts: options.quick ? 1 : 3, log: console.log });
  await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(INDEX_RESULTS, `${JSON.stringify(figures, null, 2)}\n`);
  return figures;
}

/** The issue's goals for the index (issue 37, point 4). */
const GOALS = { coldLargeMs: 3000, coldMidCpuMs: 2000, firstAnswerMidMs: 1000, changedShareOfCold: 0.5 };

const verdict = (met: boolean) => (met ? '**Met**' : '**Missed**');
const n = (value: number) => value.toLocaleString('en-US');

function sizeRows(size: IndexSize): string[] {
  const row = (label: string, start: Measured<IndexStart>) => {
    const m = start.median;
    return `| ${n(size.pages)} | ${label} | ${ms(m.ms)} | ${ms(m.cpuMs)} | ×${start.ratio.toFixed(1)} | ${n(m.readFiles)} | ${n(m.parsedFiles)} | ${n(m.readSections)} |`;
  };
  const answer = size.firstAnswer;
  return [
    `| ${n(size.pages)} | baseline: read every file, one pass over its text | ${ms(size.baseline.ms)} | ${ms(size.baseline.cpuMs)} | ×1 | ${n(size.pages)} | | |`,
    row('no data dir', size.cold),
    row('with --data-dir, first start', size.coldSaving),
    row('restart, no file changed', size.restoredUnchanged),
    `| ${n(size.pages)} | restart, no file changed, to the end of the first answer (${ms(answer.median.processMs)} from the process's start, tsx included) | ${ms(answer.median.ms)} | ${ms(answer.median.cpuMs)} | ×${answer.ratio.toFixed(1)} | | | |`,
    row('restart, one file changed', size.restoredOneChanged),
    row('--watch, one file changed', size.watchOneChanged),
  ];
}

function goalLines(f: IndexFigures): string[] {
  const large = f.sizes.find((size) => size.pages >= 10_000);
  const mid = f.sizes.find((size) => size.pages < 10_000);
  const lines: string[] = [];
  if (large) {
    const cold = large.cold.median;
    lines.push(
      `- ${verdict(cold.ms < GOALS.coldLargeMs)} — ${n(large.pages)} pages indexed at a first start in under ${ms(GOALS.coldLargeMs)}: ${ms(cold.ms)} (${ms(cold.cpuMs)} CPU, ×${large.cold.ratio.toFixed(1)} the baseline).`,
    );
  }
  if (mid) {
    const cold = mid.cold.median;
    const answer = mid.firstAnswer.median;
    lines.push(
      `- ${verdict(cold.cpuMs < GOALS.coldMidCpuMs)} — ${n(mid.pages)} pages indexed at a first start in under ${ms(GOALS.coldMidCpuMs)} of CPU: ${ms(cold.cpuMs)}.`,
      `- ${verdict(answer.how === 'restored' && answer.ms < GOALS.firstAnswerMidMs)} — with \`--data-dir\`, a restart with no file changed answers its first question within ${ms(GOALS.firstAnswerMidMs)} on ${n(mid.pages)} pages: ${ms(answer.ms)} from creating the service (index ${answer.how}), ${ms(answer.processMs)} from the process's start under tsx.`,
    );
  }
  for (const size of f.sizes) {
    const changed = size.restoredOneChanged.median;
    const watch = size.watchOneChanged.median;
    const cold = size.cold.median;
    const incremental =
      changed.parsedFiles === 1 &&
      watch.parsedFiles === 1 &&
      changed.readSections < size.sections / 100 &&
      watch.readSections < size.sections / 100 &&
      // CPU, not time: under the machine's other work a start's time says more about the load.
      changed.cpuMs < cold.cpuMs * GOALS.changedShareOfCold &&
      watch.cpuMs < cold.cpuMs * GOALS.changedShareOfCold;
    lines.push(
      `- ${verdict(incremental)} — one changed file re-indexes incrementally on ${n(size.pages)} pages (1 file parsed, under 1% of the sections read, under half a first start's CPU): restart ${ms(changed.cpuMs)} CPU (${n(changed.readSections)} of ${n(size.sections)} sections read), \`--watch\` ${ms(watch.cpuMs)} CPU (${n(watch.readSections)} read), against ${ms(cold.cpuMs)} CPU for a first start.`,
    );
  }
  return lines;
}

/** The index figures as a section of `bench/results.md` ('' before they are recorded). */
export function indexSection(file = INDEX_RESULTS): string {
  if (!existsSync(file)) return '';
  const f = JSON.parse(readFileSync(file, 'utf8')) as IndexFigures;
  if (!Array.isArray(f.sizes)) return '';
  const corpora = f.sizes
    .map(
      (size) =>
        `${n(size.pages)} pages (${n(size.sections)} sections, ${size.corpusMB.toFixed(1)} MB of Markdown, saved index ${size.savedMB.toFixed(1)} MB)`,
    )
    .join(' and ');
  return `## Index at start and at restart (\`npx tsx bench/service.ts --index-only\`)

Synthetic corpora of ${corpora}. Each start runs in a fresh service process, from opening the docs
folder to an index that answers (reading, hashing with \`--data-dir\`, parsing, the term index); CPU
time of the process over the same span beside it. The machine is shared and its speed moves several
times over within an hour, so right before every start a fresh process reads every file of the
corpus and passes once over its text (the baseline), and each start is also given as the median of
its ratios to the baseline measured just before it. Median of ${f.starts} round${f.starts === 1 ? '' : 's'}. With \`--data-dir\` the
index is saved after it is built and restored at the next start when no file changed; when one did,
only that file is read and parsed again, and only its sections are read into the term index (the
others' postings are taken over; \`tests/server/index-incremental\` holds the result equal to a full
build). "--watch" is an update in a running process after one file changed. Recorded ${f.at}.

Load average (1 minute) before the starts, on ${f.sizes[0]?.load?.cores ?? '?'} cores: ${f.sizes.map((size) => (size.load ? `${size.load.min.toFixed(1)}–${size.load.max.toFixed(1)} (${n(size.pages)} pages)` : 'not recorded')).join(', ')}.

| pages | start | time | CPU | × baseline | files read | files parsed | sections read |
| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |
${f.sizes.flatMap(sizeRows).join('\n')}

${goalLines(f).join('\n')}
`;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain && process.argv[2] === '--serve') {
  await serveChild(process.argv[3]!);
} else if (isMain && process.argv[2] === '--index-child') {
  await indexChild(process.argv[3]!, process.argv[4]);
} else if (isMain && process.argv[2] === '--watch-child') {
  await watchChild(process.argv[3]!, process.argv[4]!);
} else if (isMain && process.argv[2] === '--answer-child') {
  await answerChild(process.argv[3]!, process.argv[4]!);
} else if (isMain && process.argv[2] === '--baseline-child') {
  baselineChild(process.argv[3]!);
} else if (isMain && process.argv.includes('--index-only')) {
  await runIndexBench({ quick: process.argv.includes('--quick') });
  console.log(indexSection());
} else if (isMain) {
  await serviceBench({
    sizes: serviceSizes(process.argv.includes('--quick')),
    onRun: (run) => console.log(JSON.stringify(run)),
  });
  await runIndexBench({ quick: process.argv.includes('--quick') });
  console.log(indexSection());
}
