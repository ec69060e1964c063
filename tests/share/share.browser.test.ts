/**
 * Sharing a conversation end to end, in Chromium, against the real reference service over HTTP on
 * 127.0.0.1: the owner shares (the link is copied), a fresh browser context opens the link and
 * sees the read-only transcript, continuing it starts a NEW thread (the request carries no thread
 * id, and the transcript as the conversation so far), the owner revokes it and the link then
 * says it is gone (404). axe finds nothing to fix in each new state. The page is built with Vite
 * from the sources (tests/ui/widget-page.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { authHeaders, body, type RunningService, startService } from '../server/helpers';
import { headerAction, offersAction, serveWidgetPage, type WidgetPage } from '../ui/widget-page';

const root = resolve(import.meta.dirname, '../.artifacts/share-browser');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const MAIN = `
import { createRoot } from 'react-dom/client';
import { DocsAssistant } from '${src}/index';
import '${src}/styles/docs-assistant.css';

const q = new URLSearchParams(location.search);
createRoot(document.getElementById('app')).render(
  <DocsAssistant variant="inline" domain="acme" apiKey="svc_dsc_test_assistant" baseUrl={q.get('service') ?? undefined}
    shortcut={false} collectors={false} theme="light" share={q.get('share') !== 'off'} />,
);
`;

let widgetPage: WidgetPage | undefined;
let browser: Browser;
let origin: string;
let service: RunningService | undefined;

beforeAll(async () => {
  widgetPage = await serveWidgetPage(root, { title: 'share', main: MAIN });
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
  /** Every request to the service. */
  serviceRequests: Request[];
  close: () => Promise<void>;
}

async function open(url: string): Promise<Opened> {
  const context = await browser.newContext();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const messages: Request[] = [];
  const serviceRequests: Request[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(service!.url)) return;
    serviceRequests.push(request);
    if (request.method() === 'POST' && request.url().endsWith('/message')) messages.push(request);
  });
  await page.goto(url);
  await page
    .locator('[data-docs-assistant="input"]')
    .waitFor()
    .catch((error: Error) => {
      throw new Error(`${error.message}\npage errors: ${errors.join('\n')}`);
    });
  return {
    page,
    context,
    messages,
    serviceRequests,
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

const pageUrl = (extra: Record<string, string> = {}) =>
  `${origin}/?${new URLSearchParams({ service: service!.url, ...extra })}`;

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

const sendButton = (page: Page) => page.locator('[data-docs-assistant="composer"] button[type="submit"]');

interface Body {
  threadId?: string | null;
  threadKey?: string | null;
  messages: { role: string; content: string }[];
}

describe('sharing a conversation', () => {
  it('shares, opens read-only in a fresh context, continues as a new thread, and revokes', async () => {
    const owner = await open(pageUrl());
    await askAndWait(owner.page, 'How do I change the colours?');
    const ownerThread = (await owner.messages[0]!.response())!.headers()['x-thread-id'];
    expect(ownerThread).toMatch(/^thr_/);

    // Share: the service answers a share id, the link is copied and shown.
    await (await headerAction(owner.page, 'share')).click();
    const linkInput = owner.page.locator('[data-docs-assistant="share-link"] input');
    await linkInput.waitFor();
    const link = await linkInput.inputValue();
    const shareId = new URL(link).searchParams.get('assistant-share');
    expect(shareId).toMatch(/^shr_[A-Za-z0-9_-]{32}$/);
    expect(link).not.toContain(ownerThread);
    expect(await owner.page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await expect
      .poll(() => owner.page.locator('[data-docs-assistant="share-status"]').textContent())
      .toBe('Link copied');
    expect(await axeViolations(owner.page)).toEqual([]);

    // A fresh context (another reader): the read-only transcript.
    const reader = await open(link);
    const transcript = reader.page.locator('[data-docs-assistant="shared-transcript"]');
    await transcript.locator('[data-docs-assistant="shared-messages"]').waitFor();
    expect(await transcript.getByRole('heading').textContent()).toBe(
      'Shared conversation: How do I change the colours?',
    );
    const items = transcript.locator('[data-docs-assistant="shared-messages"] > li');
    expect(await items.count()).toBe(2);
    expect(await items.nth(1).getByRole('link').count()).toBeGreaterThan(0);
    // Read-only: a question typed here cannot be sent, and nothing was sent to any thread.
    await reader.page.locator('[data-docs-assistant="input"]').fill('Go on');
    expect(await sendButton(reader.page).isDisabled()).toBe(true);
    await reader.page.locator('[data-docs-assistant="input"]').fill('');
    expect(reader.messages).toHaveLength(0);
    const shareRead = reader.serviceRequests.find((r) => r.url().includes('/shares/'));
    expect(shareRead?.method()).toBe('GET');
    const readBody = await (await shareRead!.response())!.text();
    expect(readBody).not.toContain(ownerThread);
    expect(await axeViolations(reader.page)).toEqual([]);

    // Continue: a new conversation with the transcript, on a NEW thread.
    await reader.page.locator('[data-action="continue-shared"]').click();
    await transcript.waitFor({ state: 'detached' });
    expect(new URL(reader.page.url()).searchParams.has('assistant-share')).toBe(false);
    expect(await reader.page.locator('[data-docs-assistant="message"]').count()).toBe(2);
    await askAndWait(reader.page, 'And in dark mode?');
    const sent = reader.messages[0]!.postDataJSON() as Body;
    expect(sent.threadId ?? undefined).toBeUndefined();
    expect(sent.threadKey ?? undefined).toBeUndefined();
    expect(sent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(sent.messages[0]!.content).toBe('How do I change the colours?');
    const newThread = (await reader.messages[0]!.response())!.headers()['x-thread-id'];
    expect(newThread).toMatch(/^thr_/);
    expect(newThread).not.toBe(ownerThread);
    expect(await axeViolations(reader.page)).toEqual([]);
    await reader.close();

    // The owner stops sharing: the link now says the conversation is gone (a 404).
    await owner.page.locator('[data-action="stop-sharing"]').click();
    await expect
      .poll(() => owner.page.locator('[data-docs-assistant="share-status"]').textContent())
      .toContain('Sharing stopped');
    const late = await open(link);
    const gone = late.page.locator('[data-docs-assistant="shared-error"]');
    await gone.waitFor();
    expect(await gone.getAttribute('data-status')).toBe('404');
    expect(await gone.getAttribute('role')).toBe('alert');
    expect(await axeViolations(late.page)).toEqual([]);
    await late.page.locator('[data-action="close-shared"]').click();
    await late.page.locator('[data-docs-assistant="input"]').fill('Go on');
    expect(await sendButton(late.page).isDisabled()).toBe(false);
    await late.close();
    await owner.close();
  });

  it('a share id neither continues nor reads the original thread', async () => {
    const owner = await open(pageUrl());
    await askAndWait(owner.page, 'How do I change the colours?');
    await (await headerAction(owner.page, 'share')).click();
    const link = await owner.page.locator('[data-docs-assistant="share-link"] input').inputValue();
    const shareId = new URL(link).searchParams.get('assistant-share')!;
    const endpoint = service!.endpoint();
    // As the thread id (with itself as the key), or as the key of the owner's thread: no thread.
    const ownerThread = (await owner.messages[0]!.response())!.headers()['x-thread-id']!;
    for (const extra of [
      { threadId: shareId, threadKey: shareId },
      { threadId: ownerThread, threadKey: shareId },
    ]) {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: authHeaders(),
        body: JSON.stringify(body('Go on', extra)),
      });
      expect(response.status).toBe(404);
    }
    await owner.close();
  });

  it('shows no Share where the service does not share, or with share={false}', async () => {
    const off = await open(pageUrl({ share: 'off' }));
    await askAndWait(off.page, 'How do I change the colours?');
    // No health check of its own for sharing: the one capability probe (which insights asks, since
    // issue 38) goes at most once, and no button.
    expect(off.serviceRequests.filter((r) => r.url().endsWith('/health')).length).toBeLessThanOrEqual(1);
    expect(await offersAction(off.page, 'share')).toBe(false);
    await off.close();
  });
});
