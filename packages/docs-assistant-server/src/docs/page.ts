/**
 * The page model: what one docs page is, for every reader of the docs (the search index and the
 * assistant's answers, the Markdown for agents and `llms.txt`, MCP, the static export's HTML). Made
 * by `parse.ts` from a file's source and placed in its site by `load.ts`.
 */
import type { SiteFramework, SiteLinks } from './sites/types.js';

export interface CodeBlock {
  lang: string;
  code: string;
}

/** One step of a procedure: an item of a numbered list, or a `<Step>` of MDX `<Steps>`. */
export interface DocStep {
  /** The `<Step title="…">`, when the step has one. */
  title?: string;
  /** The step's prose as plain text (inline code kept). */
  text: string;
  /** Code blocks inside the step, in order. */
  code: CodeBlock[];
}

export interface DocSection {
  /** Unique in an index: `pagePath#anchor`. */
  id: string;
  pagePath: string;
  pageTitle: string;
  /** The heading's anchor as the site's framework writes it (`slugs.ts`); empty before the first heading. */
  anchor: string;
  /** Headings from the page's top level down to this section (the page title excluded). */
  headingPath: string[];
  /** Paragraphs and list items as plain text, in order. */
  blocks: string[];
  /** Table rows as plain text, cells joined with ` — `. */
  rows: string[];
  code: CodeBlock[];
  /**
   * The section's procedures, in order: each numbered list and each MDX `<Steps>`, as its steps.
   * Absent when the section has none.
   */
  steps?: DocStep[][];
  /**
   * Per code block, the index in `blocks` of the paragraph it follows (-1 before any), so a
   * sentence that introduces code ("add this record:") can be quoted with it. Absent without code.
   */
  codeAfter?: number[];
  version?: string;
  language?: string;
}

export interface DocPage {
  /** The page's identity in the index: its URL path, base included, without an ending (`/guide/setup`). */
  path: string;
  /**
   * The link path the site publishes for the page (`/guide/setup/`, `/guide/setup.html`), by its
   * framework's settings (`sites/links.ts`); absent when it is `path` itself.
   */
  url?: string;
  /** The file it came from, relative to its docs folder. */
  file: string;
  title: string;
  description?: string;
  version?: string;
  language?: string;
  /**
   * Set by site-aware loading (`docs/sites/`): the groups of the site's navigation above this
   * page, outermost first (`['Guides', 'Setup']`); the page's own title is not in it.
   */
  breadcrumb?: string[];
  /** Place of the page in its site's navigation (0 first); absent for pages the navigation does not list. */
  navOrder?: number;
  /** A page the site builds but does not list in its navigation (indexed only when the site says so). */
  hidden?: boolean;
  /** The file the page came from, as an absolute path (set by site-aware loading). */
  sourceFile?: string;
  /**
   * The languages and versions of the page's site, the default (what readers land on) first: the
   * answer follows the reader's language and version among these; and the framework that reads
   * it, whose rules (heading anchors: `slugs.ts`) the page follows; the site's name from its config
   * (`name`, `title`, `site_name`) and how it writes links. Set by site-aware loading.
   */
  site?: {
    languages: string[];
    versions: string[];
    framework?: SiteFramework;
    /** MkDocs with `attr_list`: headings may name their own anchors (`slugs.ts`). */
    attrList?: boolean;
    name?: string;
    links?: SiteLinks;
  };
  /** The page's place among its folder's pages by its front matter (`order`, `sidebar_position`). */
  order?: number;
  sections: DocSection[];
}
