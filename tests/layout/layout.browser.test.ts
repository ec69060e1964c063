/**
 * The widget as a reader sees it, in Chromium, on the BUILT package: for each way a site shows it
 * (floating, side panel, inline, modal, the script build in an open and a closed shadow root),
 * each language (English, German's long labels, Arabic right to left), each state a reader meets
 * (empty, a conversation, the "More" menu open, streaming, stopped, an error, history, search, a
 * shared transcript) and each viewport (320 to 1440 px, and 200% zoom), every visible control lies
 * wholly inside the panel and the viewport, no two overlap, a click on each lands on it, the title
 * is one line, and Close is there wherever the panel can be closed (checks.ts).
 *
 * The states are real: the reference service answers (site.ts), the page's fetch only holds an
 * answer mid-stream or answers 429 when asked to (page/scripted-fetch.ts), and every step is a
 * click where a control is drawn or keys typed (reader.ts). Failures known on main are listed in
 * known-failures.ts; anything else failing, or a listed failure passing, fails the test. Every
 * result, with the boxes that failed, is written to tests/.artifacts/layout/results.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { checkLayout, type Failure, summarise } from './checks';
import { KNOWN_FAILURES } from './known-failures';
import { LANGS, type Lang, resultKey, STATES, type State, TARGETS, type Target, VIEWPORTS } from './matrix';
import { compareWithKnown, formatKnownFailures, unknownKeys, withoutFixed } from './ratchet';
import { Reader, StateNotReached } from './reader';
import { type LayoutSite, startLayoutSite } from './site';

/** LAYOUT_SOURCE=<git revision> measures that commit's widget instead of the working tree. */
const SOURCE = process.env.LAYOUT_SOURCE;
const ARTIFACTS = resolve(import.meta.dirname, `../.artifacts/layout${SOURCE ? `-${SOURCE}` : ''}`);
/** Where the reader acts between measurements: the widest viewport, where controls have the most room. */
const ACT = VIEWPORTS.find((viewport) => viewport.name === '1440')!;

let site: LayoutSite;
const results = new Map<string, Failure[]>();
/** Listed checks that passed in this run (`key: check`), for LAYOUT_SHRINK. */
const fixedInRun: string[] = [];

beforeAll(async () => {
  site = await startLayoutSite(ARTIFACTS, SOURCE);
}, 300_000);

afterAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  const failing = Object.fromEntries([...results].filter(([, failures]) => failures.length > 0).sort());
  writeFileSync(join(ARTIFACTS, 'results.json'), `${JSON.stringify(failing, null, 2)}\n`);
  writeFileSync(join(ARTIFACTS, 'summary.json'), `${JSON.stringify(summarise(results, SOURCE), null, 2)}\n`);
  if (process.env.LAYOUT_SHRINK === '1' && fixedInRun.length > 0) {
    // Only ever takes checks out: what a run found newly failing stays a failure of the test.
    const file = join(import.meta.dirname, 'known-failures.ts');
    const header = readFileSync(file, 'utf8').split('export const KNOWN_FAILURES')[0]!;
    writeFileSync(file, formatKnownFailures(withoutFixed(KNOWN_FAILURES, fixedInRun), header));
  }
  await site?.close();
});

const isMenuOpen = (shown: string[]) => shown.includes('role=menu');

/**
 * Pages walked at once. Most of a walk is waiting (for a frame, an answer, a resize), so a few
 * pages side by side finish sooner even on two cores; more only crowd the cores.
 */
const PAGES_AT_ONCE = 3;
let walking = 0;
const queue: (() => void)[] = [];
async function inTurn<T>(run: () => Promise<T>): Promise<T> {
  if (walking >= PAGES_AT_ONCE) await new Promise<void>((go) => queue.push(go));
  walking++;
  try {
    return await run();
  } finally {
    walking--;
    queue.shift()?.();
  }
}

/** Walks one page through every state, measuring each at every viewport. */
async function walk(
  target: Target,
  lang: Lang,
): Promise<{ found: Map<string, Failure[]>; errors: string[] }> {
  const found = new Map<string, Failure[]>();
  const context = await site.browser.newContext({ viewport: ACT, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const reader = new Reader(page, target.closedRoot);
  const url = `${site.origin}/${target.page}.html?${target.query}&lang=${lang}`;
  const expectations = { closable: target.closable, inFlow: target.inFlow };
  const record = (state: State, viewport: string, failures: Failure[]) =>
    found.set(resultKey(target.name, state, viewport, lang), failures);

  const measureEverywhere = async (state: State) => {
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      record(state, viewport.name, checkLayout(await reader.measure(), expectations));
    }
    await page.setViewportSize(ACT);
  };

  /** Brings a state about (`reach`), then measures it; a state that cannot be reached is `reach`. */
  const step = async (state: State, reach: () => Promise<unknown>) => {
    try {
      await reach();
    } catch (error) {
      if (!(error instanceof StateNotReached)) throw error;
      for (const viewport of VIEWPORTS)
        record(state, viewport.name, [{ check: 'reach', detail: error.message }]);
      return;
    }
    await measureEverywhere(state);
  };

  /** Opens the panel with the launcher (inline, it is always open). */
  const openPanel = async () => {
    await reader.waitFor('the widget', (measured) => measured.status !== null);
    const measured = await reader.measureOnce();
    if (!measured.panel && !target.inFlow) {
      await reader.clickOn('launcher', (control) => control.hook === 'launcher');
    }
  };

  try {
    await reader.goto(url);
    await step('empty', async () => {
      await openPanel();
      await reader.waitFor('the open panel with its question box', (measured) =>
        measured.controls.some((control) => control.hook === 'input' && control.inPanel),
      );
    });

    await step('conversation', async () => {
      await reader.ask('How do I change the colours?');
      await reader.waitFor(
        'a finished answer with its related pages',
        (measured) => measured.status === 'ready' && measured.shown.includes('suggestion'),
      );
    });

    // The menu is opened at each width, as a reader at that width would (a narrow header may put
    // more into it).
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      try {
        let measured = await reader.measure();
        if (!isMenuOpen(measured.shown)) {
          await reader.openMenu();
          measured = await reader.measure();
        }
        record('menu', viewport.name, checkLayout(measured, expectations));
        await page.keyboard.press('Escape');
        await reader.waitFor('the menu to close on Escape', (after) => !isMenuOpen(after.shown));
      } catch (error) {
        if (!(error instanceof StateNotReached)) throw error;
        record('menu', viewport.name, [{ check: 'reach', detail: error.message }]);
      }
    }
    await page.setViewportSize(ACT);

    await step('streaming', async () => {
      await reader.setLayout({ hold: true });
      await reader.ask('And in dark mode?');
      await reader.waitFor(
        'a second answer held mid-stream',
        (measured) => measured.status === 'streaming' && measured.answers === 2 && measured.answerText !== '',
      );
    });

    await step('stopped', async () => {
      await reader.clickOn('Stop', (control) => control.action === 'stop');
      await reader.waitFor(
        'the answer to stop',
        (measured) => measured.status !== 'streaming' && measured.status !== 'submitted',
      );
    });
    await reader.setLayout({ hold: false }, true);

    await step('error', async () => {
      await reader.setLayout({ fail: 429 });
      await reader.ask('How do I deploy it?');
      await reader.waitFor('the error banner', (measured) => measured.shown.includes('error'));
    });
    await reader.setLayout({ fail: 0 });

    await step('history', async () => {
      await reader.action('history');
      await reader.waitFor('the history view', (measured) => measured.shown.includes('history'));
    });
    // Back to the conversation, by the history view's own way back.
    await reader
      .clickOn('way back from history', (control) => control.action === 'close-history')
      .catch((error: unknown) => {
        if (!(error instanceof StateNotReached)) throw error;
      });

    await step('search', async () => {
      await reader.waitFor('the conversation again', (measured) => !measured.shown.includes('history'));
      await reader.action('search-view');
      await reader.type('theming');
      await reader.waitFor('search results', (measured) => measured.shown.includes('search-result'));
    });

    await step('shared', async () => {
      // The link opens the panel by itself: clicking the launcher here would close a panel whose
      // chunk is still loading (a race a slow machine lost), and a reader following a link
      // clicks nothing either.
      await reader.goto(`${url}&assistant-share=${site.shareId}`);
      await reader.waitFor('the shared transcript, opened by the link alone', (measured) =>
        measured.shown.includes('shared-transcript'),
      );
    });
  } finally {
    await context.close();
  }
  return { found, errors };
}

describe.concurrent('the widget as a reader sees it (Chromium, built package)', () => {
  for (const target of TARGETS) {
    for (const lang of LANGS) {
      it(`${target.name}, ${lang}: every control inside the panel and the viewport, none overlapping`, async ({
        expect,
      }) => {
        const { found, errors } = await inTurn(() => walk(target, lang));
        for (const [key, failures] of found) results.set(key, failures);
        expect(found.size).toBe(STATES.length * VIEWPORTS.length);
        const { added, fixed } = compareWithKnown(found, KNOWN_FAILURES);
        fixedInRun.push(...fixed);
        expect(added, 'new layout failures (not in tests/layout/known-failures.ts): fix them').toEqual([]);
        expect(fixed, 'these now pass: remove them from tests/layout/known-failures.ts').toEqual([]);
        expect(errors).toEqual([]);
      }, 240_000);
    }
  }

  it('lists no known failure that the matrix does not measure', ({ expect }) => {
    const keys = new Set<string>();
    for (const target of TARGETS)
      for (const state of STATES)
        for (const viewport of VIEWPORTS)
          for (const lang of LANGS) keys.add(resultKey(target.name, state, viewport.name, lang));
    expect(unknownKeys(KNOWN_FAILURES, keys)).toEqual([]);
  });
});
