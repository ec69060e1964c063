/**
 * A folder of Markdown with no docs framework config: every file is a page at its path, except
 * the repository's own files (README, CONTRIBUTING, CHANGELOG, LICENSE, CODE_OF_CONDUCT…) that no
 * page links to. A top-level folder named after a language (`fr/`, `pt-BR/`) holds that language.
 */
import { posix } from 'node:path';
import { languageCode, REPOSITORY_FILE, urlOfFile } from './files.js';
import type { SiteNavigation, SitePage, SkippedFile } from './types.js';

// Targets of Markdown links and of HTML/JSX `href`s.
const LINK = /\]\(\s*<?([^)\s>#?]+)|href=["']([^"'#?]+)/g;

/** Files (extension dropped) that some page's text links to, resolved from the linking page. */
function linkedFiles(sources: Map<string, string>): Set<string> {
  const linked = new Set<string>();
  for (const [file, source] of sources) {
    const dir = posix.dirname(file);
    for (const match of source.matchAll(LINK)) {
      const target = match[1] ?? match[2] ?? '';
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const resolved = target.startsWith('/') ? target.slice(1) : posix.join(dir, target);
      linked.add(
        posix
          .normalize(resolved)
          .replace(/\.mdx?$/i, '')
          .replace(/\/$/, '')
          .toLowerCase(),
      );
    }
  }
  return linked;
}

export function readFolderSite(
  files: string[],
  sources: Map<string, string>,
  defaultLanguage: string,
): SiteNavigation {
  const skipped: SkippedFile[] = [];
  const pages: SitePage[] = [];
  const candidates = files.filter((file) => !REPOSITORY_FILE.test(file));
  const repositoryFiles = files.filter((file) => REPOSITORY_FILE.test(file));
  // Only pages that name a repository file can link one: the others are not scanned for links.
  const names = [
    ...new Set(
      repositoryFiles.map((file) =>
        file
          .split('/')
          .pop()!
          .replace(/\.mdx?$/i, ''),
      ),
    ),
  ];
  const mentions = names.length
    ? new RegExp(names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i')
    : null;
  const linked = mentions
    ? linkedFiles(
        new Map(
          candidates
            .map((file) => [file, sources.get(file) ?? ''] as const)
            .filter(([, source]) => mentions.test(source)),
        ),
      )
    : new Set<string>();
  for (const file of files) {
    if (REPOSITORY_FILE.test(file) && !linked.has(file.replace(/\.mdx?$/i, '').toLowerCase())) {
      skipped.push({ file, reason: 'repository file (no page links to it)' });
      continue;
    }
    const first = file.includes('/') ? file.slice(0, file.indexOf('/')) : '';
    const language = first ? languageCode(first) : undefined;
    // A linked README is its folder's page, as on GitHub.
    pages.push({ file, url: urlOfFile(file), breadcrumb: [], ...(language ? { language } : {}) });
  }
  const languages = [...new Set(pages.map((page) => page.language).filter((l): l is string => !!l))];
  if (languages.length) {
    // Translations in language folders: the rest is the default language.
    for (const page of pages) page.language ??= defaultLanguage;
  }
  return {
    framework: 'folder',
    pages,
    skipped,
    languages: languages.length ? [defaultLanguage, ...languages.filter((l) => l !== defaultLanguage)] : [],
    versions: [],
    warnings: [],
  };
}
