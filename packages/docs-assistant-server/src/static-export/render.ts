/**
 * Renders a domain's docs into the files of a static site: one HTML file per page with a sidebar,
 * one CSS file, one small search script, a search index (JSON) and a manifest. Pages are `.html`
 * files (`/guides/getting-started` is `guides/getting-started.html`, a folder's index page
 * `guides/index.html`), and links between pages point at those files, so any static host serves
 * them without rewrite rules. Every URL written into a page is relative, so the site works from any
 * folder of any host and loads nothing from another host (a Content-Security-Policy of `'self'`
 * says so to the browser too). With the domain's `siteUrl`, each page names its canonical URL and
 * `sitemap.xml` lists them: the site's own extensionless URLs (`{siteUrl}/guides/getting-started`).
 */
import { statSync } from 'node:fs';
import { extname, join, posix } from 'node:path';
import { docsRoot, RefusedFileError, rootOfPage } from '../docs/files.js';
import { parseFrontMatter } from '../docs/front-matter.js';
import { loadDocs as loadPipeline, type PageSelection, selectPages } from '../docs/load.js';
import type { DocPage } from '../docs/page.js';
import type { SiteOptions } from '../docs/sites/types.js';
import { createSlugger } from '../docs/slugs.js';
import type { BundleEntry } from './bundle.js';
import { renderMarkdown } from './markdown.js';
import { SEARCH_SCRIPT, SITE_CSS } from './site-assets.js';

/** Files copied as they are, so images the docs reference resolve inside the bundle. */
const ASSET_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.svg', '.webp', '.avif', '.ico', '.txt']);
/** Characters of page text kept per page in the search index. */
const SEARCH_TEXT_LIMIT = 4000;

/** A page of the export: a page of the docs pipeline (`docs/`), its HTML file and its body. */
export interface ExportPage {
  /** The pipeline's page: title, description, language and anchors come from it. */
  page: DocPage;
  /** URL path of the page on the docs site: `/`, `/guides`, `/guides/setup`. */
  urlPath: string;
  /** File of the page in the bundle: `index.html`, `guides/index.html`, `guides/setup.html`. */
  file: string;
  /** Path of the source relative to its docs folder, `/`-separated. */
  sourcePath: string;
  /** The source without its front matter. */
  body: string;
  title: string;
}

export interface DocAsset {
  /** Path in the bundle and on the docs site (without leading `/`). */
  file: string;
  absolutePath: string;
  /** The docs folder it is read from, by the root's rule (`docs/files.ts`). */
  folder: string;
}

export interface DocSource {
  pages: ExportPage[];
  assets: DocAsset[];
  /** The pipeline's pages exported, for the bundle's Markdown for agents (`agents/bundle.ts`). */
  docs: DocPage[];
}

export interface LoadDocsOptions extends PageSelection {
  /** How the site's navigation is applied (the domain's `site`). */
  site?: SiteOptions;
  /** Receives problems that do not stop the export (bad front matter). */
  warn?: (message: string) => void;
}

/** The page's HTML file: `/guides/setup` → `guides/setup.html`, a folder's index page `guides/index.html`. */
function htmlFile(page: DocPage): string {
  if (page.path === '/') return 'index.html';
  const folderPage = /(^|\/)(index|readme)\.mdx?$/i.test(page.file);
  return `${page.path.slice(1)}${folderPage ? '/index' : ''}.html`;
}

export { matchesPaths } from '../docs/load.js';

/**
 * The pages of the docs folders as the service reads them (the one docs pipeline: navigation,
 * languages, versions, drafts, hidden pages, the file rule), with their bodies, and the images
 * they may link to. A missing folder is an error.
 */
export async function loadDocs(
  folders: readonly string[],
  options: LoadDocsOptions = {},
): Promise<DocSource> {
  if (folders.length === 0) throw new Error('the domain has no docs folder configured');
  for (const folder of folders) {
    try {
      docsRoot(folder);
    } catch {
      const there = statSync(folder, { throwIfNoEntry: false });
      throw new Error(`docs folder ${folder} ${there ? 'is not a folder' : 'does not exist'}`);
    }
  }
  const all = await loadPipeline([...folders], {
    ...(options.site ? { site: options.site } : {}),
    ...(options.warn ? { warn: options.warn } : {}),
  });
  const docs = selectPages(all, options);
  const pages: ExportPage[] = [];
  for (const page of docs) {
    // Read again by the rule: a page swapped for a symlink out of its folder is left out.
    const source = rootOfPage(page)?.readText(page.file, 'page');
    if (source === undefined) continue;
    const { body } = parseFrontMatter(source);
    pages.push({
      page,
      urlPath: page.path,
      file: htmlFile(page),
      sourcePath: page.file,
      body,
      title: page.title,
    });
  }
  // A plain folder has no navigation: folders, each index page first, then `order`, then names.
  if (!docs.some((page) => page.navOrder !== undefined)) pages.sort(comparePages);
  else pages.sort((a, b) => (a.urlPath === '/' ? -1 : b.urlPath === '/' ? 1 : 0));
  const assets = new Map<string, DocAsset>();
  for (const folder of folders) {
    // By the docs root's rule: no hidden files, nothing ignored, no symlink out of the folder.
    const walked = docsRoot(folder).walk({
      filter: (file) => ASSET_EXTENSIONS.has(extname(file).toLowerCase()),
    });
    for (const { file } of walked.files) {
      if (!assets.has(file)) assets.set(file, { file, absolutePath: join(folder, file), folder });
    }
  }
  return { pages, assets: [...assets.values()], docs: pages.map((exported) => exported.page) };
}

function comparePages(a: ExportPage, b: ExportPage): number {
  if (a.urlPath === '/') return -1;
  if (b.urlPath === '/') return 1;
  const dirA = posix.dirname(a.file);
  const dirB = posix.dirname(b.file);
  if (dirA !== dirB) return dirA < dirB ? -1 : 1;
  // A folder's index page leads its folder.
  const indexA = posix.basename(a.file) === 'index.html';
  if (indexA !== (posix.basename(b.file) === 'index.html')) return indexA ? -1 : 1;
  const orderA = a.page.order ?? Number.POSITIVE_INFINITY;
  const orderB = b.page.order ?? Number.POSITIVE_INFINITY;
  if (orderA !== orderB) return orderA - orderB;
  return a.file < b.file ? -1 : a.file > b.file ? 1 : 0;
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A path from the folder of `fromFile` to `toFile`, both bundle paths. */
export function relativeHref(fromFile: string, toFile: string): string {
  const rel = posix.relative(posix.dirname(fromFile), toFile);
  return rel || posix.basename(toFile);
}

const isExternalUrl = (url: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//');

/**
 * Rewrites a URL found in `page` so it resolves inside the bundle. `/guides/x`, `/guides/x/`,
 * `/guides/x.md` and `x.mdx` (relative to the page's source) all become the relative path of that
 * page's `.html` file; assets keep their path; outbound links and `#anchors` are left alone.
 */
export function rewriteInternalUrl(
  url: string,
  page: Pick<ExportPage, 'file' | 'sourcePath'>,
  pageFiles: ReadonlyMap<string, string>,
  assetFiles: ReadonlySet<string>,
): string {
  if (url === '' || url.startsWith('#') || isExternalUrl(url)) return url;
  const resolved = new URL(url, `http://bundle.invalid/${page.sourcePath}`);
  const hash = resolved.hash;
  let path = decodeURIComponent(resolved.pathname);
  const asset = path.replace(/^\/+/, '');
  if (assetFiles.has(asset)) return relativeHref(page.file, asset) + hash;
  path =
    path
      .replace(/\.(mdx?|html)$/i, '')
      .replace(/\/index$/, '')
      .replace(/\/+$/, '') || '/';
  const target = pageFiles.get(path) ?? (path === '/' ? 'index.html' : `${path.slice(1)}.html`);
  return relativeHref(page.file, target) + hash;
}

function htmlToText(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface RenderSiteOptions {
  domain: string;
  siteTitle?: string;
  /**
   * Public URL of the docs site: pages get `<link rel="canonical">` and the bundle a `sitemap.xml`,
   * both with extensionless URLs. @default none (no canonical link, no sitemap)
   */
  siteUrl?: string;
  version?: string;
  /** Called after each page with the pages done so far; awaited, so a slow caller slows the job. */
  onPage?: (done: number, total: number) => void | Promise<void>;
  /** Called before each page is rendered (tests use it to hold a job mid-way). */
  beforePage?: (index: number, total: number) => void | Promise<void>;
  signal?: AbortSignal;
}

interface SearchEntry {
  title: string;
  description: string;
  file: string;
  headings: string[];
  text: string;
}

function sidebar(pages: readonly ExportPage[], current: ExportPage): string {
  const groups = new Map<string, ExportPage[]>();
  for (const page of pages) {
    const top = page.urlPath === '/' ? '' : (page.urlPath.split('/')[1] ?? '');
    const key = page.file.includes('/') ? top : '';
    groups.set(key, [...(groups.get(key) ?? []), page]);
  }
  const item = (page: ExportPage) => {
    const current_ = page === current ? ' aria-current="page"' : '';
    return `<li><a href="${escapeHtml(relativeHref(current.file, page.file))}"${current_}>${escapeHtml(page.title)}</a></li>`;
  };
  const parts: string[] = [];
  for (const [group, groupPages] of groups) {
    const list = `<ul>${groupPages.map(item).join('')}</ul>`;
    parts.push(
      group
        ? `<li class="da-group"><span>${escapeHtml(titleCase(group))}</span>${list}</li>`
        : groupPages.map(item).join(''),
    );
  }
  return `<ul>${parts.join('')}</ul>`;
}

const titleCase = (slug: string): string =>
  slug.replace(/[-_]+/g, ' ').replace(/^\p{L}/u, (letter) => letter.toUpperCase());

/** The public, extensionless URL of a page: `https://docs.example.com/guides/getting-started`. */
export const canonicalUrl = (siteUrl: string, urlPath: string): string =>
  `${siteUrl.replace(/\/+$/, '')}${urlPath === '/' ? '/' : urlPath}`;

function sitemap(siteUrl: string, pages: readonly ExportPage[]): string {
  const urls = pages.map(
    (page) => `<url><loc>${escapeHtml(canonicalUrl(siteUrl, page.urlPath))}</loc></url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

function layout(options: {
  page: ExportPage;
  pages: readonly ExportPage[];
  siteTitle: string;
  siteUrl: string | undefined;
  content: string;
}): string {
  const { page, pages, siteTitle, siteUrl, content } = options;
  const root = relativeHref(page.file, 'index.html').replace(/index\.html$/, '');
  const description = page.page.description
    ? `\n<meta name="description" content="${escapeHtml(page.page.description)}">`
    : '';
  const title = page.urlPath === '/' && page.title === siteTitle ? siteTitle : `${page.title} · ${siteTitle}`;
  const canonical = siteUrl
    ? `\n<link rel="canonical" href="${escapeHtml(canonicalUrl(siteUrl, page.urlPath))}">`
    : '';
  return `<!doctype html>
<html lang="en" data-root="${escapeHtml(root)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'">
<title>${escapeHtml(title)}</title>${description}${canonical}
<link rel="stylesheet" href="${root}assets/style.css">
<script src="${root}assets/search.js" defer></script>
</head>
<body>
<a class="da-skip" href="#content">Skip to content</a>
<header class="da-header"><a class="da-site-title" href="${root}index.html">${escapeHtml(siteTitle)}</a>
<form class="da-search" role="search" data-search>
<label for="da-search-input">Search the docs</label>
<input id="da-search-input" type="search" autocomplete="off" placeholder="Search" data-search-input>
<ul class="da-search-results" data-search-results aria-live="polite"></ul>
</form></header>
<div class="da-layout">
<nav class="da-sidebar" aria-label="Pages">${sidebar(pages, page)}</nav>
<main id="content" class="da-content">
${content}
</main>
</div>
</body>
</html>
`;
}

function generatedIndex(pages: readonly ExportPage[], siteTitle: string): ExportPage {
  const list = pages.map((p) => `- [${p.title.replace(/[[\]]/g, '')}](/${p.file})`).join('\n');
  return {
    page: { path: '/', file: 'index.md', title: siteTitle, sections: [] },
    urlPath: '/',
    file: 'index.html',
    sourcePath: 'index.md',
    body: `# ${siteTitle}\n\n${list}\n`,
    title: siteTitle,
  };
}

/** Renders the site. The entries are in no particular order; the tar writer sorts them. */
export async function renderSite(source: DocSource, options: RenderSiteOptions): Promise<BundleEntry[]> {
  if (source.pages.length === 0)
    throw new Error('no pages to export: the docs folder holds no .md or .mdx page');
  const siteTitle = options.siteTitle ?? options.domain;
  const pages = source.pages.some((p) => p.urlPath === '/')
    ? source.pages
    : [generatedIndex(source.pages, siteTitle), ...source.pages];
  const pageFiles = new Map(pages.map((p) => [p.urlPath, p.file]));
  const assetFiles = new Set(source.assets.map((a) => a.file));
  const entries: BundleEntry[] = [];
  const search: SearchEntry[] = [];
  const encoder = new TextEncoder();
  for (const [index, page] of pages.entries()) {
    options.signal?.throwIfAborted();
    await options.beforePage?.(index, pages.length);
    const rendered = renderMarkdown(page.body, {
      slugger: createSlugger(page.page.site?.framework),
      page: page.page,
      rewriteUrl: (url) => rewriteInternalUrl(url, page, pageFiles, assetFiles),
    });
    const content = rendered.html;
    entries.push({
      path: page.file,
      data: encoder.encode(layout({ page, pages, siteTitle, siteUrl: options.siteUrl, content })),
    });
    search.push({
      title: page.title,
      description: page.page.description ?? '',
      file: page.file,
      headings: rendered.headings.filter((h) => h.depth > 1).map((h) => h.text),
      text: htmlToText(content).slice(0, SEARCH_TEXT_LIMIT),
    });
    await options.onPage?.(index + 1, pages.length);
    // Let the service answer status requests between pages.
    await new Promise((resolve) => setImmediate(resolve));
  }
  for (const asset of source.assets) {
    let data: Buffer;
    try {
      data = docsRoot(asset.folder).read(asset.file, 'asset');
    } catch (error) {
      if (error instanceof RefusedFileError) continue;
      throw new Error(`cannot read file ${asset.absolutePath}: ${(error as Error).message}`);
    }
    entries.push({ path: asset.file, data });
  }
  entries.push(
    { path: 'assets/style.css', data: encoder.encode(SITE_CSS) },
    { path: 'assets/search.js', data: encoder.encode(SEARCH_SCRIPT) },
    { path: 'search-index.json', data: encoder.encode(JSON.stringify(search)) },
    ...(options.siteUrl
      ? [{ path: 'sitemap.xml', data: encoder.encode(sitemap(options.siteUrl, pages)) }]
      : []),
    {
      path: 'manifest.json',
      data: encoder.encode(
        `${JSON.stringify(
          {
            domain: options.domain,
            ...(options.version ? { version: options.version } : {}),
            title: siteTitle,
            pageCount: pages.length,
            pages: pages.map((p) => ({ path: p.urlPath, file: p.file, title: p.title })),
          },
          null,
          2,
        )}\n`,
      ),
    },
  );
  return entries;
}
