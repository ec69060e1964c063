/** The Markdown files under a site's folder, less what no docs framework would build. */
import { DOC_FILE, docsRoot, IGNORE_FILES } from '../files.js';
import type { SkippedFile } from './types.js';

export { DOC_FILE, IGNORE_FILES };

export interface SiteFiles {
  /** Markdown files, relative to the root with `/` separators, sorted. */
  files: string[];
  /** Files an ignore file left out, and symlinks out of the folder. */
  skipped: SkippedFile[];
  /** The ignore files that were read. */
  ignoreFiles: string[];
}

/**
 * Lists `.md`/`.mdx` files under `root` by the docs root's rule (`docs/files.ts`): dot-folders
 * (`.git`, `.github`, agent notes such as `.claude`) and `node_modules` are never walked; paths an
 * ignore file names and symlinks out of the folder are reported as skipped.
 */
export async function listSiteFiles(root: string): Promise<SiteFiles> {
  const folder = docsRoot(root);
  const walked = folder.walk({ filter: (file) => DOC_FILE.test(file), stats: false });
  return {
    files: walked.files.map((entry) => entry.file),
    skipped: walked.skipped,
    ignoreFiles: folder.ignoreFiles(),
  };
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
