/**
 * Vite apps (React 19 and React 18.3) that install the widget from its tarball, built for
 * production with `vite build` and driven in Chromium against the installed reference service:
 * open the assistant, ask, get an answer with a source, reload, conversation kept, no error.
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  askAndExpectAnswer,
  assistantLauncher,
  expectConversationAfterReload,
  launchChromium,
  openPage,
  prepareApp,
  type ReferenceService,
  run,
  type StaticServer,
  serveStatic,
  startReferenceService,
} from './harness';

const QUESTION = 'How do I install the package?';

let service: ReferenceService | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  const tarballs = inject('tarballs');
  // The service comes from the server package installed where the server belongs (node-esm);
  // the Vite apps install the widget alone, as a docs site does.
  service = await startReferenceService(await prepareApp('node-esm', tarballs));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

describe.each([
  { app: 'vite-react19', react: '19' },
  { app: 'vite-react18', react: '18' },
])('$app: a Vite production build with React $react', ({ app, react }) => {
  let site: StaticServer | undefined;
  let dir = '';

  beforeAll(async () => {
    dir = await prepareApp(app, inject('tarballs'));
    await run(join(dir, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
      cwd: dir,
      env: { NODE_ENV: 'production' },
    });
    site = await serveStatic(join(dir, 'dist'));
  });

  afterAll(async () => {
    await site?.close();
  });

  const pageUrl = () => {
    const query = new URLSearchParams({
      service: service!.url,
      key: service!.assistantKey,
      domain: service!.domain,
    });
    return `${site!.origin}/?${query}`;
  };

  it(`installs React ${react}`, async () => {
    const { stdout } = await run('node', ['-p', "require('react/package.json').version"], { cwd: dir });
    expect(stdout.trim().split('.')[0]).toBe(react);
  });

  it('answers a question with a source, keeps the conversation across a reload, logs no error', async () => {
    const opened = await openPage(browser!, pageUrl());
    const answer = await askAndExpectAnswer(opened.page, QUESTION);
    expect(answer.sources.map((source) => source.href)).toContainEqual(
      expect.stringContaining('getting-started'),
    );
    await expectConversationAfterReload(opened.page, { question: QUESTION, answer });
    expect(opened.pageErrors.map(String)).toEqual([]);
    expect(opened.console).toEqual([]);
    await opened.page.close();
  });

  it("keeps the page's own content and script working beside the widget", async () => {
    const opened = await openPage(browser!, pageUrl());
    const { page } = opened;
    await assistantLauncher(page).waitFor();
    await expect.poll(() => page.locator('main pre code').innerText()).toContain('npm install');
    await page.locator('#page-counter').click();
    await expect.poll(() => page.locator('#page-counter').innerText()).toBe('Clicked 1 times');
    expect(opened.pageErrors.map(String)).toEqual([]);
    await page.close();
  });
});
