/**
 * A way to a human (`support`), in Chromium, against the real reference service over HTTP on
 * 127.0.0.1: the prompt under an answer that found nothing in the docs, under an answer voted
 * down, and "Contact support" in the panel's header; a callback gets the messages, a mailto link
 * stays under 1,800 characters and carries the question. axe finds nothing to fix with the prompt
 * shown. The page is built with Vite from the sources (tests/ui/widget-page.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { type RunningService, startService } from '../server/helpers';
import { headerAction, serveWidgetPage, type WidgetPage } from '../ui/widget-page';

const root = resolve(import.meta.dirname, '../.artifacts/support-browser');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// `support=callback` collects what the callback gets in window.supportCalls; any other value is
// passed as the option itself (a mailto address or a URL).
const MAIN = `
import { createRoot } from 'react-dom/client';
import { DocsAssistant } from '${src}/index';
import '${src}/styles/docs-assistant.css';

const q = new URLSearchParams(location.search);
window.supportCalls = [];
const support = q.get('support') === 'callback' ? (transcript) => window.supportCalls.push(transcript) : q.get('support');
createRoot(document.getElementById('app')).render(
  <DocsAssistant variant="inline" domain="acme" apiKey="svc_dsc_test_assistant" baseUrl={q.get('service') ?? undefined}
    storage="memory" shortcut={false} collectors={false} theme="light" share={false} support={support ?? undefined} />,
);
`;

let widgetPage: WidgetPage | undefined;
let browser: Browser;
let origin: string;
let service: RunningService | undefined;

beforeAll(async () => {
  widgetPage = await serveWidgetPage(root, { title: 'support', main: MAIN });
  ({ browser, origin } = widgetPage);
  service = await startService({ siteUrl: `${origin}/docs` });
}, 90_000);

afterAll(async () => {
  await widgetPage?.close();
  await service?.close();
});

async function open(support: string): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}/?${new URLSearchParams({ service: service!.url, support })}`);
  await page.locator('[data-docs-assistant="input"]').waitFor();
  return {
    page,
    close: async () => {
      expect(errors).toEqual([]);
      await context.close();
    },
  };
}

async function askAndWait(page: Page, question: string): Promise<void> {
  const answers = page.locator('[data-docs-assistant="message"][data-role="assistant"]');
  const before = await answers.count();
  await page.locator('[data-docs-assistant="input"]').fill(question);
  await page.keyboard.press('Enter');
  await expect.poll(() => answers.count()).toBe(before + 1);
  await page.locator('[data-docs-assistant="composer"] button[type="submit"]').waitFor();
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

interface Call {
  trigger: string;
  messages: { role: string; content: string }[];
  markdown: string;
  pageUrl: string;
}
const calls = (page: Page) =>
  page.evaluate(() => (window as unknown as { supportCalls: Call[] }).supportCalls);

const NOT_COVERED = 'What is the airspeed velocity of an unladen swallow?';
const COVERED = 'How do I change the colours?';

describe('support', () => {
  it('offers a mailto under an answer that found nothing, under 1,800 characters with the question', async () => {
    const { page, close } = await open('mailto:help@example.com');
    await askAndWait(page, NOT_COVERED);
    const prompt = page.locator('[data-docs-assistant="support-prompt"]');
    await prompt.waitFor();
    expect(await prompt.getAttribute('data-support-trigger')).toBe('no-answer');
    const href = (await prompt.getByRole('link', { name: 'Contact support' }).getAttribute('href'))!;
    expect(href.startsWith('mailto:help@example.com?subject=')).toBe(true);
    expect(href.length).toBeLessThanOrEqual(1800);
    const body = decodeURIComponent(href.slice(href.indexOf('&body=') + 6));
    expect(body).toContain(`**Question:** ${NOT_COVERED}`);
    expect(body).toContain("docs don't cover that");
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });

  it('offers nothing under an answer that cites the docs, until the reader votes it down', async () => {
    const { page, close } = await open('callback');
    await askAndWait(page, COVERED);
    const prompt = page.locator('[data-docs-assistant="support-prompt"]');
    await page.locator('[data-action="feedback-down"]').waitFor();
    expect(await prompt.count()).toBe(0);
    await page.locator('[data-action="feedback-down"]').click();
    await prompt.waitFor();
    expect(await prompt.getAttribute('data-support-trigger')).toBe('thumbs-down');
    expect(await axeViolations(page)).toEqual([]);
    await prompt.getByRole('button', { name: 'Contact support' }).click();
    const [call] = await calls(page);
    expect(call!.trigger).toBe('thumbs-down');
    expect(call!.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(call!.messages[0]!.content).toBe(COVERED);
    expect(call!.markdown).toContain('Sources: [');
    expect(call!.pageUrl).toContain(origin);
    // Voting up instead takes the prompt back.
    await page.locator('[data-action="feedback-up"]').click();
    await prompt.waitFor({ state: 'detached' });
    await close();
  });

  it('has "Contact support" in the header\'s menu, which hands the callback the whole conversation', async () => {
    const { page, close } = await open('callback');
    await askAndWait(page, COVERED);
    await askAndWait(page, NOT_COVERED);
    await (await headerAction(page, 'contact-support')).click();
    const [call] = await calls(page);
    expect(call!.trigger).toBe('menu');
    expect(call!.messages.map((m) => m.content.slice(0, 20))).toEqual([
      COVERED.slice(0, 20),
      expect.any(String),
      NOT_COVERED.slice(0, 20),
      expect.any(String),
    ]);
    expect(call!.markdown).toContain(COVERED);
    expect(call!.markdown).toContain(NOT_COVERED);
    await close();
  });

  it('opens a support URL in a new tab with the excerpt in its transcript parameter', async () => {
    const { page, close } = await open('https://help.example.com/new?team=docs');
    await askAndWait(page, NOT_COVERED);
    const link = page.locator('[data-docs-assistant="support-prompt"] a');
    await link.waitFor();
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    const url = new URL((await link.getAttribute('href'))!);
    expect(url.origin + url.pathname).toBe('https://help.example.com/new');
    expect(url.searchParams.get('team')).toBe('docs');
    expect(url.searchParams.get('transcript')).toContain(NOT_COVERED);
    await close();
  });
});
