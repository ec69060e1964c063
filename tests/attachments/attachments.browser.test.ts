/**
 * Attachments in the widget (`attachments` prop), in Chromium, against the real reference service
 * over HTTP on 127.0.0.1: files come in by the picker, paste and drop, show as removable chips (an
 * image with its preview), go out as data URLs in `experimental_attachments` of the user message,
 * and a text file informs the answer; files over the limits are refused with an announced message
 * naming the limit while the question typed so far stays. axe finds nothing in each state. The page
 * is built with Vite from the sources (see tests/ui/widget-page.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import {
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS_PER_MESSAGE,
} from '../../packages/docs-assistant/src/protocol/limits';
import { type RunningService, startService } from '../server/helpers';
import { serveWidgetPage, type WidgetPage } from '../ui/widget-page';

const root = resolve(import.meta.dirname, '../.artifacts/attachments-browser');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const MAIN = `
import { createRoot } from 'react-dom/client';
import { DocsAssistant } from '${src}/index';
import '${src}/styles/docs-assistant.css';

const q = new URLSearchParams(location.search);
createRoot(document.getElementById('app')).render(
  <DocsAssistant variant="inline" domain="acme" apiKey="svc_dsc_test_assistant" baseUrl={q.get('service')}
    storage={q.get('storage') ?? 'memory'} shortcut={false} collectors={false} theme="light"
    attachments={q.get('attachments') !== 'off'} feedback={false} />,
);
`;

let widgetPage: WidgetPage | undefined;
let browser: Browser;
let origin: string;
let service: RunningService | undefined;

beforeAll(async () => {
  widgetPage = await serveWidgetPage(root, { title: 'attachments', main: MAIN });
  ({ browser, origin } = widgetPage);
  service = await startService({ siteUrl: `${origin}/docs` });
}, 90_000);

afterAll(async () => {
  await widgetPage?.close();
  await service?.close();
});

async function open(params: Record<string, string> = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  // Handing Chromium a 4-5 MB file took over 10 s beside other runs; a passing run takes seconds.
  page.setDefaultTimeout(30_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const asks: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/discovery/v1/assistant/')) asks.push(request);
  });
  await page.goto(`${origin}/?${new URLSearchParams({ service: service!.url, ...params })}`);
  await page.locator('[data-docs-assistant="input"]').waitFor();
  return {
    page,
    asks,
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

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const CONFIG = 'notifications={true}\n# shows a badge when something new arrives';

const picker = (page: Page) => page.getByLabel('Attach files');
const chips = (page: Page) => page.locator('[data-docs-assistant="attachment"]');
const alert = (page: Page) => page.locator('[data-docs-assistant="attachment-error"]');

type SentMessage = {
  role: string;
  experimental_attachments?: { name?: string; contentType?: string; url: string }[];
};
const lastMessage = (request: Request) =>
  (request.postDataJSON() as { messages: SentMessage[] }).messages.at(-1)!;

describe('attachments', { timeout: 60_000 }, () => {
  it('are not kept in localStorage: a 4 MB file sent, the conversation saved without it and restored', async () => {
    const { page, asks, close } = await open({ storage: 'local' });
    const big = Buffer.alloc(4 * 1024 * 1024, 0x61);
    await picker(page).setInputFiles([{ name: 'huge.log', mimeType: 'text/plain', buffer: big }]);
    await expect.poll(() => chips(page).count()).toBe(1);
    await page.locator('[data-docs-assistant="input"]').fill('How do I turn dark mode off?');
    await page.keyboard.press('Enter');
    await page.locator('[data-docs-assistant="message"][data-role="assistant"]').first().waitFor();
    await expect.poll(() => page.getAttribute('[data-docs-assistant="root"]', 'data-status')).toBe('ready');
    expect(lastMessage(asks[0]!).experimental_attachments?.[0]?.url.length).toBeGreaterThan(big.length);
    const stored = await page.evaluate(() => localStorage.getItem('docs-assistant:v1:acme') ?? '');
    expect(stored).toContain('How do I turn dark mode off?');
    expect(stored).not.toContain('data:text/plain');
    expect(stored.length).toBeLessThan(100_000);
    await page.reload();
    await expect.poll(() => page.locator('[data-docs-assistant="message"]').count()).toBe(2);
    await close();
  });

  it('off by default: no attach control', async () => {
    const { page, close } = await open({ attachments: 'off' });
    expect(await page.locator('[data-action="attach"]').count()).toBe(0);
    expect(await page.locator('input[type="file"]').count()).toBe(0);
    await close();
  });

  it('picker: chips with an image preview, removal, then sent as data URLs and the text file used as context', async () => {
    const { page, asks, close } = await open();
    await picker(page).setInputFiles([
      { name: 'screenshot.png', mimeType: 'image/png', buffer: PNG },
      { name: 'widget-config.txt', mimeType: 'text/plain', buffer: Buffer.from(CONFIG) },
      { name: 'extra.ts', mimeType: 'video/mp2t', buffer: Buffer.from('export const x = 1;') },
    ]);
    await expect.poll(() => chips(page).count()).toBe(3);
    const list = page.getByRole('list', { name: 'Attached files' });
    expect(await list.getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('screenshot.png'),
      expect.stringContaining('widget-config.txt'),
      expect.stringContaining('extra.ts'),
    ]);
    // The image is previewed from its data URL.
    const preview = chips(page).first().locator('img');
    expect(await preview.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    expect(await axeViolations(page)).toEqual([]);

    // Removing a chip moves focus to the next one's remove button.
    await page.getByRole('button', { name: 'Remove extra.ts' }).click();
    await expect.poll(() => chips(page).count()).toBe(2);
    await page.getByRole('button', { name: 'Remove screenshot.png' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => chips(page).count()).toBe(1);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Remove widget-config.txt',
    );

    await page.locator('[data-docs-assistant="input"]').fill('What does this setting do?');
    await page.keyboard.press('Enter');
    await page.locator('[data-docs-assistant="message"][data-role="assistant"]').first().waitFor();
    await expect.poll(() => page.getAttribute('[data-docs-assistant="root"]', 'data-status')).toBe('ready');
    expect(asks).toHaveLength(1);
    const sent = lastMessage(asks[0]!);
    expect(sent.role).toBe('user');
    expect(sent.experimental_attachments).toEqual([
      {
        name: 'widget-config.txt',
        contentType: 'text/plain',
        url: `data:text/plain;base64,${Buffer.from(CONFIG).toString('base64')}`,
      },
    ]);
    // Sent with the question, the chips go; the question shows the file's name; the answer comes
    // from the attached file's topic.
    expect(await chips(page).count()).toBe(0);
    expect(
      await page
        .locator(
          '[data-docs-assistant="message"][data-role="user"] [data-docs-assistant="message-attachment"]',
        )
        .allTextContents(),
    ).toEqual(['widget-config.txt']);
    // The answer is wholly on screen once its message holds nothing pending (its last Markdown
    // blocks may still be on their way from the worker when the status is ready).
    const whole = '[data-docs-assistant="message"][data-role="assistant"]:not(:has([data-pending]))';
    await page.locator(whole).waitFor();
    const answer = await page.locator('[data-docs-assistant="message"][data-role="assistant"]').textContent();
    expect(answer).toMatch(/badge/i);
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });

  it('paste and drop attach files; pasted text stays text', async () => {
    const { page, close } = await open();
    const input = page.locator('[data-docs-assistant="input"]');
    await input.fill('Typed first');
    // A paste and a drop in the same moment (the first before the attachments view has even loaded) both attach.
    await input.evaluate((textarea) => {
      const pasted = new DataTransfer();
      pasted.items.add(new File(['one'], 'one.txt', { type: 'text/plain' }));
      textarea.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: pasted, bubbles: true, cancelable: true }),
      );
      const dropped = new DataTransfer();
      dropped.items.add(new File(['two'], 'two.txt', { type: 'text/plain' }));
      textarea
        .closest('form')!
        .dispatchEvent(new DragEvent('drop', { dataTransfer: dropped, bubbles: true, cancelable: true }));
    });
    await expect.poll(() => chips(page).count()).toBe(2);
    await input.evaluate((textarea) => {
      const data = new DataTransfer();
      data.items.add(new File(['# Notes'], 'notes.md', { type: 'text/markdown' }));
      textarea.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    });
    await expect.poll(() => chips(page).count()).toBe(3);
    await page.locator('[data-docs-assistant="composer"]').evaluate((form) => {
      const data = new DataTransfer();
      data.items.add(new File(['a,b'], 'data.csv', { type: 'text/csv' }));
      form.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      form.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await expect.poll(() => chips(page).count()).toBe(4);
    expect(await chips(page).allTextContents()).toEqual([
      expect.stringContaining('one.txt'),
      expect.stringContaining('two.txt'),
      expect.stringContaining('notes.md'),
      expect.stringContaining('data.csv'),
    ]);
    // A paste of text only is left to the text box.
    const kept = await input.evaluate((textarea) => {
      const data = new DataTransfer();
      data.setData('text/plain', ' and pasted');
      const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
      textarea.dispatchEvent(event);
      return !event.defaultPrevented;
    });
    expect(kept).toBe(true);
    expect(await input.inputValue()).toBe('Typed first');
    await close();
  });

  it(`refuses a file over ${MAX_ATTACHMENT_BYTES} bytes, one too many and a binary, saying why; the typed question stays`, async () => {
    const { page, asks, close } = await open();
    const input = page.locator('[data-docs-assistant="input"]');
    await input.fill('Why does my build fail?');
    await picker(page).setInputFiles([
      { name: 'build.log', mimeType: 'text/plain', buffer: Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 0x61) },
    ]);
    await expect
      .poll(() => alert(page).textContent())
      .toBe('“build.log” was not attached: files can be at most 5 MB.');
    expect(await alert(page).getAttribute('role')).toBe('alert');
    expect(await chips(page).count()).toBe(0);
    expect(await input.inputValue()).toBe('Why does my build fail?');

    await picker(page).setInputFiles([
      { name: 'app.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
    ]);
    await expect.poll(() => alert(page).textContent()).toContain('“app.exe” was not attached: only images');

    const files = Array.from({ length: MAX_ATTACHMENTS_PER_MESSAGE + 1 }, (_, i) => ({
      name: `part-${i}.txt`,
      mimeType: 'text/plain',
      buffer: Buffer.from(`part ${i}`),
    }));
    await picker(page).setInputFiles(files);
    await expect.poll(() => chips(page).count()).toBe(MAX_ATTACHMENTS_PER_MESSAGE);
    expect(await alert(page).textContent()).toBe(
      `“part-${MAX_ATTACHMENTS_PER_MESSAGE}.txt” was not attached: at most ${MAX_ATTACHMENTS_PER_MESSAGE} files per question.`,
    );
    expect(await input.inputValue()).toBe('Why does my build fail?');
    expect(asks).toHaveLength(0);
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });
});
