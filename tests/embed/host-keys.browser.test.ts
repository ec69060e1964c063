/**
 * Typing in the widget never reaches the host page's keyboard shortcuts, in Chromium: the React
 * widget built from the sources (light DOM) and the script build (the shipped Preact flavour) in
 * an open and a closed shadow root. The page listens the way docs sites do — DocSearch (Docusaurus,
 * VitePress' Algolia search): `keydown` on `window`, Ctrl/⌘+K always, `/` unless the event's target
 * is a text field; Material for MkDocs: `keydown` on `window`, `s` `f` `/` `n` `p` `.` `,` unless
 * `document.activeElement` is a text field — plus a recorder on `window` and `document` for every
 * `keydown`, `keypress` and `keyup`. In a shadow root both checks see the host element, not the
 * question box, so without the widget's isolation every letter would reach them.
 */
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWidgetPage, type WidgetPage } from '../ui/widget-page';
import { type EmbedSite, elementAttributes, startEmbedSite } from './embed-site';

/** The page's listeners (plain JS, shared by the React page and the script build's pages). */
const HOST_KEYS = `
window.hostKeys = [];
window.hostShortcuts = [];
const isField = (el) => !!el && (el.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName));
for (const type of ['keydown', 'keypress', 'keyup']) {
  window.addEventListener(type, (event) => window.hostKeys.push('window ' + type + ' ' + event.key));
  document.addEventListener(type, (event) => window.hostKeys.push('document ' + type + ' ' + event.key));
}
window.addEventListener('keydown', (event) => {
  const key = (event.key || '').toLowerCase();
  if ((key === 'k' && (event.metaKey || event.ctrlKey)) || (key === '/' && !isField(event.target))) {
    window.hostShortcuts.push('docsearch ' + event.key);
  }
});
window.addEventListener('keydown', (event) => {
  if (event.metaKey || event.ctrlKey || isField(document.activeElement)) return;
  if (['s', 'f', '/', 'n', 'p', '.', ','].includes(event.key)) window.hostShortcuts.push('material ' + event.key);
});
`;

/** A question with every key those sites bind, typed as a reader types it. */
const QUESTION = 'How do I search / find pages, next or prev. s f n p , and . ?';

const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');

const REACT_MAIN = `
import { createDataStreamResponse, formatDataStreamPart } from 'ai';
import { createRoot } from 'react-dom/client';
import { DocsAssistant } from '${src}/index';
import '${src}/styles/docs-assistant.css';
${HOST_KEYS}
const usage = { promptTokens: 1, completionTokens: 1 };
const fetchAnswer = async () =>
  createDataStreamResponse({
    execute(w) {
      w.write(formatDataStreamPart('text', 'Press the search button.'));
      w.write(formatDataStreamPart('finish_message', { finishReason: 'stop', usage }));
    },
  });
createRoot(document.getElementById('app')).render(
  <DocsAssistant domain="acme" apiKey="svc_dsc_browser" baseUrl="https://api.example.com" storage="memory"
    fetch={fetchAnswer} theme="light" />,
);
`;

type Records = { keys: string[]; shortcuts: string[] };
const records = (page: Page): Promise<Records> =>
  page.evaluate(() => {
    const w = window as unknown as { hostKeys: string[]; hostShortcuts: string[] };
    return { keys: w.hostKeys, shortcuts: w.hostShortcuts };
  });
const clearRecords = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { hostKeys: string[]; hostShortcuts: string[] };
    w.hostKeys = [];
    w.hostShortcuts = [];
  });

/**
 * The widget's parts as page scripts reach them: in the light DOM, an open shadow root, or (for a
 * closed root) through the element's `assistant.shadow`, which only the embedding page's code has.
 */
const widgetState = (page: Page) =>
  page.evaluate(() => {
    const element = document.querySelector('docs-assistant') as
      | (Element & { assistant?: { shadow: ShadowRoot } })
      | null;
    const scope: Document | ShadowRoot = element?.assistant?.shadow ?? document;
    const panel = scope.querySelector('[data-docs-assistant="panel"]');
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    if (active === element && element?.assistant) active = element.assistant.shadow.activeElement;
    return {
      open: !!panel && !panel.hasAttribute('hidden'),
      focus: active?.getAttribute('data-docs-assistant') ?? active?.tagName.toLowerCase() ?? null,
    };
  });

/** The reader's whole minute: the shortcut opens the panel, a question typed and sent, Escape closes. */
async function typeAQuestion(page: Page): Promise<void> {
  await page.locator('#page-button').focus();
  await page.keyboard.press('ControlOrMeta+I');
  await expect.poll(() => widgetState(page)).toEqual({ open: true, focus: 'input' });
  // The shortcut pressed on the page is the page's to see too; from here on, the reader types.
  await clearRecords(page);
  await page.keyboard.type(QUESTION);
  await page.keyboard.press('ControlOrMeta+K');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await expect.poll(() => widgetState(page)).toEqual({ open: false, focus: 'launcher' });
  expect(await records(page)).toEqual({ keys: [], shortcuts: [] });
  // The widget's own shortcut still works from inside the widget: it goes on to the widget's
  // listener on the document (and so to the page's recorder, the one key that does).
  await page.keyboard.press('ControlOrMeta+I');
  await expect.poll(() => widgetState(page)).toEqual({ open: true, focus: 'input' });
  expect((await records(page)).shortcuts).toEqual([]);
}

describe('typing in the React widget (light DOM)', () => {
  let widgetPage: WidgetPage;

  beforeAll(async () => {
    widgetPage = await serveWidgetPage(resolve(import.meta.dirname, '../.artifacts/host-keys-react'), {
      title: 'host keys',
      main: REACT_MAIN,
      html: '<p><button type="button" id="page-button">A page button</button></p>',
    });
  }, 120_000);

  afterAll(async () => {
    await widgetPage?.close();
  });

  it('reaches none of the page’s key listeners; the shortcut, Enter and Escape still work', async () => {
    const context = await widgetPage.browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await page.goto(`${widgetPage.origin}/`);
      await page.locator('[data-docs-assistant="launcher"]').waitFor();
      await typeAQuestion(page);
      // Enter sent the question: the answer came back in the widget.
      await page.locator('[data-docs-assistant="message"]').getByText('Press the search button.').waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('typing in the script build (preact), open and closed shadow roots', () => {
  let site: EmbedSite;

  beforeAll(async () => {
    site = await startEmbedSite('preact');
    site.page('/host-keys.js', HOST_KEYS, 'text/javascript');
  }, 180_000);

  afterAll(async () => {
    await site?.close();
  });

  for (const shadow of ['open', 'closed'] as const) {
    it(`reaches none of the page’s key listeners in a ${shadow} root; the shortcut, Enter and Escape still work`, async () => {
      site.page(
        `/keys-${shadow}`,
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Keys</title><link rel="icon" href="data:,">
<script src="/host-keys.js"></script><script type="module" src="/embed.js"></script></head>
<body><main><h1>Docs</h1><p><button type="button" id="page-button">A page button</button></p></main>
<docs-assistant ${elementAttributes(site.origin, `shadow="${shadow}"`)}></docs-assistant></body></html>`,
      );
      const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        await page.goto(`${site.origin}/keys-${shadow}`);
        await page.waitForFunction(
          () => (document.querySelector('docs-assistant') as { assistant?: unknown } | null)?.assistant,
        );
        await page.evaluate(
          () =>
            (document.querySelector('docs-assistant') as unknown as { assistant: { ready: Promise<void> } })
              .assistant.ready,
        );
        expect(await page.evaluate(() => document.querySelector('docs-assistant')!.shadowRoot === null)).toBe(
          shadow === 'closed',
        );
        await typeAQuestion(page);
      } finally {
        await context.close();
      }
    });
  }
});
