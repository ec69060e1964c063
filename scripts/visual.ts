/**
 * Visual regression of every Storybook story: serves the BUILT Storybook (`storybook-static/`,
 * which `npm test` builds just before) on 127.0.0.1, opens each story's frame in Debian's
 * Chromium, waits for its play function to reach the state, and compares a screenshot with the
 * committed baseline in tests/visual/baselines/ (tests/visual/compare.ts says how). A picture that
 * changed fails the run, and the baseline, the new picture and their difference (changed pixels in
 * red) are written to tests/.artifacts/visual/ for review. Once the change is the intended one:
 *
 *   npm run visual:accept          accept every picture as drawn now (baselines and the README's
 *                                  screenshots in docs/images/, which are copies of baselines)
 *   npm run visual [-- <filter>]   compare (only the stories whose id contains <filter>)
 *
 * Determinism: Debian's Chromium with an sRGB colour profile and no font hinting, the DejaVu fonts
 * (scripts/visual-fonts.ts installs them) pinned as every family the widget and the stories name,
 * no animations, transitions or caret, answers replayed at 1 ms a line (`?pacing=1`), and a picture
 * taken only once two in a row, a frame apart, are the same.
 */
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../tests/e2e/browser';
import { compareImages } from '../tests/visual/compare';
import { README_IMAGES, type Shot, type StoryInfo, shotsFor } from '../tests/visual/shots';
import { ensureFonts } from './visual-fonts';

const ROOT = resolve(import.meta.dirname, '..');
export const BASELINES = join(ROOT, 'tests/visual/baselines');
const README_IMAGES_DIR = join(ROOT, 'docs/images');
const REPORT = join(ROOT, 'tests/.artifacts/visual');

/**
 * Pictures not yet reviewed as stable, with why: their differences are printed but do not fail the
 * run. Each is a defect to fix (the widget or the story), then to take out of this list; nothing
 * else may be added to it without a reason a reviewer can check.
 */
export const UNSTABLE_SHOTS: Record<string, string> = {};

/** Chromium flags that make pixels the same from run to run and machine to machine. */
const DETERMINISTIC_ARGS = ['--force-color-profile=srgb', '--font-render-hinting=none', '--hide-scrollbars'];
/** Longest wait for a story's play function (in ms); answers replay at 1 ms a line. */
const PLAY_TIMEOUT_MS = 30_000;
/** Stories photographed side by side (each in a browser context of its own). */
const STORIES_AT_ONCE = 3;
/**
 * How long a story may take to come to rest after its play function (in ms): pictures are taken
 * two frames and 50 ms apart until two in a row agree. On a busy machine a replayed answer can
 * still be arriving when the play function has seen the words it waits for, so this is a time,
 * not a count of frames.
 */
const SETTLE_MS = 15_000;

/** Every font family the widget, the stories and the static export panel name, drawn in DejaVu. */
const FAMILIES: Record<string, string> = {
  '-apple-system': 'DejaVu Sans',
  'Segoe UI': 'DejaVu Sans',
  Roboto: 'DejaVu Sans',
  Inter: 'DejaVu Sans',
  Arial: 'DejaVu Sans',
  Helvetica: 'DejaVu Sans',
  'Helvetica Neue': 'DejaVu Sans',
  Georgia: 'DejaVu Serif',
  'Times New Roman': 'DejaVu Serif',
  'SFMono-Regular': 'DejaVu Sans Mono',
  Menlo: 'DejaVu Sans Mono',
  Consolas: 'DejaVu Sans Mono',
  Monaco: 'DejaVu Sans Mono',
  'Courier New': 'DejaVu Sans Mono',
};

const faces = Object.entries(FAMILIES)
  .flatMap(([family, font]) => [
    `@font-face { font-family: "${family}"; src: local("${font}"); font-weight: 400; }`,
    `@font-face { font-family: "${family}"; src: local("${font} Bold"); font-weight: 700; }`,
  ])
  .join('\n');

/**
 * Added to every story frame. The generic families (`system-ui`, `ui-monospace`) cannot be
 * redefined, so the widget's font variables name DejaVu outright, at the lowest specificity (a
 * theme's own class or inline style still wins).
 */
const PIN_CSS = `${faces}
:where(:root, [data-docs-assistant="root"]) {
  --da-font: "DejaVu Sans", sans-serif;
  --da-font-mono: "DejaVu Sans Mono", monospace;
}
body { font-family: "DejaVu Sans", sans-serif; }
*, *::before, *::after {
  animation: none !important;
  transition: none !important;
  caret-color: transparent !important;
}`;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Serves the built Storybook on 127.0.0.1; the browser keeps its files between stories. */
async function serveStatic(dir: string) {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = normalize(join(dir, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(dir + sep) || !(await stat(file).catch(() => null))?.isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Cache-Control': 'max-age=3600',
    });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

type Preview = {
  currentRender?: { phase?: string };
  initializationPromise: Promise<void>;
  extract(): Promise<
    Record<
      string,
      {
        title: string;
        name: string;
        parameters?: { layout?: string };
        globals?: { viewport?: { value?: string } };
        storyGlobals?: { viewport?: { value?: string } };
      }
    >
  >;
};

/** The stories of the build, with the parameters that decide how each is photographed. */
async function listStories(browser: Browser, url: string, storybook: string): Promise<StoryInfo[]> {
  const index = JSON.parse(await readFile(join(storybook, 'index.json'), 'utf8')) as {
    entries: Record<string, { id: string; type: string }>;
  };
  const first = Object.values(index.entries).find((entry) => entry.type === 'story');
  if (!first) throw new Error(`${storybook}/index.json lists no story.`);
  const page = await browser.newPage();
  try {
    await page.goto(`${url}/iframe.html?id=${first.id}&viewMode=story`);
    await page.waitForFunction(
      () => (window as unknown as { __STORYBOOK_PREVIEW__?: Preview }).__STORYBOOK_PREVIEW__,
    );
    const stories = await page.evaluate(async () => {
      const preview = (window as unknown as { __STORYBOOK_PREVIEW__: Preview }).__STORYBOOK_PREVIEW__;
      await preview.initializationPromise;
      // The story index may still be loading once initialised: extract() throws until it is.
      let extracted: Awaited<ReturnType<Preview['extract']>> | undefined;
      for (let tries = 0; !extracted; tries++) {
        try {
          extracted = await preview.extract();
        } catch (error) {
          if (tries >= 100) throw error;
          await new Promise((done) => setTimeout(done, 100));
        }
      }
      return Object.entries(extracted).map(([id, story]) => ({
        id,
        title: story.title,
        name: story.name,
        layout: story.parameters?.layout,
        viewport: story.storyGlobals?.viewport?.value ?? story.globals?.viewport?.value,
      }));
    });
    return stories.sort((a, b) => a.id.localeCompare(b.id));
  } finally {
    await page.close();
  }
}

/** Waits until the story's play function has finished; returns how it ended. */
async function played(page: Page): Promise<string> {
  const handle = await page.waitForFunction(
    () => {
      const phase = (window as unknown as { __STORYBOOK_PREVIEW__?: Preview }).__STORYBOOK_PREVIEW__
        ?.currentRender?.phase;
      return phase === 'completed' || phase === 'finished' || phase === 'errored' || phase === 'aborted'
        ? phase
        : false;
    },
    undefined,
    { timeout: PLAY_TIMEOUT_MS, polling: 50 },
  );
  return String(await handle.jsonValue());
}

/**
 * A story taller than its viewport is photographed beyond it: Chromium grows the viewport for the
 * picture and shrinks it back (two resizes) and the page's scroll is clamped and restored, so what
 * is placed by the viewport (the code block's fixed "Ask AI", moved on each scroll and resize) can
 * be drawn where it stood before or after, picture by picture. The viewport grows to hold the
 * whole story once instead, before the first picture, so no picture resizes or scrolls the page.
 */
async function holdWholeStory(page: Page, shot: Shot) {
  const bottom = await page.evaluate(() => {
    const root = document.querySelector('#storybook-root');
    return root ? root.getBoundingClientRect().bottom + scrollY : 0;
  });
  if (bottom <= shot.height) return;
  await page.setViewportSize({ width: shot.width, height: Math.ceil(bottom) });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** One picture of a shot, once two in a row agree. */
async function photograph(browser: Browser, url: string, shot: Shot): Promise<Buffer> {
  const context = await browser.newContext({
    viewport: { width: shot.width, height: shot.height },
    deviceScaleFactor: 1,
    reducedMotion: 'reduce',
    colorScheme: 'light',
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.addInitScript((css) => {
      const add = () => {
        const style = document.createElement('style');
        style.textContent = css;
        document.head.append(style);
      };
      if (document.head) add();
      else document.addEventListener('DOMContentLoaded', add, { once: true });
    }, PIN_CSS);
    const args = shot.args ? `&args=${shot.args}` : '';
    await page.goto(`${url}/iframe.html?id=${shot.storyId}&viewMode=story&pacing=1${args}`);
    const phase = await played(page);
    if (phase !== 'completed' && phase !== 'finished') {
      throw new Error(`its play function ended ${phase}${errors.length ? `: ${errors.join('; ')}` : ''}`);
    }
    await page.evaluate(() => document.fonts.ready);
    if (shot.clip === 'root') await holdWholeStory(page, shot);
    // A story that renders nothing (the widget hidden where it is unavailable) is the empty page.
    const root = page.locator('#storybook-root');
    const rootBox = shot.clip === 'root' ? await root.boundingBox() : null;
    const take = () =>
      rootBox && rootBox.width * rootBox.height > 0 ? root.screenshot() : page.screenshot();
    const settleBy = Date.now() + SETTLE_MS;
    let last = await take();
    let takes = 1;
    while (Date.now() < settleBy) {
      await page.evaluate(
        () =>
          new Promise((done) =>
            requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50))),
          ),
      );
      const next = await take();
      takes++;
      if (next.equals(last)) return next;
      last = next;
    }
    throw new Error(`it never settled: ${takes} pictures over ${SETTLE_MS / 1000} s all differ`);
  } finally {
    await context.close();
  }
}

/** Runs `run` on every item, `size` at a time; outcomes in the items' order. */
async function inPool<T, R>(items: T[], size: number, run: (item: T) => Promise<R>) {
  const outcomes: PromiseSettledResult<R>[] = [];
  let next = 0;
  const worker = async () => {
    for (let at = next++; at < items.length; at = next++) {
      outcomes[at] = await run(items[at]!).then(
        (value) => ({ status: 'fulfilled', value }) as const,
        (reason: unknown) => ({ status: 'rejected', reason }) as const,
      );
    }
  };
  await Promise.all(Array.from({ length: size }, worker));
  return outcomes;
}

export interface VisualOptions {
  accept: boolean;
  filter?: string;
  storybook?: string;
}

export async function runVisual({
  accept,
  filter,
  storybook = join(ROOT, 'storybook-static'),
}: VisualOptions) {
  ensureFonts();
  if (!(await stat(join(storybook, 'index.json')).catch(() => null))) {
    throw new Error(`${storybook}/index.json is missing: build the stories first (npm run build-storybook).`);
  }
  const server = await serveStatic(storybook);
  const browser = await launchChromium(DETERMINISTIC_ARGS);
  const failures: string[] = [];
  const changed: string[] = [];
  const started = Date.now();
  let shots: Shot[] = [];
  try {
    const all = shotsFor(await listStories(browser, server.url, storybook));
    shots = filter ? all.filter((shot) => shot.name.includes(filter)) : all;
    if (shots.length === 0) throw new Error(`No story matches "${filter}".`);
    await rm(REPORT, { recursive: true, force: true });
    await mkdir(BASELINES, { recursive: true });
    const taken = await inPool(shots, STORIES_AT_ONCE, (shot) => photograph(browser, server.url, shot));
    for (const [at, shot] of shots.entries()) {
      const outcome = taken[at]!;
      const unstable = UNSTABLE_SHOTS[shot.name];
      if (outcome.status === 'rejected') {
        if (unstable) console.warn(`${shot.name}: ${(outcome.reason as Error).message} (known: ${unstable})`);
        else failures.push(`${shot.name}: ${(outcome.reason as Error).message}`);
        continue;
      }
      const picture = outcome.value;
      const baselinePath = join(BASELINES, `${shot.name}.png`);
      if (accept) {
        await writeFile(baselinePath, picture);
        continue;
      }
      const baseline = await readFile(baselinePath).catch(() => null);
      const result = baseline ? compareImages(baseline, picture) : undefined;
      if (result?.same) continue;
      await mkdir(REPORT, { recursive: true });
      await writeFile(join(REPORT, `${shot.name}.actual.png`), picture);
      if (baseline) await writeFile(join(REPORT, `${shot.name}.baseline.png`), baseline);
      if (result?.diff) await writeFile(join(REPORT, `${shot.name}.diff.png`), result.diff);
      const difference = `${shot.name}: ${result ? result.summary : 'no baseline yet'}`;
      if (unstable) console.warn(`${difference} (known: ${unstable})`);
      else changed.push(difference);
    }
    if (!filter) {
      // A baseline whose story is gone would otherwise stay forever.
      const names = new Set(all.map((shot) => `${shot.name}.png`));
      const stale = (await readdir(BASELINES)).filter((file) => file.endsWith('.png') && !names.has(file));
      if (accept) for (const file of stale) await rm(join(BASELINES, file));
      else for (const file of stale) changed.push(`${file}: a baseline whose story no longer exists`);
    }
    if (accept && failures.length === 0) {
      for (const [file, shotName] of Object.entries(README_IMAGES)) {
        if (!filter || shotName.includes(filter)) {
          await copyFile(join(BASELINES, `${shotName}.png`), join(README_IMAGES_DIR, file));
        }
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (failures.length > 0) {
    throw new Error(`Some stories could not be photographed:\n  ${failures.join('\n  ')}`);
  }
  if (changed.length > 0) {
    throw new Error(
      `${changed.length} of ${shots.length} pictures differ from their baselines:\n  ${changed.join('\n  ')}\n` +
        `Baseline, new picture and difference (red) of each: ${REPORT}\n` +
        'If every change is intended, accept them with:  npm run visual:accept',
    );
  }
  console.log(
    accept
      ? `Accepted ${shots.length} pictures into tests/visual/baselines and the README's into docs/images (${seconds} s).`
      : `All ${shots.length} pictures match their baselines (${seconds} s).`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const accept = args.includes('--accept');
  const storybookAt = args.indexOf('--storybook');
  const storybook = storybookAt >= 0 ? resolve(args[storybookAt + 1] ?? '') : undefined;
  const filter = args.find((arg, at) => !arg.startsWith('--') && (storybookAt < 0 || at !== storybookAt + 1));
  runVisual({ accept, filter, storybook }).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
