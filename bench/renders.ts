/**
 * Which React components render while an answer streams, and how long React takes over each: the
 * pages of the streaming benchmark built with React's profiling build (unminified, so components
 * keep their names), one streamed answer per run in a fresh page, a DevTools hook counting what each
 * commit rendered. Per variant and size, the median run's commits and React render time (the
 * roots' `actualDuration`), then per component the renders and the render time of its own (fibers'
 * `selfBaseDuration`; children not included), medians over the runs. React's profiling build is
 * slower than the production build the benchmark measures: read the shares, not the milliseconds.
 *
 *   npx tsx bench/renders.ts [--variants=widget,floor] [--sizes=5000] [--repeat=3] [--rows=20]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../tests/e2e/browser';
import { buildPages, loadAnswer, openBenchPage, serve, VARIANTS, type Variant } from './browser';
import { answerTokens, END_MARK } from './corpus';

/** Installed before the page's scripts: React reports each commit to it, as to React DevTools. */
function installRenderCounter(): void {
  interface Fiber {
    type: unknown;
    flags: number;
    child: Fiber | null;
    sibling: Fiber | null;
    actualDuration?: number;
    selfBaseDuration?: number;
  }
  const PERFORMED_WORK = 1;
  const counts: Record<string, number> = {};
  const times: Record<string, number> = {};
  const totals = { commits: 0, renderMs: 0 };
  let previous = new Set<Fiber>();
  const nameOf = (fiber: Fiber): string | null => {
    const { type } = fiber;
    if (typeof type === 'string') return '(host elements)';
    if (typeof type === 'function') {
      const named = type as { displayName?: string; name?: string };
      return named.displayName || named.name || '(anonymous)';
    }
    if (type && typeof type === 'object') {
      // memo() and forwardRef() wrap the function that renders.
      const inner =
        (type as { type?: unknown; render?: unknown }).type ?? (type as { render?: unknown }).render;
      if (typeof inner === 'function') {
        const named = inner as { displayName?: string; name?: string };
        return `${named.displayName || named.name || '(anonymous)'} (memo)`;
      }
    }
    return null;
  };
  const hook = {
    supportsFiber: true,
    renderers: new Map(),
    inject: () => 1,
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    onCommitFiberRoot(_id: number, root: { current: Fiber }) {
      totals.commits += 1;
      totals.renderMs += root.current.actualDuration ?? 0;
      // A fiber object not in the last commit's tree was worked on in this one.
      const seen = new Set<Fiber>();
      const stack: Fiber[] = [root.current];
      while (stack.length > 0) {
        const fiber = stack.pop()!;
        seen.add(fiber);
        if (!previous.has(fiber)) {
          const name = nameOf(fiber);
          if (name && (typeof fiber.type === 'string' || fiber.flags & PERFORMED_WORK)) {
            counts[name] = (counts[name] ?? 0) + 1;
            times[name] = (times[name] ?? 0) + (fiber.selfBaseDuration ?? 0);
          }
        }
        if (fiber.child) stack.push(fiber.child);
        if (fiber.sibling) stack.push(fiber.sibling);
      }
      previous = seen;
    },
  };
  const reset = () => {
    for (const key of Object.keys(counts)) delete counts[key];
    for (const key of Object.keys(times)) delete times[key];
    totals.commits = 0;
    totals.renderMs = 0;
  };
  Object.assign(window, {
    __REACT_DEVTOOLS_GLOBAL_HOOK__: hook,
    __renders: { reset, read: () => ({ counts: { ...counts }, times: { ...times }, ...totals }) },
  });
}

export interface RendersRun {
  variant: Variant;
  tokens: number;
  finished: boolean;
  frames: number;
  commits: number;
  /** React's render time, all commits (profiling build). */
  renderMs: number;
  /** Per component: renders, and render time of its own (ms). */
  components: Record<string, { renders: number; ms: number }>;
}

interface RenderCounter {
  reset(): void;
  read(): {
    counts: Record<string, number>;
    times: Record<string, number>;
    commits: number;
    renderMs: number;
  };
}

async function runOnce(
  browser: Browser,
  origin: string,
  variant: Variant,
  tokens: number,
): Promise<RendersRun> {
  const { context, page } = await openBenchPage(
    browser,
    `${origin}/${variant}.html`,
    variant,
    async (page) => {
      // tsx keeps function names with a helper the page does not have.
      await page.addInitScript({ content: 'globalThis.__name = (fn) => fn;' });
      await page.addInitScript(installRenderCounter);
    },
  );
  try {
    await loadAnswer(page, answerTokens(tokens));
    await page.evaluate(() => (window as unknown as { __renders: RenderCounter }).__renders.reset());
    const result = await page.evaluate((input) => window.__bench!.run(input), {
      capMs: 60_000,
      endMark: END_MARK,
    });
    const read = await page.evaluate(() =>
      (window as unknown as { __renders: RenderCounter }).__renders.read(),
    );
    const components = Object.fromEntries(
      Object.entries(read.counts).map(([name, renders]) => [name, { renders, ms: read.times[name] ?? 0 }]),
    );
    return {
      variant,
      tokens,
      finished: result.finished,
      frames: result.frames,
      commits: read.commits,
      renderMs: read.renderMs,
      components,
    };
  } finally {
    await context.close();
  }
}

/** Runs each variant `repeat` times per size, the variants taking turns. */
export async function rendersBench({
  sizes,
  variants,
  repeat,
}: {
  sizes: number[];
  variants: readonly Variant[];
  repeat: number;
}): Promise<RendersRun[]> {
  const out = await mkdtemp(join(tmpdir(), 'docs-assistant-renders-'));
  let browser: Browser | undefined;
  let served: Awaited<ReturnType<typeof serve>> | undefined;
  try {
    await buildPages(out, { variants, reactProfiling: true });
    served = await serve(out);
    browser = await launchChromium();
    const runs: RendersRun[] = [];
    for (const size of sizes)
      for (let round = 0; round < repeat; round++)
        for (const variant of variants) runs.push(await runOnce(browser, served.origin, variant, size));
    return runs;
  } finally {
    await browser?.close();
    const server = served?.server;
    if (server) await new Promise((resolve) => server.close(resolve));
    await rm(out, { recursive: true, force: true });
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)]!;
};

/** The table `bench/renders.ts` prints for one variant and size. */
export function rendersTable(runs: RendersRun[], rows: number): string {
  const { variant, tokens } = runs[0]!;
  const byRender = [...runs].sort((a, b) => a.renderMs - b.renderMs);
  const middle = byRender[Math.floor((byRender.length - 1) / 2)]!;
  const names = new Set(runs.flatMap((run) => Object.keys(run.components)));
  const components = [...names]
    .map((name) => ({
      name,
      renders: median(runs.map((run) => run.components[name]?.renders ?? 0)),
      ms: median(runs.map((run) => run.components[name]?.ms ?? 0)),
    }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, rows);
  const lines = [
    `${variant}, ${tokens.toLocaleString('en-US')} tokens, ${runs.length} run(s)` +
      `${runs.every((run) => run.finished) ? '' : ' (some cut)'}: median run ${middle.frames} frames, ` +
      `${middle.commits} commits, React render ${middle.renderMs.toFixed(1)} ms`,
    '| component | renders | own render time |',
    '| --- | ---: | ---: |',
    ...components.map((row) => `| ${row.name} | ${row.renders} | ${row.ms.toFixed(1)} ms |`),
  ];
  return lines.join('\n');
}

function arg(name: string): string | undefined {
  return process.argv.find((value) => value.startsWith(`--${name}=`))?.slice(name.length + 3);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const variants = (arg('variants')?.split(',') ?? ['widget', 'floor']) as Variant[];
  const unknown = variants.filter((variant) => !VARIANTS.includes(variant));
  const sizes = (arg('sizes') ?? '5000').split(',').map(Number);
  const repeat = Number(arg('repeat') ?? 3);
  const rows = Number(arg('rows') ?? 20);
  const whole = (value: number) => Number.isInteger(value) && value >= 1;
  if (unknown.length > 0 || !sizes.every(whole) || !whole(repeat) || !whole(rows)) {
    throw new Error(
      `renders: --variants takes ${VARIANTS.join(', ')}; --sizes, --repeat and --rows whole numbers (got ${process.argv.slice(2).join(' ')}), e.g. --variants=widget,floor --sizes=5000 --repeat=3`,
    );
  }
  const runs = await rendersBench({ sizes, variants, repeat });
  for (const size of sizes)
    for (const variant of variants) {
      console.log(
        `\n${rendersTable(
          runs.filter((run) => run.tokens === size && run.variant === variant),
          rows,
        )}`,
      );
    }
}
