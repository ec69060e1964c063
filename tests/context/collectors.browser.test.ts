/**
 * The collectors in a real browser (Chromium): what jsdom cannot show — layout (the button sits
 * by the selection, inside the viewport), the selection surviving a click on the button, keyboard
 * selection, scrolling, and "Ask AI" staying out of selected or sent code.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { build, type Rolldown } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../e2e/browser';

const contextDir = fileURLToPath(new URL('../../packages/docs-assistant/src/context/', import.meta.url));

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><style>
  body { font: 16px/1.5 sans-serif; margin: 40px; }
  pre { background: #eee; padding: 12px; overflow: auto; }
</style></head><body>
  <section id="intro"><h2>Intro</h2>
    <p id="p1">The quick brown fox jumps over the lazy dog. Selecting this sentence offers Ask AI.</p>
  </section>
  <section id="usage"><a id="to-usage" href="#usage">Usage</a><pre><code>npm install docs-assistant
docs-assistant serve</code></pre></section>
  <section id="focusable"><pre tabindex="0"><code>docs-assistant export</code></pre></section>
  <input id="search" value="search words">
  <div style="height: 2000px"></div>
  <p id="far">Far down the page.</p>
  <div id="widget"><p id="answer">Widget answer text</p><pre>widget code</pre></div>
  <script type="module">
    import { createCodeBlockCollector, createSelectionCollector } from '/collectors.js';
    const widget = document.getElementById('widget');
    const options = { isInsideWidget: (n) => widget.contains(n), onAsk: (c) => window.asked.push(c), label: 'Ask AI' };
    window.asked = [];
    // The page's code blocks as served, before any collector runs.
    window.served = Array.from(document.querySelectorAll('pre'), (pre) => pre.outerHTML);
    createSelectionCollector(options);
    createCodeBlockCollector({ ...options, shortcut: () => 'Control+I' });
    window.ready = true;
  </script>
</body></html>`;

/** Bundles the two cores (no React) the way the launcher ships them. */
async function bundleCollectors(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'collectors-entry',
        resolveId: (id) => (id === 'collectors-entry' ? '\0collectors-entry' : null),
        load: (id) =>
          id === '\0collectors-entry'
            ? `export { createSelectionCollector } from ${JSON.stringify(`${contextDir}selection-collector.ts`)};
               export { createCodeBlockCollector } from ${JSON.stringify(`${contextDir}code-block-collector.ts`)};`
            : null,
      },
    ],
    build: {
      write: false,
      minify: false,
      // An app build drops the entry's exports unless told to keep them.
      rolldownOptions: {
        input: 'collectors-entry',
        preserveEntrySignatures: 'strict',
        output: { format: 'es' },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunk = outputs[0]?.output.find((o) => o.type === 'chunk');
  if (chunk?.type !== 'chunk') throw new Error('the collectors bundle has no chunk');
  return chunk.code;
}

let server: Server;
let browser: Browser;
let page: Page;
const SELECTION = '[data-docs-assistant="ask-selection"]';

beforeAll(async () => {
  const code = await bundleCollectors();
  server = createServer((req, res) => {
    const js = req.url === '/collectors.js';
    res.setHeader('content-type', js ? 'text/javascript' : 'text/html; charset=utf-8');
    res.end(js ? code : PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

async function openPage() {
  page = await browser.newPage({ viewport: { width: 800, height: 600 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/docs/guide`);
  await page
    .waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true, undefined, {
      timeout: 10_000,
    })
    .catch((error: Error) => {
      throw new Error(`the test page did not start: ${errors.join('; ') || error.message}`);
    });
}

const asked = () => page.evaluate(() => (window as unknown as { asked: unknown[] }).asked);
const selectedText = () => page.evaluate(() => document.getSelection()?.toString() ?? '');

describe('collectors in Chromium', () => {
  beforeAll(openPage);
  afterAll(() => page.close());

  it('shows the button under a mouse selection only after the drag, keeps the selection on click', async () => {
    const box = (await page.locator('#p1').boundingBox())!;
    await page.mouse.move(box.x + 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 200, box.y + box.height / 2, { steps: 5 });
    expect(await page.locator(SELECTION).count()).toBe(0);
    await page.mouse.up();
    const button = page.locator(SELECTION);
    await button.waitFor({ state: 'visible' });

    const range = await page.evaluate(() =>
      document.getSelection()!.getRangeAt(0).getBoundingClientRect().toJSON(),
    );
    const placed = (await button.boundingBox())!;
    expect(placed.y).toBeGreaterThanOrEqual(range.bottom);
    expect(placed.y).toBeLessThan(range.bottom + 40);
    const text = await selectedText();

    await button.click();
    expect(await asked()).toEqual([
      { type: 'textSelection', value: text.trim(), path: '/docs/guide', elementId: 'p1' },
    ]);
    expect(await selectedText()).toBe(text);
    expect(await page.locator(SELECTION).count()).toBe(0);
  });

  it('works from the keyboard: Shift+arrows, Tab to the button, Enter', async () => {
    await page.locator('#p1').dblclick({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    await page.locator(SELECTION).waitFor({ state: 'visible' });
    const text = (await selectedText()).trim();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-docs-assistant'))).toBe(
      'ask-selection',
    );
    await page.keyboard.press('Enter');
    expect((await asked()).at(-1)).toEqual({
      type: 'textSelection',
      value: text,
      path: '/docs/guide',
      elementId: 'p1',
    });
  });

  it('hides on scroll away, sits inside the viewport at its bottom edge, ignores the widget', async () => {
    await page.locator('#p1').dblclick({ position: { x: 5, y: 5 } });
    await page.locator(SELECTION).waitFor({ state: 'visible' });
    await page.mouse.wheel(0, 1500);
    await page.locator(SELECTION).waitFor({ state: 'detached' });

    await page.evaluate(() => document.getElementById('far')!.scrollIntoView({ block: 'end' }));
    await page.locator('#far').dblclick({ position: { x: 5, y: 5 } });
    const placed = (await page.locator(SELECTION).boundingBox())!;
    expect(placed.y).toBeGreaterThanOrEqual(0);
    expect(placed.y + placed.height).toBeLessThanOrEqual(600);

    await page.locator('#answer').dblclick({ position: { x: 5, y: 5 } });
    // The widget's selection is made; a frame later there is still no button.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    expect(await selectedText()).not.toBe('');
    expect(await page.locator(SELECTION).count()).toBe(0);
  });

  it('keeps "Ask AI" out of the code it sends and out of a selection of the block', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await page.locator('#widget [data-docs-assistant="ask-code"]').count()).toBe(0);
    await page.locator('#usage pre').hover();
    await page.getByRole('button', { name: 'Ask AI about this code' }).click();
    expect((await asked()).at(-1)).toEqual({
      type: 'code',
      value: 'npm install docs-assistant\ndocs-assistant serve',
      path: '/docs/guide',
      elementId: 'usage',
    });
    const selected = await page.evaluate(() => {
      const range = document.createRange();
      range.selectNodeContents(document.querySelector('#usage pre')!);
      document.getSelection()!.removeAllRanges();
      document.getSelection()!.addRange(range);
      return document.getSelection()!.toString();
    });
    expect(selected).toBe('npm install docs-assistant\ndocs-assistant serve');
  });

  it("pins a code block's Ask AI to its bottom corner at the end of its lines: the right, or the left in right-to-left pages", async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    const edges = async () => {
      // Placed when shown: point away and back so it is placed for the current direction.
      await page.locator('#p1').hover();
      await page.locator('#usage pre').hover();
      return page.evaluate(() => {
        const pre = document.querySelector('#usage pre')!.getBoundingClientRect();
        const button = document.querySelector('[data-docs-assistant="ask-code"]')!.getBoundingClientRect();
        return {
          start: button.left - pre.left,
          end: pre.right - button.right,
          top: button.top - pre.top,
          bottom: pre.bottom - button.bottom,
        };
      });
    };
    const ltr = await edges();
    expect(ltr.end).toBeLessThan(ltr.start);
    expect(ltr.end).toBeGreaterThan(0);
    expect(ltr.bottom).toBeGreaterThan(0);
    expect(ltr.bottom).toBeLessThan(ltr.top);
    await page.evaluate(() => document.documentElement.setAttribute('dir', 'rtl'));
    try {
      const rtl = await edges();
      expect(rtl.start).toBeCloseTo(ltr.end, 0);
      expect(rtl.end).toBeGreaterThan(rtl.start);
      expect(rtl.bottom).toBeCloseTo(ltr.bottom, 0);
    } finally {
      await page.evaluate(() => document.documentElement.removeAttribute('dir'));
    }
  });

  it('leaves every code block of the page byte for byte as served, through hover, focus, the shortcut and asking', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    const ASK = '[data-docs-assistant="ask-code"]';
    await page.evaluate(() => document.getSelection()?.removeAllRanges());
    await page.locator(SELECTION).waitFor({ state: 'detached' });
    // By keyboard: Tab walks the page's own stops only; the focusable block shows the button.
    await page.locator('#to-usage').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('section')?.id)).toBe('focusable');
    const preBox = (await page.locator('#focusable pre').boundingBox())!;
    const shown = (await page.locator(ASK).boundingBox())!;
    expect(shown.y).toBeGreaterThanOrEqual(preBox.y);
    expect(shown.y + shown.height).toBeLessThanOrEqual(preBox.y + preBox.height);
    await page.keyboard.press('Control+I');
    expect((await asked()).at(-1)).toEqual({
      type: 'code',
      value: 'docs-assistant export',
      path: '/docs/guide',
      elementId: 'focusable',
    });
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search');
    await page.locator('#usage pre').hover();
    await page.locator(ASK).click();
    expect((await asked()).at(-1)).toMatchObject({ type: 'code', elementId: 'usage' });
    const now = await page.evaluate(() =>
      Array.from(document.querySelectorAll('pre'), (pre) => pre.outerHTML),
    );
    const served = await page.evaluate(() => (window as unknown as { served: string[] }).served);
    // The widget's own block (its answer code) is last in both; the page's are the ones before it.
    expect(now).toEqual(served);
    expect(served.length).toBe(3);
    // The button lives outside every block.
    expect(await page.evaluate((ask) => document.querySelector(ask)?.closest('pre'), ASK)).toBeNull();
  });

  it('offers nothing for text selected in a form field of the page', async () => {
    await page.locator('#search').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).selectionEnd)).toBe(12);
    expect(await page.locator(SELECTION).count()).toBe(0);
  });
});

// --- As <DocsAssistant> runs them: loaded on the reader's first interaction ---------------------

const LAZY_PAGE = `<!doctype html><html><head><meta charset="utf-8"><style>
  body { font: 16px/1.5 sans-serif; margin: 40px; }
  pre { background: #eee; padding: 12px; }
</style></head><body>
  <a id="top" href="#install">Install</a>
  <p id="text">Some words to read before the code.</p>
  <pre id="code"><code>npm install docs-assistant</code></pre>
  <a id="after" href="#next">Next</a>
  <div id="widget"><button type="button">Launcher</button></div>
  <script type="module" src="/lazy/app.js"></script>
</body></html>`;

/** The trigger as the widget ships it, bundled for a browser with the collectors split off. */
async function bundleTrigger(): Promise<Map<string, string>> {
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'lazy-entry',
        resolveId: (id) => (id === 'lazy-entry' ? '\0lazy-entry' : null),
        load: (id) =>
          id === '\0lazy-entry'
            ? `import { startLazyCollectors } from ${JSON.stringify(`${contextDir}collector-trigger.ts`)};
               window.asked = [];
               window.served = Array.from(document.querySelectorAll('pre'), (pre) => pre.outerHTML);
               startLazyCollectors(document, {
                 selection: true, codeBlocks: 'pre', label: 'Ask AI',
                 widgetRef: { current: document.getElementById('widget') },
                 onAsk: (c) => window.asked.push(c),
               });
               window.ready = true;`
            : null,
      },
    ],
    build: {
      write: false,
      minify: false,
      modulePreload: false,
      rolldownOptions: {
        input: 'lazy-entry',
        output: { format: 'es', entryFileNames: 'app.js', chunkFileNames: '[name].js' },
      },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const files = new Map<string, string>();
  for (const output of outputs[0]?.output ?? []) {
    if (output.type === 'chunk') files.set(output.fileName, output.code);
  }
  if (![...files.keys()].some((name) => name.startsWith('collector-chunk'))) {
    throw new Error(`the collectors were not split off: ${[...files.keys()].join(', ')}`);
  }
  return files;
}

describe('collectors loaded on first use, in Chromium', () => {
  let lazyServer: Server;
  let requests: string[] = [];
  /** How the collectors' chunk is answered: at once, held until released, or 404. */
  let chunkMode: 'serve' | 'hold' | 'fail' = 'serve';
  let releaseChunk: () => void = () => {};

  beforeAll(async () => {
    const files = await bundleTrigger();
    lazyServer = createServer(async (req, res) => {
      const url = req.url ?? '/';
      requests.push(url);
      const name = url.startsWith('/lazy/') ? url.slice('/lazy/'.length) : undefined;
      if (name === undefined) {
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(LAZY_PAGE);
        return;
      }
      const code = files.get(name);
      if (name.startsWith('collector-chunk') && chunkMode === 'hold') {
        await new Promise<void>((resolve) => {
          releaseChunk = resolve;
        });
      }
      if (!code || (name.startsWith('collector-chunk') && chunkMode === 'fail')) {
        res.statusCode = 404;
        res.end();
        return;
      }
      res.setHeader('content-type', 'text/javascript');
      res.end(code);
    });
    await new Promise<void>((resolve) => lazyServer.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    releaseChunk();
    await new Promise((resolve) => lazyServer?.close(resolve));
  });

  async function openLazyPage(mode: typeof chunkMode) {
    chunkMode = mode;
    requests = [];
    const lazyPage = await browser.newPage({ viewport: { width: 800, height: 600 } });
    const errors: string[] = [];
    lazyPage.on('pageerror', (error) => errors.push(error.message));
    lazyPage.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await lazyPage.goto(`http://127.0.0.1:${(lazyServer.address() as AddressInfo).port}/docs/guide`);
    await lazyPage.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    await lazyPage.waitForLoadState('networkidle');
    return { lazyPage, errors };
  }
  const chunkRequests = () => requests.filter((url) => url.includes('collector-chunk'));
  const served = (p: Page) =>
    p.evaluate(() => ({
      now: Array.from(document.querySelectorAll('pre'), (pre) => pre.outerHTML),
      atLoad: (window as unknown as { served: string[] }).served,
    }));

  it('requests nothing of the collectors until the pointer is over a code block, and shows the button for that first hover', async () => {
    const { lazyPage, errors } = await openLazyPage('serve');
    try {
      await lazyPage.mouse.move(5, 5);
      await lazyPage.hover('#text');
      await lazyPage.hover('#widget button');
      await lazyPage.waitForLoadState('networkidle');
      expect(chunkRequests()).toEqual([]);

      await lazyPage.hover('#code');
      const ask = lazyPage.getByRole('button', { name: 'Ask AI about this code' });
      await ask.waitFor({ state: 'visible' });
      expect(chunkRequests()).toHaveLength(1);
      // In the block's bottom right corner, in the widget's root.
      const block = (await lazyPage.locator('#code').boundingBox())!;
      const button = (await ask.boundingBox())!;
      expect(button.x + button.width).toBeLessThanOrEqual(block.x + block.width);
      expect(button.y).toBeGreaterThanOrEqual(block.y);
      expect(button.y + button.height).toBeLessThanOrEqual(block.y + block.height);
      expect(await ask.evaluate((el) => el.closest('#widget') !== null)).toBe(true);
      await ask.click();
      expect(await lazyPage.evaluate(() => (window as unknown as { asked: unknown[] }).asked)).toEqual([
        { type: 'code', value: 'npm install docs-assistant', path: '/docs/guide', elementId: 'code' },
      ]);
      const { now, atLoad } = await served(lazyPage);
      expect(now).toEqual(atLoad);
      expect(errors).toEqual([]);
    } finally {
      await lazyPage.close();
    }
  });

  it('adds no Tab stop, before the chunk arrives or after', async () => {
    const { lazyPage, errors } = await openLazyPage('hold');
    try {
      expect(chunkRequests()).toEqual([]);
      await lazyPage.keyboard.press('Tab');
      expect(await lazyPage.evaluate(() => document.activeElement?.id)).toBe('top');
      await expect.poll(() => chunkRequests().length).toBe(1);
      await lazyPage.keyboard.press('Tab');
      expect(await lazyPage.evaluate(() => document.activeElement?.id)).toBe('after');
      releaseChunk();
      await lazyPage.waitForLoadState('networkidle');
      // Loaded and running (the hover shows its button): Tab still walks the page's own stops.
      await lazyPage.hover('#code');
      await lazyPage.locator('[data-docs-assistant="ask-code"]').waitFor();
      await lazyPage.keyboard.press('Shift+Tab');
      expect(await lazyPage.evaluate(() => document.activeElement?.id)).toBe('top');
      await lazyPage.keyboard.press('Tab');
      expect(await lazyPage.evaluate(() => document.activeElement?.id)).toBe('after');
      const { now, atLoad } = await served(lazyPage);
      expect(now).toEqual(atLoad);
      expect(errors).toEqual([]);
    } finally {
      await lazyPage.close();
    }
  });

  it('leaves the page working when the chunk fails to load, and says so once', async () => {
    const { lazyPage, errors } = await openLazyPage('fail');
    try {
      await lazyPage.hover('#code');
      await expect.poll(() => errors.filter((text) => text.includes('Ask AI')).length).toBe(1);
      await lazyPage.keyboard.press('Tab');
      await lazyPage.keyboard.press('Tab');
      await lazyPage.hover('#text');
      await lazyPage.hover('#code');
      expect(await lazyPage.evaluate(() => document.activeElement?.id)).toBe('after');
      expect(await lazyPage.locator('[data-docs-assistant="ask-code"]').count()).toBe(0);
      expect(errors.filter((text) => !text.includes('404'))).toHaveLength(1);
      const { now, atLoad } = await served(lazyPage);
      expect(now).toEqual(atLoad);
    } finally {
      await lazyPage.close();
    }
  });
});
