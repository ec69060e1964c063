/**
 * Accessibility that only a browser can show, in Chromium with the default stylesheet: the floating
 * dialog turns modal exactly where the stylesheet makes it cover the viewport, and colours that must
 * keep their contrast (placeholder, the launcher's focus ring on any host page, the "Thinking…"
 * pulse at its faintest). Also the demo site's own stylesheet at 320 px. Built and served like
 * `layout.browser.test.ts` (see widget-page.ts).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_SCREEN_MEDIA } from '../../packages/docs-assistant/src/ui/use-full-screen-modal';
import { serveWidgetPage, type WidgetPage } from './widget-page';

const root = resolve(import.meta.dirname, '../.artifacts/ui-a11y');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');
const demoCss = readFileSync(resolve(import.meta.dirname, '../../demo/site.css'), 'utf8');

const MAIN = `
import { createDataStreamResponse, formatDataStreamPart } from 'ai';
import { createRoot } from 'react-dom/client';
import { DocsAssistant } from '${src}/index';
import '${src}/styles/docs-assistant.css';

const q = new URLSearchParams(location.search);
document.body.style.margin = '0';
document.body.style.background = q.get('bg') ?? '#fff';
// The host page's own links, which a dialog covering the viewport must keep Tab away from.
const nav = document.createElement('nav');
nav.innerHTML = '<a href="#one">One</a> <a href="#two">Two</a>';
document.querySelector('main').prepend(nav);

// Each answer waits until the test calls __release(), so "Thinking…" stays up meanwhile.
const gates = [];
window.__release = () => gates.shift()?.();
const usage = { promptTokens: 1, completionTokens: 1 };
const fetchAnswer = async () => {
  await new Promise((go) => gates.push(go));
  return createDataStreamResponse({
    async execute(w) {
      w.write(formatDataStreamPart('text', 'Done.'));
      w.write(formatDataStreamPart('finish_message', { finishReason: 'stop', usage }));
    },
  });
};

createRoot(document.getElementById('app')).render(
  <DocsAssistant domain="acme" apiKey="svc_dsc_a11y" baseUrl="https://api.example.com"
    storage="memory" fetch={fetchAnswer} theme={q.get('theme') ?? 'light'} shortcut={false}
    collectors={false} starterQuestions={['How do I theme it?']} />,
);
`;

let browser: Browser;
let origin: string;
let widgetPage: WidgetPage | undefined;

beforeAll(async () => {
  widgetPage = await serveWidgetPage(root, { title: 'a11y', main: MAIN });
  ({ browser, origin } = widgetPage);
}, 60_000);

afterAll(async () => {
  await widgetPage?.close();
});

async function openPage(query: string, viewport: { width: number; height: number }, motion = true) {
  const context = await browser.newContext({ viewport, reducedMotion: motion ? 'no-preference' : 'reduce' });
  const page = await context.newPage();
  page.setDefaultTimeout(8_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}/${query}`);
  await page.locator('[data-docs-assistant="launcher"]').waitFor();
  return { page, errors, close: () => context.close() };
}

/** Opens the floating dialog from the launcher and waits for the question box to have focus. */
async function openDialog(page: Page) {
  await page.locator('[data-docs-assistant="launcher"]').click();
  const input = page.locator('[data-docs-assistant="input"]');
  await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
  // The entry animation (a slide and scale) may still run on a busy machine: measure after it.
  await page
    .locator('[data-docs-assistant="panel"]')
    .evaluate((el) => Promise.all(el.getAnimations().map((animation) => animation.finished)));
}

/** Where focus is: inside the dialog, or a short description of what outside has it. */
const focusOwner = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    const panel = document.querySelector('[data-docs-assistant="panel"]');
    if (active && panel?.contains(active)) return 'panel';
    return active ? `${active.tagName.toLowerCase()} ${active.textContent?.slice(0, 20) ?? ''}` : 'none';
  });

/** Presses `key` `times` times and returns where focus was after each press. */
async function tabAround(page: Page, key: 'Tab' | 'Shift+Tab', times: number) {
  const owners: string[] = [];
  for (let i = 0; i < times; i += 1) {
    await page.keyboard.press(key);
    owners.push(await focusOwner(page));
  }
  return owners;
}

const ariaModal = (page: Page) => page.locator('[data-docs-assistant="panel"]').getAttribute('aria-modal');

describe('in Chromium: the floating dialog is modal only while it covers the viewport', () => {
  it.each([
    ['320 px wide', { width: 320, height: 640 }],
    ['200% zoom of 1280×800', { width: 640, height: 400 }],
  ])('keeps Tab and Shift+Tab inside the dialog at %s, with aria-modal', async (_, viewport) => {
    const { page, errors, close } = await openPage('', viewport);
    try {
      await openDialog(page);
      const panel = await page.locator('[data-docs-assistant="panel"]').boundingBox();
      expect(panel).toEqual({ x: 0, y: 0, width: viewport.width, height: viewport.height });
      expect(await ariaModal(page)).toBe('true');
      // Close, the starter question and the question box are the tab stops: round twice each way.
      expect(await tabAround(page, 'Tab', 6)).toEqual(Array(6).fill('panel'));
      expect(await tabAround(page, 'Shift+Tab', 6)).toEqual(Array(6).fill('panel'));
      // Escape still closes it, and focus goes back to the launcher.
      await page.keyboard.press('Escape');
      expect(await page.locator('[data-docs-assistant="root"]').getAttribute('data-state')).toBe('closed');
      expect(await ariaModal(page)).toBeNull();
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('stays non-modal in a wide window, and follows the window across the breakpoint', async () => {
    const { page, close } = await openPage('', { width: 1024, height: 768 });
    try {
      await openDialog(page);
      expect(await ariaModal(page)).toBeNull();
      // Non-modal: Tab from the question box (Send is disabled while it is empty) leaves the dialog.
      expect(await tabAround(page, 'Tab', 1)).not.toEqual(['panel']);

      await page.setViewportSize({ width: 500, height: 768 });
      await expect.poll(() => ariaModal(page)).toBe('true');
      await page.setViewportSize({ width: 1024, height: 768 });
      await expect.poll(() => ariaModal(page)).toBeNull();
    } finally {
      await close();
    }
  });

  it('uses the same breakpoint as the stylesheet: modal at 640 px, where it covers the viewport, not at 641 px', async () => {
    const css = readFileSync(resolve(src, 'styles/docs-assistant.css'), 'utf8');
    expect(css).toContain(`@media ${FULL_SCREEN_MEDIA} {`);
    const { page, close } = await openPage('', { width: 641, height: 700 });
    try {
      await openDialog(page);
      const covers = () =>
        page
          .locator('[data-docs-assistant="panel"]')
          .evaluate((el) => el.getBoundingClientRect().width === window.innerWidth);
      expect(await covers()).toBe(false);
      expect(await ariaModal(page)).toBeNull();
      await page.setViewportSize({ width: 640, height: 700 });
      await expect.poll(covers).toBe(true);
      await expect.poll(() => ariaModal(page)).toBe('true');
    } finally {
      await close();
    }
  });
});

type Rgb = [number, number, number];

function parseColor(css: string): Rgb {
  const match = /rgba?\((\d+(?:\.\d+)?),?\s*(\d+(?:\.\d+)?),?\s*(\d+(?:\.\d+)?)/.exec(css);
  if (!match) throw new Error(`not an rgb() colour: ${css}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

function luminance([r, g, b]: Rgb): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

function contrast(a: Rgb, b: Rgb): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];

describe('in Chromium: contrast', () => {
  it.each(['light', 'dark'])('gives the %s placeholder 4.5:1 on the question box', async (theme) => {
    const { page, close } = await openPage(`?theme=${theme}`, { width: 1024, height: 768 });
    try {
      await openDialog(page);
      const [color, background] = await page
        .locator('[data-docs-assistant="input"]')
        .evaluate((el) => [
          getComputedStyle(el, '::placeholder').color,
          getComputedStyle(el).backgroundColor,
        ]);
      expect(contrast(parseColor(color!), parseColor(background!))).toBeGreaterThanOrEqual(4.5);
    } finally {
      await close();
    }
  });

  it.each([
    ['light', '#fff'],
    ['light', '#000'],
    ['dark', '#fff'],
    ['dark', '#000'],
  ])('draws the %s launcher focus ring so it shows on a %s host page', async (theme, bg) => {
    const { page, close } = await openPage(`?theme=${theme}&bg=${encodeURIComponent(bg)}`, {
      width: 1024,
      height: 768,
    });
    try {
      // From the host's last link, Tab reaches the launcher: a keyboard focus, so :focus-visible.
      await page.getByRole('link', { name: 'Two' }).focus();
      await page.keyboard.press('Tab');
      const launcher = page.locator('[data-docs-assistant="launcher"]');
      expect(await launcher.evaluate((el) => el === document.activeElement)).toBe(true);
      const ring = await launcher.evaluate((el) => {
        const style = getComputedStyle(el);
        return {
          outline: style.outlineColor,
          width: style.outlineWidth,
          offset: style.outlineOffset,
          style: style.outlineStyle,
          shadow: style.boxShadow,
        };
      });
      expect([ring.style, ring.width, ring.offset]).toEqual(['solid', '2px', '2px']);
      // The halo: a spread shadow at least as wide as the gap, the ring and its own edge.
      const halo = /^(rgba?\([^)]*\)) 0px 0px 0px (\d+)px/.exec(ring.shadow);
      expect(halo, ring.shadow).not.toBeNull();
      expect(Number(halo![2])).toBeGreaterThanOrEqual(6);
      const outline = parseColor(ring.outline);
      const haloColor = parseColor(halo![1]!);
      const host = bg === '#fff' ? WHITE : BLACK;
      // The ring stands out from the halo, and one of the two from the page around them.
      expect(contrast(outline, haloColor)).toBeGreaterThanOrEqual(3);
      expect(Math.max(contrast(outline, host), contrast(haloColor, host))).toBeGreaterThanOrEqual(3);
    } finally {
      await close();
    }
  });

  it.each(['light', 'dark'])('keeps the %s "Thinking…" pulse at 4.5:1 at its faintest', async (theme) => {
    const { page, close } = await openPage(`?theme=${theme}`, { width: 1024, height: 768 });
    try {
      await openDialog(page);
      await page.getByRole('button', { name: 'How do I theme it?' }).click();
      const thinking = page.locator('[data-docs-assistant="thinking"]');
      await thinking.waitFor();
      // Every step of the pulse, the animation paused there: the lowest contrast counts.
      const samples = await thinking.evaluate((el) => {
        const animation = el.getAnimations()[0];
        if (!animation) return null;
        animation.pause();
        const duration = Number(animation.effect?.getComputedTiming().duration);
        const panel = el.closest('[data-docs-assistant="panel"]')!;
        const out: Array<[string, string, string]> = [];
        for (let step = 0; step <= 20; step += 1) {
          animation.currentTime = (duration * step) / 20;
          const style = getComputedStyle(el);
          out.push([style.color, style.opacity, getComputedStyle(panel).backgroundColor]);
        }
        return out;
      });
      expect(samples).not.toBeNull();
      const lowest = Math.min(
        ...samples!.map(([color, opacity, background]) => {
          const fg = parseColor(color);
          const bgColor = parseColor(background);
          const alpha = Number(opacity);
          const shown = fg.map((c, i) => alpha * c + (1 - alpha) * bgColor[i]!) as Rgb;
          return contrast(shown, bgColor);
        }),
      );
      expect(lowest).toBeGreaterThanOrEqual(4.5);
      await page.evaluate(() => (window as unknown as { __release: () => void }).__release());
    } finally {
      await close();
    }
  });
});

describe('in Chromium: the demo site', () => {
  it('reflows at 320 px: a wide code block and table scroll inside the page instead of widening it', async () => {
    const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
    try {
      const page = await context.newPage();
      const wide = 'x'.repeat(40);
      await page.setContent(`<!doctype html><html><head><style>${demoCss}</style></head><body>
        <div class="site">
          <header class="site-header"><a class="site-brand" href="/">docs-assistant</a>
            <span class="site-tagline">Documentation — ask the assistant with Ctrl+I (⌘I on macOS)</span></header>
          <nav class="site-nav" aria-label="Documentation"><ul><li><a href="/">Getting started</a></li></ul></nav>
          <main class="site-main"><article class="doc"><h1>Theming</h1>
            <pre><code>[data-docs-assistant="root"] { --da-accent: #7c3aed; --da-font: "Inter", system-ui, sans-serif; }</code></pre>
            <table><thead><tr><th>Variable</th><th>Light default</th><th>Dark default</th><th>What it sets</th></tr></thead>
              <tbody><tr><td><code>--da-surface-hover</code></td><td><code>#f3f4f6</code></td><td><code>#282c35</code></td><td>Hovered buttons and links</td></tr></tbody></table>
            <p>A long identifier: <code>${wide}</code> and https://docs.example.com/${wide}</p>
          </article></main>
        </div></body></html>`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
      // The code block and the table scroll by themselves.
      for (const selector of ['.doc pre', '.doc table']) {
        expect(await page.locator(selector).evaluate((el) => el.scrollWidth > el.clientWidth), selector).toBe(
          true,
        );
      }
    } finally {
      await context.close();
    }
  });
});
