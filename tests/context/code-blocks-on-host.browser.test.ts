/**
 * "Ask AI" on the page's code blocks as a reader meets it, in Chromium, with `<DocsAssistant>`
 * built from the sources: on pages that reproduce the code-block markup and CSS of VitePress
 * (`div.language-*` > `button.copy` 40×40 at 12 px from the top right, `span.lang`, `pre`) and
 * Docusaurus (`.theme-code-block` > `.codeBlockContent` > `pre[tabindex=0]` + `.buttonGroup` at
 * 0.5rem from the top right), the site's own copy button stays the one a click at its centre
 * reaches, on long blocks and one-line ones; with the panel open over a code block, nothing of
 * "Ask AI" is drawn over the panel (every point of the panel hit-tested); on a page with 20 code
 * blocks, Tab reaches the launcher after the page's own stops and nothing else; a keyboard reader
 * in a block asks about it with the widget's shortcut.
 */
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWidgetPage, type WidgetPage } from '../ui/widget-page';

const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');

/** VitePress' default theme, the rules that place a code block's controls (vp-doc.css). */
const VITEPRESS_CSS = `
*, ::before, ::after { box-sizing: border-box; }
.vp-doc { max-width: 688px; margin: 0 auto; font: 16px/28px Inter, sans-serif; }
.vp-doc div[class*='language-'] { position: relative; margin: 16px 0; background: #f6f6f7; overflow-x: auto; border-radius: 8px; }
.vp-doc div[class*='language-'] pre { margin: 0; padding: 20px 0; background: transparent; overflow-x: auto; }
.vp-doc div[class*='language-'] code { display: block; padding: 0 24px; width: fit-content; min-width: 100%; line-height: 1.7; font-size: 14px; font-family: monospace; }
.vp-doc [class*='language-'] > button.copy { direction: ltr; position: absolute; top: 12px; right: 12px; z-index: 3;
  border: 1px solid #e2e2e3; border-radius: 4px; width: 40px; height: 40px; background-color: #f6f6f7; opacity: 0; cursor: pointer; }
.vp-doc [class*='language-']:hover > button.copy, .vp-doc [class*='language-'] > button.copy:focus { opacity: 1; }
.vp-doc [class*='language-'] > span.lang { position: absolute; top: 2px; right: 8px; z-index: 2; font-size: 12px; font-weight: 500; color: #67676c; }
.vp-doc [class*='language-']:hover > button.copy + span.lang, .vp-doc [class*='language-'] > button.copy:focus + span.lang { opacity: 0; }
`;

const vitepressBlock = (id: string, lines: string[]) =>
  `<div class="language-sh vp-adaptive-theme" id="${id}"><button title="Copy Code" class="copy" data-copies="${id}"></button><span class="lang">sh</span><pre class="shiki vp-code"><code>${lines
    .map((line) => `<span class="line">${line}</span>`)
    .join('\n')}</code></pre></div>`;

/** Docusaurus' classic theme (CodeBlock/Layout, Buttons, Content styles). */
const DOCUSAURUS_CSS = `
.markdown { max-width: 720px; margin: 0 auto; font: 16px/1.65 system-ui, sans-serif; --ifm-pre-padding: 1rem; }
.theme-code-block { margin-bottom: 1.25rem; border-radius: 0.4rem; box-shadow: 0 1px 2px 0 rgba(0, 0, 0, 0.1); background: #f6f8fa; }
.codeBlockTitle { border-bottom: 1px solid #dadde1; font-size: 90%; font-weight: 500; padding: 0.75rem var(--ifm-pre-padding); }
.codeBlockContent { position: relative; direction: ltr; border-radius: inherit; }
.codeBlock { margin: 0; padding: 0; overflow: auto; background: transparent; }
.codeBlockLines { display: block; float: left; min-width: 100%; padding: var(--ifm-pre-padding); font: 14px/1.45 monospace; }
.buttonGroup { display: flex; column-gap: 0.2rem; position: absolute; right: calc(var(--ifm-pre-padding) / 2); top: calc(var(--ifm-pre-padding) / 2); }
.buttonGroup button { display: flex; align-items: center; background: #fff; border: 1px solid #dadde1; border-radius: 0.4rem; padding: 0.4rem; line-height: 0; opacity: 0; cursor: pointer; }
.buttonGroup button:focus-visible, .buttonGroup button:hover { opacity: 1 !important; }
.theme-code-block:hover .buttonGroup button { opacity: 1; }
.buttonGroup svg { width: 1.125rem; height: 1.125rem; }
`;

const docusaurusBlock = (id: string, lines: string[], title?: string) =>
  `<div class="language-js theme-code-block" id="${id}">${title ? `<div class="codeBlockTitle">${title}</div>` : ''}<div class="codeBlockContent"><pre tabindex="0" class="prism-code language-js codeBlock"><code class="codeBlockLines">${lines
    .map((line) => `<span class="token-line">${line}\n</span>`)
    .join(
      '',
    )}</code></pre><div class="buttonGroup"><button type="button" aria-label="Copy code to clipboard" title="Copy" data-copies="${id}"><svg viewBox="0 0 24 24"><path d="M19 21H8V7h11m0-2H8a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h11a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2m-3-4H4a2 2 0 0 0-2 2v14h2V3h12V1Z"/></svg></button></div></div></div>`;

const LONG = ['npm install acme', 'npx acme init --yes', 'npx acme build', 'npx acme serve --port 3000'];

const PAGES: Record<string, { css: string; html: string }> = {
  '/vitepress': {
    css: VITEPRESS_CSS,
    html: `<div class="vp-doc"><h2 id="install">Install</h2>${vitepressBlock('long', LONG)}<p>One line:</p>${vitepressBlock('short', ['npm install acme'])}</div>`,
  },
  '/docusaurus': {
    css: DOCUSAURUS_CSS,
    html: `<div class="markdown"><h2 id="install">Install</h2>${docusaurusBlock('long', LONG)}<p>One line:</p>${docusaurusBlock('short', ['npm install acme'])}<p>With a title:</p>${docusaurusBlock('titled', ['npm install acme'], 'install.sh')}</div>`,
  },
  // A wide block where the floating panel opens (1280×800: x 864–1264, y 128–728).
  '/under-panel': {
    css: `#page pre { margin: 0; padding: 16px; background: #eee; } #wide { position: absolute; top: 260px; left: 24px; right: 24px; }`,
    html: `<div id="wide"><pre id="code"><code>${LONG.join('\n')}</code></pre></div>`,
  },
  '/twenty': {
    css: VITEPRESS_CSS,
    html: `<div class="vp-doc"><a href="#top" id="first-link">Top</a>${Array.from({ length: 20 }, (_, i) =>
      vitepressBlock(`block-${i}`, [`npx acme step ${i}`]),
    ).join('')}<a href="#next" id="last-link">Next</a></div>`,
  },
};

const MAIN = `
import { createDataStreamResponse, formatDataStreamPart } from 'ai';
import { createRoot } from 'react-dom/client';
import { DocsAssistant } from '${src}/index';
import '${src}/styles/docs-assistant.css';

const pages = ${JSON.stringify(PAGES)};
const found = pages[location.pathname];
const style = document.createElement('style');
style.textContent = 'body { margin: 0; } h1 { margin: 8px 24px; font-size: 20px; }' + (found ? found.css : '');
document.head.append(style);
const page = document.createElement('div');
page.id = 'page';
page.innerHTML = found ? found.html : '';
document.getElementById('app').before(page);
window.copies = [];
document.addEventListener('click', (event) => {
  const copy = event.target.closest && event.target.closest('[data-copies]');
  if (copy) window.copies.push(copy.getAttribute('data-copies'));
});
const usage = { promptTokens: 1, completionTokens: 1 };
const fetchAnswer = async () =>
  createDataStreamResponse({
    execute(w) {
      w.write(formatDataStreamPart('text', 'It installs the package.'));
      w.write(formatDataStreamPart('finish_message', { finishReason: 'stop', usage }));
    },
  });
createRoot(document.getElementById('app')).render(
  <DocsAssistant domain="acme" apiKey="svc_dsc_browser" baseUrl="https://api.example.com" storage="memory"
    fetch={fetchAnswer} theme="light" />,
);
`;

const ASK = '[data-docs-assistant="ask-code"]';

let widgetPage: WidgetPage;

beforeAll(async () => {
  widgetPage = await serveWidgetPage(resolve(import.meta.dirname, '../.artifacts/code-blocks-on-host'), {
    title: 'code blocks',
    main: MAIN,
  });
}, 120_000);

afterAll(async () => {
  await widgetPage?.close();
});

async function visit(path: string, run: (page: Page) => Promise<void>): Promise<void> {
  const context = await widgetPage.browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${widgetPage.origin}${path}`);
    await page.locator('[data-docs-assistant="launcher"]').waitFor();
    await run(page);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}

/** Where a click lands: the element `elementFromPoint` finds at the centre of `selector`. */
const hitAtCentre = (page: Page, selector: string) =>
  page.evaluate((selector) => {
    const box = document.querySelector(selector)!.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return (
      hit?.closest('[data-copies]')?.getAttribute('data-copies') ?? hit?.getAttribute('data-docs-assistant')
    );
  }, selector);

/** Our button's box and the block frame's, once it shows for the hovered block. */
async function shownFor(page: Page, frame: string) {
  await page.locator(`${frame} pre`).hover({ position: { x: 30, y: 10 } });
  const ask = page.locator(ASK);
  await ask.waitFor({ state: 'visible' });
  return page.evaluate(
    ({ ask, frame }) => {
      const a = document.querySelector(ask)!.getBoundingClientRect();
      const f = document.querySelector(frame)!.getBoundingClientRect();
      return { inside: a.left >= f.left && a.right <= f.right && a.top >= f.top && a.bottom <= f.bottom };
    },
    { ask: ASK, frame },
  );
}

describe.each([
  ['VitePress', '/vitepress', ['#long', '#short']],
  ['Docusaurus', '/docusaurus', ['#long', '#short', '#titled']],
])('on a %s-like page', (_name, path, frames) => {
  it('leaves the site’s copy button the one a click at its centre reaches, on every block', async () => {
    await visit(path, async (page) => {
      for (const frame of frames) {
        expect(await shownFor(page, frame)).toEqual({ inside: true });
        const copy = `${frame} [data-copies]`;
        expect(await hitAtCentre(page, copy)).toBe(frame.slice(1));
        await page.locator(copy).click();
        expect(await page.evaluate(() => (window as unknown as { copies: string[] }).copies.at(-1))).toBe(
          frame.slice(1),
        );
        // And ours still asks about that block.
        await shownFor(page, frame);
        await page.locator(ASK).click();
        await expect
          .poll(() => page.locator('[data-docs-assistant="context"]').allTextContents())
          .toContainEqual(expect.stringContaining('npm install acme'));
        await page.keyboard.press('Escape');
      }
    });
  });
});

describe('with the panel open over a code block', () => {
  it('draws nothing of "Ask AI" over the panel, and offers it beside the panel', async () => {
    await visit('/under-panel', async (page) => {
      await page.locator('[data-docs-assistant="launcher"]').click();
      const panel = page.locator('[data-docs-assistant="panel"]');
      await page.getByRole('textbox', { name: 'Your question' }).waitFor();
      // The block runs under the panel; the pointer rests on its part left of the panel.
      await page.locator('#code').hover({ position: { x: 40, y: 20 } });
      const ask = page.locator(ASK);
      await ask.waitFor({ state: 'visible' });
      // Settled: the panel's opening animation is over.
      await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
      const box = (await panel.boundingBox())!;
      const askBox = (await ask.boundingBox())!;
      expect(askBox.x + askBox.width).toBeLessThanOrEqual(box.x);
      const drawnOver = await page.evaluate(
        ({ box, ask }) => {
          const hits: string[] = [];
          for (let x = box.x + 1; x < box.x + box.width; x += 8) {
            for (let y = box.y + 1; y < box.y + box.height; y += 8) {
              if (document.elementFromPoint(x, y)?.closest(ask)) hits.push(`${x},${y}`);
            }
          }
          return hits;
        },
        { box, ask: ASK },
      );
      expect(drawnOver).toEqual([]);
    });
  });
});

describe('on a page with 20 code blocks', () => {
  it('Tab reaches the launcher after the page’s own stops, one per block’s copy button, and none of ours', async () => {
    await visit('/twenty', async (page) => {
      const pageStops = await page.evaluate(
        () => document.querySelectorAll('#page a[href], #page button').length,
      );
      expect(pageStops).toBe(22);
      let tabs = 0;
      let onLauncher = false;
      while (!onLauncher && tabs < 80) {
        await page.keyboard.press('Tab');
        tabs += 1;
        // The collectors load on the first Tab: let them start before the next one.
        if (tabs === 1) await page.waitForLoadState('networkidle');
        onLauncher = await page.evaluate(
          () => document.activeElement?.getAttribute('data-docs-assistant') === 'launcher',
        );
      }
      expect(tabs).toBe(pageStops + 1);
    });
  });

  it('offers the block holding the focus to the widget’s shortcut, and says so', async () => {
    await visit('/twenty', async (page) => {
      // A keyboard reader on block 3's copy button (the one stop VitePress gives a block).
      await page.locator('#block-3 button.copy').focus();
      const ask = page.locator(ASK);
      await ask.waitFor({ state: 'visible' });
      const status = page.locator('[data-docs-assistant="ask-code-status"]');
      await expect.poll(() => status.textContent()).toBe('Ask AI about this code: Control+I');
      expect(await ask.getAttribute('aria-keyshortcuts')).toBe('Control+I');
      expect(await ask.getAttribute('tabindex')).toBe('-1');
      await page.keyboard.press('Control+I');
      const input = page.getByRole('textbox', { name: 'Your question' });
      await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await page.locator('[data-docs-assistant="context"]').allTextContents()).toEqual([
        expect.stringContaining('npx acme step 3'),
      ]);
      // Away from code, the shortcut only opens the assistant (here: focuses the question box).
      await page.keyboard.press('Escape');
      await page.locator('#first-link').focus();
      await page.keyboard.press('Control+I');
      await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await page.locator('[data-docs-assistant="context"]').count()).toBe(1);
    });
  });
});
