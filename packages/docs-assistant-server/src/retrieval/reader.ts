/**
 * The reader's language and version choose the pages an answer comes from. An explicit
 * `filter.language`/`filter.version` is honoured exactly. Otherwise the page the reader is on
 * (`currentPath`) gives both; else the question's language (`language.ts`) and the site's default
 * version. When no page in the chosen language answers, the search runs again in every language
 * and the answer says so.
 */
import type { DocPage } from '../docs/parse.js';
import { ALL_FUNCTION_WORDS, detectLanguage, languageName } from './language.js';
import {
  type DocsIndex,
  normalizePath,
  processTerm,
  queryTerms,
  type RetrievalQuery,
  type RetrievalResult,
} from './search-index.js';

// Share of the question's content words the best of the first hits must match to count as an
// answer in the reader's language (the index's own confidence test counts English stop words only,
// so a French question's "comment", "la", "un" would make any French page look like a match).
const MIN_CONTENT_COVERAGE = 0.4;
const FUNCTION_TERMS = new Set(
  [...ALL_FUNCTION_WORDS].map((word) => processTerm(word)).filter((t) => t !== null),
);

/** Share of the question's content terms the best of the first three hits matches (0–1). */
function coverage(result: RetrievalResult, question: string): number {
  const content = queryTerms(question).filter((term) => !FUNCTION_TERMS.has(term));
  if (!content.length) return result.hits.length ? 1 : 0;
  const best = Math.max(
    0,
    ...result.hits
      .slice(0, 3)
      .map((hit) => hit.questionTerms.filter((term) => content.includes(term)).length),
  );
  return best / content.length;
}

export interface ReaderScope {
  /** The language the pages are in (undefined: any). */
  language?: string;
  version?: string;
  /** How the language was chosen. */
  languageFrom?: 'filter' | 'page' | 'question' | 'default';
  /** Set when no page in the reader's language matched and other languages were searched. */
  crossedLanguage?: boolean;
  /** A sentence for the answer when the sources are not in the reader's language. */
  notice?: string;
  /** Whether a page may be suggested or cited under this scope. */
  allows(page: DocPage): boolean;
}

interface Facets {
  languages: string[];
  versions: string[];
  /** The language and version readers land on, when a site's config or layout says (not front matter alone). */
  defaultLanguage?: string;
  defaultVersion?: string;
}

const facetsCache = new WeakMap<DocsIndex, Facets>();

/** Languages and versions of the indexed sites, each default first. */
export function siteFacets(index: DocsIndex): Facets {
  let facets = facetsCache.get(index);
  if (facets) return facets;
  const languages: string[] = [];
  const versions: string[] = [];
  for (const page of index.pages) {
    for (const language of page.site?.languages ?? [])
      if (!languages.includes(language)) languages.push(language);
    for (const version of page.site?.versions ?? []) if (!versions.includes(version)) versions.push(version);
  }
  // Pages loaded without a site (a list of pages given in code) still name their languages.
  for (const page of index.pages) {
    if (page.language && !languages.includes(page.language)) languages.push(page.language);
    if (page.version && !versions.includes(page.version)) versions.push(page.version);
  }
  const declared = index.pages.find((page) => page.site);
  facets = {
    languages,
    versions,
    ...(declared?.site?.languages[0] ? { defaultLanguage: declared.site.languages[0] } : {}),
    ...(declared?.site?.versions[0] ? { defaultVersion: declared.site.versions[0] } : {}),
  };
  facetsCache.set(index, facets);
  return facets;
}

/** The page a reader's path is on: the same path, or a path ending in it (docs served under a prefix). */
function pageAt(index: DocsIndex, currentPath: string): DocPage | undefined {
  const path = normalizePath(currentPath);
  const exact = index.page(path);
  if (exact) return exact;
  let best: DocPage | undefined;
  for (const page of index.pages) {
    // Page paths start with `/`, so `endsWith` matches whole segments only.
    if (page.path !== '/' && path.endsWith(page.path) && (!best || page.path.length > best.path.length))
      best = page;
  }
  return best;
}

/** A language or version named by one of the path's segments (`/fr/guides`, `/docs/1.0/intro`). */
function segmentIn(currentPath: string, names: string[]): string | undefined {
  const segments = normalizePath(currentPath).split('/').filter(Boolean);
  return segments.find((segment) => names.includes(segment));
}

/** Decides the scope of one question. */
export function readerScope(
  index: DocsIndex,
  query: Pick<RetrievalQuery, 'question' | 'currentPath' | 'filter'>,
): ReaderScope {
  const { languages, versions, defaultLanguage, defaultVersion } = siteFacets(index);
  const filter = query.filter ?? {};
  const onPage = query.currentPath ? pageAt(index, query.currentPath) : undefined;

  let language: string | undefined;
  let languageFrom: ReaderScope['languageFrom'];
  if (filter.language) {
    language = filter.language;
    languageFrom = 'filter';
  } else if (languages.length > 1) {
    const fromPage =
      onPage?.language ?? (query.currentPath ? segmentIn(query.currentPath, languages.slice(1)) : undefined);
    if (fromPage) {
      language = fromPage;
      languageFrom = 'page';
    } else {
      const detected = detectLanguage(query.question, languages);
      language = detected ?? defaultLanguage;
      if (language) languageFrom = detected ? 'question' : 'default';
    }
  }

  let version: string | undefined;
  if (filter.version) version = filter.version;
  else if (versions.length > 1) {
    version =
      onPage?.version ??
      (query.currentPath ? segmentIn(query.currentPath, versions) : undefined) ??
      defaultVersion;
  }

  return {
    ...(language && languageFrom ? { language, languageFrom } : {}),
    ...(version ? { version } : {}),
    allows: (page) =>
      (!language || !page.language || page.language === language) &&
      (!version || !page.version || page.version === version),
  };
}

/**
 * Searches within the reader's scope. A language that was inferred (not asked for in the filter)
 * gives way when no page in it matches: the search runs in every language, and the scope carries
 * a notice saying so.
 */
export function searchForReader(
  index: DocsIndex,
  query: RetrievalQuery,
): { result: RetrievalResult; scope: ReaderScope } {
  const scope = readerScope(index, query);
  const filter = {
    ...(scope.language ? { language: scope.language } : {}),
    ...(scope.version ? { version: scope.version } : {}),
  };
  const scoped = { ...query, filter: Object.keys(filter).length ? filter : null };
  const result = index.query(scoped);
  if (!scope.language || scope.languageFrom === 'filter') return { result, scope };
  const inLanguage = result.confident ? coverage(result, query.question) : 0;
  if (inLanguage >= MIN_CONTENT_COVERAGE) return { result, scope };
  // The site's default language first (the most complete, usually), then any language.
  const fallback = siteFacets(index).defaultLanguage;
  const tries = fallback && fallback !== scope.language ? [fallback, undefined] : [undefined];
  const version = scope.version;
  for (const language of tries) {
    const filter = {
      ...(language ? { language } : {}),
      ...(version ? { version } : {}),
    };
    const other = index.query({ ...scoped, filter: Object.keys(filter).length ? filter : null });
    // Another language only when it answers clearly better than the reader's own.
    if (!other.confident || coverage(other, query.question) <= inLanguage) continue;
    const shown = language
      ? `these sources are in ${languageName(language)}`
      : 'these sources are in other languages';
    return {
      result: other,
      scope: {
        ...scope,
        crossedLanguage: true,
        notice: `No page in ${languageName(scope.language)} answers this; ${shown}.`,
        allows: (page) =>
          (!language || !page.language || page.language === language) &&
          (!version || !page.version || page.version === version),
      },
    };
  }
  return { result, scope };
}
