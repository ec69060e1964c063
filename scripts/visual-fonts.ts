/**
 * The fonts the visual baselines are drawn with: Debian's `fonts-dejavu-core` (DejaVu Sans for
 * Latin, Arabic and Hebrew, DejaVu Sans Mono for code, DejaVu Serif for a serif theme) and
 * `fonts-dejavu-extra` (their oblique faces, so emphasis is the real italic rather than a slant
 * Chromium makes up). The story frame pins every family to these (scripts/visual.ts), so every
 * machine that has them renders the same glyphs. When they are missing, install them with apt if this process may (root on a
 * Debian-like system), as scripts/ensure-chromium.ts does for Chromium; otherwise stop with the
 * one command that installs them.
 *
 *   npx tsx scripts/visual-fonts.ts
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const FONT_PACKAGES = ['fonts-dejavu-core', 'fonts-dejavu-extra'];
/** Fontconfig patterns that must match: the families, Arabic in the sans, the oblique faces. */
const NEEDED = [
  'DejaVu Sans:lang=ar',
  'DejaVu Sans:style=Oblique',
  'DejaVu Sans Mono',
  'DejaVu Sans Mono:style=Oblique',
  'DejaVu Serif',
];

/** The needed fonts fontconfig does not have (all of them when `fc-list` is missing). */
export function missingFonts(): string[] {
  return NEEDED.filter((pattern) => {
    try {
      return execFileSync('fc-list', [pattern, 'family'], { encoding: 'utf8' }).trim() === '';
    } catch {
      return true;
    }
  });
}

/** Makes sure the fonts are there, installing them when allowed; throws with the command otherwise. */
export function ensureFonts(): void {
  const missing = missingFonts();
  if (missing.length === 0) return;
  const mayInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!mayInstall) {
    throw new Error(
      `The visual baselines are drawn with ${missing.join(', ')}, which this machine lacks.\n` +
        `Install them with:  sudo apt-get update && sudo apt-get install -y ${FONT_PACKAGES.join(' ')} fontconfig\n` +
        'then run the visual check again.',
    );
  }
  console.log(`Fonts missing (${missing.join(', ')}): installing ${FONT_PACKAGES.join(' ')} with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', ...FONT_PACKAGES, 'fontconfig'], { stdio: 'inherit', env });
  const still = missingFonts();
  if (still.length > 0) {
    throw new Error(
      `${FONT_PACKAGES.join(' ')} are installed but fontconfig still lacks ${still.join(', ')}.`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    ensureFonts();
    console.log('The visual baselines\u2019 fonts are installed.');
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  }
}
