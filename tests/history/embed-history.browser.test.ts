/**
 * Past conversations in the script build (issue 20 item 1): `docs-assistant/embed` built with its
 * own config (React and Preact) and served by the service's embed routes, on a plain HTML page with the real
 * reference service on the same origin (tests/embed/embed-site.ts), in Chromium. Two
 * conversations; `DocsAssistant.conversations()` and the History view (inside the Shadow DOM) list
 * both; search finds one by a word of its answer; `DocsAssistant.openConversation(id)` resumes it
 * and the next question carries its `threadId` and key (request body checked);
 * `DocsAssistant.deleteConversation(id)` removes one from localStorage; axe finds nothing to fix;
 * a corrupt store is discarded with a warning, and the oldest go past the count bound.
 */
import type { Page, Request } from 'playwright-core';
import { MAX_STORED_CONVERSATIONS } from '../../packages/docs-assistant/src/chat/storage';
import {
  axeSource,
  EMBED_FLAVOURS,
  type EmbedSite,
  elementAttributes,
  startEmbedSite,
} from '../embed/embed-site';

const KEY = 'docs-assistant:v1:acme';
const FIRST = 'How do I change the colours?';
const SECOND = 'How does the static export work?';

interface Summary {
  id: string;
  title: string;
  threadId?: string;
  updatedAt?: Date;
  messages: { role: string; content: string }[];
}
interface Api {
  ask(question: string): Promise<void>;
  conversations(): Promise<Summary[]>;
  openConversation(id: string): Promise<void>;
  deleteConversation(id: string): Promise<void>;
  newConversation(): Promise<void>;
}
type Stored = { threadId?: string; threadKey?: string; messages: { content: string }[]; others?: Stored[] };

describe.each(EMBED_FLAVOURS)('History in the script build (%s)', (flavour) => {
  let site: EmbedSite | undefined;

  beforeAll(async () => {
    site = await startEmbedSite(flavour);
    // localStorage (not the tests' usual memory storage): the history is what is stored.
    const attributes = elementAttributes(site.origin, 'variant="inline"').replace('storage="memory"', '');
    site.page(
      '/docs/history.html',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>History</title><link rel="icon" href="data:,">
<script type="module" src="/embed.js"></script></head><body><main><h1>Docs page</h1>
<docs-assistant ${attributes}></docs-assistant></main></body></html>`,
    );
  }, 180_000);

  afterAll(async () => {
    await site?.close();
  });

  const api = <T>(page: Page, run: (api: Api) => Promise<T>) =>
    page.evaluate(`(${run.toString()})(window.DocsAssistant)`) as Promise<T>;

  async function answered(page: Page, count: number): Promise<void> {
    await expect
      .poll(() => page.locator('[data-docs-assistant="message"][data-role="assistant"]').count())
      .toBe(count);
    await page.locator('[data-docs-assistant="composer"] button[type="submit"]').waitFor();
  }

  async function stored(page: Page): Promise<Stored[]> {
    const raw = await page.evaluate((key) => localStorage.getItem(key), KEY);
    if (raw === null) return [];
    const value = JSON.parse(raw) as Stored;
    return [value, ...(value.others ?? [])];
  }

  async function axeViolations(page: Page): Promise<string[]> {
    await page.addScriptTag({ content: axeSource });
    return page.evaluate(async () => {
      const { axe } = window as unknown as {
        axe: { run: (el: Element) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> };
      };
      const found = await axe.run(document.querySelector('docs-assistant')!);
      return found.violations.map((violation) => `${violation.id} (${violation.nodes.length})`);
    });
  }

  it('lists, searches, resumes with thread and key, and deletes through the browser API and the view', async () => {
    const context = await site!.browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const sent: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/message')) sent.push(request);
    });
    await page.goto(`${site!.origin}/docs/history.html`);
    await page.locator('[data-docs-assistant="input"]').waitFor();

    await page.locator('[data-docs-assistant="input"]').fill(FIRST);
    await page.keyboard.press('Enter');
    await answered(page, 1);
    await api(page, (assistant) => assistant.newConversation());
    await expect.poll(() => page.locator('[data-docs-assistant="message"]').count()).toBe(0);
    await page.locator('[data-docs-assistant="input"]').fill(SECOND);
    await page.keyboard.press('Enter');
    await answered(page, 1);

    const list = await api(page, (assistant) => assistant.conversations());
    expect(list.map((item) => [item.title, item.messages.length])).toEqual([
      [SECOND, 2],
      [FIRST, 2],
    ]);
    const [second, first] = list;
    const [, firstStored] = await stored(page);
    expect(firstStored?.threadId).toBe(first!.threadId);
    expect(firstStored?.threadKey).toBeTruthy();

    // The History view in the Shadow DOM: both, then one by a word only its answer holds.
    await page.locator('[data-action="history"]').click();
    const titles = () =>
      page.locator('[data-docs-assistant="history-item"] [data-part="title"]').allTextContents();
    await expect.poll(titles).toEqual([SECOND, FIRST]);
    const secondText = second!.messages.map((m) => m.content.toLowerCase()).join(' ');
    const word = first!.messages[1]!.content.toLowerCase()
      .split(/[^a-z]+/)
      .find((w) => w.length >= 5 && !secondText.includes(w) && !FIRST.toLowerCase().includes(w));
    expect(word).toBeTruthy();
    await page.locator('[data-docs-assistant="history-search"]').fill(word!);
    await expect.poll(titles).toEqual([FIRST]);
    expect(await axeViolations(page)).toEqual([]);
    await page.locator('[data-action="close-history"]').click();

    // Resume the first through the API: the next question goes on in its thread, with its key.
    await api(page, (assistant) =>
      assistant.conversations().then((items) => assistant.openConversation(items[1]!.id)),
    );
    await expect
      .poll(() => page.locator('[data-docs-assistant="message"][data-role="user"]').allTextContents())
      .toEqual([expect.stringContaining(FIRST)]);
    await page.locator('[data-docs-assistant="input"]').fill('And in dark mode?');
    await page.keyboard.press('Enter');
    await answered(page, 2);
    const body = sent[2]!.postDataJSON() as { threadId?: string; threadKey?: string };
    expect(body.threadId).toBe(firstStored!.threadId);
    expect(body.threadKey).toBe(firstStored!.threadKey);

    // Delete the second through the API: gone from storage and from the list.
    await api(page, (assistant) =>
      assistant
        .conversations()
        .then((items) => assistant.deleteConversation(items.find((i) => i.title !== items[0]!.title)!.id)),
    );
    expect((await stored(page)).map((item) => item.messages[0]?.content)).toEqual([FIRST]);
    expect((await api(page, (assistant) => assistant.conversations())).map((item) => item.title)).toEqual([
      FIRST,
    ]);
    await expect(api(page, (assistant) => assistant.openConversation(''))).rejects.toThrow(/expects the id/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('discards a corrupt store with a warning, and evicts the oldest past the count bound', async () => {
    const seeded = async (value: string) => {
      const context = await site!.browser.newContext();
      await context.addInitScript(
        ([key, raw]) => {
          if (!sessionStorage.getItem('seeded')) {
            localStorage.setItem(key, raw);
            sessionStorage.setItem('seeded', '1');
          }
        },
        [KEY, value] as const,
      );
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const warnings: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'warning') warnings.push(message.text());
      });
      await page.goto(`${site!.origin}/docs/history.html`);
      await page.locator('[data-docs-assistant="input"]').waitFor();
      return { context, page, warnings };
    };

    const corrupt = await seeded('{"version":1,"messages":[{"id":');
    expect(await api(corrupt.page, (assistant) => assistant.conversations())).toEqual([]);
    expect(
      corrupt.warnings.some((text) => /Discarded the stored conversation.*not valid JSON/.test(text)),
    ).toBe(true);
    expect(await corrupt.page.evaluate((key) => localStorage.getItem(key), KEY)).toBeNull();
    await corrupt.context.close();

    const old = Array.from({ length: MAX_STORED_CONVERSATIONS }, (_, i) => ({
      id: `old-${i}`,
      revision: 1,
      updatedAt: new Date(Date.UTC(2026, 0, 1) - i * 60_000).toISOString(),
      messages: [
        { id: `q-${i}`, role: 'user', content: `Old ${i}`, parts: [{ type: 'text', text: `Old ${i}` }] },
      ],
    }));
    const [latest, ...others] = old;
    const full = await seeded(JSON.stringify({ version: 1, ...latest, others }));
    await api(full.page, (assistant) => assistant.newConversation());
    await full.page.locator('[data-docs-assistant="input"]').fill(FIRST);
    await full.page.keyboard.press('Enter');
    await answered(full.page, 1);
    const ids = (await api(full.page, (assistant) => assistant.conversations())).map((item) => item.id);
    expect(ids).toHaveLength(MAX_STORED_CONVERSATIONS);
    expect(ids).not.toContain(`old-${MAX_STORED_CONVERSATIONS - 1}`);
    expect(ids).toContain(`old-${MAX_STORED_CONVERSATIONS - 2}`);
    expect(await stored(full.page)).toHaveLength(MAX_STORED_CONVERSATIONS);
    await full.context.close();
  });
});
