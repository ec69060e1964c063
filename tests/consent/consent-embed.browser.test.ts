/**
 * The consent gate and page starters in the script build (`docs-assistant/embed`, built and served
 * as a site would: GET /embed.js and /embed-chunks/*, tests/embed/embed-site.ts), with the real
 * reference service on the same origin: `DocsAssistant.init({ consent, starterQuestions })` on a
 * plain HTML page. Until the reader accepts, the page asks nothing of the service (`/discovery/…`),
 * loads no code but the notice's chunk and writes no storage; after accepting, the page's starters
 * (by path prefix) show and a question is answered; `update({ starterQuestions })` changes them;
 * `DocsAssistant.consent(false)` shows the notice again and leaves no storage of the widget's.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSISTANT_KEY, DOMAIN, type EmbedSite, startEmbedSite } from '../embed/embed-site';

let site: EmbedSite;

const page = (origin: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>API keys</title><link rel="icon" href="data:,">
<script type="module" src="/embed.js"></script>
<script type="module">
DocsAssistant.init({
  domain: ${JSON.stringify(DOMAIN)},
  apiKey: ${JSON.stringify(ASSISTANT_KEY)},
  baseUrl: ${JSON.stringify(origin)},
  theme: 'light',
  consent: { linkHref: '/privacy', notice: 'Questions go to the Acme assistant service.' },
  starterQuestions: {
    '/': ['How do I install it?'],
    '/api': ['How do I create an API key?', 'What are the rate limits?'],
  },
});
</script>
</head><body><main><h1>API keys</h1><p id="intro">Create keys in the dashboard.</p></main></body></html>`;

beforeAll(async () => {
  site = await startEmbedSite('react');
  site.page('/api/keys', page(site.origin));
}, 180_000);

afterAll(async () => {
  await site?.close();
});

const storage = (p: Page) =>
  p.evaluate(() => ({
    local: Object.keys(localStorage).sort(),
    session: Object.keys(sessionStorage).sort(),
  }));

describe('consent and page starters in the script build', () => {
  it('withholds every request and write until accept, then works; consent(false) forgets', async () => {
    const context = await site.browser.newContext({ reducedMotion: 'reduce' });
    await context.addInitScript(() => {
      const writes: string[] = [];
      (window as unknown as { __writes: string[] }).__writes = writes;
      const { setItem, removeItem } = Storage.prototype;
      Storage.prototype.setItem = function (key: string, value: string) {
        writes.push(`setItem ${key}`);
        return setItem.call(this, key, value);
      };
      Storage.prototype.removeItem = function (key: string) {
        writes.push(`removeItem ${key}`);
        return removeItem.call(this, key);
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
    });
    const p = await context.newPage();
    p.setDefaultTimeout(15_000);
    const errors: string[] = [];
    p.on('pageerror', (error) => errors.push(error.message));
    const requests: { path: string; method: string; afterLoad: boolean }[] = [];
    let loaded = false;
    p.on('request', (request) =>
      requests.push({ path: new URL(request.url()).pathname, method: request.method(), afterLoad: loaded }),
    );
    try {
      await p.goto(`${site.origin}/api/keys`, { waitUntil: 'load' });
      const launcher = p.locator('[data-docs-assistant="launcher"]');
      await launcher.waitFor();
      loaded = true;
      await launcher.hover();
      await p.evaluate(() =>
        (window as unknown as { DocsAssistant: { open(): Promise<void> } }).DocsAssistant.open(),
      );
      const accept = p.getByRole('button', { name: 'Accept and continue' });
      await accept.waitFor();
      await p.keyboard.type('typing before deciding');
      expect(await p.getByRole('link', { name: 'Privacy policy' }).getAttribute('href')).toBe('/privacy');

      expect(requests.filter((r) => r.path.startsWith('/discovery/'))).toEqual([]);
      const after = requests.filter((r) => r.afterLoad).map((r) => `${r.method} ${r.path}`);
      expect(after).toEqual([expect.stringMatching(/^GET \/embed-chunks\/consent-notice-[\w-]+\.js$/)]);
      expect(await p.evaluate(() => (window as unknown as { __writes: string[] }).__writes)).toEqual([]);
      expect(await storage(p)).toEqual({ local: [], session: [] });

      await accept.click();
      // The starters of the longest prefix covering /api/keys.
      await p.getByRole('button', { name: 'How do I create an API key?' }).waitFor();
      expect(await p.getByRole('button', { name: 'How do I install it?' }).count()).toBe(0);
      await p.getByRole('button', { name: 'What are the rate limits?' }).click();
      await p
        .locator('[data-docs-assistant="root"][data-status="ready"] [data-role="assistant"]')
        .first()
        .waitFor();
      expect(requests.filter((r) => r.method === 'POST' && r.path.endsWith('/message'))).toHaveLength(1);
      await expect
        .poll(async () => (await storage(p)).local)
        .toEqual([`docs-assistant:consent:${DOMAIN}`, `docs-assistant:v1:${DOMAIN}`]);

      // update() takes a function of the path; a new conversation shows its starters.
      await p.evaluate(() =>
        (
          window as unknown as { DocsAssistant: { update(c: object): Promise<void>; reset(): Promise<void> } }
        ).DocsAssistant.update({ starterQuestions: (path: string) => [`What is on ${path}?`] }),
      );
      await p.evaluate(() =>
        (window as unknown as { DocsAssistant: { reset(): Promise<void> } }).DocsAssistant.reset(),
      );
      await p.getByRole('button', { name: 'What is on /api/keys?' }).waitFor();

      await p.evaluate(() =>
        (
          window as unknown as { DocsAssistant: { consent(granted: boolean): Promise<void> } }
        ).DocsAssistant.consent(false),
      );
      // The sweep is in the notice's chunk (already loaded here): it runs once that import resolves.
      await expect.poll(() => storage(p)).toEqual({ local: [], session: [] });
      await accept.waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
