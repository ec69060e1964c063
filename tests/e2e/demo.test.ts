/**
 * The README's promise, end to end: `npm start` serves the demo docs site with a working assistant.
 * Runs the real command, opens the URL it prints in Chromium, and asks questions in the widget;
 * every feature of the panel is on and works against the reference service's real `/health`:
 * docs search, Share, feedback, history and "Contact support".
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

/**
 * Runs a header action by its `data-action`: an icon button of the header, or an item of its
 * "More" menu (opened for it). Fails with the action's name when it is in neither.
 */
async function headerAction(page: Page, id: string) {
  const direct = page.locator(`[data-docs-assistant="panel"] [data-action="${id}"]`);
  if (!(await direct.first().isVisible())) {
    const more = page.locator('[data-docs-assistant="panel"] [data-action="more"]');
    if (await more.isVisible()) await more.click();
  }
  await direct
    .first()
    .waitFor({ state: 'visible', timeout: 5_000 })
    .catch(() => {
      throw new Error(`The panel offers no "${id}" action, in its header or its "More" menu.`);
    });
  return direct.first();
}

/** Asks in the open panel and waits for the whole answer (sources, status ready, Markdown done). */
async function ask(page: Page, question: string) {
  const input = page.getByRole('textbox', { name: /question/i });
  await input.fill(question);
  await input.press('Enter');
  const answer = page.locator('[data-docs-assistant="message"][data-role="assistant"]').last();
  await answer.locator('[data-docs-assistant="source"]').first().waitFor({ timeout: 20_000 });
  await expect
    .poll(() => page.locator('[data-docs-assistant="root"]').getAttribute('data-status'), { timeout: 20_000 })
    .toBe('ready');
  await expect.poll(() => answer.locator('[data-pending]').count()).toBe(0);
  return answer;
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

describe('npm start shows every feature', () => {
  it('answers /health from the reference service, which offers share and feedback', async () => {
    const response = await fetch(`${url}health`);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const body = (await response.json()) as { ok: boolean; capabilities: string[] };
    expect(body.ok).toBe(true);
    expect(body.capabilities).toEqual(expect.arrayContaining(['share', 'feedback']));
  });

  it('searches the docs from the panel: a query finds a page, whose result links to it', async () => {
    const page = await browser!.newPage();
    await page.goto(url);
    await openPanel(page);
    await (await headerAction(page, 'search-view')).click();
    await page.getByRole('textbox', { name: /question|search/i }).fill('theme colors');
    const result = page.locator('[data-docs-assistant="search-result"]').first();
    await result.waitFor({ timeout: 10_000 });
    expect(await result.textContent()).toMatch(/them/i);
    // A result is a link to the page (the demo's own origin).
    expect(await result.evaluate((el) => (el as HTMLAnchorElement).href)).toMatch(
      new RegExp(`^${url.replace(/\/$/, '')}/[\\w-]`),
    );
    await page.close();
  });

  it('records a vote, shares the conversation as a link that opens its transcript, lists it in history and offers support', async () => {
    const context = await browser!.newContext();
    const page = await context.newPage();
    await page.goto(url);
    await openPanel(page);
    const question = 'How do I change the colors?';
    const answer = await ask(page, question);

    // Feedback: the vote goes to the service, which stores it.
    const voted = page.waitForResponse(
      (response) => response.url().endsWith('/feedback') && response.request().method() === 'POST',
    );
    await answer.getByRole('button', { name: 'Helpful', exact: true }).click();
    const vote = await voted;
    // 200 once stored (the service answers the stored vote).
    expect(vote.status()).toBe(200);
    expect(vote.request().postDataJSON()).toMatchObject({ rating: 'up' });

    // Share: a link, which opens the transcript for someone else.
    await (await headerAction(page, 'share')).click();
    const linkInput = page.locator('[data-docs-assistant="share-link"] input');
    await linkInput.waitFor({ timeout: 10_000 });
    const link = await linkInput.inputValue();
    expect(link).toMatch(/[?&]assistant-share=/);
    const reader = await browser!.newPage();
    await reader.goto(link);
    const transcript = reader.locator('[data-docs-assistant="shared-transcript"]');
    await transcript.locator('[data-docs-assistant="shared-messages"]').waitFor({ timeout: 10_000 });
    expect(await transcript.textContent()).toContain(question);
    await reader.close();

    // Support: "Contact support" opens a new issue with the conversation in it.
    const support = await headerAction(page, 'contact-support');
    const href = (await support.getAttribute('href')) ?? '';
    expect(href).toMatch(/^https:\/\/github\.com\/docs-assistant\/docs-assistant\/issues\/new\?body=/);
    expect(decodeURIComponent(href)).toContain(question);
    // Leaves the "More" menu it may have opened.
    if (await page.locator('[data-action="more"][aria-expanded="true"]').count())
      await page.keyboard.press('Escape');

    // History: the conversation is listed.
    await (await headerAction(page, 'history')).click();
    const item = page.locator('[data-docs-assistant="history-item"]').first();
    await item.waitFor();
    expect(await item.textContent()).toContain('change the colors');
    await context.close();
  }, 90_000);
});
