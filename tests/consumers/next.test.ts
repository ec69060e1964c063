/**
 * Next.js App Router on the installed tarballs: `app/layout.tsx` is a server component that renders
 * `<DocsAssistant>` straight from `docs-assistant` (apps/next-app). `next build` must compile it (the
 * old bundle failed with "dynamic usage of require"), `next start` must server-render the launcher,
 * and in Chromium the widget must answer from the reference service, keep the conversation over a
 * reload and client-side navigation, and leave the console silent: no hydration error, which the
 * code-block collector caused by decorating server-rendered `<pre>` before React hydrated it.
 * `next dev` runs the same pages once more, because only development React reports attribute
 * mismatches (production React only notices added or missing nodes).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  askAndExpectAnswer,
  childEnv,
  expectConversationAfterReload,
  expectMarkdownWorker,
  launchChromium,
  type OpenedPage,
  openPage,
  prepareApp,
  type ReferenceService,
  type RunResult,
  run,
  startReferenceService,
  stopGroup,
} from './harness';

/** Longest wait for `next start` / `next dev` to print its URL and be ready (in ms). */
const NEXT_START_TIMEOUT_MS = 60_000;
/** Longest wait for a page to hydrate and the collector to decorate its code blocks (in ms). */
const PAGE_TIMEOUT_MS = 30_000;

/**
 * An assistant key in text: the prefix followed by key characters (the widget's own code holds the
 * bare prefix in its checks and messages, never followed by one).
 */
const KEY_SHAPED = /svc_dsc_[A-Za-z0-9]/;

/** Messages by which React and Next.js report a hydration mismatch (production and development). */
const HYDRATION_ERROR = /#418|#423|#425|hydrat|did not match|didn't match/i;

interface NextServer {
  url: string;
  output(): string;
  close(): Promise<void>;
}

/**
 * Runs the app's installed `next <command>` on 127.0.0.1 and a free port, with the service's URL,
 * key and domain in the environment the layout reads per request.
 */
function startNext(
  dir: string,
  command: 'start' | 'dev',
  service: ReferenceService,
  extraEnv: Record<string, string> = {},
): Promise<NextServer> {
  const child = spawn(join(dir, 'node_modules/.bin/next'), [command, '-H', '127.0.0.1', '-p', '0'], {
    cwd: dir,
    env: childEnv({
      NEXT_TELEMETRY_DISABLED: '1',
      DOCS_ASSISTANT_URL: service.url,
      DOCS_ASSISTANT_KEY: service.assistantKey,
      DOCS_ASSISTANT_DOMAIN: service.domain,
      ...extraEnv,
    }),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolveServer, reject) => {
    const timer = setTimeout(() => {
      void stopGroup(child);
      reject(new Error(`next ${command} was not ready in time:\n${output}`));
    }, NEXT_START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /Local:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (url && /Ready in/.test(output)) {
        clearTimeout(timer);
        resolveServer({ url, output: () => output, close: () => stopGroup(child) });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`next ${command} exited with ${code} before it was ready:\n${output}`));
    });
  });
}

/**
 * Waits until the page's content is hydrated (the app's `HydrationMark`): by then the widget's
 * effects have run (it hydrates with the layout, before the page's Suspense boundary) and any
 * hydration error has been reported. Expects none, nor any other console message, and the code
 * blocks still as the server rendered them.
 */
async function expectHydratedPage(opened: OpenedPage, heading: string): Promise<void> {
  const { page } = opened;
  const options = { timeout: PAGE_TIMEOUT_MS };
  await page.getByRole('heading', { level: 1, name: heading }).waitFor(options);
  await page.locator('main [data-page-hydrated]').waitFor({ state: 'attached', ...options });
  expectSilentConsole(opened, heading);
  const blocks = page.locator('main pre');
  expect(await blocks.count(), `${heading}: the page has code blocks`).toBeGreaterThan(0);
  const touched = await blocks.evaluateAll((pres) =>
    pres
      .filter((pre) => pre.attributes.length > 0 || pre.querySelector('[data-docs-assistant]'))
      .map((pre) => pre.outerHTML),
  );
  expect(touched, `${heading}: code blocks the widget wrote into`).toEqual([]);
}

/**
 * Points at each code block: the collector's one "Ask AI about this code" button shows over it,
 * from the widget's own root, and the block stays untouched.
 */
async function expectCodeBlockButton(page: Page): Promise<void> {
  const blocks = page.locator('main pre');
  const askCode = page.getByRole('button', { name: 'Ask AI about this code' });
  for (let index = 0; index < (await blocks.count()); index++) {
    const block = blocks.nth(index);
    await block.hover();
    await askCode.waitFor({ timeout: PAGE_TIMEOUT_MS });
    expect(await askCode.evaluate((button) => !!button.closest('[data-docs-assistant="root"]'))).toBe(true);
    expect(await block.evaluate((pre) => pre.attributes.length)).toBe(0);
  }
}

/** No console error or warning and no uncaught error, with what there was in the failure message. */
function expectSilentConsole(opened: OpenedPage, where: string): void {
  const report = [
    ...opened.console.map((entry) => `console.${entry.type}: ${entry.text}`),
    ...opened.pageErrors.map((error) => `uncaught: ${error.message}`),
  ];
  const hydration = report.filter((line) => HYDRATION_ERROR.test(line));
  expect(hydration, `${where}: hydration errors`).toEqual([]);
  expect(report, `${where}: console errors, warnings and uncaught errors`).toEqual([]);
}

let dir = '';
let build: RunResult | undefined;
let service: ReferenceService | undefined;
let browser: Browser | undefined;

/** `next build` in the app (Turbopack unless `--webpack`); its failure is the test's to report. */
function nextBuild(args: string[] = []): Promise<RunResult> {
  return run(join(dir, 'node_modules/.bin/next'), ['build', ...args], {
    cwd: dir,
    env: { NEXT_TELEMETRY_DISABLED: '1' },
    allowFailure: true,
  });
}

/**
 * The build succeeded without a warning: in particular not the old bundle's "dynamic usage of
 * require", nor a client-boundary error. Both routes render per request (the layout reads the
 * service's address at run time).
 */
function expectCleanBuild(result: RunResult | undefined): void {
  const output = `${result?.stdout}\n${result?.stderr}`;
  expect(result?.code, output).toBe(0);
  expect(output).not.toMatch(/dynamic usage of require/i);
  expect(output).not.toMatch(/module not found|failed to compile/i);
  // Under CI=true Next.js advises caching `.next/cache` between CI runs; that is about the CI, not
  // the app, and every other warning still fails the build.
  const ciAdvice = /No build cache found/;
  expect(output.split('\n').filter((line) => /⚠|warn|error/i.test(line) && !ciAdvice.test(line))).toEqual([]);
  expect(output).toMatch(/ƒ \/\s/);
  expect(output).toMatch(/ƒ \/guide\b/);
}

beforeAll(async () => {
  dir = await prepareApp('next-app', inject('tarballs'));
  build = await nextBuild();
  // The service from the app that installs it (as vite.test.ts and esbuild.test.ts start it): a
  // docs site runs none of the service, and the Next app has no better-sqlite3 to compile.
  service = await startReferenceService(await prepareApp('node-esm', inject('tarballs')));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe('next build', () => {
  it('compiles a server-component layout that imports docs-assistant, without a warning', () => {
    expectCleanBuild(build);
  });
});

describe('next start', () => {
  let next: NextServer | undefined;

  beforeAll(async () => {
    if (build?.code !== 0) throw new Error('next build failed (see "next build" above).');
    next = await startNext(dir, 'start', service!);
  });

  afterAll(async () => {
    await next?.close();
  });

  it('server-renders the launcher and leaves the code blocks as written', async () => {
    const response = await fetch(`${next!.url}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<button[^>]*data-docs-assistant="launcher"[^>]*>.*?Ask AI/s);
    expect(html).toContain('<pre><code class="language-bash">npm install acme-widgets</code></pre>');
    expect(html).not.toContain('data-docs-assistant="ask-code"');
  });

  for (const [path, heading] of [
    ['/', 'Getting started'],
    ['/guide', 'Theming guide'],
  ] as const) {
    it(`hydrates ${path} without a console error or warning`, async () => {
      const opened = await openPage(browser!, `${next!.url}${path}`);
      try {
        await expectHydratedPage(opened, heading);
        await expectCodeBlockButton(opened.page);
        expectSilentConsole(opened, path);
      } finally {
        await opened.page.close();
      }
    });
  }

  it('answers with a source, keeps the conversation over a reload and client-side navigation', async () => {
    const opened = await openPage(browser!, `${next!.url}/`);
    const { page } = opened;
    try {
      await expectHydratedPage(opened, 'Getting started');
      const question = 'How do I install acme-widgets?';
      const answer = await askAndExpectAnswer(page, question);
      const paths = answer.sources.map((source) => new URL(source.href, next!.url).pathname);
      expect(paths, 'a source is the fixture page about installing').toContain('/getting-started');

      await expectConversationAfterReload(page, { question, answer });
      await expectHydratedPage(opened, 'Getting started');

      const conversation = page.locator('[data-docs-assistant="message"][data-role="user"]');
      await page.getByRole('link', { name: 'Theming guide' }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/guide');
      await expectHydratedPage(opened, 'Theming guide');
      await expectCodeBlockButton(page);
      // The layout, and with it the open widget, stays mounted across a client-side navigation.
      await expect.poll(() => conversation.allInnerTexts()).toContainEqual(expect.stringContaining(question));

      await page.goBack();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/');
      await expectHydratedPage(opened, 'Getting started');
      await expect.poll(() => conversation.allInnerTexts()).toContainEqual(expect.stringContaining(question));

      expectSilentConsole(opened, 'ask, reload, navigate');
    } finally {
      await page.close();
    }
  });

  it('asks about a code block that streamed in after the widget hydrated', async () => {
    const opened = await openPage(browser!, `${next!.url}/guide`);
    const { page } = opened;
    try {
      await expectHydratedPage(opened, 'Theming guide');
      await page.locator('main pre').hover();
      await page.getByRole('button', { name: 'Ask AI about this code' }).click();
      await page.locator('[data-docs-assistant="context"]').first().waitFor({ timeout: PAGE_TIMEOUT_MS });
      const input = page.getByRole('textbox', { name: /question/i });
      await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
      const sent = page.waitForRequest((request) => request.url().includes('/discovery/v1/assistant/'));
      await input.fill('What does this variable change?');
      await input.press('Enter');
      const body = (await sent).postDataJSON() as {
        context?: { type: string; value: string; path?: string }[];
        currentPath?: string;
      };
      expect(body.currentPath).toBe('/guide');
      expect(body.context?.[0]).toMatchObject({ type: 'code', path: '/guide' });
      expect(body.context?.[0]?.value).toBe(':root {\n  --acme-accent: #4f46e5;\n}');
      await expect
        .poll(() => page.locator('[data-docs-assistant="root"]').getAttribute('data-status'), {
          timeout: PAGE_TIMEOUT_MS,
        })
        .toBe('ready');
      expectSilentConsole(opened, 'ask about code');
    } finally {
      await page.close();
    }
  });
});

describe('next start, the key kept on the server (api route + createAssistantProxy)', () => {
  let next: NextServer | undefined;

  beforeAll(async () => {
    if (build?.code !== 0) throw new Error('next build failed (see "next build" above).');
    // The server has the key in its environment; the layout passes the widget only api="/api/assistant".
    next = await startNext(dir, 'start', service!, { DOCS_ASSISTANT_VIA_PROXY: '1' });
  });

  afterAll(async () => {
    await next?.close();
  });

  it('answers two turns in one thread through the route; the browser never sees the key', async () => {
    const key = service!.assistantKey;
    expect(key).toMatch(/^svc_dsc_/);
    const page = await browser!.newPage();
    const opened: OpenedPage = { page, console: [], pageErrors: [] };
    page.on('console', (message) => {
      const type = message.type();
      if (type === 'error' || type === 'warning') opened.console.push({ type, text: message.text() });
    });
    page.on('pageerror', (error) => opened.pageErrors.push(error));
    /** Every request the page made, with its headers and body. */
    const requests: { url: string; headers: Record<string, string>; body: string }[] = [];
    page.on('request', (request) => {
      requests.push({ url: request.url(), headers: request.headers(), body: request.postData() ?? '' });
    });
    /** Every response body the page received (HTML, RSC payloads, scripts, styles, answers). */
    const bodies: Promise<{ url: string; text: string }>[] = [];
    /** The route's answers, with the thread headers it passed back. */
    const answers: { status: number; headers: Record<string, string>; body: Record<string, unknown> }[] = [];
    page.on('response', (response) => {
      bodies.push(
        response.body().then(
          (body) => ({ url: response.url(), text: body.toString('latin1') }),
          () => ({ url: response.url(), text: '' }),
        ),
      );
      if (new URL(response.url()).pathname === '/api/assistant') {
        answers.push({
          status: response.status(),
          headers: response.headers(),
          body: JSON.parse(response.request().postData() ?? '{}') as Record<string, unknown>,
        });
      }
    });
    try {
      await page.goto(`${next!.url}/`);
      await expectHydratedPage(opened, 'Getting started');
      const first = await askAndExpectAnswer(page, 'How do I install acme-widgets?');
      expect(first.sources.length).toBeGreaterThan(0);
      const second = await askAndExpectAnswer(page, 'Which Node version does it need?');
      expect(second.text.length).toBeGreaterThan(0);

      // Two turns, both through the app's own route, in one thread.
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      const threadId = answers[0]!.headers['x-thread-id'];
      const threadKey = answers[0]!.headers['x-thread-key'];
      expect(threadId, 'the route passes the thread id back').toBeTruthy();
      expect(threadKey, 'the route passes the thread key back').toBeTruthy();
      expect(answers[0]!.body.threadId).toBeUndefined();
      expect(answers[1]!.body).toMatchObject({ threadId, threadKey });
      expect(answers[1]!.headers['x-thread-key'], 'a thread key is handed out once').toBeUndefined();
      expect(answers[1]!.headers['set-cookie']).toBeUndefined();

      // The browser never talked to the service, and nothing it sent or received holds the key.
      const serviceOrigin = new URL(service!.url).origin;
      expect(requests.filter((request) => new URL(request.url).origin === serviceOrigin)).toEqual([]);
      const withKey = requests.filter((request) =>
        [...Object.values(request.headers), request.body, request.url].some(
          (value) => value.includes(key) || KEY_SHAPED.test(value),
        ),
      );
      expect(withKey.map((request) => request.url)).toEqual([]);
      const received = await Promise.all(bodies);
      expect(received.some((item) => /\/_next\/static\/.+\.js/.test(item.url))).toBe(true);
      expect(
        received
          .filter((item) => item.text.includes(key) || KEY_SHAPED.test(item.text))
          .map((item) => item.url),
      ).toEqual([]);
      // The server-rendered HTML as any client gets it.
      const html = await (await fetch(`${next!.url}/guide`)).text();
      expect(html).toContain('data-docs-assistant="launcher"');
      expect(html).not.toMatch(KEY_SHAPED);

      await expect
        .poll(() => page.locator('[data-docs-assistant="message"][data-role="user"]').count())
        .toBe(2);
      expectSilentConsole(opened, 'two turns through the route');
    } finally {
      await page.close();
    }
  });

  it('the direct mode, for contrast, does put the key in the page', async () => {
    // Guards the check above: the same grep finds the key when the layout passes apiKey.
    const direct = await startNext(dir, 'start', service!);
    try {
      const html = await (await fetch(`${direct.url}/`)).text();
      expect(html).toContain(service!.assistantKey);
      expect(html).toMatch(KEY_SHAPED);
    } finally {
      await direct.close();
    }
  });
});

describe('next dev', () => {
  let next: NextServer | undefined;

  beforeAll(async () => {
    next = await startNext(dir, 'dev', service!);
    // Compile both routes here, where the hook's time limit applies, not in the browser's page load.
    for (const path of ['/', '/guide']) {
      const response = await fetch(`${next.url}${path}`);
      expect(response.status, `next dev ${path}`).toBe(200);
      await response.text();
    }
  });

  afterAll(async () => {
    await next?.close();
  });

  for (const [path, heading] of [
    ['/', 'Getting started'],
    ['/guide', 'Theming guide'],
  ] as const) {
    it(`hydrates ${path} with no mismatch reported by development React`, async () => {
      const opened = await openPage(browser!, `${next!.url}${path}`);
      try {
        await expectHydratedPage(opened, heading);
        await expectCodeBlockButton(opened.page);
        expectSilentConsole(opened, `next dev ${path}`);
        // Next.js also forwards browser errors to its terminal.
        expect(next!.output()).not.toMatch(HYDRATION_ERROR);
      } finally {
        await opened.page.close();
      }
    });
  }
});

describe('next build --webpack', () => {
  // Next.js 15 builds with webpack by default and 16 still offers it: its flight loader checks a
  // "use client" module's exports on its own (an `export *` there fails the build).
  let webpackBuild: RunResult | undefined;
  let next: NextServer | undefined;

  beforeAll(async () => {
    webpackBuild = await nextBuild(['--webpack']);
    if (webpackBuild.code === 0) next = await startNext(dir, 'start', service!);
  });

  afterAll(async () => {
    await next?.close();
  });

  it('compiles the same app without a warning', () => {
    expectCleanBuild(webpackBuild);
  });

  it('hydrates, answers with a source and keeps the console silent', async () => {
    expect(next, 'next start of the webpack build').toBeDefined();
    const opened = await openPage(browser!, `${next!.url}/guide`);
    try {
      await expectHydratedPage(opened, 'Theming guide');
      await expectCodeBlockButton(opened.page);
      const answer = await askAndExpectAnswer(opened.page, 'How do I install acme-widgets?');
      expect(answer.sources.length).toBeGreaterThan(0);
      expectMarkdownWorker(opened.page);
      expectSilentConsole(opened, 'webpack build');
    } finally {
      await opened.page.close();
    }
  });
});
