/** Helpers the framework readers share: collecting listed pages and the hidden rest. */
import { REPOSITORY_FILE, urlOfFile } from './files.js';
import type { SiteNavigation, SitePage, SkippedFile } from './types.js';

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

export const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim() : undefined;

/**
 * One step of a walk over a navigation tree as the configs write it: a string is a page reference
 * (`ref`), an array lists its items in order under the same `scope`, an object is a node for
 * `node` to read (and walk on from); anything else lists nothing.
 */
export function walkNav<Scope>(
  value: unknown,
  scope: Scope,
  ref: (ref: string, scope: Scope) => void,
  node: (node: Record<string, unknown>, scope: Scope) => void,
): void {
  if (typeof value === 'string') ref(value, scope);
  else if (Array.isArray(value)) for (const item of value) walkNav(item, scope, ref, node);
  else if (isRecord(value)) node(value, scope);
}

/** Collects pages in navigation order; a file listed twice keeps its first place. */
export class PageList {
  readonly pages: SitePage[] = [];
  readonly warnings: string[] = [];
  private readonly byFile = new Map<string, SitePage>();
  private readonly known: Set<string>;

  constructor(files: string[]) {
    this.known = new Set(files);
  }

  has(file: string): boolean {
    return this.byFile.has(file);
  }

  /** The file of a navigation reference (`guides/setup`), trying each extension; undefined when missing. */
  resolve(ref: string, extensions = ['.mdx', '.md']): string | undefined {
    const bare = ref.replace(/^\.?\//, '');
    if (this.known.has(bare)) return bare;
    for (const ext of extensions) {
      if (this.known.has(`${bare}${ext}`)) return `${bare}${ext}`;
    }
    for (const ext of extensions) {
      const index = `${bare.replace(/\/$/, '')}${bare ? '/' : ''}index${ext}`;
      if (this.known.has(index)) return index;
    }
    return undefined;
  }

  add(page: Omit<SitePage, 'order'>): void {
    if (this.byFile.has(page.file)) return;
    const listed = { ...page, order: this.pages.length };
    this.byFile.set(page.file, listed);
    this.pages.push(listed);
  }

  missing(ref: string, where: string): void {
    this.warnings.push(`${where} lists "${ref}", which is not a Markdown file in the folder; skipped`);
  }
}

/**
 * Files under the site that its navigation does not list: hidden pages (built, not linked) unless
 * they are repository files or the framework never builds them (`neverPages`).
 */
export function hiddenRest(
  files: string[],
  listed: PageList,
  options: {
    neverPages?: (file: string) => string | undefined;
    page: (file: string) => Omit<SitePage, 'breadcrumb' | 'hidden'> | undefined;
  },
): { hidden: SitePage[]; skipped: SkippedFile[] } {
  const hidden: SitePage[] = [];
  const skipped: SkippedFile[] = [];
  for (const file of files) {
    if (listed.has(file)) continue;
    const never = options.neverPages?.(file);
    if (never) {
      skipped.push({ file, reason: never });
      continue;
    }
    if (REPOSITORY_FILE.test(file)) {
      skipped.push({ file, reason: 'repository file, not in the navigation' });
      continue;
    }
    const page = options.page(file);
    if (!page) {
      skipped.push({ file, reason: 'not a page of the site' });
      continue;
    }
    hidden.push({ ...page, breadcrumb: [], hidden: true });
  }
  return { hidden, skipped };
}

/** The language of a file by its first folder, when that folder is one of the site's languages. */
function languageOfPrefix(
  file: string,
  prefixes: Map<string, string>,
  fallback: string | undefined,
): string | undefined {
  const first = file.split('/')[0] ?? '';
  return prefixes.get(first) ?? fallback;
}

/** Default `urlOfFile` page for a hidden file of a site with language folders. */
export function plainPage(
  file: string,
  prefixes: Map<string, string>,
  defaultLanguage: string | undefined,
): Omit<SitePage, 'breadcrumb' | 'hidden'> {
  const language = languageOfPrefix(file, prefixes, defaultLanguage);
  return { file, url: urlOfFile(file), ...(language ? { language } : {}) };
}

export function finish(
  framework: SiteNavigation['framework'],
  configFile: string,
  listed: PageList,
  rest: { hidden: SitePage[]; skipped: SkippedFile[] },
  meta: {
    name?: string;
    links?: SiteNavigation['links'];
    languages: string[];
    versions: string[];
    searchesHidden?: boolean;
    attrList?: boolean;
    warnings?: string[];
  },
): SiteNavigation {
  return {
    framework,
    configFile,
    ...(meta.name ? { name: meta.name } : {}),
    ...(meta.links ? { links: meta.links } : {}),
    pages: [...listed.pages, ...rest.hidden],
    skipped: rest.skipped,
    languages: meta.languages,
    versions: meta.versions,
    ...(meta.searchesHidden ? { searchesHidden: true } : {}),
    ...(meta.attrList ? { attrList: true } : {}),
    warnings: [...listed.warnings, ...(meta.warnings ?? [])],
  };
}
