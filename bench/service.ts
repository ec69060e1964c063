/**
 * The reference service under load, over synthetic docs corpora of growing size: index build time
 * and heap growth, then time to first byte and to the finish part (`d:`) of answers from the
 * extractive engine, with a fixed number of requests 50 at a time over real HTTP on 127.0.0.1.
 *
 * Each corpus is served by a child process of its own (`--serve`), so its heap is measured alone
 * and the load generator does not share its event loop. Every run is bounded: a fixed number of
 * requests, and a child that exits by itself after `CHILD_LIFETIME_MS` whatever happens.
 *
 * Run alone: `npx tsx bench/service.ts [--quick]`; `npm run bench` runs it too.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
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

async function writeCorpus(dir: string, pages: number): Promise<number> {
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

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain && process.argv[2] === '--serve') {
  await serveChild(process.argv[3]!);
} else if (isMain) {
  await serviceBench({
    sizes: serviceSizes(process.argv.includes('--quick')),
    onRun: (run) => console.log(JSON.stringify(run)),
  });
}
