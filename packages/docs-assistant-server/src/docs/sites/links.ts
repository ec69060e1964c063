/**
 * A page's link as its framework publishes it: from the page's path (base included, no extension,
 * a folder's index at the folder) to `/guide/setup/`, `/guide/setup.html` or `/guide/index.html`,
 * by the site's `SiteLinks`.
 */
import type { SiteLinks } from './types.js';

/**
 * Whether a file is the page of its folder: `index.md`, `README.mdx`, and a translation of one
 * named by its language (`index.fr.md`, MkDocs' i18n suffix layout).
 */
export const isFolderPage = (file: string): boolean =>
  /(^|\/)(index|readme)(\.[A-Za-z]{2}(?:[-_][A-Za-z]{2,4})?)?\.mdx?$/i.test(file);

const withEnding = (path: string, ending: SiteLinks['folder']): string => {
  const bare = path.replace(/\/$/, '');
  switch (ending) {
    case 'slash':
      return `${bare}/`;
    case 'html':
      return `${bare}.html`;
    case 'index.html':
      return `${bare}/index.html`;
    case 'plain':
      return bare;
  }
};

/** The published link path of a page at `path` (from `file`, relative to its content folder). */
export function publishedPath(path: string, file: string, links: SiteLinks | undefined): string {
  if (!links) return path;
  const base = links.base ?? '';
  if (path === '/' || path === base) {
    // The site's root keeps its slash whatever the setting (Docusaurus never drops a base's slash).
    return links.folder === 'index.html' ? `${base}/index.html` : `${base}/`;
  }
  return withEnding(path, isFolderPage(file) ? links.folder : links.ending);
}

/** `/acme/` `acme` `''` `/` → `/acme` or `''`: a base path as the links carry it. */
export const basePath = (value: string | undefined): string => {
  const trimmed = (value ?? '').replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}` : '';
};
