/**
 * The host page never breaks because of the widget, in Chromium with a real build: the panel's
 * chunk answers 404 (a redeploy changed its hashed name, or the reader is offline) and the host
 * keeps running while the launcher offers a retry; the page's server-rendered code blocks stay
 * byte for byte as served while the widget mounts and its "Ask AI" is used by pointer and keyboard.
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWidgetPage, type WidgetPage } from './widget-page';

const root = resolve(import.meta.dirname, '../.artifacts/ui-host-safety');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');

// Served markup, as a server-rendered docs page would have it before any script runs.
const HTML = `<section id="install"><h2>Install</h2><pre class="language-bash"><code>npm install docs-assistant</code></pre></section>
<section id="serve"><pre tabindex="0" style="background: #eee"><code>docs-assistant serve --port 3000</code></pre></section>
<p><a id="after" href="#after">After the code</a></p>`;

const MAIN = `
import { createDataStreamResponse, formatDataStreamPart } from 'ai';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { DocsAssistant } from '${src}/index';
import '${src}/styles/docs-assistant.css';

// The page's code blocks before the widget exists.
window.served = Array.from(document.querySelectorAll('pre'), (pre) => pre.outerHTML);
window.widgetErrors = [];
const usage = { promptTokens: 1, completionTokens: 1 };
const fetchAnswer = async () =>
  createDataStreamResponse({
    execute(w) {
      w.write(formatDataStreamPart('text', 'It installs the package.'));
      w.write(formatDataStreamPart('finish_message', { finishReason: 'stop', usage }));
    },
  });

function Host() {
  const [count, setCount] = useState(0);
  return (
    <>
      <button type="button" onClick={() => setCount(count + 1)}>Host clicks: {count}</button>
      <DocsAssistant domain="acme" apiKey="svc_dsc_browser" baseUrl="https://api.example.com" storage="memory"
        fetch={fetchAnswer} theme="light" onError={(error) => window.widgetErrors.push(error)} />
    </>
  );
}
createRoot(document.getElementById('app')).render(<Host />);
`;

const server = { panelMissing: true, panelRequests: 0 };
let browser: Browser;
let origin: string;
let widgetPage: WidgetPage | undefined;

beforeAll(async () => {
  widgetPage = await serveWidgetPage(root, {
    title: 'host safety',
    main: MAIN,
    html: HTML,
    notFound: (path) => {
      // The lazily loaded panel's chunk (Vite names it after panel.tsx).
      if (!/\/assets\/panel-[\w-]+\.js$/.test(path)) return false;
      server.panelRequests += 1;
      return server.panelMissing;
    },
  });
  ({ browser, origin } = widgetPage);
});

afterAll(async () => {
  await widgetPage?.close();
});

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe in the real browser on the widget, contrast included (jsdom cannot compute colours). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(context: unknown): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    // The widget's part of the page (the test's host page is not ours to judge).
    const results = await axe.run({ include: [['[data-docs-assistant="root"]']] });
    return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

const pres = (page: Page) =>
  page.evaluate(() => Array.from(document.querySelectorAll('main > section pre'), (pre) => pre.outerHTML));
const served = (page: Page) => page.evaluate(() => (window as unknown as { served: string[] }).served);

describe('in Chromium: the host page never breaks because of the widget', () => {
  it('keeps the host running on a 404 panel chunk, retries, and never touches the page’s code blocks', async () => {
    const context = await browser.newContext({
      viewport: { width: 1200, height: 800 },
      reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    page.setDefaultTimeout(8_000);
    const uncaught: string[] = [];
    page.on('pageerror', (error) => uncaught.push(error.message));
    try {
      await page.goto(`${origin}/`);
      const launcher = page.locator('[data-docs-assistant="launcher"]');
      await launcher.waitFor();
      const asServed = await served(page);
      expect(asServed).toHaveLength(2);
      expect(await pres(page)).toEqual(asServed);

      // Pointer: the widget's own button over the hovered block; it adds the code as context.
      await page.locator('#install pre').hover();
      const ask = page.getByRole('button', { name: 'Ask AI about this code' });
      await ask.waitFor();
      expect(await ask.evaluate((el) => !!el.closest('[data-docs-assistant="root"]'))).toBe(true);
      expect(await pres(page)).toEqual(asServed);
      await ask.click();

      // The panel opens and its code 404s: the launcher turns into a retry, the host carries on.
      const retry = page.getByRole('button', { name: 'Assistant unavailable, retry' });
      await retry.waitFor();
      expect(server.panelRequests).toBeGreaterThan(0);
      expect(await page.getByRole('alert').textContent()).toBe('Assistant unavailable, retry');
      expect(await page.locator('[data-docs-assistant="panel"]').count()).toBe(0);
      await expect.poll(() => retry.evaluate((el) => el === document.activeElement)).toBe(true);
      const hostButton = page.getByRole('button', { name: /Host clicks/ });
      await hostButton.click();
      await hostButton.click();
      expect(await hostButton.textContent()).toBe('Host clicks: 2');
      expect(await page.getByRole('heading', { name: 'Host page' }).isVisible()).toBe(true);
      const errors = await page.evaluate(
        () => (window as unknown as { widgetErrors: unknown[] }).widgetErrors,
      );
      expect(errors).toEqual([expect.objectContaining({ kind: 'network', origin: 'load', retryable: true })]);
      expect(await axeViolations(page)).toEqual([]);

      // Keyboard: focus in the focusable block shows the button there; Tab goes on to the page's next stop.
      await page.locator('#serve pre').focus();
      await ask.waitFor();
      expect(await pres(page)).toEqual(asServed);
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('after');
      expect(await pres(page)).toEqual(asServed);

      // The chunk is back: the retry loads it and opens the panel, with the code collected before.
      server.panelMissing = false;
      await retry.focus();
      await page.keyboard.press('Enter');
      const input = page.getByRole('textbox', { name: 'Your question' });
      await input.waitFor();
      await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await launcher.textContent()).toBe('Ask AI');
      expect(await page.locator('[data-docs-assistant="context"]').textContent()).toContain(
        'npm install docs-assistant',
      );
      await input.fill('What does this do?');
      await page.keyboard.press('Enter');
      await page.locator('[data-docs-assistant="message"]').getByText('It installs the package.').waitFor();

      // The selection's "Ask AI" lives in the widget's root too, styled and clickable there.
      const heading = (await page.getByRole('heading', { name: 'Host page' }).boundingBox())!;
      await page.mouse.move(heading.x + 2, heading.y + heading.height / 2);
      await page.mouse.down();
      await page.mouse.move(heading.x + heading.width - 2, heading.y + heading.height / 2, { steps: 4 });
      await page.mouse.up();
      const askSelection = page.locator('[data-docs-assistant="ask-selection"]');
      await askSelection.waitFor({ state: 'visible' });
      expect(await askSelection.evaluate((el) => !!el.closest('[data-docs-assistant="root"]'))).toBe(true);
      await askSelection.click();
      await expect
        .poll(() => page.locator('[data-docs-assistant="context"]').allTextContents())
        .toContainEqual(expect.stringContaining('Host page'));

      expect(await pres(page)).toEqual(asServed);
      expect(uncaught).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
