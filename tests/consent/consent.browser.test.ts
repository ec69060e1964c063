/**
 * The consent gate in Chromium against the real reference service over HTTP: from page load through
 * hovering and opening the widget, the shortcut, typing, and selecting text on the page, until the
 * reader accepts, every request is recorded (`page.on('request')`) and every storage write (local and
 * session storage, `document.cookie`, IndexedDB and Cache Storage opens, instrumented before any
 * script runs): none reaches the service, the only code loaded is the notice's own chunk, nothing
 * is written. After accepting, the question is answered by the service and the conversation kept;
 * `consent(false)` shows the notice again and leaves nothing of the widget's in storage. axe (every
 * rule, contrast included) finds nothing to fix in the notice.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from '../server/helpers';
import { serveWidgetPage, type WidgetPage } from '../ui/widget-page';

const root = resolve(import.meta.dirname, '../.artifacts/consent-browser');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// The default storage (localStorage), collectors on, the default shortcut: everything that could
// write or load something does, once consent is given.
const MAIN = `
import { createRef } from 'react';
import { createRoot } from 'react-dom/client';
import { DocsAssistant } from '${src}/index';
import '${src}/styles/docs-assistant.css';

const q = new URLSearchParams(location.search);
const ref = createRef();
window.assistant = ref;
createRoot(document.getElementById('app')).render(
  <DocsAssistant ref={ref} domain="acme" apiKey="svc_dsc_test_assistant" baseUrl={q.get('service')}
    theme="light" starterQuestions={{ '/': ['What is Acme?'] }}
    consent={{ linkHref: '/privacy', linkText: 'Privacy policy of Acme' }} />,
);
`;

const HTML =
  '<p id="prose">Acme keeps your API keys in the dashboard under Settings.</p><textarea id="host-input" aria-label="Notes"></textarea>';

/** Records every storage write the page makes, from before its first script. */
const INSTRUMENT = () => {
  const writes: string[] = [];
  (window as unknown as { __writes: string[] }).__writes = writes;
  const area = (storage: Storage) => (storage === window.sessionStorage ? 'session' : 'local');
  const { setItem, removeItem, clear } = Storage.prototype;
  Storage.prototype.setItem = function (key: string, value: string) {
    writes.push(`${area(this)}.setItem ${key}`);
    return setItem.call(this, key, value);
  };
  Storage.prototype.removeItem = function (key: string) {
    writes.push(`${area(this)}.removeItem ${key}`);
    return removeItem.call(this, key);
  };
  Storage.prototype.clear = function () {
    writes.push(`${area(this)}.clear`);
    return clear.call(this);
  };
  const cookie = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
  Object.defineProperty(Document.prototype, 'cookie', {
    configurable: true,
    get() {
      return cookie.get!.call(this);
    },
    set(value: string) {
      writes.push(`cookie ${value}`);
      cookie.set!.call(this, value);
    },
  });
  const open = IDBFactory.prototype.open;
  IDBFactory.prototype.open = function (name: string, version?: number) {
    writes.push(`indexedDB.open ${name}`);
    return open.call(this, name, version);
  };
  if (window.caches) {
    const cachesOpen = CacheStorage.prototype.open;
    CacheStorage.prototype.open = function (name: string) {
      writes.push(`caches.open ${name}`);
      return cachesOpen.call(this, name);
    };
  }
};

let widgetPage: WidgetPage | undefined;
let browser: Browser;
let origin: string;
let service: RunningService | undefined;

beforeAll(async () => {
  widgetPage = await serveWidgetPage(root, { title: 'consent', main: MAIN, html: HTML });
  ({ browser, origin } = widgetPage);
  service = await startService({ siteUrl: `${origin}/docs` });
}, 120_000);

afterAll(async () => {
  await widgetPage?.close();
  await service?.close();
});

const writes = (page: Page) =>
  page.evaluate(() => [...(window as unknown as { __writes: string[] }).__writes]);
const stored = (page: Page) =>
  page.evaluate(() => ({
    local: Object.keys(localStorage).sort(),
    session: Object.keys(sessionStorage).sort(),
    cookie: document.cookie,
  }));

async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run: (el: Element) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> };
    };
    const found = await axe.run(document.querySelector('[data-docs-assistant="root"]')!);
    return found.violations.map((v) => `${v.id} (${v.nodes.length})`);
  });
}

describe('consent gate in Chromium, with the reference service', () => {
  it('sends no request and writes nothing until accept; then answers; consent(false) clears storage', async () => {
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    await context.addInitScript(INSTRUMENT);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const requests: { url: string; method: string; afterLoad: boolean }[] = [];
    let loaded = false;
    page.on('request', (request) =>
      requests.push({ url: request.url(), method: request.method(), afterLoad: loaded }),
    );
    try {
      await page.goto(`${origin}/?${new URLSearchParams({ service: service!.url })}`, { waitUntil: 'load' });
      loaded = true;
      const launcher = page.locator('[data-docs-assistant="launcher"]');
      await launcher.waitFor();

      // Everything a reader does before deciding: hover, focus, select text on the page, type in
      // the page, the shortcut, open, type in the panel, close, open again.
      await launcher.hover();
      await launcher.focus();
      await page.locator('#host-input').fill('a note');
      await page.locator('#prose').selectText();
      // The shortcut works outside text fields.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('Control+i');
      const accept = page.getByRole('button', { name: 'Accept and continue' });
      await accept.waitFor();
      const dialog = page
        .getByRole('dialog', { name: 'Ask AI' })
        .or(page.locator('[data-docs-assistant="panel"]'));
      await expect
        .poll(() => dialog.first().evaluate((el) => el.contains(document.activeElement)))
        .toBe(true);
      await page.keyboard.type('how do I rotate a key');
      await page.keyboard.press('Escape');
      await launcher.click();
      await accept.waitFor();
      await page.keyboard.type('still typing');
      expect(await page.getByRole('link', { name: 'Privacy policy of Acme' }).getAttribute('href')).toBe(
        '/privacy',
      );
      // No question box, no starters, no collector button on the selected text.
      expect(await page.locator('[data-docs-assistant="input"]').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'What is Acme?' }).count()).toBe(0);
      expect(await page.locator('[data-docs-assistant="ask-selection"]').count()).toBe(0);

      const before = requests.filter((request) => request.afterLoad);
      expect(requests.filter((request) => request.url.startsWith(service!.url))).toEqual([]);
      // The only thing fetched after the page loaded: the notice's own code, from the page's origin.
      expect(before.map((request) => `${request.method} ${new URL(request.url).pathname}`)).toEqual([
        expect.stringMatching(/^GET \/assets\/consent-notice-[\w-]+\.js$/),
      ]);
      expect(await writes(page)).toEqual([]);
      expect(await stored(page)).toEqual({ local: [], session: [], cookie: '' });

      await accept.click();
      // Accepted: the panel with the page's starters, and the service answers.
      const input = page.locator('[data-docs-assistant="input"]');
      await input.waitFor();
      await page.getByRole('button', { name: 'What is Acme?' }).waitFor();
      await input.fill('Where are API keys kept?');
      await input.press('Enter');
      await page
        .locator('[data-docs-assistant="root"][data-status="ready"] [data-role="assistant"]')
        .first()
        .waitFor();
      const asked = requests.filter((r) => r.method === 'POST' && r.url === service!.endpoint());
      expect(asked).toHaveLength(1);
      expect((await writes(page))[0]).toBe('local.setItem docs-assistant:consent:acme');
      await expect
        .poll(async () => (await stored(page)).local)
        .toEqual(['docs-assistant:consent:acme', 'docs-assistant:v1:acme']);

      // Withdrawn through the handle (what DocsAssistant.consent(false) calls): the notice again, nothing kept.
      await page.evaluate(() =>
        (
          window as unknown as { assistant: { current: { consent(granted: boolean): void } } }
        ).assistant.current.consent(false),
      );
      await accept.waitFor();
      await expect.poll(() => stored(page)).toEqual({ local: [], session: [], cookie: '' });
      expect(await input.count()).toBe(0);

      // Reloaded after withdrawal: asked again, nothing sent.
      const sentBefore = requests.filter((r) => r.url.startsWith(service!.url)).length;
      await page.reload({ waitUntil: 'load' });
      await launcher.click();
      await accept.waitFor();
      expect(requests.filter((r) => r.url.startsWith(service!.url)).length).toBe(sentBefore);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('has no axe violations in the open notice (contrast included)', async () => {
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    try {
      await page.goto(`${origin}/?${new URLSearchParams({ service: service!.url })}`);
      await page.locator('[data-docs-assistant="launcher"]').click();
      await page.getByRole('button', { name: 'Accept and continue' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
