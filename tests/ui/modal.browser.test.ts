/**
 * The `modal` variant (a centred dialog over a backdrop, like a command palette) and `theme:
 * { followHost }` in Chromium with the default stylesheet: the launcher and the shortcut open it,
 * it is modal at every size (`aria-modal`, Tab and Shift+Tab stay inside while the host page has
 * links of its own), Escape and a click on the backdrop close it and focus returns to the launcher;
 * the theme follows a class or an attribute on the host's `<html>` as the host flips it; axe finds
 * nothing to fix, light or dark. Built and served like `a11y.browser.test.ts` (see widget-page.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWidgetPage, type WidgetPage } from './widget-page';

const root = resolve(import.meta.dirname, '../.artifacts/ui-modal');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const MAIN = `
import { createDataStreamResponse, formatDataStreamPart } from 'ai';
import { createRoot } from 'react-dom/client';
import { DocsAssistant } from '${src}/index';
import '${src}/styles/docs-assistant.css';

const q = new URLSearchParams(location.search);
// The host page's own links, which the modal must keep Tab away from.
const nav = document.createElement('nav');
nav.innerHTML = '<a href="#one">One</a> <a href="#two">Two</a>';
document.querySelector('main').prepend(nav);
const usage = { promptTokens: 1, completionTokens: 1 };
const fetchAnswer = async () =>
  createDataStreamResponse({
    async execute(w) {
      w.write(formatDataStreamPart('text', 'Done.'));
      w.write(formatDataStreamPart('finish_message', { finishReason: 'stop', usage }));
    },
  });

createRoot(document.getElementById('app')).render(
  <DocsAssistant variant={q.get('variant') ?? 'modal'} domain="acme" apiKey="svc_dsc_modal"
    baseUrl="https://api.example.com" storage="memory" fetch={fetchAnswer} collectors={false}
    theme={q.get('theme') ? JSON.parse(q.get('theme')) : 'light'} starterQuestions={['How do I theme it?']}
    feedback={false} />,
);
`;

let browser: Browser;
let origin: string;
let widgetPage: WidgetPage | undefined;

beforeAll(async () => {
  widgetPage = await serveWidgetPage(root, { title: 'modal', main: MAIN });
  ({ browser, origin } = widgetPage);
}, 60_000);

afterAll(async () => {
  await widgetPage?.close();
});

async function openPage(params: Record<string, string> = {}, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(8_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}/?${new URLSearchParams(params)}`);
  await page.locator('[data-docs-assistant="launcher"]').waitFor();
  return {
    page,
    close: async () => {
      expect(errors).toEqual([]);
      await context.close();
    },
  };
}

const panel = (page: Page) => page.locator('[data-docs-assistant="panel"]');
const backdrop = (page: Page) => page.locator('[data-docs-assistant="backdrop"]');
const input = (page: Page) => page.locator('[data-docs-assistant="input"]');
const focusedInsidePanel = (page: Page) =>
  page.evaluate(() => !!document.activeElement?.closest('[data-docs-assistant="panel"]'));
const focusedSlot = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('data-docs-assistant'));

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

async function openFromLauncher(page: Page) {
  await page.locator('[data-docs-assistant="launcher"]').click();
  await input(page).waitFor();
  await expect.poll(() => focusedSlot(page)).toBe('input');
}

describe('modal variant', () => {
  it('opens from the launcher as a centred modal dialog over a backdrop', async () => {
    const { page, close } = await openPage();
    const launcher = page.locator('[data-docs-assistant="launcher"]');
    expect(await launcher.getAttribute('aria-haspopup')).toBe('dialog');
    await openFromLauncher(page);
    const dialog = page.getByRole('dialog', { name: 'Ask the docs' });
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    expect(await backdrop(page).isVisible()).toBe(true);
    // Centred: as far from the left edge as from the right.
    const box = (await panel(page).boundingBox())!;
    expect(Math.abs(box.x - (1280 - box.x - box.width))).toBeLessThanOrEqual(1);
    // The backdrop covers the page behind it.
    const covering = await page.evaluate(() => {
      const link = document.querySelector('nav a')!.getBoundingClientRect();
      return document.elementFromPoint(link.x + 2, link.y + 2)?.getAttribute('data-docs-assistant');
    });
    expect(covering).toBe('backdrop');
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });

  it('keeps Tab and Shift+Tab inside while open, although the host page has links', async () => {
    const { page, close } = await openPage();
    await openFromLauncher(page);
    const stops = await page.evaluate(
      () =>
        Array.from(
          document.querySelectorAll<HTMLElement>(
            '[data-docs-assistant="panel"] :is(a[href],button,textarea,input,[tabindex])',
          ),
        ).filter((el) => el.tabIndex >= 0 && !el.matches(':disabled') && el.getClientRects().length > 0)
          .length,
    );
    expect(stops).toBeGreaterThan(2);
    for (let i = 0; i < stops + 2; i++) {
      await page.keyboard.press('Tab');
      expect(await focusedInsidePanel(page)).toBe(true);
    }
    for (let i = 0; i < stops + 2; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusedInsidePanel(page)).toBe(true);
    }
    await close();
  });

  it('Escape closes it and focus returns to the launcher', async () => {
    const { page, close } = await openPage();
    await openFromLauncher(page);
    await page.keyboard.press('Escape');
    await expect.poll(() => panel(page).isHidden()).toBe(true);
    expect(await backdrop(page).isHidden()).toBe(true);
    expect(await focusedSlot(page)).toBe('launcher');
    expect(await page.locator('[data-docs-assistant="launcher"]').getAttribute('aria-expanded')).toBe(
      'false',
    );
    await close();
  });

  it('the shortcut opens it; a click on the backdrop closes it and focus returns to the launcher', async () => {
    const { page, close } = await openPage();
    await page.locator('h1').click();
    await page.keyboard.press('Control+i');
    await input(page).waitFor();
    await expect.poll(() => focusedSlot(page)).toBe('input');
    expect(await panel(page).getAttribute('aria-modal')).toBe('true');
    await page.mouse.click(8, 8);
    await expect.poll(() => panel(page).isHidden()).toBe(true);
    expect(await focusedSlot(page)).toBe('launcher');
    await close();
  });

  it('answers in the dialog, and stays modal on a phone-sized screen', async () => {
    const { page, close } = await openPage({}, { width: 360, height: 640 });
    await openFromLauncher(page);
    await input(page).fill('Hello?');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('[data-docs-assistant="message"][data-role="assistant"]').textContent())
      .toContain('Done.');
    const box = (await panel(page).boundingBox())!;
    expect(box).toMatchObject({ x: 0, y: 0, width: 360 });
    expect(await panel(page).getAttribute('aria-modal')).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    await close();
  });
});

describe('theme following the host page', () => {
  const theme = (page: Page) => page.getAttribute('[data-docs-assistant="root"]', 'data-theme');

  it('follows a data-theme attribute on <html> as the host switches it', async () => {
    const followHost = { followHost: { attribute: 'data-theme', dark: 'dark' } };
    const { page, close } = await openPage({ theme: JSON.stringify(followHost) });
    // Neither set: the fallback (light).
    expect(await theme(page)).toBe('light');
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    await expect.poll(() => theme(page)).toBe('dark');
    await openFromLauncher(page);
    const background = await panel(page).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).toBe('rgb(21, 23, 28)');
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
    await expect.poll(() => theme(page)).toBe('light');
    await page.evaluate(() => document.documentElement.removeAttribute('data-theme'));
    expect(await theme(page)).toBe('light');
    await close();
  });

  it('follows a class on <html>, with the system setting as the fallback when asked', async () => {
    const followHost = { followHost: { className: 'dark', fallback: 'system' } };
    const context = await browser.newContext({ colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(`${origin}/?${new URLSearchParams({ theme: JSON.stringify(followHost) })}`);
    await page.locator('[data-docs-assistant="launcher"]').waitFor();
    // No class: the system setting (dark here).
    await expect.poll(() => theme(page)).toBe('dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => theme(page)).toBe('light');
    await page.evaluate(() => document.documentElement.classList.add('dark'));
    await expect.poll(() => theme(page)).toBe('dark');
    await page.evaluate(() => document.documentElement.classList.remove('dark'));
    await expect.poll(() => theme(page)).toBe('light');
    await context.close();
  });

  it('ignores <html> without followHost: theme="light" stays light', async () => {
    const { page, close } = await openPage({ variant: 'floating' });
    await page.evaluate(() => {
      document.documentElement.classList.add('dark');
      document.documentElement.setAttribute('data-theme', 'dark');
    });
    await openFromLauncher(page);
    expect(await theme(page)).toBe('light');
    await close();
  });
});
