/**
 * What a docs site's own configuration says about its pages: which files are pages, their public
 * URL, breadcrumb, language, version and order. One reader per framework fills it in
 * (`mintlify.ts`, `docusaurus.ts`, `vitepress.ts`, `mkdocs.ts`); `folder.ts` guesses it for a plain
 * folder of Markdown.
 */

export type SiteFramework = 'mintlify' | 'docusaurus' | 'vitepress' | 'mkdocs' | 'starlight' | 'folder';

/** One page of the site. */
export interface SitePage {
  /** The file, relative to the site's root folder, with `/` separators. */
  file: string;
  /** Path of the page's public URL (`/fr/guides/setup`), without the site's host or base URL. */
  url: string;
  /** Title the navigation gives the page (a sidebar label), when it gives one. */
  navTitle?: string;
  /** Groups above the page in the navigation, outermost first. */
  breadcrumb: string[];
  language?: string;
  version?: string;
  /** Place in the navigation (0 first); absent for a page the navigation does not list. */
  order?: number;
  /** Built by the site but not listed in its navigation. */
  hidden?: boolean;
}

/** Why a Markdown file under the site's folder is not a page of the index. */
export interface SkippedFile {
  file: string;
  reason: string;
}

/**
 * How the site writes its page links, from its config and the framework's defaults: the base path
 * it is served under and how a page's URL ends.
 */
export interface SiteLinks {
  /**
   * The base path the config declares (`/acme`, `''` at the root); absent when the config cannot
   * declare one (Mintlify, a plain folder, MkDocs without `site_url`): `--site-url`'s path is then
   * the base.
   */
  base?: string;
  /** How a page's URL ends: `/guide/setup/` (`'slash'`), `/guide/setup.html`, `/guide/setup`. */
  ending: 'slash' | 'html' | 'plain';
  /**
   * How a folder's index page (`guide/index.md`) ends: `/guide/`, `/guide`, `/guide/index.html`
   * (MkDocs without directory URLs) or `/guide.html` (Astro's `build.format: 'file'`).
   */
  folder: 'slash' | 'plain' | 'index.html' | 'html';
}

export interface SiteNavigation {
  framework: SiteFramework;
  /** The site's name as its config gives it (Mintlify `name`, `title`, MkDocs `site_name`). */
  name?: string;
  /** How the site writes links; absent: paths as they are, `--site-url`'s path the base. */
  links?: SiteLinks;
  /** The config file it was read from, relative to the root. */
  configFile?: string;
  /** Pages, listed ones first in navigation order, then the hidden ones. */
  pages: SitePage[];
  skipped: SkippedFile[];
  /** Languages the site has, its default first. */
  languages: string[];
  /** Versions the site has, the default (the one readers land on) first. */
  versions: string[];
  /**
   * Whether the site itself makes pages its navigation does not list searchable (Mintlify's
   * `seo.indexing: "all"`). Such pages are indexed then; otherwise only when the loader is told to.
   */
  searchesHidden?: boolean;
  /**
   * Whether the site's Markdown reads attribute lists (MkDocs' `attr_list` extension):
   * `## Setup { #setup }` gives the heading its own anchor (`docs/slugs.ts`).
   */
  attrList?: boolean;
  /** Problems that did not stop reading (an entry naming a missing file). */
  warnings: string[];
}

// Read by the configuration too, which sits below the docs pipeline: it lives there.
export type { SiteOptions } from '../../config.js';
