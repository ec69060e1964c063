/**
 * The insights panel in Chromium against the real service: a dashboard page (built with Vite from
 * the sources) served on 127.0.0.1 with the host's route `/api/insights/*` mounted there
 * (`createInsightsHandler`, a session cookie for `authorize`), the reference service with recorded
 * traffic behind it. Keyboard end to end (Tab to a conversation, Enter, Back, focus returns),
 * axe with colour contrast in light and dark, every target at least 24×24 px.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { createInsightsHandler, type InsightsHandler } from '../../packages/docs-assistant/src/insights';
import { launchChromium } from '../e2e/browser';
import type { RunningService } from '../server/helpers';
import { ADMIN_KEY, DOMAIN, seededService, UNANSWERABLE } from './service';

const root = resolve(import.meta.dirname, '../.artifacts/insights-panel');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SESSION = 'session=admin';

const MAIN = `
import { createRoot } from 'react-dom/client';
import { InsightsPanel } from '${src}/insights/react';
import { StaticExportPanel } from '${src}/static-export/react';
const query = new URLSearchParams(location.search);
const theme = query.get('theme') ?? 'light';
const nonce = query.get('nonce') ?? undefined;
document.body.style.margin = '0';
document.body.style.background = theme === 'dark' ? '#010409' : '#fff';
createRoot(document.getElementById('app')).render(
  <>
    <InsightsPanel endpoint="/api/insights" theme={theme} nonce={nonce} />
    {query.has('csp') ? <StaticExportPanel endpoint="/api/static-export" nonce={nonce} /> : null}
  </>,
);
`;

/** A dashboard's policy: no inline style but the page's nonce (the scripts are files of its own origin). */
const CSP = "default-src 'self'; style-src 'nonce-d4shb0ard'";

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

let running: RunningService & { unanswered: string };
let browser: Browser;
let server: Server;
let origin: string;

/** The host's route: Node's request as a web Request to the handler, its Response written back. */
async function route(handler: InsightsHandler, req: IncomingMessage, res: ServerResponse) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === 'string') headers.set(name, value);
  const response = await handler(
    new Request(new URL(req.url ?? '/', origin), { method: req.method, headers }),
  );
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

beforeAll(async () => {
  running = await seededService();
  await mkdir(root, { recursive: true });
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard</title></head><body><main><h1>Dashboard</h1><div id="app"></div></main><script type="module" src="./main.tsx"></script></body></html>',
  );
  writeFileSync(join(root, 'main.tsx'), MAIN);
  const dist = join(root, 'dist');
  await build({
    configFile: false,
    root,
    base: './',
    logLevel: 'silent',
    plugins: [react()],
    build: { outDir: dist, emptyOutDir: true },
  });
  const handler = createInsightsHandler({
    baseUrl: running.url,
    adminKey: ADMIN_KEY,
    domain: DOMAIN,
    authorize: (request) => (request.headers.get('cookie') ?? '').includes(SESSION),
  });
  server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (pathname.startsWith('/api/insights/')) {
      route(handler, req, res).catch(() => res.writeHead(500).end());
      return;
    }
    const path = join(dist, pathname);
    const file =
      path.startsWith(dist) && statSync(path, { throwIfNoEntry: false })?.isFile()
        ? path
        : join(dist, 'index.html');
    const csp = file.endsWith('index.html') && new URL(req.url ?? '/', 'http://x').searchParams.has('csp');
    res.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      ...(csp ? { 'Content-Security-Policy': CSP } : {}),
    });
    res.end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  await running?.close();
});

/** A signed-in admin's dashboard, loaded. */
async function openDashboard(theme: 'light' | 'dark', more = ''): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({
    reducedMotion: 'reduce',
    viewport: { width: 1100, height: 900 },
  });
  await context.addCookies([{ name: 'session', value: 'admin', url: origin }]);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto(`${origin}/?theme=${theme}${more}`);
  await page.getByRole('table', { name: 'Conversations' }).waitFor();
  return { page, errors };
}

/** axe's findings on the panel, after checking that the contrast and target-size rules ran. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const { violations, ran } = await page.evaluate(async () => {
    interface Rule {
      id: string;
      nodes: { target: string[] }[];
    }
    const { axe } = window as unknown as {
      axe: { run: (element: Element, options: object) => Promise<{ violations: Rule[]; passes: Rule[] }> };
    };
    const found = await axe.run(document.querySelector('[data-docs-assistant="insights"]')!, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    });
    return {
      violations: found.violations.map(
        (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
      ),
      ran: [...found.passes, ...found.violations].map((rule) => rule.id),
    };
  });
  expect(ran).toEqual(expect.arrayContaining(['color-contrast', 'target-size']));
  return violations;
}

/** Interactive targets smaller than 24×24 CSS px (WCAG 2.5.8), by their text. */
const smallTargets = (page: Page) =>
  page.evaluate(() =>
    [
      ...document.querySelectorAll<HTMLElement>(
        '[data-docs-assistant="insights"] :is(button, summary, input[type="date"], label:has(input[type="checkbox"]))',
      ),
    ]
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 24 || box.height < 24)
      .map(
        ({ element, box }) => `${element.textContent?.trim() || element.tagName} ${box.width}×${box.height}`,
      ),
  );

describe('InsightsPanel in Chromium, the reference service behind the host route', () => {
  it('is used by keyboard alone: Tab to a conversation, Enter opens it, Back returns to its row', async () => {
    const { page, errors } = await openDashboard('light');
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    let reached = false;
    // Bounded: the page has fewer stops than this.
    for (let stop = 0; stop < 80 && !reached; stop++) {
      await page.keyboard.press('Tab');
      reached = (await focusedText()) === UNANSWERABLE;
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    const heading = page.getByRole('heading', { name: /^Conversation of / });
    await heading.waitFor();
    expect(await heading.evaluate((element) => element === document.activeElement)).toBe(true);
    await expect.poll(() => page.getByText(UNANSWERABLE).count()).toBeGreaterThan(0);
    await page.keyboard.press('Tab');
    expect(await focusedText()).toBe('Back to the conversations');
    await page.keyboard.press('Enter');
    await expect.poll(focusedText).toBe(UNANSWERABLE);
    // The daily table opens from its summary with the keyboard too.
    await page.getByText('Daily figures as a table', { exact: true }).first().focus();
    await page.keyboard.press('Enter');
    await page.getByRole('table', { name: 'Daily figures as a table' }).waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`has nothing for axe to fix (contrast included) and no target under 24×24 px, ${theme}`, async () => {
      const { page, errors } = await openDashboard(theme);
      await page.getByText('Daily figures as a table', { exact: true }).first().click();
      expect(await axeViolations(page)).toEqual([]);
      expect(await smallTargets(page)).toEqual([]);
      await page.getByRole('button', { name: UNANSWERABLE }).click();
      await page.getByRole('heading', { name: /^Conversation of / }).waitFor();
      await page
        .getByText(/Voted down/)
        .first()
        .waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect(await smallTargets(page)).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    });
  }
});

describe('the dashboard panels under a Content-Security-Policy without inline styles', () => {
  /** The padding both panels' card rule gives them (0 where their stylesheet was refused). */
  const paddings = (page: Page) =>
    page.evaluate(() =>
      ['insights', 'static-export'].map(
        (name) => getComputedStyle(document.querySelector(`[data-docs-assistant="${name}"]`)!).paddingTop,
      ),
    );

  it('applies each panel’s own stylesheet with the page’s nonce', async () => {
    const { page, errors } = await openDashboard('light', '&csp&nonce=d4shb0ard');
    expect(await paddings(page)).toEqual(['16px', '16px']);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('without the nonce the policy refuses both stylesheets (what `nonce` is for)', async () => {
    const { page, errors } = await openDashboard('light', '&csp');
    expect(await paddings(page)).toEqual(['0px', '0px']);
    expect(errors.join('\n')).toMatch(/Content Security Policy/);
    await page.context().close();
  });
});
