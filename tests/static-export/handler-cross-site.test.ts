/**
 * CSRF against the dashboard handler in real Chromium. Origin A (127.0.0.1, one port) is the
 * host's dashboard: the handler under /api/static-export and the real <StaticExportPanel>; the
 * admin is signed in there (a session cookie). Origin B (127.0.0.1, another port) is a page the
 * admin visits while signed in: it fires a `no-cors` fetch and auto-submits forms at A's handler.
 * Cookies do not isolate by port, so those requests carry the admin's session; the handler must
 * still start nothing. The panel on A, in the same browser, must still work end to end.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { createStaticExportHandler } from '../../packages/docs-assistant/src/static-export';
import { createStaticExportRoutes } from '../../packages/docs-assistant-server/src/static-export/routes';
import { launchChromium } from '../e2e/browser';
import { authorizeSession, SESSION_COOKIE } from './dashboard-request';
import { ADMIN_KEY, FIXTURE_DOCS, listen, makeConfig } from './helpers';

const panelSource = fileURLToPath(
  new URL('../../packages/docs-assistant/src/static-export/react.ts', import.meta.url),
);
const START_BODY = JSON.stringify({ domain: 'acme', paths: ['index'] });

interface Seen {
  method: string;
  path: string;
  status: number;
  origin: string | null;
  fetchSite: string | null;
  contentType: string | null;
  withSession: boolean;
}

let routes: ReturnType<typeof createStaticExportRoutes>;
let reference: { url: string; close: () => Promise<void> };
let dashboard: { url: string; close: () => Promise<void> };
let attacker: { url: string; close: () => Promise<void> };
let browser: Browser;
/** Job starts that reached the reference service. */
let upstreamStarts = 0;
/** Requests the handler on origin A answered, and a hook called after each. */
const seen: Seen[] = [];
let onSeen: () => void = () => undefined;

const html = (body: string) =>
  new Response(
    `<!doctype html><html><head><meta charset="utf-8"><title>page</title></head><body>${body}</body></html>`,
    {
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
    },
  );

/** The attacker's page: a no-cors fetch, then a text/plain form crafted to be JSON, then a urlencoded form. */
function attackPage(target: string): string {
  const jobs = `${target}/api/static-export/jobs`;
  // A text/plain form sends `name=value`: this name and value make the body {"domain":"acme",…,"x":"="}.
  const name = `${START_BODY.slice(0, -1)},"x":"`;
  return `
<form id="plain" method="POST" action="${jobs}" enctype="text/plain" target="plain-frame">
  <input name='${name}' value='"}'>
</form>
<iframe name="plain-frame"></iframe>
<form id="urlencoded" method="POST" action="${jobs}" target="urlencoded-frame">
  <input name="domain" value="acme">
</form>
<iframe name="urlencoded-frame"></iframe>
<script>
  fetch(${JSON.stringify(jobs)}, { method: 'POST', mode: 'no-cors', credentials: 'include', body: ${JSON.stringify(START_BODY)} })
    .catch(() => undefined)
    .then(() => fetch(${JSON.stringify(`${jobs}/exp_guess/bundle`)}, { method: 'POST', mode: 'no-cors', credentials: 'include' }))
    .catch(() => undefined)
    .then(() => {
      document.getElementById('plain').submit();
      document.getElementById('urlencoded').submit();
    });
</script>`;
}

beforeAll(async () => {
  routes = createStaticExportRoutes(makeConfig({ acme: [FIXTURE_DOCS] }));
  reference = await listen((request) => {
    if (request.method === 'POST' && new URL(request.url).pathname === '/v1/static-export/jobs')
      upstreamStarts += 1;
    return routes.app.fetch(request);
  });
  const handler = createStaticExportHandler({
    baseUrl: reference.url,
    adminKey: ADMIN_KEY,
    domain: 'acme',
    authorize: authorizeSession,
  });
  const bundled = await build({
    stdin: {
      contents: `
        import { createElement } from 'react';
        import { createRoot } from 'react-dom/client';
        import { StaticExportPanel } from ${JSON.stringify(panelSource)};
        createRoot(document.getElementById('root')).render(
          createElement(StaticExportPanel, { endpoint: '/api/static-export', domain: 'acme', pollIntervalMs: 50 }),
        );`,
      resolveDir: fileURLToPath(new URL('.', import.meta.url)),
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    loader: { '.css': 'empty' },
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const panelScript = bundled.outputFiles[0]?.text ?? '';

  dashboard = await listen(async (request) => {
    const { pathname } = new URL(request.url);
    if (pathname === '/login') {
      const response = html('signed in');
      response.headers.set('Set-Cookie', `${SESSION_COOKIE}; Path=/; HttpOnly; SameSite=Lax`);
      return response;
    }
    if (pathname === '/panel.js') {
      return new Response(panelScript, { headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
    }
    if (pathname.startsWith('/api/static-export/')) {
      const response = await handler(request);
      seen.push({
        method: request.method,
        path: pathname,
        status: response.status,
        origin: request.headers.get('origin'),
        fetchSite: request.headers.get('sec-fetch-site'),
        contentType: request.headers.get('content-type'),
        withSession: authorizeSession(request),
      });
      onSeen();
      return response;
    }
    return html('<div id="root"></div><script type="module" src="/panel.js"></script>');
  });
  attacker = await listen(() => html(attackPage(dashboard.url)));
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await attacker?.close();
  await dashboard?.close();
  await reference?.close();
  await routes?.close();
});

/** Resolves once the handler has answered `count` requests after now that no page of its own origin made. */
function nextForeignRequests(count: number): Promise<Seen[]> {
  const from = seen.length;
  const foreign = () => seen.slice(from).filter((request) => request.fetchSite !== 'same-origin');
  return new Promise((resolve) => {
    onSeen = () => {
      if (foreign().length >= count) resolve(foreign());
    };
  });
}

describe('a cross-site page the signed-in admin visits', () => {
  it('cannot start a job with a no-cors fetch or a form; the panel on the dashboard still can', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${dashboard.url}/login`);

      // The real panel, same origin: start, follow to completed, get the link.
      await page.goto(`${dashboard.url}/`);
      await page.getByRole('button', { name: 'Start export' }).click();
      await page.getByRole('button', { name: 'Get bundle link' }).click({ timeout: 15_000 });
      const download = page.getByRole('link', { name: /Download bundle/ });
      await download.waitFor({ timeout: 15_000 });
      expect(await download.getAttribute('href')).toMatch(/bundle\.tar\.gz/);
      expect(upstreamStarts).toBe(1);

      // Another origin (same host, another port: same-site, cross-origin).
      const attacks = nextForeignRequests(4);
      const evil = await context.newPage();
      await evil.goto(`${attacker.url}/`);
      const answered = await attacks;

      // All four reached the handler with the admin's session cookie: the browser did send them.
      expect(answered.map(({ method, path }) => `${method} ${path}`).sort()).toEqual([
        'POST /api/static-export/jobs',
        'POST /api/static-export/jobs',
        'POST /api/static-export/jobs',
        'POST /api/static-export/jobs/exp_guess/bundle',
      ]);
      for (const request of answered) {
        expect(request.withSession).toBe(true);
        expect(request.origin).toBe(attacker.url);
        expect(request.fetchSite).toBe('same-site');
        expect(request.status).toBe(403);
      }
      expect(answered.map((request) => String(request.contentType)).sort()).toEqual([
        'application/x-www-form-urlencoded',
        'null',
        'text/plain',
        'text/plain;charset=UTF-8',
      ]);
      expect(upstreamStarts).toBe(1);
    } finally {
      await context.close();
    }
  });
});
