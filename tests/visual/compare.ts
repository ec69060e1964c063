/**
 * How a screenshot is compared with its baseline: pixel by pixel with pixelmatch, a pixel counting
 * as different past a colour distance (`THRESHOLD`, anti-aliased edges ignored), and the picture
 * as changed when more than `MAX_DIFF_RATIO` of its pixels differ or its size changed. The two
 * numbers were chosen from measurements (see README "Visual regression"): two runs of every story
 * on one machine, and two machines' runs, differ by far less than the smallest change a reader
 * would notice (a 1 px shift of one button's label).
 */
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

/** Colour distance (0–1, pixelmatch's YIQ metric) under which two pixels count as the same. */
export const THRESHOLD = 0.1;
/** Share of a picture's pixels that may differ before it counts as changed (0.01% ≈ 30 px of 520×600). */
export const MAX_DIFF_RATIO = 0.0001;

export interface Comparison {
  /** False when the picture changed (size, or too many pixels). */
  same: boolean;
  /** What changed, in words (empty when nothing did). */
  summary: string;
  differing: number;
  ratio: number;
  /** The baseline with the differing pixels in red, when both have the same size. */
  diff?: Buffer;
}

export function compareImages(baseline: Buffer, actual: Buffer): Comparison {
  const before = PNG.sync.read(baseline);
  const after = PNG.sync.read(actual);
  if (before.width !== after.width || before.height !== after.height) {
    return {
      same: false,
      summary: `size changed from ${before.width}×${before.height} to ${after.width}×${after.height}`,
      differing: Math.max(before.width * before.height, after.width * after.height),
      ratio: 1,
    };
  }
  const { width, height } = before;
  const diff = new PNG({ width, height });
  const differing = pixelmatch(before.data, after.data, diff.data, width, height, { threshold: THRESHOLD });
  const ratio = differing / (width * height);
  const same = ratio <= MAX_DIFF_RATIO;
  return {
    same,
    summary: differing === 0 ? '' : `${differing} px differ (${(ratio * 100).toFixed(3)}%)`,
    differing,
    ratio,
    diff: differing > 0 ? PNG.sync.write(diff) : undefined,
  };
}
