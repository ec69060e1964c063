/**
 * The streaming benchmark (`npm run bench`) still runs: its three pages build, stream a small
 * answer to the end in Chromium, and report what the results table is made of. A check that the
 * benchmark works, not a benchmark: no figure here is compared with a time.
 */
import { describe, expect, it } from 'vitest';
import { streamBench, VARIANTS } from '../../bench/browser';
import { answerTokens, END_MARK } from '../../bench/corpus';

describe('the streaming benchmark on a small answer', () => {
  it('streams the whole answer through every page, once plain and once while typing', async () => {
    const tokens = 150;
    expect(answerTokens(tokens).join('')).toContain(END_MARK);
    const runs = await streamBench({ sizes: [tokens], capMs: 60_000, typingCapMs: 60_000 });

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
