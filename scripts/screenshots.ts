/**
 * Screenshots of the widget's states, taken from the BUILT Storybook (`npm run build-storybook`
 * first): serves `storybook-static/` on 127.0.0.1, opens each story's iframe in Chromium, waits for
 * its play function to finish (the state is reached by streaming), and saves PNGs to docs/images/.
 *
 *   npm run build-storybook && npx tsx scripts/screenshots.ts [story-id-filter]
 */
import { createReadStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { launchChromium } from '../tests/e2e/browser';

const ROOT = resolve(import.meta.dirname, '..');
const STATIC_DIR = join(ROOT, 'storybook-static');
const OUT_DIR = join(ROOT, 'docs', 'images');
/** Longest wait for a story's play function (in ms); the answers stream at reading pace. */
const PLAY_TIMEOUT_MS = 45_000;

interface Shot {
  file: string;
  id: string;
  viewport: { width: number; height: number };
  /** `root`: just the story's content; `page`: the whole viewport (floating and docked layouts). */
  clip: 'root' | 'page';
}

const SHOTS: Shot[] = [
  {
    file: 'long-answer.png',
    id: 'docsassistant-conversation--long-answer',
    viewport: { width: 520, height: 700 },
    clip: 'root',
  },
  {
    file: 'search-and-sources.png',
    id: 'docsassistant-conversation--search-result',
    viewport: { width: 520, height: 700 },
    clip: 'root',
  },
  {
    file: 'error-rate-limited.png',
    id: 'docsassistant-errors--rate-limited-429',
    viewport: { width: 520, height: 700 },
    clip: 'root',
  },
  {
    file: 'error-stream-broken.png',
    id: 'docsassistant-errors--stream-broken-mid-answer',
    viewport: { width: 520, height: 700 },
    clip: 'root',
  },
  {
    file: 'dark.png',
    id: 'docsassistant-layout-and-theme--dark',
    viewport: { width: 520, height: 620 },
    clip: 'page',
  },
  {
    file: 'custom-theme.png',
    id: 'docsassistant-layout-and-theme--custom-theme',
    viewport: { width: 520, height: 700 },
    clip: 'root',
  },
  {
    file: 'right-to-left.png',
    id: 'docsassistant-layout-and-theme--right-to-left-arabic',
    viewport: { width: 520, height: 700 },
    clip: 'root',
  },
  {
    file: 'floating.png',
    id: 'docsassistant-layout-and-theme--floating',
    viewport: { width: 1280, height: 800 },
    clip: 'page',
  },
  {
    file: 'side-panel.png',
    id: 'docsassistant-layout-and-theme--side-panel',
    viewport: { width: 1280, height: 800 },
    clip: 'page',
  },
  {
    file: 'mobile.png',
    id: 'docsassistant-layout-and-theme--mobile',
    viewport: { width: 375, height: 667 },
    clip: 'page',
  },
  {
    file: 'static-export.png',
    id: 'staticexportpanel--completed-with-link',
    viewport: { width: 600, height: 400 },
    clip: 'root',
  },
  {
    file: 'all-states.png',
    id: 'docsassistant-review--all-states',
    viewport: { width: 1400, height: 900 },
    clip: 'root',
  },
];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ico': 'image/x-icon',
};

/** Serves the built Storybook on 127.0.0.1 (a free port). */
async function serveStatic(dir: string) {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const file = normalize(join(dir, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(dir + sep)) {
      response.writeHead(403).end();
      return;
    }
    try {
      if (!(await stat(file)).isFile()) throw new Error('not a file');
    } catch {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

async function main() {
  try {
    await stat(join(STATIC_DIR, 'iframe.html'));
  } catch {
    throw new Error('storybook-static/iframe.html is missing: run `npm run build-storybook` first.');
  }
  const filter = process.argv[2];
  const shots = filter ? SHOTS.filter((s) => s.id.includes(filter) || s.file.includes(filter)) : SHOTS;
  if (shots.length === 0) throw new Error(`No screenshot matches "${filter}".`);
  await mkdir(OUT_DIR, { recursive: true });
  const server = await serveStatic(STATIC_DIR);
  const browser = await launchChromium();
  const failures: string[] = [];
  try {
    for (const shot of shots) {
      const page = await browser.newPage({
        viewport: shot.viewport,
        deviceScaleFactor: shot.viewport.width <= 600 ? 2 : 1,
        reducedMotion: 'reduce',
      });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${server.url}/iframe.html?id=${shot.id}&viewMode=story`);
      // The preview's current render goes through `playing` to `completed` (or `errored` when the
      // play function's checks fail): the state is on screen once it has completed.
      const phase = await page
        .waitForFunction(
          () => {
            const preview = (
              window as unknown as { __STORYBOOK_PREVIEW__?: { currentRender?: { phase?: string } } }
            ).__STORYBOOK_PREVIEW__;
            const current = preview?.currentRender?.phase;
            return current === 'completed' ||
              current === 'finished' ||
              current === 'errored' ||
              current === 'aborted'
              ? current
              : false;
          },
          undefined,
          { timeout: PLAY_TIMEOUT_MS, polling: 100 },
        )
        .then((handle) => handle.jsonValue());
      if (phase !== 'completed' && phase !== 'finished') {
        failures.push(`${shot.id}: the play function ended ${phase} ${errors.join('; ')}`);
        await page.close();
        continue;
      }
      // Let the last throttled render and the copy buttons' fonts settle.
      await page.evaluate(() => document.fonts.ready);
      await page.waitForTimeout(300);
      const path = join(OUT_DIR, shot.file);
      if (shot.clip === 'page') await page.screenshot({ path });
      else await page.locator('#storybook-root').screenshot({ path });
      console.log(`${shot.file}  ←  ${shot.id}`);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  if (failures.length > 0) throw new Error(`Some stories did not reach their state:\n${failures.join('\n')}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
