/**
 * The streaming benchmark (`npm run bench`) still runs: its three pages build, stream a small
 * answer to the end in Chromium, and report what the results table is made of; a copy of the
 * sources compared beside the shipped widget (`--compare`) runs interleaved with it. A check that the
 * benchmark works, not a benchmark: no figure here is compared with a time.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPages, compareSource, streamBench, VARIANTS } from '../../bench/browser';
import { answerTokens, END_MARK } from '../../bench/corpus';

// The pages, built once for every run below (`pages`), as `npm run bench` builds them for its run.
const pages = mkdtempSync(join(tmpdir(), 'docs-assistant-bench-test-'));
beforeAll(() => buildPages(pages), 300_000);
afterAll(() => rmSync(pages, { recursive: true, force: true }));

describe('the streaming benchmark on a small answer', () => {
  it('streams the whole answer through every page, once plain and once while typing', async () => {
    const tokens = 150;
    expect(answerTokens(tokens).join('')).toContain(END_MARK);
    const runs = await streamBench({ sizes: [tokens], capMs: 60_000, typingCapMs: 60_000, pages });

    expect(runs.map((run) => `${run.variant} ${run.typing ? 'typing' : 'measured'}`).sort()).toEqual(
      VARIANTS.flatMap((variant) => [`${variant} measured`, `${variant} typing`]).sort(),
    );
    for (const run of runs) {
      // Finished means the page showed the end of the answer after the whole stream arrived.
      expect(run, run.variant).toMatchObject({ tokens, finished: true, tokensSent: tokens });
      expect(run.frames, run.variant).toBeGreaterThan(0);
      for (const figure of [run.scriptMs, run.taskMs, run.elapsedMs, run.longestTaskMs, run.tasksOver50]) {
        expect(Number.isFinite(figure) && figure >= 0, run.variant).toBe(true);
      }
      // CDP reported main-thread work for the run (the page rendered the answer).
      expect(run.taskMs, run.variant).toBeGreaterThan(0);
    }
  }, 300_000);
});

describe('the streaming benchmark at a model’s pace', () => {
  it('streams one token every paceMs instead of at full speed (`--pace`), typing runs too', async () => {
    const tokens = 40;
    const paceMs = 25;
    const runs = await streamBench({
      sizes: [tokens],
      capMs: 60_000,
      variants: ['widget', 'floor'],
      paceMs,
      pages,
    });
    expect(runs).toHaveLength(4);
    for (const run of runs) {
      expect(run, run.variant).toMatchObject({ tokens, finished: true, tokensSent: tokens });
      // A floor, not a timing: the page waits paceMs before each token, so the stream cannot end
      // sooner (at full speed 40 tokens take a few ms).
      expect(run.elapsedMs, run.variant).toBeGreaterThanOrEqual(tokens * paceMs);
    }
  }, 300_000);
});

describe('the streaming benchmark comparing a copy of the sources', () => {
  const name = `test-copy-${process.pid}`;
  const copy = compareSource(name);
  beforeAll(() =>
    cpSync(resolve(import.meta.dirname, '../../packages/docs-assistant/src'), copy, { recursive: true }),
  );
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('runs the copy right after the shipped widget in every round, on warm code when asked', async () => {
    const tokens = 150;
    const runs = await streamBench({
      sizes: [tokens],
      capMs: 60_000,
      variants: ['widget', 'floor'],
      repeat: { widget: 2, floor: 2 },
      compare: [name],
      warm: true,
      pages,
    });
    const measured = runs.filter((run) => !run.typing);
    // Interleaved: the copy's run follows the shipped widget's, then the floor's, in each round.
    expect(measured.map((run) => (run.source ? `widget@${run.source}` : run.variant))).toEqual([
      'widget',
      `widget@${name}`,
      'floor',
      'widget',
      `widget@${name}`,
      'floor',
    ]);
    for (const run of measured) {
      expect(run, run.source ?? run.variant).toMatchObject({ tokens, finished: true, tokensSent: tokens });
      expect(run.taskMs).toBeGreaterThan(0);
    }
    // The copy gets no typing runs of its own.
    expect(runs.filter((run) => run.typing).map((run) => run.source ?? run.variant)).toEqual([
      'widget',
      'floor',
      'widget',
      'floor',
    ]);
  }, 300_000);

  it('gives up on a page that never shows the end of its answer, reporting the run as not finished', async () => {
    const broken = `test-broken-${process.pid}`;
    const brokenCopy = compareSource(broken);
    cpSync(copy, brokenCopy, { recursive: true });
    try {
      // A text renderer that shows nothing: the end mark never reaches the screen.
      const textPart = resolve(brokenCopy, 'parts/text-part.tsx');
      const original = readFileSync(textPart, 'utf8');
      const patched = original.replace(/return <StreamingMarkdown[^;]*;/, 'return null;');
      expect(patched, 'the text renderer the test breaks').not.toBe(original);
      writeFileSync(textPart, patched);
      const runs = await streamBench({
        sizes: [150],
        capMs: 1_000,
        typingCapMs: 1_000,
        variants: ['widget'],
        compare: [broken],
        pages,
      });
      const run = runs.find((candidate) => candidate.source === broken && !candidate.typing);
      // The whole stream went out, but the page never showed it.
      expect(run).toMatchObject({ finished: false, tokensSent: 150 });
      expect(runs.find((candidate) => !candidate.source && !candidate.typing)).toMatchObject({
        finished: true,
      });
    } finally {
      rmSync(brokenCopy, { recursive: true, force: true });
    }
  }, 300_000);

  it('says which folder is missing when the copy is not there', async () => {
    await expect(
      streamBench({ sizes: [150], capMs: 60_000, variants: ['widget'], compare: ['no-such-copy'] }),
    ).rejects.toThrow('no copy of src/ at bench/.src-no-such-copy');
  });
});
