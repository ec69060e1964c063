/**
 * Screenshots of the states the layout test's fixes touched, for a reader's eye and the issue's
 * note: the empty panel, the panel after one answer, a conversation with an answer stopped
 * mid-stream (its "Stopped" note and Retry), the "More" menu open, at 390 px and 1280 px, light
 * and dark, in the floating panel; and the inline
 * panel, empty, at 320 px (its header's buttons at their narrow 24 px size). Not a test: `npx tsx tests/layout/screens.ts [revision]` writes PNGs
 * to tests/.artifacts/layout-screens/<revision or "tree">/ (a revision builds that commit's widget,
 * as LAYOUT_SOURCE does, for before-and-after pictures).
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { Reader, StateNotReached } from './reader';
import { startLayoutSite } from './site';

const revision = process.argv[2];
const name = revision ?? 'tree';
const out = resolve(import.meta.dirname, '../.artifacts/layout-screens', name);
mkdirSync(out, { recursive: true });
const site = await startLayoutSite(
  resolve(import.meta.dirname, `../.artifacts/layout-screens-site-${name}`),
  revision,
);

/**
 * Waits until what a reader sees has stopped changing: five measurements 100 ms apart that agree
 * (the support link and the votes arrive with chunks loaded after the panel opens), at most 10 s.
 */
async function quiet(reader: Reader, page: Page): Promise<void> {
  let last = '';
  for (let same = 0, tries = 0; same < 5 && tries < 100; tries++) {
    await page.waitForTimeout(100);
    const now = JSON.stringify(await reader.measure());
    same = now === last ? same + 1 : 0;
    last = now;
  }
}

async function shoot(variant: string, width: number, height: number, theme: string, stop: boolean) {
  const context = await site.browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const reader = new Reader(page, false);
  try {
    await reader.goto(`${site.origin}/react.html?variant=${variant}&lang=en&theme=${theme}`);
    await reader.waitFor('the widget', (measured) => measured.status !== null);
    if (variant !== 'inline') await reader.clickOn('launcher', (control) => control.hook === 'launcher');
    await reader.waitFor('the question box', (measured) => measured.controls.some((c) => c.hook === 'input'));
    if (variant === 'inline') {
      // In the article's flow: its header, scrolled to, as a reader on a phone meets it.
      await page.locator('#inline-assistant').evaluate((element) => element.scrollIntoView());
      await quiet(reader, page);
      await page.screenshot({ path: join(out, `${variant}-empty-${width}-${theme}.png`) });
      return;
    }
    await page.mouse.move(0, 0);
    await quiet(reader, page);
    await page.screenshot({ path: join(out, `${variant}-empty-${width}-${theme}.png`) });
    await reader.ask('How do I change the colours?');
    await reader.waitFor(
      'an answer with its related pages and its votes',
      (measured) =>
        measured.status === 'ready' &&
        measured.answers === 1 &&
        measured.shown.includes('suggestion') &&
        measured.controls.some((control) => control.action === 'feedback-up'),
    );
    await page.mouse.move(0, 0);
    await quiet(reader, page);
    await page.screenshot({ path: join(out, `${variant}-answer-${width}-${theme}.png`) });
    if (stop) {
      await reader.setLayout({ hold: true });
      await reader.ask('And in dark mode?');
      await reader.waitFor(
        'a held answer',
        (measured) => measured.status === 'streaming' && measured.answers === 2,
      );
      await reader.clickOn('Stop', (control) => control.action === 'stop');
      await reader.waitFor('the stop', (measured) => measured.status === 'ready');
      await page.mouse.move(0, 0);
      await quiet(reader, page);
      await page.screenshot({ path: join(out, `${variant}-stopped-${width}-${theme}.png`) });
    }
    // A revision from before the "More" menu has none to open: no picture of it, said so.
    const opened = await reader.openMenu().catch((error: unknown) => {
      if (!(error instanceof StateNotReached)) throw error;
      console.warn(`${variant} ${width} ${theme}: no menu (${error.message})`);
    });
    if (!opened) return;
    await quiet(reader, page);
    await page.screenshot({ path: join(out, `${variant}-menu-${width}-${theme}.png`) });
  } finally {
    await context.close();
  }
}

try {
  for (const theme of ['light', 'dark']) {
    await shoot('floating', 390, 844, theme, true);
    await shoot('floating', 1280, 800, theme, true);
  }
  await shoot('inline', 320, 568, 'light', false);
  console.log(`screenshots in ${out}`);
} finally {
  await site.close();
}
