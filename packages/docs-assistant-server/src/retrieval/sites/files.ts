/** The Markdown files under a site's folder, less what no docs framework would build. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type IgnoreMatcher, parseIgnore } from './ignore.js';
import type { SkippedFile } from './types.js';

export const DOC_FILE = /\.mdx?$/i;

/** Ignore files read at the root, in order: ours, then Mintlify's (same syntax). */
export const IGNORE_FILES = ['.docsassistantignore', '.mintignore'] as const;

export interface SiteFiles {
  /** Markdown files, relative to the root with `/` separators, sorted. */
  files: string[];
  /** Files an ignore file left out. */
  skipped: SkippedFile[];
  /** The ignore files that were read. */
  ignoreFiles: string[];
}

async function readIgnore(root: string): Promise<{ matcher: IgnoreMatcher | null; files: string[] }> {
  const texts: string[] = [];
  const files: string[] = [];
  for (const name of IGNORE_FILES) {
    const text = await readFile(join(root, name), 'utf8').catch(() => null);
    if (text === null) continue;
    texts.push(text);
    files.push(name);
  }
  return { matcher: texts.length ? parseIgnore(texts.join('\n')) : null, files };
}

/**
 * Lists `.md`/`.mdx` files under `root`. Dot-folders (`.git`, `.github`, agent notes such as
 * `.claude`) and `node_modules` are never walked; paths an ignore file names are reported as skipped.
 */
export async function listSiteFiles(root: string): Promise<SiteFiles> {
  const { matcher, files: ignoreFiles } = await readIgnore(root);
  const files: string[] = [];
  const skipped: SkippedFile[] = [];
  const reason = `matched ${ignoreFiles.join(' / ')}`;
  const walk = async (dir: string, prefix: string) => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const rel = `${prefix}${entry.name}`;
      if (entry.isDirectory()) {
        if (matcher?.ignores(rel, true)) {
          skipped.push({ file: `${rel}/`, reason });
          continue;
        }
        await walk(join(dir, entry.name), `${rel}/`);
      } else if (entry.isFile() && DOC_FILE.test(entry.name)) {
        if (matcher?.ignores(rel)) skipped.push({ file: rel, reason });
        else files.push(rel);
      }
    }
  };
  await walk(root, '');
  // Sorted so the index, and so every answer, is the same from one start to the next.
  files.sort();
  return { files, skipped, ignoreFiles };
}

/** Files of a repository, not of its docs: left out unless a navigation links them. */
export const REPOSITORY_FILE =
  /(^|\/)(readme|contributing|changelog|changes|history|license|licence|code_of_conduct|security|support|authors|maintainers|governance|agents|claude|notice|pull_request_template|issue_template)(\.[a-z-]+)?\.mdx?$/i;

/** ISO 639-1 codes, optionally with a region or script (`pt-BR`, `zh-Hans`): a folder named so holds a translation. */
const LANGUAGE_CODES = new Set(
  (
    'af ar az be bg bn bs ca cs cy da de el en eo es et eu fa fi fr ga gl gu he hi hr hu hy id is it ja ' +
    'ka kk km kn ko ky lt lv mk ml mn mr ms my nb ne nl nn no pa pl pt ro ru si sk sl sq sr sv sw ta te ' +
    'th tl tr uk ur uz vi zh'
  ).split(' '),
);

/** `fr`, `pt-BR`, `zh-Hans`, `zh_CN` → the code as written when it names a language, else undefined. */
export function languageCode(segment: string): string | undefined {
  const match = /^([a-z]{2})(?:[-_]([A-Za-z]{2}|[A-Z][a-z]{3}))?$/.exec(segment);
  return match && LANGUAGE_CODES.has(match[1]!) ? segment : undefined;
}

/** The URL path of a file under the simple rule most frameworks share: no extension, `index` is its folder. */
export function urlOfFile(file: string, prefix = ''): string {
  const parts = file
    .replace(/\.mdx?$/i, '')
    .split('/')
    .filter(Boolean);
  if (parts.length && /^(index|readme)$/i.test(parts[parts.length - 1]!)) parts.pop();
  const joined = [...prefix.split('/').filter(Boolean), ...parts].join('/');
  return `/${joined}`;
}
