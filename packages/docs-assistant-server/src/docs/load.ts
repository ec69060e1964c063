/**
 * Reads docs sites into pages. A folder with a docs framework's config (Mintlify, Docusaurus,
 * VitePress, MkDocs: `sites/detect.ts`) is read as that site publishes it: its navigation decides
 * which files are pages, their public URL, breadcrumb, language, version and order. A plain folder
 * is walked (`sites/folder.ts`). Either way, what was left out is reported with the reason.
 */
import { join, relative, sep } from 'node:path';
import { docsRoot } from './files.js';
import { frontMatterWarning } from './front-matter.js';
import {
  type DocPage,
  type FrontMatter,
  type ParseOptions,
  parseDocument,
  parseFrontMatter,
} from './parse.js';
import { readSite } from './sites/detect.js';
import { listSiteFiles } from './sites/files.js';
import { publishedPath } from './sites/links.js';
import type {
  SiteFramework,
  SiteLinks,
  SiteNavigation,
  SiteOptions,
  SitePage,
  SkippedFile,
} from './sites/types.js';

export type { SiteFramework, SiteOptions, SkippedFile } from './sites/types.js';

/** What loading one folder found: for the start-up report. */
export interface SiteReport {
  folder: string;
  framework: SiteFramework;
  /** The framework config read, relative to the folder. */
  configFile?: string;
  /** The site's name from its config. */
  name?: string;
  /** How its config says pages are linked. */
  links?: SiteLinks;
  /** Ignore files honoured (`.docsassistantignore`, `.mintignore`). */
  ignoreFiles: string[];
  /** Pages indexed. */
  pages: number;
  /** Of them, pages the navigation does not list (indexed because the site or the options say so). */
  hiddenPages: number;
  /** Pages per language and version (`''` where a site has none). */
  counts: { language: string; version: string; pages: number }[];
  languages: string[];
  versions: string[];
  /** Markdown files not indexed, and why. */
  skipped: SkippedFile[];
  /** Problems in the config that did not stop loading (a navigation entry naming a missing file). */
  warnings: string[];
}

export interface LoadDocsOptions {
  /** Receives problems that do not stop loading (bad front matter, a page path seen twice). */
  warn?: (message: string) => void;
  /** How the site's navigation is applied. */
  site?: SiteOptions;
  /** Receives each folder's report once it is loaded. */
  onReport?: (report: SiteReport) => void;
  /**
   * Parses one file (`file` relative to its folder); the persisted index (`persist.ts`) passes one
   * that reuses the pages of files it has already read. `frontMatter` is the file's front matter,
   * already parsed, and the site's framework (and whether it reads attribute lists): pass them on as
   * `parseDocument(file, source, options)`.
   * @default parseDocument
   */
  parse?: (
    file: string,
    source: string,
    options: Required<Pick<ParseOptions, 'frontMatter' | 'framework'>> & Pick<ParseOptions, 'attrList'>,
  ) => DocPage;
  /** Reads a Markdown file (absolute path); the persisted index passes the texts it hashed. */
  read?: (path: string) => Promise<string>;
}

// Read one after the other, synchronously: at 10,000 small files that took a third of the time of
// 10,000 reads in flight at once (the thread pool queues them) on this machine. Through the docs
// root's rule: a file swapped for a symlink out of the folder since the listing reads as empty.
const readText = (folder: string) => {
  // Looked up once per load: `docsRoot` looks the folder up at every call.
  const root = docsRoot(folder);
  return async (path: string): Promise<string> =>
    root.readText(relative(folder, path).split(sep).join('/'), 'page') ?? '';
};

// Front matter that keeps a page out of search engines: indexed only as a hidden page.
const unlistedByFrontMatter = (data: Record<string, unknown>): boolean =>
  data.noindex === true ||
  data.unlisted === true ||
  data.hidden === true ||
  // Starlight: a page Pagefind (its search) leaves out.
  data.pagefind === false ||
  (typeof data.search === 'object' &&
    data.search !== null &&
    (data.search as { exclude?: unknown }).exclude === true);

/** Gives a parsed page the site's URL and place: section ids follow the URL. */
function placePage(
  page: DocPage,
  site: SitePage,
  sourceFile: string,
  hidden: boolean,
  facets: NonNullable<DocPage['site']>,
): DocPage {
  const language = site.language ?? page.language;
  const version = site.version ?? page.version;
  const path = site.url;
  const url = publishedPath(path, site.file, facets.links);
  return {
    ...page,
    path,
    ...(url !== path ? { url } : {}),
    ...(language ? { language } : {}),
    ...(version ? { version } : {}),
    breadcrumb: site.breadcrumb,
    ...(site.order !== undefined ? { navOrder: site.order } : {}),
    ...(hidden ? { hidden: true } : {}),
    sourceFile,
    site: facets,
    sections: page.sections.map((section) => ({
      ...section,
      id: `${path}#${section.anchor}`,
      pagePath: path,
      ...(language ? { language } : {}),
      ...(version ? { version } : {}),
    })),
  };
}

/** Loads one site folder: its pages, in navigation order, and the report. */
export async function loadSite(
  folder: string,
  options: Pick<LoadDocsOptions, 'site' | 'warn' | 'parse' | 'read'> = {},
): Promise<{ pages: DocPage[]; report: SiteReport }> {
  const warn = options.warn ?? ((message: string) => console.warn(`[docs-assistant] ${message}`));
  // Throws, naming the folder, when it is missing or not a folder.
  docsRoot(folder);
  const listing = await listSiteFiles(folder);
  const sources = new Map<string, string>();
  const read = options.read ?? readText(folder);
  // One look at the ignore rules for all of the site's reads.
  await docsRoot(folder).withRules(async () => {
    for (const file of listing.files) sources.set(file, await read(join(folder, file)));
  });
  // Front matter is parsed once per file here; the readers and the checks below share it.
  const fronts = new Map<string, FrontMatter>();
  const frontOf = (file: string): FrontMatter => {
    let front = fronts.get(file);
    if (!front) {
      front = parseFrontMatter(sources.get(file) ?? '');
      fronts.set(file, front);
    }
    return front;
  };
  const site = await readSite(folder, listing.files, sources, {
    defaultLanguage: options.site?.defaultLanguage ?? 'en',
    detectFramework: options.site?.detectFramework ?? true,
    front: (file) => frontOf(file).data,
  });
  const searchHidden = site.searchesHidden || options.site?.hiddenPages === 'include';
  const skipped = [...listing.skipped, ...site.skipped];
  // One object shared by every page of the site.
  const facets = {
    languages: site.languages,
    versions: site.versions,
    framework: site.framework,
    ...(site.attrList ? { attrList: true } : {}),
    ...(site.name ? { name: site.name } : {}),
    ...(site.links ? { links: site.links } : {}),
  };
  const pages: DocPage[] = [];
  const seen = new Map<string, string>();
  for (const entry of site.pages) {
    const source = sources.get(entry.file) ?? '';
    const front = frontOf(entry.file);
    const frontError = frontMatterWarning(join(folder, entry.file), front);
    if (frontError) warn(frontError);
    const reason = leftOut(entry, front.data, searchHidden);
    if (reason) {
      skipped.push({ file: entry.file, reason });
      continue;
    }
    const hidden = entry.hidden === true || unlistedByFrontMatter(front.data);
    const page = placePage(
      // The front matter read above goes along, so it is parsed once per file.
      (options.parse ?? parseDocument)(entry.file, source, {
        frontMatter: front,
        framework: site.framework,
        ...(site.attrList ? { attrList: true } : {}),
      }),
      entry,
      join(folder, entry.file),
      hidden,
      facets,
    );
    if (entry.navTitle && page.title === parseDocument(entry.file, '').title) page.title = entry.navTitle;
    const previous = seen.get(page.path);
    if (previous) {
      warn(`${join(folder, entry.file)}: page path ${page.path} is already taken by ${previous}; skipped`);
      skipped.push({ file: entry.file, reason: `same URL as ${previous}` });
      continue;
    }
    seen.set(page.path, join(folder, entry.file));
    pages.push(page);
  }
  for (const message of site.warnings) warn(`${folder}: ${message}`);
  return { pages, report: siteReport(folder, site, listing.ignoreFiles, pages, skipped) };
}

/** Why a page of the navigation is left out (a draft; hidden, where hidden pages are not searched). */
function leftOut(entry: SitePage, data: FrontMatter['data'], searchHidden: boolean): string | undefined {
  if (data.draft === true) return 'draft: true in front matter';
  if (searchHidden) return undefined;
  if (entry.hidden) return 'hidden page (not in the navigation)';
  if (unlistedByFrontMatter(data)) return 'hidden page (front matter keeps it out of search)';
  return undefined;
}

/** What start-up prints of one docs folder: its framework, its pages per language and version, what was skipped. */
function siteReport(
  folder: string,
  site: SiteNavigation,
  ignoreFiles: SiteReport['ignoreFiles'],
  pages: DocPage[],
  skipped: SkippedFile[],
): SiteReport {
  const counts = new Map<string, { language: string; version: string; pages: number }>();
  for (const page of pages) {
    const key = `${page.language ?? ''}\u0000${page.version ?? ''}`;
    const count = counts.get(key) ?? { language: page.language ?? '', version: page.version ?? '', pages: 0 };
    count.pages++;
    counts.set(key, count);
  }
  return {
    folder,
    framework: site.framework,
    ...(site.configFile ? { configFile: site.configFile } : {}),
    ...(site.name ? { name: site.name } : {}),
    ...(site.links ? { links: site.links } : {}),
    ignoreFiles,
    pages: pages.length,
    hiddenPages: pages.filter((page) => page.hidden).length,
    counts: [...counts.values()],
    languages: site.languages,
    versions: site.versions,
    skipped,
    warnings: site.warnings,
  };
}

/**
 * Loads every folder as a site (see `loadSite`). A missing folder is an error (a typo in `--docs`
 * should not start an assistant that knows nothing); an empty one is not.
 */
export async function loadDocs(folders: string[], options: LoadDocsOptions = {}): Promise<DocPage[]> {
  const warn = options.warn ?? ((message: string) => console.warn(`[docs-assistant] ${message}`));
  const pages: DocPage[] = [];
  const seen = new Map<string, string>();
  for (const folder of folders) {
    const loaded = await loadSite(folder, { ...options, warn });
    for (const page of loaded.pages) {
      const previous = seen.get(page.path);
      if (previous) {
        warn(`${page.sourceFile}: page path ${page.path} is already taken by ${previous}; skipped`);
        continue;
      }
      seen.set(page.path, page.sourceFile ?? page.file);
      pages.push(page);
    }
    options.onReport?.(loaded.report);
  }
  return pages;
}

const ENDINGS = { slash: '/', html: '.html', plain: '', 'index.html': '/index.html' } as const;

/** `named "Acme Cloud"; links /acme/…/page.html, a folder's page /acme/…/folder/`. */
function siteLine(report: SiteReport): string {
  const parts = report.name ? [`named "${report.name}"`] : [];
  if (report.links) {
    const base = report.links.base ?? '';
    parts.push(
      `links ${base}/…/page${ENDINGS[report.links.ending]}, a folder's page ${base}/…/folder${ENDINGS[report.links.folder]}`,
    );
  }
  return parts.join('; ');
}

/** The start-up report as lines of text (the CLI prints it). */
export function formatSiteReport(report: SiteReport): string[] {
  const lines = [
    `${report.folder}: ${report.framework === 'folder' ? 'plain folder of Markdown' : `${report.framework} site (${report.configFile})`}, ${report.pages} pages${report.hiddenPages ? ` (${report.hiddenPages} hidden, searchable)` : ''}`,
  ];
  if (report.name || report.links) lines.push(`  ${siteLine(report)}`);
  if (report.ignoreFiles.length) lines.push(`  ignore files: ${report.ignoreFiles.join(', ')}`);
  if (report.languages.length || report.versions.length) {
    const parts = report.counts
      .filter((c) => c.pages)
      .map((c) => `${[c.language, c.version].filter(Boolean).join(' ') || 'unmarked'}: ${c.pages}`);
    lines.push(`  pages by language/version: ${parts.join(', ')}`);
  }
  if (report.skipped.length) {
    const byReason = new Map<string, string[]>();
    for (const skip of report.skipped)
      byReason.set(skip.reason, [...(byReason.get(skip.reason) ?? []), skip.file]);
    lines.push(`  skipped ${report.skipped.length} files:`);
    for (const [reason, files] of byReason) {
      const shown = files.slice(0, 5).join(', ');
      lines.push(`    ${reason}: ${shown}${files.length > 5 ? ` and ${files.length - 5} more` : ''}`);
    }
  }
  if (report.warnings.length) lines.push(`  ${report.warnings.length} navigation warnings (logged above)`);
  return lines;
}

/**
 * Whether a page is asked for: `/guides` takes that page and the pages under it, `/` every page;
 * a path ending in `/index` (the real service's `"index"`, `"guides/index"`) only that index page.
 */
export const matchesPaths = (path: string, paths: readonly string[] | undefined): boolean =>
  !paths ||
  paths.some((p) => {
    const prefix = p.replace(/\/+$/, '') || '/';
    if (prefix === '/index' || prefix.endsWith('/index')) return path === (prefix.slice(0, -6) || '/');
    return prefix === '/' || path === prefix || path.startsWith(`${prefix}/`);
  });

/** What an export asks for: one version (pages without one are kept) and some paths. */
export interface PageSelection {
  version?: string;
  paths?: readonly string[];
}

/** The pages of a selection, in the order given. */
export const selectPages = (pages: readonly DocPage[], selection: PageSelection): DocPage[] =>
  pages.filter(
    (page) =>
      (!selection.version || !page.version || page.version === selection.version) &&
      matchesPaths(page.path, selection.paths),
  );
