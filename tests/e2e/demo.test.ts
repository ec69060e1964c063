/**
 * The README's promise, end to end: `npm start` serves the demo docs site with a working assistant.
 * Runs the real command, opens the URL it prints in Chromium, and asks questions in the widget.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './browser';

/** Longest wait for `npm start` to build and print its URL (in ms); a cold build on 2 cores. */
const START_TIMEOUT_MS = 180_000;

let child: ChildProcess | undefined;
let browser: Browser | undefined;
let url = '';

function startDemo(): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn('npm', ['start'], {
      cwd: new URL('../..', import.meta.url),
      // Vitest sets NODE_ENV=test, which would make Vite build React's development bundle.
      env: { ...process.env, NODE_ENV: 'production', PORT: '0', FORCE_COLOR: '0' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`npm start printed no URL in time:\n${output}`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code} before printing a URL:\n${output}`));
    });
  });
}

async function openPanel(page: Page) {
  await page.locator('[data-docs-assistant="launcher"]').click();
  const input = page.getByRole('textbox', { name: /question/i });
  await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
  return input;
}

beforeAll(async () => {
  url = await startDemo();
  browser = await launchChromium();
}, START_TIMEOUT_MS + 30_000);

afterAll(async () => {
  await browser?.close();
  if (child?.pid) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
});

describe('npm start', () => {
  it('prints one URL on 127.0.0.1', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('serves the docs site with navigation and pages', async () => {
    const page = await browser!.newPage();
    await page.goto(url);
    await expect.poll(() => page.getByRole('navigation', { name: 'Documentation' }).isVisible()).toBe(true);
    await page
      .getByRole('link', { name: /getting started/i })
      .first()
      .click();
    await expect.poll(() => page.url()).toMatch(/\/getting-started$/);
    await expect.poll(() => page.locator('main pre').count()).toBeGreaterThan(0);
    await page.close();
  });

  it('answers a question in the widget with a source link', async () => {
    const page = await browser!.newPage();
    await page.goto(url);
    const input = await openPanel(page);
    await input.fill('How do I install docs-assistant?');
    await input.press('Enter');
    const answer = page.locator('[data-docs-assistant="message"][data-role="assistant"]').last();
    await answer.locator('[data-docs-assistant="source"]').first().waitFor({ timeout: 20_000 });
    await expect
      .poll(() => page.locator('[data-docs-assistant="root"]').getAttribute('data-status'), {
        timeout: 20_000,
      })
      .toBe('ready');
    // The answer's Markdown renders in the background: wait until none of it is behind.
    await expect.poll(() => answer.locator('[data-pending]').count()).toBe(0);
    const href = await answer.locator('[data-docs-assistant="source"]').first().getAttribute('href');
    expect(href).toMatch(new RegExp(`^${url.replace(/\/$/, '')}/|^/`));
    expect((await answer.innerText()).length).toBeGreaterThan(40);
    await page.close();
  });

  it('serves the script build and a plain HTML page using it (/embed.html)', async () => {
    const page = await browser!.newPage();
    await page.goto(`${url}embed.html`);
    // The widget renders in the <docs-assistant> element's shadow root (Playwright's CSS pierces it).
    await page.locator('[data-docs-assistant="launcher"]').click();
    const input = page.locator('[data-docs-assistant="input"]');
    await input.fill('How do I install docs-assistant?');
    await input.press('Enter');
    const answer = page.locator('[data-docs-assistant="message"][data-role="assistant"]').last();
    await answer.locator('[data-docs-assistant="source"]').first().waitFor({ timeout: 20_000 });
    const inShadow = await page.evaluate(() => document.querySelector('docs-assistant')?.shadowRoot != null);
    expect(inShadow).toBe(true);
    await page.close();
  });

  it('asks about selected text: "Ask AI" adds a chip and the answer uses it', async () => {
    const page = await browser!.newPage();
    await page.goto(`${url}getting-started`);
    const paragraph = page.locator('main p').first();
    await paragraph.waitFor();
    // Select the paragraph's text as a reader would, with the mouse.
    const box = (await paragraph.boundingBox())!;
    // Along the first line of the paragraph, from its start.
    await page.mouse.move(box.x + 4, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + Math.min(400, box.width - 4), box.y + 10, { steps: 8 });
    await page.mouse.up();
    const selected = (await page.evaluate(() => String(document.getSelection()))).trim();
    expect(selected.length).toBeGreaterThan(10);
    const askSelection = page.locator('[data-docs-assistant="ask-selection"]');
    await askSelection.waitFor({ state: 'visible' });
    await askSelection.click();
    const chip = page.locator('[data-docs-assistant="context"]');
    await chip.first().waitFor({ state: 'visible' });
    const sent = page.waitForRequest((request) => request.url().includes('/discovery/v1/assistant/'));
    const input = page.getByRole('textbox', { name: /question/i });
    await input.fill('What does this mean?');
    await input.press('Enter');
    const body = (await sent).postDataJSON() as {
      context?: { type: string; value: string; path?: string }[];
    };
    expect(body.context?.[0]).toMatchObject({ type: 'textSelection', path: '/getting-started' });
    expect(body.context?.[0]?.value).toContain(selected);
    const answer = page.locator('[data-docs-assistant="message"][data-role="assistant"]').last();
    await answer
      .locator('[data-docs-assistant="part"][data-part-type="text"]')
      .first()
      .waitFor({ timeout: 20_000 });
    await expect
      .poll(() => page.locator('[data-docs-assistant="root"]').getAttribute('data-status'), {
        timeout: 20_000,
      })
      .toBe('ready');
    // The answer's Markdown renders in the background: wait until none of it is behind.
    await expect.poll(() => answer.locator('[data-pending]').count()).toBe(0);
    expect((await answer.innerText()).length).toBeGreaterThan(20);
    await page.close();
  });
});
