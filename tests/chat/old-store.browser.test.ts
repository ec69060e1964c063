/**
 * A stored value of the single-conversation days with 20,000 messages (3.5 M characters), in
 * Chromium, on the widget built from the sources (issue 39, point 6): the panel mounts with a
 * bounded number of messages in the DOM (the latest `MESSAGE_WINDOW`, counted there), earlier ones
 * come on demand, and the value in localStorage is trimmed to the bounds a save keeps (written back
 * once, keeping the conversation's id). The same page with 20 stored messages shows all 20: what
 * mounting costs depends on the window, not on what is stored.
 */
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { MAX_STORED_CHARS, threadStorageKey } from '../../packages/docs-assistant/src/chat/storage';
import { MESSAGE_WINDOW } from '../../packages/docs-assistant/src/ui/use-message-window';
import { serveWidgetPage, type WidgetPage } from '../ui/widget-page';

const root = resolve(import.meta.dirname, '../.artifacts/old-store-browser');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');
const KEY = threadStorageKey('acme');

const MAIN = `
import { createRoot } from 'react-dom/client';
import { DocsAssistant } from '${src}/index';
import '${src}/styles/docs-assistant.css';

createRoot(document.getElementById('app')).render(
  <DocsAssistant variant="inline" domain="acme" apiKey="svc_dsc_test_assistant" baseUrl="http://127.0.0.1:9"
    shortcut={false} collectors={false} theme="light" />,
);
`;

/** The value the widget of the single-conversation days wrote: `count` questions and answers in turn. */
function legacyValue(count: number): string {
  const messages = Array.from({ length: count }, (_, i) => {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    const content = `${role === 'user' ? 'Question' : 'Answer'} number ${i} of a very long conversation`;
    return { id: `m${i}`, role, content, parts: [{ type: 'text', text: content }] };
  });
  return JSON.stringify({ version: 1, threadId: 'thr_old', threadKey: 'key_old', messages });
}

let widgetPage: WidgetPage;

beforeAll(async () => {
  widgetPage = await serveWidgetPage(root, { title: 'old store', main: MAIN });
}, 120_000);

afterAll(async () => {
  await widgetPage?.close();
});

/** Opens the page with `value` in localStorage before the widget reads it. */
async function openWith(value: string): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await widgetPage.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${widgetPage.origin}/blank`);
  await page.evaluate(([key, stored]) => localStorage.setItem(key!, stored!), [KEY, value]);
  await page.reload();
  return { page, close: () => context.close() };
}

const shownIds = (page: Page) =>
  page.$$eval('[data-docs-assistant="message"]', (items) =>
    items.map((item) => item.getAttribute('data-message-id')),
  );

describe('an old-format stored value of 20,000 messages', () => {
  it('mounts with the latest messages only, shows earlier ones on demand, and is trimmed to the bounds', async () => {
    const value = legacyValue(20_000);
    expect(value.length).toBeGreaterThan(3_000_000);
    const { page, close } = await openWith(value);
    try {
      await page.locator('[data-message-id="m19999"]').waitFor({ timeout: 30_000 });
      const shown = await shownIds(page);
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.length).toBeLessThanOrEqual(MESSAGE_WINDOW);
      expect(shown.at(-1)).toBe('m19999');

      // The store holds what a save keeps, under the same id, written back once.
      const stored = (await page.evaluate((key) => localStorage.getItem(key), KEY))!;
      expect(stored.length).toBeLessThanOrEqual(MAX_STORED_CHARS + 20);
      expect(JSON.parse(stored)).toMatchObject({ version: 1, id: 'v1:m0', threadKey: 'key_old' });

      // Earlier messages come a window at a time, the reader's place kept.
      await page.locator('[data-action="show-earlier"]').click();
      await expect.poll(async () => (await shownIds(page)).length).toBe(2 * MESSAGE_WINDOW);
      expect((await shownIds(page)).at(-1)).toBe('m19999');
    } finally {
      await close();
    }
  }, 120_000);

  it('costs the same to mount as 20 stored messages: all 20 shown there, no button for earlier ones', async () => {
    const { page, close } = await openWith(legacyValue(20));
    try {
      await page.locator('[data-message-id="m19"]').waitFor({ timeout: 30_000 });
      expect(await shownIds(page)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`));
      expect(await page.locator('[data-action="show-earlier"]').count()).toBe(0);
    } finally {
      await close();
    }
  }, 60_000);
});
