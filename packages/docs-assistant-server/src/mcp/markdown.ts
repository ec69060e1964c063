/**
 * The Markdown `get_page` returns. One boundary, so the MCP tool and the site's `.md` pages give
 * agents the same text.
 */
import { pageText } from '../discovery/search.js';
import type { DocPage } from '../retrieval/markdown.js';
import type { DocsIndex } from '../retrieval/search-index.js';

/** Turns an indexed page into clean Markdown (no JSX, no front matter). */
export type PageMarkdown = (page: DocPage, index: DocsIndex) => string | Promise<string>;

/** The page as the index holds it: title, headings, paragraphs, table rows and fenced code. */
export const pageMarkdown: PageMarkdown = (page) => pageText(page);
