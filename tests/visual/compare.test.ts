/**
 * The comparison the visual check runs (compare.ts), on pictures made here: identical pictures
 * pass, a changed button label or a shifted edge fails with its pixels marked, a size change fails,
 * and a few stray pixels (what two runs of one story differ by) pass.
 */
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { compareImages, MAX_DIFF_RATIO } from './compare';

/** A white picture with dark rectangles (`[x, y, width, height]`), as PNG bytes. */
function picture(width: number, height: number, rects: [number, number, number, number][]): Buffer {
  const png = new PNG({ width, height });
  png.data.fill(255);
  for (const [x0, y0, w, h] of rects) {
    for (let y = y0; y < y0 + h; y++) {
      for (let x = x0; x < x0 + w; x++) {
        const at = (y * width + x) * 4;
        png.data[at] = 30;
        png.data[at + 1] = 40;
        png.data[at + 2] = 60;
      }
    }
  }
  return PNG.sync.write(png);
}

describe('comparing a screenshot with its baseline', () => {
  it('finds nothing between identical pictures', () => {
    const result = compareImages(
      picture(200, 100, [[10, 10, 50, 20]]),
      picture(200, 100, [[10, 10, 50, 20]]),
    );
    expect(result).toMatchObject({ same: true, differing: 0, summary: '' });
    expect(result.diff).toBeUndefined();
  });

  it('fails on a control moved by 4 px, and marks the pixels that changed', () => {
    const result = compareImages(
      picture(200, 100, [[10, 10, 50, 20]]),
      picture(200, 100, [[14, 10, 50, 20]]),
    );
    expect(result.same).toBe(false);
    // Two 4×20 strips: where the button was and where it is now.
    expect(result.differing).toBe(160);
    expect(result.summary).toBe('160 px differ (0.800%)');
    const diff = PNG.sync.read(result.diff!);
    const red = (x: number, y: number) => {
      const at = (y * diff.width + x) * 4;
      return diff.data[at] === 255 && diff.data[at + 1] === 0 && diff.data[at + 2] === 0;
    };
    expect(red(11, 15)).toBe(true);
    expect(red(30, 15)).toBe(false);
  });

  it('fails when the size changed, saying from what to what', () => {
    const result = compareImages(picture(200, 100, []), picture(200, 120, []));
    expect(result).toMatchObject({ same: false, summary: 'size changed from 200×100 to 200×120' });
  });

  it('lets a few stray pixels through, and no more', () => {
    const width = 1000;
    const height = 100;
    const allowed = Math.floor(width * height * MAX_DIFF_RATIO);
    const strays = (count: number) =>
      picture(
        width,
        height,
        Array.from({ length: count }, (_, i) => [i * 7, 50, 1, 1] as [number, number, number, number]),
      );
    expect(compareImages(picture(width, height, []), strays(allowed)).same).toBe(true);
    expect(compareImages(picture(width, height, []), strays(allowed + 1)).same).toBe(false);
  });
});
