/**
 * Before-and-after pictures for docs/first-minute.md: the screenshots screens.ts wrote for two
 * revisions, each pair put side by side (before on the left, after on the right, a grey bar
 * between), written to docs/images/first-minute/<state>-<width>-<theme>.png. At 1280 px only the
 * right-hand part of the page, where the floating panel is, is kept: the rest is the docs page,
 * the same in both. Not a test:
 *
 *   npx tsx tests/layout/screens.ts e5d63cd && npx tsx tests/layout/screens.ts HEAD
 *   npx tsx tests/layout/side-by-side.ts e5d63cd HEAD
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PNG } from 'pngjs';

const [before, after] = process.argv.slice(2);
if (!before || !after) {
  throw new Error('Name the two revisions screens.ts photographed: side-by-side.ts <before> <after>.');
}
const SCREENS = resolve(import.meta.dirname, '../.artifacts/layout-screens');
const OUT = resolve(import.meta.dirname, '../../docs/images/first-minute');

/** The states, viewports and themes put side by side. */
const STATES = ['empty', 'answer'] as const;
const WIDTHS = [1280, 390] as const;
const THEMES = ['light', 'dark'] as const;
/** At 1280 px, how much of the page's right-hand side is kept (the 400 px panel and its margins). */
const PANEL_SIDE = 464;
/** The bar between the two pictures (in px) and its colour. */
const BAR = 12;
const BAR_RGB = [136, 136, 136] as const;

function read(revision: string, file: string): PNG {
  const path = join(SCREENS, revision, file);
  try {
    return PNG.sync.read(readFileSync(path));
  } catch (error) {
    throw new Error(
      `${path} is missing or not a PNG: run npx tsx tests/layout/screens.ts ${revision} first.`,
      {
        cause: error,
      },
    );
  }
}

/** The picture's columns from `left` on, `width` wide, copied into `into` at column `at`. */
function blit(from: PNG, left: number, width: number, into: PNG, at: number) {
  for (let y = 0; y < Math.min(from.height, into.height); y++) {
    const source = (y * from.width + left) * 4;
    from.data.copy(into.data, (y * into.width + at) * 4, source, source + width * 4);
  }
}

function sideBySide(old: PNG, now: PNG, width: number): PNG {
  const keep = width > 640 ? PANEL_SIDE : width;
  const left = old.width - keep;
  const height = Math.max(old.height, now.height);
  const out = new PNG({ width: keep * 2 + BAR, height });
  for (let y = 0; y < height; y++) {
    for (let x = keep; x < keep + BAR; x++) {
      const at = (y * out.width + x) * 4;
      out.data.set([...BAR_RGB, 255], at);
    }
  }
  blit(old, left, keep, out, 0);
  blit(now, now.width - keep, keep, out, keep + BAR);
  return out;
}

mkdirSync(OUT, { recursive: true });
let total = 0;
for (const state of STATES) {
  for (const width of WIDTHS) {
    for (const theme of THEMES) {
      const file = `floating-${state}-${width}-${theme}.png`;
      const picture = sideBySide(read(before, file), read(after, file), width);
      const bytes = PNG.sync.write(picture, { deflateLevel: 9 });
      writeFileSync(join(OUT, `${state}-${width}-${theme}.png`), bytes);
      total += bytes.length;
    }
  }
}
console.log(
  `${STATES.length * WIDTHS.length * THEMES.length} pictures in ${OUT}, ${(total / 1024).toFixed(0)} KiB`,
);
