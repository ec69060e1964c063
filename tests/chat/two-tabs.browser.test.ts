/**
 * Two tabs of one docs site (two pages of ONE Chromium context, so one localStorage), each with the
 * real widget, against an assistant over HTTP on 127.0.0.1 with the real service's thread rules
 * (a new thread gets `X-Thread-Id` and `X-Thread-Key`; a follow-up must send both, or 404). The
 * answers are written with the AI SDK v4's `createDataStreamResponse` and held by the test, so both
 * tabs are mid-answer at the same moment and the order in which they end is the test's to choose.
 */
import { resolve } from 'node:path';
import { createDataStreamResponse, type DataStreamWriter, formatDataStreamPart } from 'ai';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWidgetPage, type WidgetPage } from '../ui/widget-page';
import { finishLine, sendResponse, serveHttp } from './helpers';

const root = resolve(import.meta.dirname, '../.artifacts/chat-two-tabs');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');

const MAIN = `
import { createRoot } from 'react-dom/client';
import { DocsAssistant } from '${src}/index';
import '${src}/styles/docs-assistant.css';

const base = new URLSearchParams(location.search).get('base');
createRoot(document.getElementById('app')).render(
  <DocsAssistant domain="acme" apiKey="svc_dsc_two_tabs" baseUrl={base} />,
);
`;

/** Rounds of both tabs asking at once: a race that lost 1 round in 5 needs more than 5 to show. */
const ROUNDS = 20;

/** The answer the service gives to a question (one per question, so a crossed answer shows). */
const answerTo = (question: string) => `Answer to: ${question}.`;

interface Held {
  /** Ends the answer (its last words, the finish part with the thread). */
  release: () => void;
}

/**
 * The assistant: threads with keys like the real service; every answer writes its first words at
 * once and waits for the test to `release` the rest.
 */
async function assistantService() {
  const threads = new Map<string, string>();
  const held = new Map<string, Held>();
  const waiting = new Map<string, () => void>();
  const server = await serveHttp(async (request, response, _index, raw) => {
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': 'authorization, content-type',
      'Access-Control-Allow-Methods': 'POST',
      'Access-Control-Expose-Headers': 'X-Thread-Id, X-Thread-Key',
    };
    if (request.method === 'OPTIONS') {
      response.writeHead(204, cors);
      response.end();
      return;
    }
    const body = JSON.parse(raw) as {
      threadId?: string;
      threadKey?: string;
      messages: Array<{ role: string; content: string }>;
    };
    let threadId = body.threadId;
    const headers: Record<string, string> = { ...cors };
    if (threadId === undefined) {
      threadId = `thr_${threads.size + 1}`;
      const key = `key_${threads.size + 1}`;
      threads.set(threadId, key);
      headers['X-Thread-Id'] = threadId;
      headers['X-Thread-Key'] = key;
    } else if (threads.get(threadId) !== body.threadKey) {
      response.writeHead(404, { ...cors, 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ error: 'Thread not found' }));
      return;
    }
    const question = body.messages.at(-1)?.content ?? '';
    const released = new Promise<void>((done) => {
      held.set(question, { release: done });
    });
    waiting.get(question)?.();
    const thread = threadId;
    await sendResponse(
      response,
      createDataStreamResponse({
        headers,
        async execute(stream: DataStreamWriter) {
          stream.write(formatDataStreamPart('start_step', { messageId: `msg-${question}` }));
          stream.write(formatDataStreamPart('text', 'Answer to: '));
          await released;
          stream.write(formatDataStreamPart('text', `${question}.`));
          stream.write(
            formatDataStreamPart('finish_step', {
              finishReason: 'stop',
              usage: { promptTokens: 1, completionTokens: 2 },
              isContinued: false,
            }),
          );
          stream.write(finishLine({ threadId: thread }));
        },
      }),
    );
  });
  return {
    ...server,
    /** Resolves once the question's request has arrived and its answer has begun. */
    arrived: (question: string) =>
      new Promise<void>((done) => {
        if (held.has(question)) done();
        else waiting.set(question, done);
      }),
    release: (question: string) => held.get(question)?.release(),
  };
}

let widgetPage: WidgetPage | undefined;
let service: Awaited<ReturnType<typeof assistantService>> | undefined;

beforeAll(async () => {
  widgetPage = await serveWidgetPage(root, { title: 'two tabs', main: MAIN });
  service = await assistantService();
}, 120_000);

afterAll(async () => {
  await service?.close();
  await widgetPage?.close();
});

interface Shown {
  role: string;
  text: string;
}

/** The messages a tab shows, once no answer is streaming. */
const messagesOf = async (page: Page): Promise<Shown[]> => {
  await page.waitForFunction(
    () =>
      !document.querySelector(
        '[data-docs-assistant="message"][data-streaming], [data-docs-assistant="message"] [data-pending]',
      ),
  );
  return page.$$eval('[data-docs-assistant="message"]', (nodes) =>
    nodes.map((node) => ({
      role: node.getAttribute('data-role') ?? '',
      // The text only: a message also holds a label for screen readers ("You") and a copy button.
      text: [...node.querySelectorAll('[data-docs-assistant="part"], [data-docs-assistant="user-text"]')]
        .map((part) => part.textContent)
        .join(''),
    })),
  );
};

/** The answer to `question` on screen in `page` (an announcer repeats it; that one is not counted). */
const answerIn = (page: Page, question: string) =>
  page
    .locator('[data-docs-assistant="message"][data-role="assistant"]')
    .getByText(answerTo(question), { exact: true });

const lastOf = (messages: Shown[], role: string) => messages.filter((m) => m.role === role).at(-1)?.text;

/** Every message text in the stored value: the conversation saved last and all the others kept. */
const storedTexts = (page: Page) =>
  page.evaluate(() => {
    type Thread = { messages: Array<{ content: string }>; others?: Thread[] };
    const value = JSON.parse(localStorage.getItem('docs-assistant:v1:acme') ?? 'null') as Thread | null;
    if (!value) return [];
    return [value, ...(value.others ?? [])].flatMap((thread) => thread.messages.map((m) => m.content));
  });

async function openTab(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  // Waits for a state, not a deadline: the whole unit suite shares two cores with these two pages.
  page.setDefaultTimeout(45_000);
  await page.goto(`${widgetPage!.origin}/?base=${encodeURIComponent(service!.baseUrl)}`);
  await openPanel(page);
  return page;
}

async function openPanel(page: Page) {
  await page.locator('[data-docs-assistant="launcher"]').click();
  await page.getByRole('textbox', { name: /question/i }).waitFor();
}

/**
 * Both tabs ask at the same moment and are answered at the same moment: both answers have begun
 * before either ends; `firstDone` ends first, and its tab shows the end before the other ends.
 */
async function askTogether(tabs: Array<{ page: Page; question: string }>, firstDone: number) {
  for (const { page, question } of tabs)
    await page.getByRole('textbox', { name: /question/i }).fill(question);
  await Promise.all(tabs.map(({ page }) => page.getByRole('textbox', { name: /question/i }).press('Enter')));
  await Promise.all(tabs.map(({ question }) => service!.arrived(question)));
  const order = firstDone === 0 ? tabs : [...tabs].reverse();
  for (const { page, question } of order) {
    service!.release(question);
    await answerIn(page, question).waitFor();
    await messagesOf(page);
  }
}

describe('two tabs of one docs site', () => {
  it('two tabs answering at the same moment each end with their own question and answer; reloading loses no conversation', async () => {
    const context = await widgetPage!.browser.newContext();
    try {
      const tabs = [await openTab(context), await openTab(context)];
      const asked: string[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const questions = [`tab one, round ${round}`, `tab two, round ${round}`];
        asked.push(...questions);
        await askTogether(
          tabs.map((page, i) => ({ page, question: questions[i]! })),
          round % 2,
        );
        for (const [i, page] of tabs.entries()) {
          const shown = await messagesOf(page);
          const own = questions[i]!;
          const other = questions[1 - i]!;
          expect(lastOf(shown, 'user'), `tab ${i + 1}, round ${round}`).toBe(own);
          expect(lastOf(shown, 'assistant'), `tab ${i + 1}, round ${round}`).toBe(answerTo(own));
          expect(shown.map((m) => m.text)).not.toContain(answerTo(other));
        }
      }

      const stored = await storedTexts(tabs[0]!);
      for (const question of asked) {
        expect(stored, question).toContain(question);
        expect(stored, question).toContain(answerTo(question));
      }
      // Reloaded, each tab reopens its own conversation.
      for (const [i, page] of tabs.entries()) {
        await page.reload();
        await openPanel(page);
        const shown = await messagesOf(page);
        expect(lastOf(shown, 'user')).toBe(`tab ${i ? 'two' : 'one'}, round ${ROUNDS}`);
        expect(lastOf(shown, 'assistant')).toBe(answerTo(`tab ${i ? 'two' : 'one'}, round ${ROUNDS}`));
      }
      const afterReload = await storedTexts(tabs[1]!);
      for (const question of asked) expect(afterReload, question).toContain(answerTo(question));
    } finally {
      await context.close();
    }
  }, 300_000);

  it('a follow-up in a tab that missed the other tab’s answer does not erase that conversation', async () => {
    const context = await widgetPage!.browser.newContext();
    try {
      const [one, two] = [await openTab(context), await openTab(context)];
      // A conversation both tabs show.
      await one.getByRole('textbox', { name: /question/i }).fill('shared start');
      await one.getByRole('textbox', { name: /question/i }).press('Enter');
      await service!.arrived('shared start');
      service!.release('shared start');
      await answerIn(two, 'shared start').waitFor();

      // Tab two is mid-answer (and so misses it) while tab one asks and gets its answer.
      await two.getByRole('textbox', { name: /question/i }).fill('slow question in tab two');
      await two.getByRole('textbox', { name: /question/i }).press('Enter');
      await service!.arrived('slow question in tab two');
      await one.getByRole('textbox', { name: /question/i }).fill('quick question in tab one');
      await one.getByRole('textbox', { name: /question/i }).press('Enter');
      await service!.arrived('quick question in tab one');
      service!.release('quick question in tab one');
      await answerIn(one, 'quick question in tab one').waitFor();
      await messagesOf(one);
      service!.release('slow question in tab two');
      await answerIn(two, 'slow question in tab two').waitFor();
      await messagesOf(two);

      // The stale tab asks a follow-up.
      await two.getByRole('textbox', { name: /question/i }).fill('follow-up in tab two');
      await two.getByRole('textbox', { name: /question/i }).press('Enter');
      await service!.arrived('follow-up in tab two');
      service!.release('follow-up in tab two');
      await answerIn(two, 'follow-up in tab two').waitFor();
      await messagesOf(two);

      // Tab one keeps showing its own conversation: tab two's follow-up went to tab two's.
      const lastOne = await messagesOf(one);
      const stored = await storedTexts(one);
      for (const question of [
        'quick question in tab one',
        'slow question in tab two',
        'follow-up in tab two',
      ]) {
        expect(stored, question).toContain(question);
        expect(stored, question).toContain(answerTo(question));
      }
      expect(lastOf(lastOne, 'user')).toBe('quick question in tab one');
      expect(lastOf(lastOne, 'assistant')).toBe(answerTo('quick question in tab one'));
      // Reloaded, each tab reopens its own conversation.
      for (const [page, last] of [
        [one, 'quick question in tab one'],
        [two, 'follow-up in tab two'],
      ] as const) {
        await page.reload();
        await openPanel(page);
        expect(lastOf(await messagesOf(page), 'user')).toBe(last);
      }
      expect(await storedTexts(two)).toContain(answerTo('quick question in tab one'));
    } finally {
      await context.close();
    }
  }, 300_000);
});
