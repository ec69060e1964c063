/**
 * The Markdown `get_page` returns: the Markdown for agents of `agents/` (the text of the page's
 * `.md` URL), so an agent gets the same page through MCP as through `/{page}.md`.
 */
import { type PageMarkdownOptions, pageMarkdown } from '../agents/index.js';
import type { DocPage } from '../retrieval/markdown.js';
import type { DocsIndex } from '../retrieval/search-index.js';

/** Turns an indexed page into clean Markdown (no JSX, no front matter). */
export type PageMarkdown = (page: DocPage, index: DocsIndex) => string | Promise<string>;

/**
 * Pages as `agents/` writes them with `options`: the service passes what its `.md` route passes
 * (links under its own origin, the site's files under `siteUrl`); without options, links between
 * pages are root-relative `.md` paths, which `get_page` takes.
 */
export const agentMarkdown =
  (options: PageMarkdownOptions = {}): PageMarkdown =>
  (page, index) =>
    pageMarkdown(page, index, options);
