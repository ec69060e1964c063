/**
 * Vite apps (React 19 and React 18.3) that install the widget from its tarball, built for
 * production with `vite build` and driven in Chromium against the installed reference service:
 * open the assistant, ask, get an answer with a source, reload, conversation kept, no error; past
 * conversations (History lists two, search, resume with thread and key, delete from storage).
 */
import { join } from 'node:path';
import type { Browser, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  askAndExpectAnswer,
  assistantLauncher,
  expectConversationAfterReload,
  expectMarkdownWorker,
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
const SECOND_QUESTION = 'How do I change the colours?';

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
    expectMarkdownWorker(opened.page);
    await expectConversationAfterReload(opened.page, { question: QUESTION, answer });
    expect(opened.pageErrors.map(String)).toEqual([]);
    expect(opened.console).toEqual([]);
    await opened.page.close();
  });

  it('History: two conversations listed, one found by a word of its answer, resumed with its thread and key, deleted', async () => {
    const opened = await openPage(browser!, pageUrl());
    const { page } = opened;
    const sent: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/message')) sent.push(request);
    });
    const first = await askAndExpectAnswer(page, QUESTION);
    await page.locator('[data-action="new-conversation"]').click();
    const second = await askAndExpectAnswer(page, SECOND_QUESTION);
    const key = `docs-assistant:v1:${service!.domain}`;
    type Stored = {
      threadId?: string;
      threadKey?: string;
      messages: { content: string }[];
      others?: Stored[];
    };
    const stored = async () => {
      const value = JSON.parse(
        (await page.evaluate((k) => localStorage.getItem(k), key)) ?? 'null',
      ) as Stored | null;
      return value ? [value, ...(value.others ?? [])] : [];
    };
    const [, firstStored] = await stored();
    expect(firstStored?.messages[0]?.content).toBe(QUESTION);
    expect(firstStored?.threadKey).toBeTruthy();

    await page.locator('[data-action="history"]').click();
    const titles = () =>
      page.locator('[data-docs-assistant="history-item"] [data-part="title"]').allInnerTexts();
    await expect.poll(titles).toEqual([SECOND_QUESTION, QUESTION]);
    const other = `${SECOND_QUESTION} ${second.text}`.toLowerCase();
    const word = first.text
      .toLowerCase()
      .split(/[^a-z]+/)
      .find((w) => w.length >= 5 && !other.includes(w) && !QUESTION.toLowerCase().includes(w));
    expect(word, 'a word only the first answer has').toBeTruthy();
    await page.locator('[data-docs-assistant="history-search"]').fill(word!);
    await expect.poll(titles).toEqual([QUESTION]);
    await page.locator('[data-docs-assistant="history-item"] [data-action="open-conversation"]').click();
    await askAndExpectAnswer(page, 'And the styles?');
    const body = sent.at(-1)!.postDataJSON() as { threadId?: string; threadKey?: string };
    expect(body.threadId).toBe(firstStored!.threadId);
    expect(body.threadKey).toBe(firstStored!.threadKey);

    await page.locator('[data-action="history"]').click();
    await page
      .locator('[data-docs-assistant="history-item"]', { hasText: SECOND_QUESTION })
      .locator('[data-action="delete-conversation"]')
      .click();
    await expect.poll(titles).toEqual([QUESTION]);
    expect((await stored()).map((item) => item.messages[0]?.content)).toEqual([QUESTION]);
    expect(opened.pageErrors.map(String)).toEqual([]);
    expect(opened.console).toEqual([]);
    await page.close();
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
