/**
 * The Markdown `get_page` returns: the Markdown for agents of `agents/` (the text of the page's
 * `.md` URL), so an agent gets the same page through MCP as through `/{page}.md`.
 */
import { agentMarkdownOptions } from '../agents/derived.js';
import { type PageMarkdownOptions, pageMarkdown } from '../agents/index.js';
import type { DomainConfig } from '../config.js';
import type { DocPage } from '../docs/parse.js';
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

/**
 * `get_page` of a domain served over HTTP: the text its `.md` URL answers (links under the domain's
 * `siteUrl`, else root-relative; never under the request's host).
 */
export const domainMarkdown = (domain: Pick<DomainConfig, 'siteUrl'>): PageMarkdown =>
  agentMarkdown(agentMarkdownOptions(domain));
