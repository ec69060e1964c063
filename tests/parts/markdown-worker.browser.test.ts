/**
 * The Markdown worker (`src/parts/parse-off-thread.ts`, `markdown-worker.ts`) in Chromium, with the
 * page built by Vite from the sources (so Vite bundles the worker as a host's bundler would).
 *
 * A streamed answer (`StreamingMarkdown`, one more prefix per animation frame, then held at the
 * whole text with `isStreaming` still true) must end up with exactly the HTML of `<Markdown>` given
 * the whole text (which parses on the page), both while it is still streaming and once it is
 * finished: with the worker running, when the worker's file is not found, under a CSP that
 * forbids workers, without `Worker` and when its constructor throws (the blocks then parse on the
 * page while the answer streams). A block being written keeps one text in a worker that has fallen
 * behind, not one per render, and catches up when it answers; it sends a newer text at most every
 * 32 ms, and shows its newest one when the stream pauses. Also: two answers with the same blocks each link their footnote
 * calls to their own footnotes; finished blocks never go blank while they wait for their trees; a
 * finished answer that mounts goes to the worker too.
 */
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWidgetPage, type WidgetPage } from '../ui/widget-page';

const root = resolve(import.meta.dirname, '../.artifacts/parts-markdown-worker');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');

// A 1x1 PNG: the default image policy allows data: raster images.
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Every construct the parser handles differently from plain text, several across blocks. */
const RICH = `# Release notes &copy; 2026

Some *emphasis*, **strong**, ***both***, ~~struck~~ and \`code\`. References: &copy; &amp; &notit; &frac12; &#169; &#x1F600; &not; &bogus;.

See the [guide][guide], the [API][] and [shortcut]. A first footnote call[^first] here.

## A table

| Left | Center | Right |
|:-----|:------:|------:|
| a &amp; b | *b* | \`c\` |
| [z][guide] | ~~gone~~ | 3 |

- [ ] to do
- [x] done
  - nested *item*
    1. deep one
    2. deep two[^second]
- plain

> A quote with the second note[^second] and the first again[^first].
>
> > A nested quote.

Autolinks: https://example.com/path?q=1, www.example.org and mail@example.com.

\`\`\`ts
const x: number = 1; // <b>not bold</b> &copy;
\`\`\`

<div class="raw">raw <b>html</b> <img src="x" onerror="alert(1)"></div>

![A pixel](${PNG} "A title") and ![far](https://cdn.example.com/far.png).

Setext heading
--------------

Final paragraph calling the third note[^third], a hard\\
break, and a [relative link](/docs/start).

[guide]: https://example.com/guide "The guide"
[api]: /api
[shortcut]: </short cut>

[^first]: The first note, with **bold**.
[^second]: The second note, called from a list and a quote.
[^third]: The third, with a [link][guide].
`;

/**
 * The page: `window.__stream(text, parts)` adds an answer that a `StreamingMarkdown` receives in
 * `parts` prefixes, one more per animation frame, then holds whole with `isStreaming` true until
 * `window.__finish(index)`; beside it, `<Markdown>` with the whole text. `window.__steps` is how
 * many prefixes each answer has received. `Worker` is the browser's, counting what it is asked to
 * do.
 */
const MAIN = `
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { StreamingMarkdown } from '${src}/parts/markdown';
// The public Markdown, which parses on the page (the widget's own blocks go to the worker).
import { Markdown } from '${src}/parts/with-parser';

const counts = { created: 0, threw: 0, errors: 0, posted: 0, trees: 0, failed: 0, resent: 0 };
const sentTexts = new Set();
window.__workerCounts = counts;
const BrowserWorker = window.Worker;
// ?worker=none: a browser without workers; ?worker=throws: one whose constructor refuses;
// ?worker=held: a worker that gets nothing until window.__release() (one that has fallen behind).
const mode = new URLSearchParams(location.search).get('worker');
const held = [];
let released = mode !== 'held';
window.__release = () => {
  released = true;
  for (const [worker, args] of held.splice(0)) BrowserWorker.prototype.postMessage.apply(worker, args);
};
window.Worker = mode === 'none' ? undefined : class extends BrowserWorker {
  constructor(url, options) {
    try {
      if (mode === 'throws') throw new DOMException('Workers are refused here', 'SecurityError');
      super(url, options);
    } catch (error) {
      counts.threw += 1;
      throw error;
    }
    counts.created += 1;
    this.addEventListener('error', () => { counts.errors += 1; });
    // The texts of a frame go in one message, their trees come back in one.
    this.addEventListener('message', ({ data }) => {
      for (const reply of data) {
        if ('tree' in reply) counts.trees += 1;
        else counts.failed += 1;
      }
    });
  }
  postMessage(...args) {
    for (const { text } of args[0]) {
      counts.posted += 1;
      if (sentTexts.has(text)) counts.resent += 1;
      sentTexts.add(text);
    }
    if (!released) return void held.push([this, args]);
    return super.postMessage(...args);
  }
};

let update;
function App() {
  const [answers, setAnswers] = useState([]);
  update = setAnswers;
  useEffect(() => {
    if (answers.every((answer) => answer.step === answer.parts)) return;
    const frame = requestAnimationFrame(() =>
      setAnswers((list) => list.map((answer) => ({ ...answer, step: Math.min(answer.parts, answer.step + 1) }))),
    );
    return () => cancelAnimationFrame(frame);
  }, [answers]);
  window.__steps = answers.map((answer) => answer.step);
  window.__streamedMs = answers.map((answer) =>
    answer.step === answer.parts ? (answer.streamedMs ??= performance.now() - answer.startedAt) : undefined,
  );
  return answers.map((answer, index) => (
    <section key={index} data-answer={index} data-streaming={answer.streaming ? '' : undefined}>
      <StreamingMarkdown
        data-which="streamed"
        text={answer.full.slice(0, Math.ceil((answer.full.length * answer.step) / answer.parts))}
        isStreaming={answer.streaming}
      />
      <Markdown data-which="reference" text={answer.full} />
    </section>
  ));
}
window.__stream = (full, parts, streaming = true) =>
  update((list) => [...list, { full, parts, step: streaming ? 1 : parts, streaming, startedAt: performance.now() }]);
window.__finish = (index) =>
  update((list) => list.map((answer, i) => (i === index ? { ...answer, streaming: false } : answer)));

// A finished block shows what it showed while it waits for its tree: an element of one (the first
// heading, a table, a code block, a quote, a list) once shown in a streamed answer stays shown.
window.__lost = [];
window.__shown = [];
const seen = new WeakMap();
new MutationObserver(() => {
  for (const streamed of document.querySelectorAll('[data-which="streamed"]')) {
    const had = seen.get(streamed) ?? new Set();
    seen.set(streamed, had);
    for (const selector of ['h1', 'table', 'pre', 'blockquote', 'ul']) {
      if (streamed.querySelector(selector)) {
        had.add(selector);
        if (!window.__shown.includes(selector)) window.__shown.push(selector);
      }
      else if (had.has(selector)) window.__lost.push(selector);
    }
  }
}).observe(document.getElementById('app'), { childList: true, subtree: true, characterData: true });
createRoot(document.getElementById('app')).render(<App />);
`;

interface WorkerCounts {
  created: number;
  threw: number;
  errors: number;
  posted: number;
  /** Answers with a tree, and with an error. */
  trees: number;
  failed: number;
  /** Texts sent that had been sent before. */
  resent: number;
}

/** What the server does to the page's next load: 404 the worker's file, or forbid workers. */
const serving = { workerMissing: false, csp: '', workerRequests: 0 };

let widgetPage: WidgetPage | undefined;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  widgetPage = await serveWidgetPage(root, {
    title: 'markdown worker',
    main: MAIN,
    notFound: (path) => {
      // Vite names the worker's built file after markdown-worker.ts.
      if (!path.includes('/markdown-worker')) return false;
      serving.workerRequests += 1;
      return serving.workerMissing;
    },
    headers: (path) =>
      serving.csp && !/\.\w+$/.test(path) ? { 'Content-Security-Policy': serving.csp } : undefined,
  });
  ({ browser, origin } = widgetPage);
}, 120_000);

afterAll(async () => {
  await widgetPage?.close();
});

async function openPage(
  options: { workerMissing?: boolean; csp?: string; worker?: 'none' | 'throws' | 'held' } = {},
) {
  serving.workerMissing = options.workerMissing ?? false;
  serving.csp = options.csp ?? '';
  serving.workerRequests = 0;
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await page.goto(`${origin}/${options.worker ? `?worker=${options.worker}` : ''}`);
  await page.waitForFunction(() => '__stream' in window);
  return { page, errors, consoleErrors, close: () => context.close() };
}

/**
 * The HTML of an answer's element. React's ids (`useId`: the answer's footnote id prefix
 * `user-content-<id>-`, a code block's label) differ between two elements; they are made the same.
 */
async function html(page: Page, answer: number, which: 'streamed' | 'reference'): Promise<string> {
  const inner = await page
    .locator(`[data-answer="${answer}"] > [data-which="${which}"]`)
    .evaluate((element) => element.innerHTML);
  return inner.replace(/_r_[\da-z]+_|«r[\da-z]+»|:r[\da-z]+:/g, 'ID');
}

/** Streams `text` as a new answer and waits until its reference (`<Markdown>`) is on the page. */
async function stream(
  page: Page,
  answer: number,
  text: string,
  parts: number,
  streaming = true,
): Promise<string> {
  await page.evaluate(([full, count, live]) => window.__stream(full, count, live), [
    text,
    parts,
    streaming,
  ] as const);
  await page.locator(`[data-answer="${answer}"] > [data-which="reference"]`).waitFor();
  return html(page, answer, 'reference');
}

/** The streamed answer's HTML once it is finished and wholly on screen (no `data-pending`). */
async function finishedHtml(page: Page, answer: number): Promise<string> {
  await page
    .locator(`[data-answer="${answer}"]:not([data-streaming]) > [data-which="streamed"]:not([data-pending])`)
    .waitFor();
  return html(page, answer, 'streamed');
}

/** Every footnote call of the streamed answer links to a footnote of that same answer. */
async function footnoteTargets(page: Page, answer: number): Promise<string[]> {
  return page.locator(`[data-answer="${answer}"] > [data-which="streamed"]`).evaluate((element) =>
    [...element.querySelectorAll('a[data-footnote-ref]')].map((call) => {
      const href = call.getAttribute('href') ?? '';
      const note = element.ownerDocument.getElementById(decodeURIComponent(href.slice(1)));
      if (note && element.contains(note)) return `${call.textContent} → ${note.textContent}`;
      const owner = note?.closest('[data-answer]')?.getAttribute('data-answer');
      return `${call.textContent} → ${href}, ${owner ? `in answer ${owner}` : 'on no element'}`;
    }),
  );
}

/** How long a state may take to be reached on two shared cores: a limit, not a measurement. */
const UNTIL = { timeout: 20_000 };

const counts = (page: Page) =>
  page.evaluate(() => (window as unknown as { __workerCounts: WorkerCounts }).__workerCounts);

/**
 * Streams RICH in 40 prefixes; holds it whole while streaming until the streamed HTML is the
 * reference's; then finishes it and checks again.
 */
async function streamRich(page: Page): Promise<void> {
  const reference = await stream(page, 0, RICH, 40);
  // The reference is the whole document, not an empty or cut one.
  expect(reference).toContain('Release notes © 2026');
  expect(reference).toContain('&amp;notit;');
  expect(reference).toContain('½ © 😀 ¬ &amp;bogus;');
  expect(reference).toContain('&lt;div class="raw"&gt;');
  expect(reference).toContain('<input disabled="" type="checkbox" checked="">');
  expect(reference).toContain('style="text-align: center;"');
  expect(reference).toContain('<del>struck</del>');
  expect(reference).toContain('href="http://www.example.org"');
  expect(reference).toContain('href="mailto:mail@example.com"');
  expect(reference).toContain('href="/short%20cut"');
  expect(reference).toContain('data-external-image=""');
  expect(reference).toContain('loading="lazy" src="data:image/png;base64,');
  expect(reference).toContain('class="language-ts"');
  expect(reference).toContain('The third, with a <a title="The guide" href="https://example.com/guide"');

  await expect.poll(() => page.evaluate(() => window.__steps[0]), UNTIL).toBe(40);
  await expect.poll(() => html(page, 0, 'streamed'), UNTIL).toBe(reference);
  // Still streaming: the blocks rendered while the answer is being written.
  expect(await page.evaluate(() => window.__steps)).toEqual([40]);
  expect(await page.evaluate(() => window.__lost)).toEqual([]);
  expect((await page.evaluate(() => window.__shown)).sort()).toEqual([
    'blockquote',
    'h1',
    'pre',
    'table',
    'ul',
  ]);
  expect(await footnoteTargets(page, 0)).toEqual([
    '1 → The first note, with bold.',
    '2 → The second note, called from a list and a quote.',
    '2 → The second note, called from a list and a quote.',
    '1 → The first note, with bold.',
    '3 → The third, with a link.',
  ]);

  await page.evaluate(() => window.__finish(0));
  // The render with `isStreaming` false is on the page: the same HTML at once, not eventually.
  expect(await finishedHtml(page, 0)).toBe(reference);
  expect(await page.evaluate(() => window.__lost)).toEqual([]);
}

declare global {
  interface Window {
    /** `streaming` false: the whole text at once, finished (a conversation shown again). */
    __stream(text: string, parts: number, streaming?: boolean): void;
    __finish(index: number): void;
    __steps: number[];
    /** How long each answer took from its first prefix to its whole text, in ms, once it has. */
    __streamedMs: (number | undefined)[];
    /** Elements a streamed answer showed and then did not (see MAIN). */
    __lost: string[];
    /** Those elements that a streamed answer showed at all. */
    __shown: string[];
    /** With `?worker=held`: sends the worker what it was held back from, and all from then on. */
    __release(): void;
  }
}

describe('Markdown parsed in a worker while an answer streams', { timeout: 90_000 }, () => {
  it('gives the HTML <Markdown> gives on the page, while streaming and once finished', async () => {
    const { page, errors, consoleErrors, close } = await openPage();
    try {
      await streamRich(page);
      // Vite bundled the worker into a file of its own, started from its URL.
      expect(page.workers().map((worker) => new URL(worker.url()).pathname)).toEqual([
        expect.stringMatching(/^\/assets\/markdown-worker-[\w-]+\.js$/),
      ]);
      const { created, threw, errors: workerErrors, posted, trees, failed } = await counts(page);
      expect({ created, threw, workerErrors, failed }).toEqual({
        created: 1,
        threw: 0,
        workerErrors: 0,
        failed: 0,
      });
      // The blocks went to the worker and came back as trees (more than one text per block: the
      // last one is sent again as it grows).
      expect(posted).toBeGreaterThan(10);
      expect(trees).toBe(posted);
      expect((await counts(page)).resent).toBe(0);
      expect(serving.workerRequests).toBe(1);
      expect(errors).toEqual([]);
      expect(consoleErrors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a second answer with a block the first had links its footnote calls to its own footnotes', async () => {
    // The block `Shared…[^n]` (with the definition it uses) is the same text in both answers, so
    // its tree is the one the worker sent for the first (a regenerated answer, or a streaming
    // answer mounted again); each answer's footnotes have ids of their own.
    const first = 'Shared line with a note[^n].\n\n[^n]: The shared note.\n';
    const second = `Another answer[^b].\n\n${first}\n[^b]: The second answer's own note.\n`;
    const { page, errors, close } = await openPage();
    try {
      const firstReference = await stream(page, 0, first, 10);
      await expect.poll(() => html(page, 0, 'streamed'), UNTIL).toBe(firstReference);
      await page.evaluate(() => window.__finish(0));
      const reference = await stream(page, 1, second, 10);
      await expect.poll(() => page.evaluate(() => window.__steps[1]), UNTIL).toBe(10);
      await expect.poll(() => html(page, 1, 'streamed'), UNTIL).toBe(reference);
      expect(await footnoteTargets(page, 1)).toEqual([
        "2 → The second answer's own note.",
        '1 → The shared note.',
      ]);
      expect(await footnoteTargets(page, 0)).toEqual(['1 → The shared note.']);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('two answers streaming the same text at once both end with <Markdown>’s HTML, each with its own footnotes', async () => {
    const { page, errors, close } = await openPage();
    try {
      await page.evaluate((text) => {
        window.__stream(text, 40);
        window.__stream(text, 40);
      }, RICH);
      await page.locator('[data-answer="1"] > [data-which="reference"]').waitFor();
      const reference = await html(page, 0, 'reference');
      expect(await html(page, 1, 'reference')).toBe(reference);
      await expect.poll(() => page.evaluate(() => window.__steps), UNTIL).toEqual([40, 40]);
      for (const answer of [0, 1]) {
        await expect.poll(() => html(page, answer, 'streamed'), UNTIL).toBe(reference);
        expect(await footnoteTargets(page, answer)).toEqual([
          '1 → The first note, with bold.',
          '2 → The second note, called from a list and a quote.',
          '2 → The second note, called from a list and a quote.',
          '1 → The first note, with bold.',
          '3 → The third, with a link.',
        ]);
      }
      const { trees, posted, resent } = await counts(page);
      expect(trees).toBeGreaterThan(10);
      // Each text once, for both answers.
      expect({ resent, trees }).toEqual({ resent: 0, trees: posted });
      await page.evaluate(() => {
        window.__finish(0);
        window.__finish(1);
      });
      for (const answer of [0, 1]) {
        expect(await finishedHtml(page, answer)).toBe(reference);
      }
      expect(await page.evaluate(() => window.__lost)).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a block being written has one text at a time in a worker that has fallen behind, and catches up', async () => {
    // No references or footnotes: a block's text only changes as it is written.
    const text = [
      '# Upgrading the client',
      'Install the new version with your package manager, then restart the development server so the new build is picked up.',
      '- Check the changelog\n- Update the configuration file\n- Run the test suite once more',
      '```ts\nimport { createClient } from "example";\nconst client = createClient({ retries: 3 });\n```',
      '| Option | Default |\n| --- | --- |\n| retries | 3 |\n| timeout | 30 s |',
      'That is all: the client now retries failed requests on its own.',
    ].join('\n\n');
    const { page, errors, close } = await openPage({ worker: 'held' });
    try {
      // Held for 60 frames: well within the 10 s after which the page gives up on a silent worker.
      const reference = await stream(page, 0, text, 60);
      await expect.poll(() => page.evaluate(() => window.__steps[0]), UNTIL).toBe(60);
      const blocks = await page
        .locator('[data-answer="0"] > [data-which="reference"]')
        .evaluate((element) => element.children.length);
      expect(blocks).toBe(6);
      // 60 renders of the answer, and each block sent its first text and, once a block after it
      // began, its whole text: not a text per render.
      const { posted } = await counts(page);
      expect(posted).toBeGreaterThanOrEqual(blocks);
      expect(posted).toBeLessThanOrEqual(2 * blocks);
      // The worker catches up: the block being written sends its newest text, still streaming.
      await page.evaluate(() => window.__release());
      await expect.poll(() => html(page, 0, 'streamed'), UNTIL).toBe(reference);
      expect((await counts(page)).resent).toBe(0);
      await page.evaluate(() => window.__finish(0));
      expect(await finishedHtml(page, 0)).toBe(reference);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a block being written sends a newer text at most every 32 ms, and shows its newest one when the stream pauses', async () => {
    // One block, a paragraph, in a prefix per frame: faster than the interval at 60 Hz.
    const sentence =
      'Install the new version, then restart the development server so the new build is picked up. ';
    const text = sentence.repeat(8).trim();
    const { page, errors, close } = await openPage();
    try {
      const reference = await stream(page, 0, text, 120);
      await expect.poll(() => page.evaluate(() => window.__streamedMs[0]), UNTIL).toBeDefined();
      // Paused at the whole text, still streaming: the last text goes a frame after the interval.
      await expect.poll(() => html(page, 0, 'streamed'), UNTIL).toBe(reference);
      const streamedMs = (await page.evaluate(() => window.__streamedMs[0]))!;
      const { posted, resent } = await counts(page);
      // The first text, one per 32 ms while it streamed, and the last one after the pause.
      expect(posted).toBeLessThanOrEqual(2 + Math.ceil(streamedMs / 32));
      expect(resent).toBe(0);
      await page.evaluate(() => window.__finish(0));
      expect(await finishedHtml(page, 0)).toBe(reference);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('an answer that finishes while its text is still being rendered ends with <Markdown>’s HTML', async () => {
    // Past what StreamingMarkdown renders in one commit: the text on screen catches up over several
    // (`data-pending`), its blocks sent to the worker, while the answer is already finished.
    const long = Array.from({ length: 30 }, (_, index) => `## Part ${index}\n\n${RICH}`).join('\n');
    expect(long.length).toBeGreaterThan(2 * 16_000);
    const { page, errors, close } = await openPage();
    try {
      // Finished right after the first commit that shows the streamed text behind the answer's.
      await page.evaluate(
        (text) =>
          new Promise<void>((done) => {
            const observer = new MutationObserver(() => {
              if (!document.querySelector('[data-answer="0"] > [data-which="streamed"][data-pending]'))
                return;
              observer.disconnect();
              window.__finish(0);
              done();
            });
            observer.observe(document.getElementById('app') as HTMLElement, {
              subtree: true,
              childList: true,
              attributes: true,
            });
            window.__stream(text, 1);
          }),
        long,
      );
      const reference = await html(page, 0, 'reference');
      expect(await finishedHtml(page, 0)).toBe(reference);
      expect(await page.evaluate(() => window.__lost)).toEqual([]);
      // Its blocks were sent to the worker while the text caught up.
      expect((await counts(page)).posted).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('a finished answer that mounts goes to the worker too (the page loads no parser of its own for it)', async () => {
    const { page, errors, close } = await openPage();
    try {
      const reference = await stream(page, 0, RICH, 1, false);
      expect(await finishedHtml(page, 0)).toBe(reference);
      // Each of its blocks and footnotes, in one message.
      expect((await counts(page)).posted).toBeGreaterThan(5);
      expect((await counts(page)).trees).toBe((await counts(page)).posted);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('finished answers holding more text than the worker’s trees are kept for settle: nothing goes again once they are on screen', async () => {
    const { page, errors, close } = await openPage();
    try {
      // Three answers of about 80,000 characters: more than the 200,000 whose trees are kept, so
      // the trees of the first are gone by the time the last ones arrive.
      const long = (answer: number) =>
        Array.from(
          { length: 200 },
          (_, paragraph) => `Answer ${answer}, paragraph ${paragraph}: ${'words of the docs '.repeat(22)}`,
        ).join('\n\n');
      for (let answer = 0; answer < 3; answer++) {
        await stream(page, answer, long(answer), 1, false);
        await finishedHtml(page, answer);
      }
      const settled = (await counts(page)).posted;
      expect(settled).toBeGreaterThanOrEqual(600);
      // A second with every answer on screen: no tree is asked for again.
      await page.waitForTimeout(1_000);
      expect((await counts(page)).posted).toBe(settled);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('falls back to parsing on the page when the worker’s file is not found', async () => {
    const { page, errors, consoleErrors, close } = await openPage({ workerMissing: true });
    try {
      await streamRich(page);
      expect(serving.workerRequests).toBeGreaterThan(0);
      const { created, errors: workerErrors } = await counts(page);
      expect({ created, workerErrors }).toEqual({ created: 1, workerErrors: 1 });
      expect(page.workers()).toHaveLength(0);
      expect(errors).toEqual([]);
      // Only the 404 itself is reported.
      for (const message of consoleErrors) expect(message).toMatch(/Failed to load resource/);
    } finally {
      await close();
    }
  });

  it('falls back to parsing on the page under a Content-Security-Policy that forbids workers', async () => {
    const { page, errors, close } = await openPage({ csp: "worker-src 'none'" });
    try {
      await streamRich(page);
      const { created, threw, errors: workerErrors } = await counts(page);
      // Chromium refuses the worker one way or the other: the constructor throws, or it fails to load.
      expect(threw + workerErrors).toBe(1);
      expect(created - workerErrors).toBe(0);
      expect(page.workers()).toHaveLength(0);
      expect(serving.workerRequests).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('parses on the page in a browser without workers', async () => {
    const { page, errors, close } = await openPage({ worker: 'none' });
    try {
      await streamRich(page);
      expect(page.workers()).toHaveLength(0);
      expect(serving.workerRequests).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('parses on the page when the Worker constructor throws', async () => {
    const { page, errors, close } = await openPage({ worker: 'throws' });
    try {
      await streamRich(page);
      const { created, threw, posted } = await counts(page);
      expect(created).toBe(0);
      expect(threw).toBeGreaterThan(0);
      expect(posted).toBe(0);
      expect(page.workers()).toHaveLength(0);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});
