/**
 * The size budgets of issue 5, measured exactly as `npm run size` does: the real library build,
 * bundled as a host app would bundle it, gzip -9. Sizes are deterministic, so this is a plain
 * comparison of byte counts (nothing here depends on time).
 */
import { BUDGETS, measureSize, type SizeReport } from '../../scripts/size';

let report: SizeReport;

beforeAll(async () => {
  report = await measureSize();
}, 120_000);

describe('size budgets (gzip -9, React external)', () => {
  it('splits the app into an up-front launcher and a lazily loaded rest', () => {
    expect(report.files.some((file) => file.upfront)).toBe(true);
    expect(report.files.some((file) => !file.upfront)).toBe(true);
    expect(report.whole).toBeGreaterThan(report.launcher);
  });

  it(`loads at most ${BUDGETS.launcher} bytes before the assistant is opened`, () => {
    expect(report.launcher).toBeLessThanOrEqual(BUDGETS.launcher);
  });

  it(`ships the whole widget, every part renderer included, in at most ${BUDGETS.whole} bytes`, () => {
    expect(report.whole).toBeLessThanOrEqual(BUDGETS.whole);
  });

  it(`ships at most ${BUDGETS.css} bytes of CSS`, () => {
    expect(report.css).toBeGreaterThan(0);
    expect(report.css).toBeLessThanOrEqual(BUDGETS.css);
  });

  it(`loads at most ${BUDGETS.launcher} bytes up front under esbuild too, through docs-assistant/widget`, () => {
    // Through the main entry, esbuild loads nearly everything up front (its code splitting keeps
    // the modules the barrel re-exports in the first chunk); the widget-only entry avoids that.
    expect(report.esbuildWidget.launcher).toBeLessThanOrEqual(BUDGETS.launcher);
    expect(report.esbuildWidget.whole).toBeLessThanOrEqual(BUDGETS.whole);
  });

  it('keeps the Markdown serializer (mdast-util-to-markdown) out of the widget', () => {
    const inputs = new Set(report.inputs.map((input) => input.path));
    expect(inputs.has('micromark-core-commonmark')).toBe(true);
    expect(inputs.has('mdast-util-to-markdown')).toBe(false);
  });
});
