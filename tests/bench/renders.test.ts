/**
 * `bench/renders.ts` still counts React's renders: on a small answer, React's profiling build
 * reports the widget's Markdown components and the floor's one component, each run streamed to its
 * end. A check that the tool works: its counts and times are not compared with any figure.
 */
import { describe, expect, it } from 'vitest';
import { rendersBench, rendersTable } from '../../bench/renders';

describe('the render counts of a streamed answer', () => {
  it('names the components each page renders, and how often', async () => {
    const runs = await rendersBench({ sizes: [150], variants: ['widget', 'floor'], repeat: 1 });
    expect(runs.map((run) => run.variant)).toEqual(['widget', 'floor']);
    const [widget, floor] = runs;
    for (const run of runs) {
      expect(run, run.variant).toMatchObject({ tokens: 150, finished: true });
      expect(run.commits, run.variant).toBeGreaterThan(0);
      expect(run.renderMs, run.variant).toBeGreaterThan(0);
    }
    // The widget's answer is Markdown in blocks; the floor is one component showing text.
    expect(widget!.components.MarkdownView?.renders).toBeGreaterThan(0);
    expect(widget!.components.MarkdownBlock?.renders).toBeGreaterThan(0);
    expect(floor!.components.MarkdownBlock).toBeUndefined();
    expect(floor!.components.Chat?.renders).toBeGreaterThan(0);
    const table = rendersTable([widget!], 5);
    expect(table).toMatch(/^widget, 150 tokens, 1 run\(s\): median run \d+ frames, \d+ commits/);
    expect(table.split('\n')).toHaveLength(3 + 5);
  }, 300_000);
});
