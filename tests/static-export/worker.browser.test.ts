/**
 * Admin keys and browsers, in a real browser (Chromium) against the reference service over HTTP on
 * 127.0.0.1: the admin client refuses to run in a module Web Worker, and the service's admin
 * routes do not let a page of another origin in (no CORS), while the assistant endpoint does.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { isBrowser } from '../../packages/docs-assistant/src/static-export/errors';
import { launchChromium } from '../e2e/browser';
import { ADMIN_KEY, ASSISTANT_KEY, body, DOMAIN, type RunningService, startService } from '../server/helpers';

const entry = fileURLToPath(
  new URL('../../packages/docs-assistant/src/static-export/index.ts', import.meta.url),
);

interface WorkerReport {
  ok: boolean;
  code?: string;
  message?: string;
}

let running: RunningService;
let site: Server;
let siteUrl: string;
let browser: Browser;
let page: Page;

/** A module worker that makes an admin client (optionally allowed) and starts a job with it. */
const workerSource = (allow: boolean) => `
import { createStaticExportClient } from '/static-export.js';
const report = (value) => postMessage(value);
try {
  const client = createStaticExportClient({
    baseUrl: ${JSON.stringify('SERVICE_URL')},
    adminKey: ${JSON.stringify(ADMIN_KEY)},
    dangerouslyAllowBrowser: ${allow},
  });
  client.startJob({ domain: ${JSON.stringify(DOMAIN)} }).then(
    (job) => report({ ok: true, message: JSON.stringify(job) }),
    (error) => report({ ok: false, code: error.code, message: error.message }),
  );
} catch (error) {
  report({ ok: false, code: error.code, message: error.message });
}
`;

beforeAll(async () => {
  running = await startService();
  const bundled = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  const library = bundled.outputFiles[0]!.text;
  site = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    const js = (text: string) => {
      response.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
      response.end(text);
    };
    if (path === '/static-export.js') return js(library);
    if (path === '/worker.js') return js(workerSource(false).replace('SERVICE_URL', running.url));
    if (path === '/allowed-worker.js') return js(workerSource(true).replace('SERVICE_URL', running.url));
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(
      '<!doctype html><html><head><meta charset="utf-8"><title>host</title></head><body></body></html>',
    );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await launchChromium();
  page = await browser.newPage();
  await page.goto(siteUrl);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
  await running?.close();
});

const runWorker = (script: string): Promise<WorkerReport> =>
  page.evaluate(
    (url) =>
      new Promise<WorkerReport>((resolve) => {
        const worker = new Worker(url, { type: 'module' });
        worker.onmessage = (event) => {
          resolve(event.data as WorkerReport);
          worker.terminate();
        };
        worker.onerror = (event) => resolve({ ok: false, code: 'worker_error', message: event.message });
      }),
    script,
  );

describe('the admin client in a browser module worker', () => {
  it('refuses to run with an admin key', async () => {
    const report = await runWorker('/worker.js');
    expect(report.ok).toBe(false);
    expect(report.code).toBe('invalid_configuration');
    expect(report.message).toContain('refuses to run in a browser');
  });

  it('even when allowed, the service does not let a browser origin use the admin routes', async () => {
    const report = await runWorker('/allowed-worker.js');
    // The client ran (so the refusal above is the check, not a broken bundle), but the preflight
    // got no CORS permission: the request never reached the service's handler.
    expect(report).toMatchObject({ ok: false, code: 'network_error' });
    expect((await running.service.app.request('/health')).status).toBe(200);
  });
});

describe('CORS from a page of another origin', () => {
  it('the assistant endpoint answers, the static export routes are blocked', async () => {
    const results = await page.evaluate(
      async ({ serviceUrl, assistantKey, adminKey, domain, question }) => {
        const attempt = async (path: string, key: string, payload: unknown) => {
          try {
            const response = await fetch(serviceUrl + path, {
              method: 'POST',
              headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
              body: JSON.stringify(payload),
            });
            await response.text();
            return `status ${response.status}`;
          } catch (error) {
            return `blocked: ${(error as Error).name}`;
          }
        };
        return {
          assistant: await attempt(`/discovery/v1/assistant/${domain}/message`, assistantKey, question),
          admin: await attempt('/v1/static-export/jobs', adminKey, { domain }),
        };
      },
      {
        serviceUrl: running.url,
        assistantKey: ASSISTANT_KEY,
        adminKey: ADMIN_KEY,
        domain: DOMAIN,
        question: body('How do I enable dark mode?'),
      },
    );
    expect(results).toEqual({ assistant: 'status 200', admin: 'blocked: TypeError' });
  });
});

describe('isBrowser', () => {
  const workerScope = () => {
    class WorkerGlobalScope {}
    return {
      self: {},
      WorkerGlobalScope,
      DedicatedWorkerGlobalScope: class extends WorkerGlobalScope {},
      importScripts: () => {},
      navigator: { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0' },
    };
  };

  it('sees pages and workers of a browser', () => {
    expect(isBrowser({ window: {}, document: {} })).toBe(true);
    expect(isBrowser(workerScope())).toBe(true);
    expect(isBrowser({ ServiceWorkerGlobalScope: class {}, self: {} })).toBe(true);
    expect(isBrowser({ SharedWorkerGlobalScope: class {}, self: {} })).toBe(true);
  });

  it('lets server runtimes run, including those with worker-like globals or a navigator', () => {
    expect(isBrowser()).toBe(false);
    expect(
      isBrowser({ process: { versions: { node: '20.19.0' } }, navigator: { userAgent: 'Node.js/20' } }),
    ).toBe(false);
    expect(isBrowser({ ...workerScope(), Deno: {} })).toBe(false);
    expect(isBrowser({ ...workerScope(), Bun: {}, process: { versions: { bun: '1.2.0' } } })).toBe(false);
    expect(isBrowser({ self: {}, EdgeRuntime: 'edge-runtime', navigator: { userAgent: 'x' } })).toBe(false);
    expect(isBrowser({ self: {}, navigator: { userAgent: 'Cloudflare-Workers' } })).toBe(false);
  });
});
