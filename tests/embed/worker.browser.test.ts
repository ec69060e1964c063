/**
 * The script build's Markdown worker in Chromium, against the real service: it runs from
 * `embed-chunks/` beside the panel when the page and the script share an origin, through a `blob:`
 * module when the script comes from another origin (the assistant's host, a docs site elsewhere),
 * and when a Content-Security-Policy refuses workers the answer still renders, parsed on the page.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbedSite, elementAttributes, startEmbedSite } from './embed-site';

const ANSWER = '[data-docs-assistant="message"][data-role="assistant"]';

const docPage = (scriptOrigin: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Docs</title><link rel="icon" href="data:,">
<script type="module" src="${scriptOrigin}/embed.js"></script>
</head><body><main><h1>Getting started</h1><p>Install the package.</p></main>
<docs-assistant ${elementAttributes(scriptOrigin)}></docs-assistant>
</body></html>`;

describe('the Markdown worker of the script build', () => {
  let site: EmbedSite;

  beforeAll(async () => {
    site = await startEmbedSite('preact');
  }, 180_000);

  afterAll(async () => {
    await site?.close();
  });

  /** Opens `url`, asks, and waits for a whole answer; the page's errors are collected. */
  async function ask(url: string): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
    const context = await site.browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(url);
    await page.locator('[data-docs-assistant="launcher"]').click();
    const input = page.locator('[data-docs-assistant="input"]');
    await input.fill('How do I install it?');
    await input.press('Enter');
    await page.locator('[data-docs-assistant="root"][data-status="ready"]').waitFor({ state: 'attached' });
    // The answer is wholly on screen: its message stopped streaming and holds nothing pending.
    await page
      .locator(`${ANSWER}:not([data-streaming]):not(:has([data-pending]))`)
      .waitFor({ state: 'attached' });
    await expect
      .poll(async () => (await page.locator(ANSWER).last().textContent())?.length ?? 0)
      .toBeGreaterThan(20);
    return { page, errors, close: () => context.close() };
  }

  it('runs from embed-chunks/ beside the panel on the same origin', async () => {
    site.page('/same', docPage(site.origin));
    const { page, errors, close } = await ask(`${site.origin}/same`);
    expect(page.workers().map((worker) => worker.url())).toEqual([
      expect.stringMatching(new RegExp(`^${site.origin}/embed-chunks/markdown-worker-[\\w-]+\\.js$`)),
    ]);
    expect(errors).toEqual([]);
    await close();
  });

  it('runs through a blob: module when the script comes from another origin', async () => {
    // The page on localhost, the script build and the service on 127.0.0.1: two origins.
    const pageOrigin = site.origin.replace('127.0.0.1', 'localhost');
    site.page('/elsewhere', docPage(site.origin));
    const { page, errors, close } = await ask(`${pageOrigin}/elsewhere`);
    expect(page.workers().map((worker) => worker.url())).toEqual([expect.stringMatching(/^blob:/)]);
    expect(await page.locator(ANSWER).last().innerHTML()).toContain('<p>');
    expect(errors).toEqual([]);
    await close();
  });

  it('leaves the answer to the page when a Content-Security-Policy refuses workers', async () => {
    site.page('/no-workers', {
      html: docPage(site.origin),
      headers: { 'Content-Security-Policy': "script-src 'self'; worker-src 'none'" },
    });
    const { page, errors, close } = await ask(`${site.origin}/no-workers`);
    expect(page.workers()).toEqual([]);
    expect(await page.locator(ANSWER).last().innerHTML()).toContain('<p>');
    expect(errors).toEqual([]);
    await close();
  });
});
