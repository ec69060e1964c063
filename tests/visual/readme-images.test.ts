/**
 * The README's screenshots are the accepted visual baselines, byte for byte: `npm run
 * visual:accept` copies them (tests/visual/shots.ts `README_IMAGES`), so a picture in the README can
 * never show a widget older than the one the visual check compares with.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { README_IMAGES } from './shots';

const ROOT = resolve(import.meta.dirname, '../..');
const IMAGES = join(ROOT, 'docs/images');
const BASELINES = join(ROOT, 'tests/visual/baselines');

/** The images the README's "Screenshots" section shows (`docs/images/<file>`). */
function screenshotsInReadme(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## Screenshots$/m)[1]?.split(/^## /m)[0];
  if (!section) throw new Error('README.md has no "## Screenshots" section');
  return [...section.matchAll(/docs\/images\/([\w.-]+\.png)/g)].map((match) => match[1]!);
}

describe("the README's screenshots", () => {
  it('are each a copy of an accepted baseline', () => {
    const shown = [...new Set(screenshotsInReadme())];
    expect(shown.length).toBeGreaterThan(0);
    for (const file of shown) {
      const shot = README_IMAGES[file];
      expect(
        shot,
        `docs/images/${file} is in the README but comes from no baseline (README_IMAGES)`,
      ).toBeDefined();
      const baseline = join(BASELINES, `${shot}.png`);
      expect(existsSync(baseline), `no baseline ${shot}.png: run npm run visual:accept`).toBe(true);
      expect(
        readFileSync(join(IMAGES, file)).equals(readFileSync(baseline)),
        `docs/images/${file} is not the accepted ${shot}.png: run npm run visual:accept`,
      ).toBe(true);
    }
  });

  it('leave no picture in docs/images that no baseline makes', () => {
    const pictures = readdirSync(IMAGES).filter((file) => file.endsWith('.png'));
    expect(pictures.filter((file) => !(file in README_IMAGES))).toEqual([]);
    expect(Object.keys(README_IMAGES).filter((file) => !pictures.includes(file))).toEqual([]);
  });
});
