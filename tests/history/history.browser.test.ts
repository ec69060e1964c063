/**
 * Past conversations end to end, in Chromium, against the real reference service over HTTP on
 * 127.0.0.1 (issue 20 item 1): two conversations, History lists both (newest first, with their
 * number of messages), search finds one by a word of its answer (and says when nothing matches),
 * resuming sends the first conversation's `threadId` and thread key (request body checked), "Copy
 * conversation" copies Markdown with the sources as links, delete removes a conversation from
 * localStorage, delete all asks first; eviction at the count bound and a corrupt store discarded
 * with a warning. axe finds nothing to fix in each state. The page is built with Vite from the
 * sources (tests/ui/widget-page.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { MAX_STORED_CONVERSATIONS } from '../../packages/docs-assistant/src/chat/storage';
import { type RunningService, startService } from '../server/helpers';
import { headerAction, serveWidgetPage, type WidgetPage } from '../ui/widget-page';

const root = resolve(import.meta.dirname, '../.artifacts/history-browser');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const KEY = 'docs-assistant:v1:acme';

const MAIN = `
import { createRoot } from 'react-dom/client';
import { DocsAssistant } from '${src}/index';
import '${src}/styles/docs-assistant.css';

const q = new URLSearchParams(location.search);
createRoot(document.getElementById('app')).render(
  <DocsAssistant variant="inline" domain="acme" apiKey="svc_dsc_test_assistant" baseUrl={q.get('service') ?? undefined}
    shortcut={false} collectors={false} theme="light" />,
);
`;

let widgetPage: WidgetPage | undefined;
let browser: Browser;
let origin: string;
let service: RunningService | undefined;

beforeAll(async () => {
  widgetPage = await serveWidgetPage(root, { title: 'history', main: MAIN });
  ({ browser, origin } = widgetPage);
  service = await startService({ siteUrl: `${origin}/docs` });
}, 90_000);

afterAll(async () => {
  await widgetPage?.close();
  await service?.close();
});

interface Opened {
  page: Page;
  context: BrowserContext;
  /** Requests to the assistant's message endpoint, in order. */
  messages: Request[];
  warnings: string[];
  close: () => Promise<void>;
}

/** Opens the page in a fresh context; `stored` is put in localStorage before the page's scripts run. */
async function open(stored?: string): Promise<Opened> {
  const context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  if (stored !== undefined) {
    await context.addInitScript(
      ([key, value]) => {
        // Once per context: a reload keeps what the widget wrote.
        if (!sessionStorage.getItem('seeded')) {
          localStorage.setItem(key, value);
          sessionStorage.setItem('seeded', '1');
        }
      },
      [KEY, stored] as const,
    );
  }
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  const warnings: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  const messages: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/message')) messages.push(request);
  });
  await page.goto(`${origin}/?${new URLSearchParams({ service: service!.url })}`);
  await page.locator('[data-docs-assistant="input"]').waitFor();
  return {
    page,
    context,
    messages,
    warnings,
    close: async () => {
      expect(errors).toEqual([]);
      await context.close();
    },
  };
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run: (el: Element) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> };
    };
    const found = await axe.run(document.querySelector('[data-docs-assistant="root"]')!);
    return found.violations.map((violation) => `${violation.id} (${violation.nodes.length})`);
  });
}

async function askAndWait(page: Page, question: string): Promise<void> {
  const before = await page.locator('[data-docs-assistant="message"][data-role="assistant"]').count();
  await page.locator('[data-docs-assistant="input"]').fill(question);
  await page.keyboard.press('Enter');
  await expect
    .poll(() => page.locator('[data-docs-assistant="message"][data-role="assistant"]').count())
    .toBe(before + 1);
  // Finished: the composer offers Send again, not Stop.
  await page.locator('[data-docs-assistant="composer"] button[type="submit"]').waitFor();
}

interface StoredEntry {
  id?: string;
  threadId?: string;
  threadKey?: string;
  messages: { role: string; content: string }[];
}
type Stored = StoredEntry & { others?: StoredEntry[] };

async function storedList(page: Page): Promise<StoredEntry[]> {
  const raw = await page.evaluate((key) => localStorage.getItem(key), KEY);
  if (raw === null) return [];
  const value = JSON.parse(raw) as Stored;
  return [value, ...(value.others ?? [])];
}

const items = (page: Page) => page.locator('[data-docs-assistant="history-item"]');
const titles = (page: Page) => items(page).locator('[data-part="title"]').allTextContents();
const historyStatus = (page: Page) => page.locator('[data-docs-assistant="history-status"]');

const FIRST = 'How do I change the colours?';
const SECOND = 'How does the static export work?';

// Bounds for a busy machine (a run beside others timed out at 20 s here); a passing run takes seconds.
describe('History', { timeout: 60_000 }, () => {
  it('lists, searches, resumes (thread and key sent), copies and deletes conversations', async () => {
    const tab = await open();
    const { page } = tab;
    await askAndWait(page, FIRST);
    await page.locator('[data-action="new-conversation"]').click();
    await expect.poll(() => page.locator('[data-docs-assistant="message"]').count()).toBe(0);
    await askAndWait(page, SECOND);
    const [second, first] = await storedList(page);
    expect(first?.messages[0]?.content).toBe(FIRST);
    expect(second?.messages[0]?.content).toBe(SECOND);
    expect(first?.threadId).toMatch(/^thr_/);
    expect(first?.threadKey).toBeTruthy();
    expect(second?.threadId).not.toBe(first?.threadId);

    // History: both, newest first, each with its number of messages; focus in the search box.
    await page.locator('[data-action="history"]').click();
    await expect.poll(() => titles(page)).toEqual([SECOND, FIRST]);
    expect(await items(page).nth(1).locator('[data-part="meta"]').textContent()).toContain('2 messages');
    expect(await items(page).first().getByRole('button').first().getAttribute('aria-current')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-docs-assistant'))).toBe(
      'history-search',
    );
    expect(await historyStatus(page).textContent()).toBe('2 conversations');
    expect(await axeViolations(page)).toEqual([]);

    // Search by a word that only the first conversation's answer holds.
    const firstAnswer = first!.messages[1]!.content.toLowerCase();
    const secondText = second!.messages.map((m) => m.content.toLowerCase()).join(' ');
    const word = firstAnswer
      .split(/[^a-z]+/)
      .find(
        (candidate) =>
          candidate.length >= 5 &&
          !secondText.includes(candidate) &&
          !FIRST.toLowerCase().includes(candidate),
      );
    expect(word).toBeTruthy();
    await page.locator('[data-docs-assistant="history-search"]').fill(word!);
    await expect.poll(() => titles(page)).toEqual([FIRST]);
    await page.locator('[data-docs-assistant="history-search"]').fill('zzqxnothing');
    await expect.poll(() => items(page).count()).toBe(0);
    expect(await historyStatus(page).textContent()).toBe('No conversation mentions “zzqxnothing”.');
    expect(await axeViolations(page)).toEqual([]);
    await page.locator('[data-docs-assistant="history-search"]').fill('');

    // Resume the first: its messages, then a question that continues its thread with its key.
    await items(page).filter({ hasText: FIRST }).locator('[data-action="open-conversation"]').click();
    await page.locator('[data-docs-assistant="history"]').waitFor({ state: 'detached' });
    await expect
      .poll(() => page.locator('[data-docs-assistant="message"][data-role="user"]').allTextContents())
      .toEqual([expect.stringContaining(FIRST)]);
    await askAndWait(page, 'And in dark mode?');
    const sent = tab.messages[2]!.postDataJSON() as {
      threadId?: string;
      threadKey?: string;
      messages: unknown[];
    };
    expect(sent.threadId).toBe(first!.threadId);
    expect(sent.threadKey).toBe(first!.threadKey);
    expect(sent.messages).toHaveLength(3);
    const afterResume = await storedList(page);
    expect(afterResume.map((entry) => entry.messages[0]?.content)).toEqual([FIRST, SECOND]);
    expect(afterResume[0]?.messages).toHaveLength(4);
    expect(afterResume[0]?.threadId).toBe(first!.threadId);

    // Copy conversation: Markdown of the whole conversation, sources as links.
    await (await headerAction(page, 'copy-conversation')).click();
    await expect
      .poll(() => page.locator('[data-docs-assistant="notice"]').textContent())
      .toBe('Conversation copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(`**You:** ${FIRST}`);
    expect(copied).toContain('**You:** And in dark mode?');
    expect(copied).toMatch(/\n- \[[^\]]+\]\(http:\/\/127\.0\.0\.1:\d+\/docs\/[^)]*\)/);
    expect(copied.split('\n---\n')).toHaveLength(4);

    // Delete the second: gone from the list and from localStorage; focus stays in the list.
    await page.locator('[data-action="history"]').click();
    await expect.poll(() => titles(page)).toEqual([FIRST, SECOND]);
    await items(page).filter({ hasText: SECOND }).locator('[data-action="delete-conversation"]').click();
    await expect.poll(() => titles(page)).toEqual([FIRST]);
    expect((await storedList(page)).map((entry) => entry.messages[0]?.content)).toEqual([FIRST]);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-action'))).toBe(
      'open-conversation',
    );
    expect(await axeViolations(page)).toEqual([]);

    // Delete all asks first (focus on Cancel); confirmed, the storage is empty.
    await page.locator('[data-action="delete-all-conversations"]').click();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-action'))).toBe(
      'cancel-delete-all',
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.locator('[data-action="confirm-delete-all"]').click();
    await expect.poll(() => items(page).count()).toBe(0);
    expect(await page.evaluate((key) => localStorage.getItem(key), KEY)).toBeNull();
    expect(await historyStatus(page).textContent()).toContain('No past conversations yet');
    expect(await page.locator('[data-docs-assistant="message"]').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await tab.close();
  });

  it(`evicts the oldest past ${MAX_STORED_CONVERSATIONS} conversations`, async () => {
    const old = Array.from({ length: MAX_STORED_CONVERSATIONS }, (_, i) => ({
      id: `old-${i}`,
      revision: 1,
      updatedAt: new Date(Date.UTC(2026, 0, 1) - i * 60_000).toISOString(),
      messages: [
        {
          id: `q-${i}`,
          role: 'user',
          content: `Old question ${i}`,
          parts: [{ type: 'text', text: `Old question ${i}` }],
        },
      ],
    }));
    const [latest, ...others] = old;
    const tab = await open(JSON.stringify({ version: 1, ...latest, others }));
    const { page } = tab;
    await page.locator('[data-action="new-conversation"]').click();
    await askAndWait(page, FIRST);
    const list = await storedList(page);
    expect(list).toHaveLength(MAX_STORED_CONVERSATIONS);
    expect(list[0]?.messages[0]?.content).toBe(FIRST);
    expect(list.map((entry) => entry.id)).not.toContain(`old-${MAX_STORED_CONVERSATIONS - 1}`);
    expect(list.map((entry) => entry.id)).toContain(`old-${MAX_STORED_CONVERSATIONS - 2}`);
    await page.locator('[data-action="history"]').click();
    await expect.poll(() => items(page).count()).toBe(MAX_STORED_CONVERSATIONS);
    await tab.close();
  });

  it('discards a corrupt store with a warning and keeps working', async () => {
    const tab = await open('{"version":1,"messages":[{"id":');
    const { page } = tab;
    await page.locator('[data-action="history"]').click();
    expect(await historyStatus(page).textContent()).toContain('No past conversations yet');
    expect(tab.warnings.some((text) => /Discarded the stored conversation.*not valid JSON/.test(text))).toBe(
      true,
    );
    expect(await page.evaluate((key) => localStorage.getItem(key), KEY)).toBeNull();
    await page.locator('[data-action="close-history"]').click();
    await askAndWait(page, FIRST);
    expect((await storedList(page)).map((entry) => entry.messages[0]?.content)).toEqual([FIRST]);
    await tab.close();
  });
});
