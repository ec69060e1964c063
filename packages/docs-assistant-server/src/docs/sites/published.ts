/**
 * What a domain's docs site publishes, for every part that names the site or links into it: its
 * name (declines, `llms.txt`, the MCP server) and its pages' absolute links under `siteUrl`, which
 * takes the origin only where the site's config declares the base path (never `/acme/acme/…`).
 */
import type { DomainConfig } from '../../config.js';
import type { DocPage } from '../page.js';

interface PageSource {
  page(path: string): DocPage | undefined;
  readonly pages: readonly DocPage[];
}

/** The sites of some pages (one per docs folder), each once. */
const sitesOf = (pages: readonly DocPage[]): NonNullable<DocPage['site']>[] => [
  ...new Set(pages.map((page) => page.site).filter((site) => site !== undefined)),
];

/**
 * The name the docs go by: the domain's `title` when set, else the name the site's config gives
 * (Mintlify `name`, Docusaurus/VitePress/Starlight `title`, MkDocs `site_name`), else the domain id.
 */
export function siteTitle(domain: Pick<DomainConfig, 'domain' | 'title'>, pages: readonly DocPage[]): string {
  return domain.title ?? siteName(pages) ?? domain.domain;
}

// Per list of pages (an index's stays the same object): answers ask for the name every time.
const names = new WeakMap<readonly DocPage[], { name: string | undefined }>();

/** The name the site's config gives (the first docs folder that names one), else undefined. */
export function siteName(pages: readonly DocPage[]): string | undefined {
  let known = names.get(pages);
  if (!known) {
    known = { name: sitesOf(pages).find((site) => site.name)?.name };
    names.set(pages, known);
  }
  return known.name;
}

const pathOf = (siteUrl: string): string => new URL(siteUrl).pathname.replace(/\/+$/, '');

/**
 * Throws, saying what to change, when `siteUrl` has a path other than the base path a site's config
 * declares (the links already carry that base).
 */
export function checkSiteUrl(
  domain: Pick<DomainConfig, 'domain' | 'siteUrl'>,
  pages: readonly DocPage[],
): void {
  const { siteUrl } = domain;
  // Its form is the configuration's to check (options.ts).
  if (siteUrl === undefined || !URL.canParse(siteUrl)) return;
  const path = pathOf(siteUrl);
  for (const site of sitesOf(pages)) {
    const base = site.links?.base;
    if (base === undefined || path === '' || path === base) continue;
    const { origin } = new URL(siteUrl);
    throw new Error(
      `Domain "${domain.domain}": the site URL ${siteUrl} has the path ${path}, but the ${site.framework} config serves the docs under ${base || '/'}; give the origin (${origin})${base ? ` or ${origin}${base}` : ''}, or change the base path in the config.`,
    );
  }
}

/**
 * Builds a page's link: the path the site publishes (`/guide/setup/`, `.html`, base included),
 * absolute under `siteUrl` when the domain has one. Where the config declares the base, `siteUrl`
 * gives only the origin; elsewhere its path is the base.
 */
export function siteLinkBuilder(siteUrl: string | undefined, index: PageSource): (path: string) => string {
  const origin = siteUrl && URL.canParse(siteUrl) ? new URL(siteUrl).origin : undefined;
  const prefix = siteUrl?.replace(/\/+$/, '');
  return (path) => {
    const page = index.page(path);
    const published = page?.url ?? path;
    if (!siteUrl) return published;
    return page?.site?.links?.base !== undefined && origin
      ? `${origin}${published}`
      : `${prefix}${published}`;
  };
}
