/**
 * The widget in Chromium for browser tests: a host page (a `main` landmark with an `h1` and the
 * `#app` element) running a test's `main.tsx`, written to its artifacts folder, built with Vite from
 * the sources, served on 127.0.0.1, and a browser to open it.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import type { Browser, Locator, Page } from 'playwright-core';
import { build } from 'vite';
import { launchChromium } from '../e2e/browser';

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

export interface WidgetPage {
  browser: Browser;
  /** `http://127.0.0.1:<port>`; every path that is not a built file serves the page. */
  origin: string;
  /** Closes the browser and the server. */
  close(): Promise<void>;
}

const hostPage = (title: string, html = '') => `<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title></head>
<body><main><h1>Host page</h1>${html}<div id="app"></div></main><script type="module" src="./main.tsx"></script></body></html>`;

/**
 * `main` is the page's script (TSX), rendering into `#app`; `html` is markup served in the page
 * before `#app` (as a server would render it). `notFound` makes the server answer 404 for a built
 * file while it returns true (a chunk gone after a redeploy); it receives the request's path.
 * `headers` adds response headers to a request by its path (a Content-Security-Policy).
 */
export async function serveWidgetPage(
  root: string,
  page: {
    title: string;
    main: string;
    html?: string;
    notFound?: (path: string) => boolean;
    headers?: (path: string) => Record<string, string> | undefined;
  },
): Promise<WidgetPage> {
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'index.html'), hostPage(page.title, page.html));
  writeFileSync(join(root, 'main.tsx'), page.main);
  const dist = join(root, 'dist');
  await build({
    configFile: false,
    root,
    base: './',
    logLevel: 'silent',
    plugins: [react()],
    build: { outDir: dist, emptyOutDir: true },
  });
  const server: Server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (page.notFound?.(pathname)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('Not found');
      return;
    }
    const path = join(dist, pathname);
    const file =
      path.startsWith(dist) && statSync(path, { throwIfNoEntry: false })?.isFile()
        ? path
        : join(dist, 'index.html');
    res.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      ...page.headers?.(pathname),
    });
    res.end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const closeServer = () => new Promise<void>((done) => server.close(() => done()));
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (error) {
    // No browser means no test will close the server: close it here.
    await closeServer();
    throw error;
  }
  return {
    browser,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await browser.close();
      await closeServer();
    },
  };
}

/**
 * The header's action by its `data-action`: an icon button of the header, or an item of its
 * "More" menu (opened for it). Fails naming the action when the panel offers it in neither.
 */
export async function headerAction(page: Page, id: string): Promise<Locator> {
  const action = page.locator(`[data-docs-assistant="header"] [data-action="${id}"]`).first();
  if (!(await action.isVisible())) await openMoreMenu(page);
  await action.waitFor({ state: 'visible', timeout: 5_000 }).catch(() => {
    throw new Error(`The panel offers no "${id}" action, in its header or its "More" menu.`);
  });
  return action;
}

/** Whether the header offers the action (looking in "More" too), without running it. */
export async function offersAction(page: Page, id: string): Promise<boolean> {
  const action = page.locator(`[data-docs-assistant="header"] [data-action="${id}"]`);
  if ((await action.count()) > 0) return true;
  await openMoreMenu(page);
  const offered = (await action.count()) > 0;
  await page.keyboard.press('Escape');
  return offered;
}

async function openMoreMenu(page: Page): Promise<void> {
  const more = page.locator('[data-docs-assistant="header"] [data-action="more"]');
  if ((await more.count()) === 0 || (await more.getAttribute('aria-expanded')) === 'true') return;
  await more.click();
}
