/**
 * Layout defects that only a browser can show (jsdom lays nothing out), checked in Chromium with the
 * default stylesheet: where the conversation scrolls to, where the composer sits, how code reads in
 * right-to-left text, how wide tables and code blocks scroll, and axe on the real layout.
 * A small page is built with Vite from the sources and served on 127.0.0.1; answers come from a
 * fetch that writes a real v4 data stream, line by line, optionally pausing until the test says.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWidgetPage, type WidgetPage } from './widget-page';

const root = resolve(import.meta.dirname, '../.artifacts/ui-layout');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const MAIN = `
import { createDataStreamResponse, formatDataStreamPart } from 'ai';
import { createRoot } from 'react-dom/client';
import { DocsAssistant } from '${src}/index';
import { Markdown } from '${src}/parts/index';
import { MarkdownTable } from '${src}/parts/table';
import '${src}/styles/docs-assistant.css';

const q = new URLSearchParams(location.search);
if (q.get('dir')) document.documentElement.dir = q.get('dir');
document.getElementById('app').style.width = (q.get('width') ?? '420') + 'px';

const TABLE = [
  '| Variable | Light default | Dark default | What it sets |',
  '| --- | --- | --- | --- |',
  '| \`--da-surface-hover\` | \`#f3f4f6\` | \`#282c35\` | Hovered buttons and links |',
  '| \`--da-border\` | \`rgb(0 0 0 / 0.12)\` | \`rgb(255 255 255 / 0.14)\` | Every hairline |',
];
const para = (n) => 'Paragraph ' + n + ' of the answer says something about theming the widget, at some length.';
const ANSWERS = {
  long: [
    '## Theming the widget', '', para(1), '', para(2), '', ...TABLE, '',
    '\`\`\`css', '[data-docs-assistant="root"] { --da-accent: #7c3aed; --da-radius: 16px; --da-font: "Inter", system-ui, sans-serif; }', '\`\`\`', '',
    para(3), '', 'Part one ends.', '', para(4), '', para(5), '', para(6), '', para(7), '', para(8), '', 'The end.',
  ],
  rtl: ['غيّر المتغيرات \`--da-*\` على جذر الأداة. مثلاً \`--da-accent\` يغيّر لون الزر.'],
};
const lines = ANSWERS[q.get('answer') ?? 'long'];

// Requests after the first wait, halfway, until the test calls __release().
const gates = [];
window.__release = () => gates.shift()?.();
let requests = 0;
const usage = { promptTokens: 1, completionTokens: 1 };
const fetchAnswer = async (input) => {
  // The capability probe (insights' beacon asks /health) goes through the host's fetch too.
  if (String(input).endsWith('/health')) return new Response('{"capabilities":[]}');
  const gated = q.has('gate') && requests++ > 0;
  return createDataStreamResponse({
    async execute(w) {
      for (const line of lines) {
        w.write(formatDataStreamPart('text', line + '\\n'));
        if (gated && line === 'Part one ends.') await new Promise((go) => gates.push(go));
        else await new Promise((next) => setTimeout(next, 2));
      }
      w.write(formatDataStreamPart('finish_message', { finishReason: 'stop', usage }));
    },
  });
};

// A host passing the wrapper itself (the default renderer uses it too, see table.tsx) gets the same.
const tables = { table: MarkdownTable };
const WrappedTablesText = ({ part, resolveHref }) => (
  <Markdown text={part.text} resolveHref={resolveHref} components={tables} />
);

createRoot(document.getElementById('app')).render(
  <DocsAssistant domain="acme" apiKey={q.get('apiKey') ?? 'svc_dsc_layout'} baseUrl="https://api.example.com"
    storage="memory" fetch={fetchAnswer} variant="inline" theme="light" shortcut={false} collectors={false}
    components={q.has('wrapTables') ? { text: WrappedTablesText } : undefined} />,
);
`;

let browser: Browser;
let origin: string;
let widgetPage: WidgetPage | undefined;

beforeAll(async () => {
  widgetPage = await serveWidgetPage(root, { title: 'layout', main: MAIN });
  ({ browser, origin } = widgetPage);
}, 60_000);

afterAll(async () => {
  await widgetPage?.close();
});

async function openPage(query: string) {
  const context = await browser.newContext({
    viewport: { width: 900, height: 800 },
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(8_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}/${query}`);
  await page.waitForSelector('[data-docs-assistant="input"]');
  return { page, errors, close: () => context.close() };
}

const finishedAnswers = '[data-docs-assistant="message"][data-role="assistant"]:not([data-streaming])';

/** Asks through the composer and waits until `answers` answers have finished. */
async function ask(page: Page, question: string, answers: number) {
  await page.locator('[data-docs-assistant="input"]').fill(question);
  await page.keyboard.press('Enter');
  await waitForAnswers(page, answers);
}

async function waitForAnswers(page: Page, answers: number) {
  await expect.poll(() => page.locator(finishedAnswers).count()).toBe(answers);
  await expect
    .poll(() => page.locator('[data-docs-assistant="root"]').getAttribute('data-status'))
    .toBe('ready');
  // The Markdown renders in the background and can trail the status by a few frames.
  await expect.poll(() => page.locator('[data-pending]').count()).toBe(0);
}

const rect = (page: Page, selector: string) =>
  page
    .locator(selector)
    .last()
    .evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);

const listScroll = (page: Page) =>
  page.locator('[data-docs-assistant="messages"]').evaluate((el) => ({
    top: el.scrollTop,
    fromBottom: el.scrollHeight - el.scrollTop - el.clientHeight,
  }));

/** Scrolls the conversation with the mouse wheel, as a reader does, and waits for it to settle. */
async function wheel(page: Page, deltaY: number) {
  const list = await rect(page, '[data-docs-assistant="messages"]');
  await page.mouse.move(list.x + list.width / 2, list.y + list.height / 2);
  await page.mouse.wheel(0, deltaY);
  let last = -1;
  await expect
    .poll(async () => {
      const { top } = await listScroll(page);
      const settled = top === last;
      last = top;
      return settled;
    })
    .toBe(true);
}

async function axeViolations(page: Page, rules: string[]) {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async (values) => {
    const { axe } = window as unknown as {
      axe: {
        run: (el: Element, o: object) => Promise<{ violations: Array<{ id: string; nodes: unknown[] }> }>;
      };
    };
    const root = document.querySelector('[data-docs-assistant="root"]')!;
    const results = await axe.run(root, { runOnly: { type: 'rule', values } });
    return results.violations.map((v) => `${v.id} (${v.nodes.length})`);
  }, rules);
}

describe('in Chromium: conversation layout', () => {
  it('scrolls a new question to the top of the list, clear of the header, when its long answer ends', async () => {
    const { page, errors, close } = await openPage('');
    try {
      await ask(page, 'How do I theme the widget?', 1);
      await ask(page, 'And in dark mode?', 2);
      const list = await rect(page, '[data-docs-assistant="messages"]');
      const header = await rect(page, '[data-docs-assistant="header"]');
      const question = await rect(page, '[data-docs-assistant="message"][data-role="user"]');
      // The list did scroll (the first turn is above), and stopped with the question fully in view,
      // one scroll margin below the list's top edge, not under the header.
      expect((await listScroll(page)).top).toBeGreaterThan(0);
      expect(question.top).toBeGreaterThanOrEqual(header.bottom);
      expect(question.top - list.top).toBeGreaterThanOrEqual(8);
      expect(question.top - list.top).toBeLessThanOrEqual(24);
      // Only the list scrolled: the page around the widget stayed put.
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('leaves a reader who scrolled up where they are, and follows one who scrolled to the bottom', async () => {
    const { page, close } = await openPage('?gate');
    try {
      await ask(page, 'How do I theme the widget?', 1);
      await page.locator('[data-docs-assistant="input"]').fill('And in dark mode?');
      await page.keyboard.press('Enter');
      // Paused halfway: the second question is at the top of the list.
      await expect.poll(() => page.getByText('Part one ends.').count()).toBe(2);
      await wheel(page, -150);
      const readingAt = (await listScroll(page)).top;
      await page.evaluate(() => (window as unknown as { __release: () => void }).__release());
      await waitForAnswers(page, 2);
      expect((await listScroll(page)).top).toBeCloseTo(readingAt, 0);

      await page.locator('[data-docs-assistant="input"]').fill('And per theme?');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByText('Part one ends.').count()).toBe(3);
      await wheel(page, 5_000);
      expect((await listScroll(page)).fromBottom).toBeLessThan(2);
      await page.evaluate(() => (window as unknown as { __release: () => void }).__release());
      await waitForAnswers(page, 3);
      // The list follows the last growth in a frame of its own: wait for it (a list that never
      // follows still fails here).
      await expect.poll(async () => (await listScroll(page)).fromBottom).toBeLessThan(2);
    } finally {
      await close();
    }
  });

  it('keeps the composer at the bottom of the panel when a configuration error is all there is', async () => {
    const { page, close } = await openPage('?apiKey=svc_admin_never_in_a_browser');
    try {
      await page.locator('[data-error-kind="config"]').waitFor();
      const panel = await rect(page, '[data-docs-assistant="panel"]');
      const composer = await rect(page, '[data-docs-assistant="composer"]');
      const header = await rect(page, '[data-docs-assistant="header"]');
      const error = await rect(page, '[data-docs-assistant="error"]');
      // The panel's 1px border is all that lies below the composer.
      expect(panel.bottom - composer.bottom).toBeLessThanOrEqual(1.5);
      // The error stands clear of the header line.
      expect(error.top - header.bottom).toBeGreaterThanOrEqual(8);
      expect(composer.top).toBeGreaterThan(error.bottom + 100);
    } finally {
      await close();
    }
  });
});

describe('in Chromium: code and tables in answers', () => {
  it('reads inline code left to right inside right-to-left text', async () => {
    const { page, close } = await openPage('?dir=rtl&answer=rtl');
    try {
      await ask(page, 'كيف أغير الألوان؟', 1);
      const code = page.locator(`${finishedAnswers} code`).first();
      expect(await code.textContent()).toBe('--da-*');
      // Where the first and the last character are drawn: mirrored, `*` would come first.
      const [first, last] = await code.evaluate((el) => {
        const text = el.firstChild!;
        const at = (index: number) => {
          const range = document.createRange();
          range.setStart(text, index);
          range.setEnd(text, index + 1);
          return range.getBoundingClientRect().left;
        };
        return [at(0), at((text.textContent ?? '').length - 1)];
      });
      expect(first).toBeLessThan(last);
    } finally {
      await close();
    }
  });

  it('scrolls a wide table instead of breaking the words in its cells', async () => {
    const { page, close } = await openPage('?width=360');
    try {
      await ask(page, 'Which variables?', 1);
      const lineCount = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((el) => {
            const range = document.createRange();
            range.selectNodeContents(el);
            return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
          });
      // "Variable" and `--da-surface-hover` each stay on one line.
      expect(await lineCount(`${finishedAnswers} th`)).toBe(1);
      expect(await lineCount(`${finishedAnswers} td code`)).toBe(1);
      // The table scrolls within the answer; the answer itself stays as wide as the list.
      // The default renderer wraps each table in a scrolling wrapper (src/parts/table.tsx).
      const scroller = page.locator(`${finishedAnswers} [data-table-scroll]`);
      expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      const answer = await rect(page, finishedAnswers);
      const list = await rect(page, '[data-docs-assistant="messages"]');
      expect(answer.right).toBeLessThanOrEqual(list.right);
      expect(
        await page
          .locator('[data-docs-assistant="messages"]')
          .evaluate((el) => el.scrollWidth - el.clientWidth),
      ).toBe(0);
    } finally {
      await close();
    }
  });

  it('makes every scrolling code block and table a named tab stop with a visible focus ring', async () => {
    const { page, close } = await openPage('?width=360&wrapTables');
    try {
      await ask(page, 'Which variables?', 1);
      const wrapper = page.locator(`${finishedAnswers} [data-table-scroll]`);
      await expect.poll(() => wrapper.getAttribute('tabindex')).toBe('0');
      const pre = page.getByRole('group', { name: 'css' });
      expect(await pre.evaluate((el) => el.tagName === 'PRE' && el.scrollWidth > el.clientWidth)).toBe(true);
      // From the copy button, Tab lands on the code; its ring is drawn inside the clipping block.
      await page.getByRole('button', { name: 'Copy code' }).focus();
      await page.keyboard.press('Tab');
      expect(await pre.evaluate((el) => el === document.activeElement)).toBe(true);
      const ring = await pre.evaluate((el) => {
        const style = getComputedStyle(el);
        return [style.outlineStyle, style.outlineWidth, style.outlineOffset];
      });
      expect(ring).toEqual(['solid', '2px', '-2px']);
      expect(
        await axeViolations(page, [
          'scrollable-region-focusable',
          'landmark-unique',
          'aria-prohibited-attr',
          'aria-allowed-attr',
          'nested-interactive',
        ]),
      ).toEqual([]);
    } finally {
      await close();
    }
  });
});
