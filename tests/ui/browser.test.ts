/**
 * The widget with its stylesheet in Chromium: layout, focus and the states the CSS must honour
 * (jsdom has no layout). A small page is built with Vite from the sources and served on 127.0.0.1.
 */
import { resolve } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWidgetPage, type WidgetPage } from './widget-page';

const root = resolve(import.meta.dirname, '../.artifacts/ui-browser');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');

// Props come from the query string; answers come from a fetch that writes a real v4 data stream.
const MAIN = `
import { createDataStreamResponse, formatDataStreamPart } from 'ai';
import { createRoot } from 'react-dom/client';
import { DocsAssistant } from '${src}/index';
import '${src}/styles/docs-assistant.css';

const q = new URLSearchParams(location.search);
if (q.get('dir')) document.documentElement.dir = q.get('dir');
const usage = { promptTokens: 1, completionTokens: 1 };
const fetchAnswer = async () =>
  createDataStreamResponse({
    execute(w) {
      w.write(formatDataStreamPart('text', 'A styled answer.'));
      w.write(formatDataStreamPart('finish_message', { finishReason: 'stop', usage }));
    },
  });
createRoot(document.getElementById('app')).render(
  <DocsAssistant domain="acme" apiKey="svc_dsc_browser" baseUrl="https://api.example.com" storage="memory"
    fetch={fetchAnswer} variant={q.get('variant') ?? 'floating'} theme={q.get('theme') ?? 'light'}
    unstyled={q.has('unstyled')} starterQuestions={['What is this?']} />,
);
`;

let browser: Browser;
let origin: string;
let widgetPage: WidgetPage | undefined;

beforeAll(async () => {
  widgetPage = await serveWidgetPage(root, { title: 'widget', main: MAIN });
  ({ browser, origin } = widgetPage);
});

afterAll(async () => {
  await widgetPage?.close();
});

async function openPage(query: string, options: BrowserContextOptions = {}) {
  // Reduced motion by default: the entry animation (a slide and scale) would skew measured boxes.
  const context = await browser.newContext({
    viewport: { width: 1200, height: 800 },
    reducedMotion: 'reduce',
    ...options,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(8_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}/${query}`);
  // The floating root has no box of its own (its children are fixed), so wait for it in the DOM.
  await page.waitForSelector('[data-docs-assistant="root"]', { state: 'attached' });
  return { page, errors, close: () => context.close() };
}

const box = async (page: Page, name: string) => page.locator(`[data-docs-assistant="${name}"]`).boundingBox();
const style = (page: Page, name: string, property: string) =>
  page
    .locator(`[data-docs-assistant="${name}"]`)
    .evaluate((el, prop) => getComputedStyle(el).getPropertyValue(prop), property);

describe('in Chromium with the default stylesheet', () => {
  it('floats the panel above the launcher, focuses the input, and hides it again on Escape', async () => {
    const { page, errors, close } = await openPage('');
    try {
      const launcher = page.locator('[data-docs-assistant="launcher"]');
      expect(await style(page, 'launcher', 'position')).toBe('fixed');
      const launcherBox = (await launcher.boundingBox())!;
      expect(launcherBox.x + launcherBox.width).toBeGreaterThan(1100);
      expect(launcherBox.y + launcherBox.height).toBeGreaterThan(700);

      await launcher.click();
      await page.waitForSelector('[data-docs-assistant="input"]');
      await page.waitForFunction(
        () => document.activeElement?.getAttribute('data-docs-assistant') === 'input',
      );
      const panel = (await box(page, 'panel'))!;
      expect(panel.x + panel.width).toBeLessThanOrEqual(1200);
      expect(panel.y + panel.height).toBeLessThanOrEqual(launcherBox.y);
      expect(panel.width).toBeLessThan(500);

      await page.getByRole('button', { name: 'What is this?' }).click();
      // The message, not the live region that also says it ("Answer ready: …").
      await page.locator('[data-docs-assistant="message"]').getByText('A styled answer.').waitFor();

      await page.keyboard.press('Escape');
      // Focus returns in an effect after the render: poll rather than read once.
      await expect.poll(() => style(page, 'panel', 'display')).toBe('none');
      await expect.poll(() => launcher.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('takes the whole screen on a phone', async () => {
    const { page, close } = await openPage('', { viewport: { width: 390, height: 760 } });
    try {
      await page.locator('[data-docs-assistant="launcher"]').click();
      await page.waitForSelector('[data-docs-assistant="input"]');
      expect(await box(page, 'panel')).toEqual({ x: 0, y: 0, width: 390, height: 760 });
      // The launcher would sit on top of the composer: it steps aside while the panel is open.
      expect(await style(page, 'launcher', 'display')).toBe('none');
    } finally {
      await close();
    }
  });

  it('docks the side panel at the end edge, full height, and mirrors it in right-to-left pages', async () => {
    for (const [dir, atStart] of [
      ['ltr', false],
      ['rtl', true],
    ] as const) {
      const { page, close } = await openPage(`?variant=side-panel&dir=${dir}`);
      try {
        await page.locator('[data-docs-assistant="launcher"]').click();
        await page.waitForSelector('[data-docs-assistant="input"]');
        const panel = (await box(page, 'panel'))!;
        expect(panel.y).toBe(0);
        expect(panel.height).toBe(800);
        const launcher = (await box(page, 'launcher'))!;
        if (atStart) {
          expect(panel.x).toBe(0);
          expect(launcher.x).toBeGreaterThanOrEqual(panel.width);
        } else {
          expect(panel.x + panel.width).toBe(1200);
          // The launcher moves beside the open panel, so it can still close it.
          expect(launcher.x + launcher.width).toBeLessThanOrEqual(panel.x);
        }
      } finally {
        await close();
      }
    }
  });

  it('applies the dark tokens, and drops every default with unstyled', async () => {
    const dark = await openPage('?variant=inline&theme=dark');
    try {
      expect(await dark.page.locator('[data-docs-assistant="root"]').getAttribute('data-theme')).toBe('dark');
      expect(await style(dark.page, 'panel', 'background-color')).toBe('rgb(21, 23, 28)');
    } finally {
      await dark.close();
    }
    const bare = await openPage('?unstyled');
    try {
      expect(await style(bare.page, 'launcher', 'position')).toBe('static');
      expect(await style(bare.page, 'root', '--da-accent')).toBe('');
    } finally {
      await bare.close();
    }
  });

  it('turns animations off for readers who ask for reduced motion', async () => {
    for (const [reducedMotion, expected] of [
      ['no-preference', 'da-in'],
      ['reduce', 'none'],
    ] as const) {
      const { page, close } = await openPage('', { reducedMotion });
      try {
        await page.locator('[data-docs-assistant="launcher"]').click();
        await page.waitForSelector('[data-docs-assistant="input"]');
        expect(await style(page, 'panel', 'animation-name')).toBe(expected);
      } finally {
        await close();
      }
    }
  });
});
