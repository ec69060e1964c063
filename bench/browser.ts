/**
 * The streaming benchmark: the widget, the naive integration and the plain-text floor, each
 * bundled by Vite in production mode, stream the same answers in headless Chromium. Per run:
 * main-thread time (CDP `Performance.getMetrics`: script and whole tasks), the longest task (a CDP
 * trace of the renderer's main thread), frames dropped (requestAnimationFrame gaps) and, during the
 * longest answer, in runs of their own, key press → paint delays of real key presses in the composer.
 */
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { build } from 'vite';
import { launchChromium } from '../tests/e2e/browser';
import { answerTokens, END_MARK } from './corpus';
import type { RunResult } from './pages/harness';
import { mainThreads, TASK_EVENT, traceEvents } from './trace';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PAGES = join(ROOT, 'bench', 'pages');

export const VARIANTS = ['widget', 'naive', 'floor'] as const;
export type Variant = (typeof VARIANTS)[number];

export interface StreamRun {
  variant: Variant;
  tokens: number;
  /**
   * A run with key presses in the composer, for the key → paint delays only: typing is work of its
   * own, so the runs whose main-thread time is reported are the ones without it.
   */
  typing: boolean;
  finished: boolean;
  tokensSent: number;
  elapsedMs: number;
  /** Main-thread JavaScript (CDP ScriptDuration). */
  scriptMs: number;
  /** Main-thread busy time: script, style, layout, paint (CDP TaskDuration). */
  taskMs: number;
  longestTaskMs: number;
  tasksOver50: number;
  frames: number;
  droppedFrames: number;
  keyDelaysMs: number[];
  /**
   * CPU time the hypervisor gave to other machines during the run (Linux's `steal` in /proc/stat,
   * all cores), when the machine reports it: a run with much of it was slowed from outside.
   */
  stealMs?: number;
  /** The copy of `src/` the widget page was built from (`StreamBenchOptions.compare`), if not the shipped widget. */
  source?: string;
}

/**
 * The widget's library build (`packages/docs-assistant/vite.config.ts`), what `npm run build` puts
 * in the package's `dist/`, into `outDir`.
 */
async function buildLibrary(outDir: string): Promise<void> {
  const widget = join(ROOT, 'packages/docs-assistant');
  await build({
    root: widget,
    configFile: join(widget, 'vite.config.ts'),
    logLevel: 'warn',
    mode: 'production',
    build: { outDir, emptyOutDir: true, sourcemap: false },
  });
}

const pageHtml = (script: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${script}</title></head>` +
  `<body><div id="root"></div><script type="module" src="../${script}.tsx"></script></body></html>`;

interface Alias {
  find: RegExp;
  replacement: string;
}

/** Where `docs-assistant` and its styles resolve from: a library build or a copy of `src/`. */
const aliasTo = (entry: string, styles: string): Alias[] => [
  { find: /^docs-assistant\/styles\.css$/, replacement: styles },
  { find: /^docs-assistant$/, replacement: entry },
];

/**
 * Builds pages (production mode, minified unless `unminified`) into `outDir`: `pages` maps each HTML
 * file's name to the page script it loads (`widget`, `naive`, `floor` in `bench/pages`).
 */
async function buildHtmlPages(
  outDir: string,
  pages: Record<string, Variant>,
  alias: Alias[],
  unminified = false,
): Promise<void> {
  const staging = await mkdtemp(join(PAGES, '.html-'));
  try {
    for (const [name, script] of Object.entries(pages))
      await writeFile(join(staging, `${name}.html`), pageHtml(script));
    await build({
      root: staging,
      // Relative asset URLs: a compared source's pages are served from a folder of their own.
      base: './',
      configFile: false,
      mode: 'production',
      logLevel: 'warn',
      plugins: [react()],
      resolve: { alias },
      build: {
        outDir,
        emptyOutDir: true,
        // Unminified only for reading a CPU profile (BENCH_PROFILE) or a trace with function names
        // (BENCH_UNMINIFIED); measured runs are minified.
        minify: !unminified && !process.env.BENCH_PROFILE && !process.env.BENCH_UNMINIFIED,
        sourcemap: false,
        rolldownOptions: {
          input: Object.fromEntries(Object.keys(pages).map((name) => [name, join(staging, `${name}.html`)])),
        },
      },
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Production JSX in the library too (under Vitest NODE_ENV is `test`, and the React plugin would emit the development runtime's calls, which production React lacks). */
async function inProduction<T>(work: () => Promise<T>): Promise<T> {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await work();
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/**
 * Builds the pages of `variants` (all three by default) into `outDir`. The widget page imports the
 * library build, as a host app does, unless BENCH_SRC names a copy of `src/` (a patch under study).
 * `reactProfiling`: with React's profiling build, unminified, for `bench/renders.ts` (React times
 * each component's renders there; it is slower than the production build, so never for measured runs).
 */
export async function buildPages(
  outDir: string,
  {
    variants = VARIANTS,
    reactProfiling = false,
  }: { variants?: readonly Variant[]; reactProfiling?: boolean } = {},
): Promise<void> {
  await inProduction(async () => {
    const src = process.env.BENCH_SRC;
    // Inside the repository, so its imports resolve from the workspace's node_modules.
    const library = await mkdtemp(join(PAGES, '.lib-'));
    try {
      if (!src) await buildLibrary(library);
      const alias = src
        ? aliasTo(join(src, 'index.ts'), join(src, 'styles/docs-assistant.css'))
        : aliasTo(join(library, 'index.js'), join(library, 'docs-assistant.css'));
      if (reactProfiling) alias.push({ find: /^react-dom\/client$/, replacement: 'react-dom/profiling' });
      const pages = Object.fromEntries(variants.map((v) => [v, v]));
      await buildHtmlPages(outDir, pages, alias, reactProfiling);
    } finally {
      await rm(library, { recursive: true, force: true });
    }
  });
}

/** The widget page built from a copy of `src/` (`bench/.src-<name>`), into `outDir`. */
export async function buildWidgetFrom(outDir: string, src: string): Promise<void> {
  await inProduction(() =>
    buildHtmlPages(
      outDir,
      { widget: 'widget' },
      aliasTo(join(src, 'index.ts'), join(src, 'styles/docs-assistant.css')),
    ),
  );
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
};

/** Serves the built pages on 127.0.0.1 (a random free port). */
export function serve(dir: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    const file = join(dir, path);
    if (!file.startsWith(dir)) {
      response.writeHead(403).end();
      return;
    }
    const stream = createReadStream(file);
    stream.on('error', () => response.writeHead(404).end());
    stream.on('open', () => {
      response.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
      stream.pipe(response);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ server, origin: `http://127.0.0.1:${port}` });
    });
  });
}

/** The longest task on a renderer main thread, and how many took over 50 ms, from a CDP trace. */
function longTasksFromTrace(trace: Buffer): { longest: number; over50: number } {
  const events = traceEvents(trace.toString('utf8'));
  const main = mainThreads(events);
  let longest = 0;
  let over50 = 0;
  for (const event of events) {
    if (event.ph !== 'X' || event.name !== TASK_EVENT) continue;
    if (!main.has(`${event.pid}:${event.tid}`)) continue;
    const ms = (event.dur ?? 0) / 1000;
    longest = Math.max(longest, ms);
    if (ms > 50) over50++;
  }
  return { longest, over50 };
}

/** Cumulative main-thread metrics of the page (CDP `Performance.getMetrics`), in seconds. */
async function metrics(session: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = await session.send('Performance.getMetrics');
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

/** Presses keys in the composer every `everyMs` until `done` settles. */
async function typeWhile(page: Page, selector: string, done: Promise<unknown>, everyMs: number) {
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  await page.locator(selector).focus();
  const letters = 'how do i change the theme ';
  for (let i = 0; !finished && i < 400; i++) {
    await page.keyboard.press(letters[i % letters.length] === ' ' ? 'Space' : letters[i % letters.length]!);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Pause between key presses while typing during the longest answer (ms): a fast typist. */
const KEY_INTERVAL_MS = 40;

export const COMPOSER: Record<Variant, string> = {
  widget: '[data-docs-assistant="input"]',
  naive: 'textarea',
  floor: 'textarea',
};

/** Linux's cumulative steal time of all cores (ms), or undefined where /proc/stat is not there. */
function stealMs(): number | undefined {
  try {
    const ticks = Number(readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/)[8]);
    // USER_HZ is 100 on Linux.
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

export interface RunOptions {
  capMs: number;
  typing: boolean;
  /** The page's path under the origin. @default `/${variant}.html` */
  path?: string;
  /**
   * Streams a 1,000-token answer first, unmeasured: the measured answer then runs on warm code
   * (compiled, its chunks loaded), which tells what an answer costs per frame from what the first
   * answer of a page costs once.
   */
  warm?: boolean;
  /** One token every this many ms instead of as fast as the page takes them (`--pace`). */
  paceMs?: number;
}

/**
 * Opens a variant's page in a fresh context, ready for an answer: its harness installed and, for the
 * widget, the panel's lazy chunk loaded. `setUp` runs before the page's own scripts.
 */
export async function openBenchPage(
  browser: Browser,
  url: string,
  variant: Variant,
  setUp?: (page: Page) => Promise<void>,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    page.on('pageerror', (error) => console.error(`[${variant}] page error: ${error.message}`));
    await setUp?.(page);
    await page.goto(url);
    await page.waitForFunction(() => window.__benchReady === true, undefined, { timeout: 10_000 });
    // Let the page settle (lazy panel chunk, fonts) before measuring.
    if (variant === 'widget') await page.locator(COMPOSER.widget).waitFor();
    return { context, page };
  } catch (error) {
    await context.close();
    throw error;
  }
}

/** Hands the page its answer (`BenchPage.load`) and lets it settle before anything is measured. */
export async function loadAnswer(page: Page, tokens: string[]): Promise<void> {
  await page.evaluate((answer) => window.__bench!.load(answer), tokens);
  await page.waitForTimeout(200);
}

export async function runOne(
  browser: Browser,
  origin: string,
  variant: Variant,
  tokens: string[],
  options: RunOptions,
): Promise<StreamRun> {
  const { context, page } = await openBenchPage(
    browser,
    `${origin}${options.path ?? `/${variant}.html`}`,
    variant,
  );
  try {
    if (options.warm) {
      await loadAnswer(page, answerTokens(1_000));
      await page.evaluate((input) => window.__bench!.run(input), { capMs: options.capMs, endMark: END_MARK });
    }
    // The answer goes to the page before anything is measured (see `BenchPage.load`).
    await loadAnswer(page, tokens);

    const session = await context.newCDPSession(page);
    await session.send('Performance.enable');
    if (process.env.BENCH_PROFILE) {
      await session.send('Profiler.enable');
      // 100 µs instead of the default 1 ms: short runs have few samples otherwise.
      await session.send('Profiler.setSamplingInterval', { interval: 100 });
      await session.send('Profiler.start');
    }
    const stealBefore = stealMs();
    const before = await metrics(session);
    // BENCH_TRACE=<dir>: the run's timeline trace is written there too, with the categories
    // DevTools records (script, style, layout, messages), for `bench/trace-summary.ts`.
    await browser.startTracing(page, {
      categories: process.env.BENCH_TRACE
        ? ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink']
        : ['toplevel'],
    });
    const run = page.evaluate((input) => window.__bench!.run(input), {
      capMs: options.capMs,
      endMark: END_MARK,
      paceMs: options.paceMs,
    });
    if (options.typing) await typeWhile(page, COMPOSER[variant], run, KEY_INTERVAL_MS);
    const result: RunResult = await run;
    const trace = await browser.stopTracing();
    const after = await metrics(session);
    const stealAfter = stealMs();
    if (process.env.BENCH_PROFILE) {
      const { profile } = await session.send('Profiler.stop');
      await mkdir(process.env.BENCH_PROFILE, { recursive: true });
      await writeFile(
        join(
          process.env.BENCH_PROFILE,
          `${variant}${options.path ? `-${options.path.split('/')[1]}` : ''}-${tokens.length}${options.typing ? '-typing' : ''}-${Date.now()}.cpuprofile`,
        ),
        JSON.stringify(profile),
      );
    }
    if (process.env.BENCH_TRACE) {
      await mkdir(process.env.BENCH_TRACE, { recursive: true });
      await writeFile(
        join(process.env.BENCH_TRACE, `${variant}-${tokens.length}${options.typing ? '-typing' : ''}.json`),
        trace,
      );
    }
    const { longest, over50 } = longTasksFromTrace(trace);
    return {
      variant,
      tokens: tokens.length,
      typing: options.typing,
      finished: result.finished,
      tokensSent: result.tokensSent,
      elapsedMs: result.elapsedMs,
      scriptMs: ((after.ScriptDuration ?? 0) - (before.ScriptDuration ?? 0)) * 1000,
      taskMs: ((after.TaskDuration ?? 0) - (before.TaskDuration ?? 0)) * 1000,
      longestTaskMs: longest,
      tasksOver50: over50,
      frames: result.frames,
      droppedFrames: result.droppedFrames,
      keyDelaysMs: result.keyDelaysMs,
      stealMs: stealBefore === undefined || stealAfter === undefined ? undefined : stealAfter - stealBefore,
    };
  } finally {
    await context.close();
  }
}

export interface StreamBenchOptions {
  sizes: number[];
  /** A run that has not finished streaming by then is cut (ms). */
  capMs: number;
  /** @default every variant */
  variants?: readonly Variant[];
  /**
   * Measured runs per variant and size (default 1). Runs alternate between the variants, so a
   * noisy spell on the shared machine hits all of them rather than one.
   */
  repeat?: Partial<Record<Variant, number>>;
  /** The typing runs during the largest answer are cut after this long (ms). @default capMs */
  typingCapMs?: number;
  /**
   * Copies of `src/` to measure beside the shipped widget, by name (`bench/.src-<name>`): each is a
   * widget page of its own, run right after the shipped widget in every round, so a change and what
   * it changes are measured minutes apart on the same machine, not in runs of their own (this
   * machine's speed moved fourfold within an hour on 2026-12-02). No typing runs for them.
   */
  compare?: readonly string[];
  /** Every measured answer runs on warm code (see `RunOptions.warm`). */
  warm?: boolean;
  /** Every measured and typing answer (not the warm-up) streams one token every this many ms (see `RunOptions.paceMs`). */
  paceMs?: number;
  /**
   * A folder `buildPages` filled (every variant): served as it is instead of building the pages
   * again, for several runs on one build (tests/bench/). `compare`'s pages are built into it.
   */
  pages?: string;
  onRun?: (run: StreamRun) => void;
}

/** The copy of `src/` that `compare` names. */
export const compareSource = (name: string) => join(ROOT, 'bench', `.src-${name}`);

/**
 * Builds the pages, starts Chromium, runs every variant at every size (`repeat` times each,
 * interleaved), then as many typing runs per variant during the largest answer.
 */
export async function streamBench({
  sizes,
  capMs,
  variants = VARIANTS,
  repeat = {},
  typingCapMs = capMs,
  compare = [],
  warm = false,
  paceMs,
  pages,
  onRun,
}: StreamBenchOptions): Promise<StreamRun[]> {
  const out = pages ?? (await mkdtemp(join(tmpdir(), 'docs-assistant-bench-')));
  if (process.env.BENCH_KEEP) console.log('pages in', out);
  let server: Server | undefined;
  let browser: Browser | undefined;
  try {
    for (const name of compare) {
      if (!existsSync(join(compareSource(name), 'index.ts')))
        throw new Error(
          `bench: compare "${name}": no copy of src/ at bench/.src-${name} (cp -r packages/docs-assistant/src bench/.src-${name})`,
        );
    }
    if (!pages) await buildPages(out);
    for (const name of compare) await buildWidgetFrom(join(out, name), compareSource(name));
    const served = await serve(out);
    server = served.server;
    browser = await launchChromium();
    const runs: StreamRun[] = [];
    const record = (run: StreamRun) => {
      runs.push(run);
      onRun?.(run);
    };
    const rounds = Math.max(...variants.map((variant) => repeat[variant] ?? 1));
    for (const size of sizes) {
      const tokens = answerTokens(size);
      for (let round = 0; round < rounds; round++) {
        for (const variant of variants) {
          if (round >= (repeat[variant] ?? 1)) continue;
          record(
            await runOne(browser, served.origin, variant, tokens, { capMs, typing: false, warm, paceMs }),
          );
          if (variant !== 'widget') continue;
          for (const name of compare) {
            const path = `/${name}/widget.html`;
            const run = await runOne(browser, served.origin, variant, tokens, {
              capMs,
              typing: false,
              warm,
              paceMs,
              path,
            });
            record({ ...run, source: name });
          }
        }
      }
    }
    // Typing runs, as many as the measured runs and taking turns the same way.
    const tokens = answerTokens(Math.max(...sizes));
    for (let round = 0; round < rounds; round++) {
      for (const variant of variants) {
        if (round >= (repeat[variant] ?? 1)) continue;
        record(
          await runOne(browser, served.origin, variant, tokens, { capMs: typingCapMs, typing: true, paceMs }),
        );
      }
    }
    return runs;
  } finally {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    if (!process.env.BENCH_KEEP && !pages) await rm(out, { recursive: true, force: true });
  }
}
