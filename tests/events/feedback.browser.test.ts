/**
 * Feedback end to end in Chromium against the real reference service over HTTP on 127.0.0.1 (CORS
 * and all): a reader asks, votes, comments and changes the vote with the keyboard; the owner's
 * admin list shows the vote; `onEvent` got the events; axe finds nothing in each feedback state
 * (no vote, comment box open, feedback given), in light and dark. Built like the other browser
 * tests (tests/ui/widget-page.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocsAssistantEvent } from '../../packages/docs-assistant/src/index';
import { ADMIN_KEY, DOMAIN, type RunningService, startService } from '../server/helpers';
import { serveWidgetPage, type WidgetPage } from '../ui/widget-page';

const root = resolve(import.meta.dirname, '../.artifacts/events-feedback-browser');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const MAIN = `
import { createRoot } from 'react-dom/client';
import { DocsAssistant } from '${src}/index';
import '${src}/styles/docs-assistant.css';

const q = new URLSearchParams(location.search);
window.__events = [];
createRoot(document.getElementById('app')).render(
  <DocsAssistant variant={q.get('variant') ?? 'inline'} domain="${DOMAIN}" apiKey="svc_dsc_test_assistant"
    baseUrl={q.get('service')} fp="reader-browser" storage="memory" shortcut={false} collectors={false}
    theme={q.get('theme') ?? 'light'} onEvent={(event) => window.__events.push(event)} />,
);
`;

let widgetPage: WidgetPage | undefined;
let browser: Browser;
let origin: string;
let service: RunningService | undefined;

beforeAll(async () => {
  widgetPage = await serveWidgetPage(root, { title: 'feedback', main: MAIN });
  ({ browser, origin } = widgetPage);
  service = await startService();
}, 90_000);

afterAll(async () => {
  await widgetPage?.close();
  await service?.close();
});

async function open(theme: 'light' | 'dark') {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}/?${new URLSearchParams({ service: service!.url, theme })}`);
  await page.locator('[data-docs-assistant="input"]').waitFor();
  return {
    page,
    close: async () => {
      expect(errors).toEqual([]);
      await context.close();
    },
  };
}

/** axe's violations in the widget, every rule. */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run: (el: Element) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> };
    };
    const found = await axe.run(document.querySelector('[data-docs-assistant="root"]')!);
    return found.violations.map((violation) => `${violation.id} (${violation.nodes.length})`);
  });
}

const events = (page: Page) =>
  page.evaluate(() => (window as unknown as { __events: DocsAssistantEvent[] }).__events);

async function listed(): Promise<Array<Record<string, string>>> {
  const response = await fetch(`${service!.url}/discovery/v1/assistant/${DOMAIN}/feedback`, {
    headers: { Authorization: `Bearer ${ADMIN_KEY}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { feedback: Array<Record<string, string>> }).feedback;
}

describe.each(['light', 'dark'] as const)('feedback in Chromium with the reference service (%s)', (theme) => {
  it('votes, comments and changes the vote by keyboard; stored with the thread; axe clean in each state', async () => {
    const { page, close } = await open(theme);
    await page.locator('[data-docs-assistant="input"]').fill('How do I change the accent color?');
    await page.keyboard.press('Enter');
    const group = page.getByRole('group', { name: 'Was this answer helpful?' });
    await group.waitFor();
    const up = group.getByRole('button', { name: 'Helpful', exact: true });
    const down = group.getByRole('button', { name: 'Not helpful', exact: true });
    expect(await up.getAttribute('aria-pressed')).toBe('false');
    expect(await axeViolations(page)).toEqual([]);

    // Keyboard only: focus the vote and press Space.
    await up.focus();
    await page.keyboard.press('Space');
    const box = page.getByRole('textbox', { name: 'Tell us more (optional)' });
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await up.getAttribute('aria-pressed')).toBe('true');
    const status = page.locator('[data-docs-assistant="feedback-status"]');
    await expect.poll(() => status.textContent()).toBe('Thanks for your feedback.');
    expect(await axeViolations(page)).toEqual([]);

    await page.keyboard.type('The example uses an old option name');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expect.poll(() => up.evaluate((el) => el === document.activeElement)).toBe(true);
    await down.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => down.getAttribute('aria-pressed')).toBe('true');
    expect(await up.getAttribute('aria-pressed')).toBe('false');
    await box.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => box.count()).toBe(0);
    await expect.poll(() => down.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    const seen = await events(page);
    const answer = seen.find((event) => event.type === 'answer');
    expect(answer).toMatchObject({
      type: 'answer',
      messageId: expect.stringMatching(/^msg_/),
      threadId: expect.stringMatching(/^thr_/),
    });
    const { messageId, threadId } = answer as { messageId: string; threadId: string };
    expect(seen.filter((event) => event.type === 'feedback')).toEqual([
      { type: 'feedback', messageId, threadId, rating: 'up', hasComment: false },
      { type: 'feedback', messageId, threadId, rating: 'up', hasComment: true },
      { type: 'feedback', messageId, threadId, rating: 'down', hasComment: true },
    ]);
    // The last vote is what the service keeps, with the comment, under the answer's thread.
    await expect
      .poll(async () => (await listed()).find((entry) => entry.threadId === threadId))
      .toMatchObject({ messageId, rating: 'down', comment: 'The example uses an old option name' });
    await close();
  });
});
