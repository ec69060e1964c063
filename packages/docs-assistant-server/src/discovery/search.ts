/**
 * The search and page endpoints of the discovery API: `POST /discovery/v1/search/{domain}` answers
 * a JSON array of matching sections, `POST /discovery/v1/page/{domain}` one page's text. Both read
 * the same index the assistant answers from (`runtime.index`), take the assistant key and count
 * against the same rate limits; no answer is generated.
 */
import type { ValidationProblem } from 'docs-assistant/protocol';
import type { Context, MiddlewareHandler } from 'hono';
import { type AssistantRuntime, admitted, readerPostRoutes } from '../assistant.js';
import { pageText, sectionText } from '../docs/page-text.js';
import { siteLinkBuilder } from '../docs/sites/published.js';
import {
  admission,
  answerRefusal,
  HttpError,
  invalidRequest,
  type RouteFamily,
  rateLimitHeaders,
  readJsonBody,
  type ServiceEnv,
} from '../http/index.js';
import type { DocPage, DocsIndex, RetrievalHit, RetrievalResult } from '../retrieval/index.js';
import { searchForReader } from '../retrieval/reader.js';
// From the index module itself: retrieval/index.js also exports the Node-only loader (load.ts).
import { normalizePath } from '../retrieval/search-index.js';
import { adjustedHeaders, adjustPageBody, adjustSearchBody } from './adjust.js';

export const SEARCH_ROUTE = '/discovery/v1/search/:domain';
export const PAGE_ROUTE = '/discovery/v1/page/:domain';

export const DEFAULT_SEARCH_PAGE_SIZE = 10;
export const MAX_SEARCH_PAGE_SIZE = 50;
/** Longest query searched; the index reads no further (its own cap), so longer is a mistake. */
export const MAX_SEARCH_QUERY_CHARS = 1000;
/** Longest page path accepted. */
export const MAX_PAGE_PATH_CHARS = 1000;

export interface SearchFilter {
  version?: string;
  language?: string;
  /**
   * Accepted for compatibility with the real service's clients. The reference service's pages
   * carry no tags and no access groups (every page is public), so these narrow nothing.
   */
  tag?: string;
  groups?: string[];
}

export interface SearchRequest {
  query: string;
  pageSize: number;
  scoreThreshold?: number;
  filter?: SearchFilter;
}

export interface PageRequest {
  path: string;
  groups?: string[];
}

/** One item of the search answer: a section of a page. */
export interface SearchResultItem {
  /** The section's text: paragraphs, table rows and code, as the index holds them. */
  content: string;
  /** The page's path (`/guides/theming`); `metadata.anchor` names the section in it. */
  path: string;
  metadata: {
    /** `Page title › Heading` (the page title alone for the text before the first heading). */
    title: string;
    pageTitle: string;
    /** The section's heading; absent for the text before the page's first heading. */
    heading?: string;
    /** Slug of the heading, for `path#anchor`; empty for the text before the first heading. */
    anchor: string;
    /** The section's link: absolute under the domain's `siteUrl`, else `path#anchor`. */
    url: string;
    /** The 0–1 score `scoreThreshold` is compared with (see `discoveryScores`). */
    score: number;
    version?: string;
    language?: string;
  };
}

export interface PageAnswer {
  path: string;
  /** The page's full text as Markdown: title, headings, paragraphs, tables rows, code blocks. */
  content: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

const kindOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;

/** A JSON object body, or the 400 saying which object was expected (`shape`). */
function bodyObject(body: unknown, shape: string): Record<string, unknown> {
  if (isRecord(body)) return body;
  throw invalidRequest('Invalid request body', [
    { path: '(body)', message: `expected a JSON object ${shape}, got ${kindOf(body)}` },
  ]);
}

/**
 * The first problem of a required string field: missing (`required` says what to send), not a
 * string, blank, then each of `rules` in turn (a rule answers its problem, or undefined).
 */
function textProblem(
  value: unknown,
  required: string,
  blank: string,
  ...rules: ((text: string) => string | undefined)[]
): string | undefined {
  if (value === undefined || value === null) return `required: ${required}`;
  if (typeof value !== 'string') return `expected a string, got ${kindOf(value)}`;
  if (!value.trim()) return blank;
  for (const rule of rules) {
    const problem = rule(value);
    if (problem) return problem;
  }
  return undefined;
}

function readGroups(value: unknown, path: string, problems: ValidationProblem[]): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((group) => typeof group !== 'string')) {
    problems.push({ path, message: `expected an array of group names (strings), got ${kindOf(value)}` });
    return undefined;
  }
  return value as string[];
}

/** Validates a search body; every problem is listed with its path. */
export function validateSearchRequest(body: unknown): SearchRequest {
  const problems: ValidationProblem[] = [];
  const { query, pageSize, scoreThreshold, filter } = bodyObject(body, '{ "query": string, … }');
  const queryProblem = textProblem(
    query,
    'the words to search for, as a string',
    'must hold at least one word to search for',
    (text) =>
      Array.from(text).length > MAX_SEARCH_QUERY_CHARS
        ? `must be at most ${MAX_SEARCH_QUERY_CHARS} characters; search for fewer words`
        : undefined,
  );
  if (queryProblem) problems.push({ path: 'query', message: queryProblem });
  if (
    pageSize !== undefined &&
    (typeof pageSize !== 'number' ||
      !Number.isInteger(pageSize) ||
      pageSize < 1 ||
      pageSize > MAX_SEARCH_PAGE_SIZE)
  ) {
    problems.push({
      path: 'pageSize',
      message: `must be a whole number from 1 to ${MAX_SEARCH_PAGE_SIZE} (got ${JSON.stringify(pageSize)}); leave it out for ${DEFAULT_SEARCH_PAGE_SIZE}`,
    });
  }
  if (
    scoreThreshold !== undefined &&
    (typeof scoreThreshold !== 'number' ||
      !Number.isFinite(scoreThreshold) ||
      scoreThreshold < 0 ||
      scoreThreshold > 1)
  ) {
    problems.push({
      path: 'scoreThreshold',
      message: `must be a number from 0 to 1 (got ${JSON.stringify(scoreThreshold)}); leave it out to keep every result`,
    });
  }
  let searchFilter: SearchFilter | undefined;
  if (filter !== undefined && filter !== null) {
    if (!isRecord(filter)) {
      problems.push({
        path: 'filter',
        message: `expected an object { "version"?, "language"?, "tag"?, "groups"? } or null, got ${kindOf(filter)}`,
      });
    } else {
      searchFilter = {};
      for (const field of ['version', 'language', 'tag'] as const) {
        const value = filter[field];
        if (value === undefined || value === null) continue;
        if (typeof value !== 'string') {
          problems.push({ path: `filter.${field}`, message: `expected a string, got ${kindOf(value)}` });
        } else {
          searchFilter[field] = value;
        }
      }
      const groups = readGroups(filter.groups, 'filter.groups', problems);
      if (groups) searchFilter.groups = groups;
    }
  }
  if (problems.length) throw invalidRequest('Invalid request body', problems);
  return {
    query: (query as string).trim(),
    pageSize: (pageSize as number | undefined) ?? DEFAULT_SEARCH_PAGE_SIZE,
    ...(typeof scoreThreshold === 'number' ? { scoreThreshold } : {}),
    ...(searchFilter ? { filter: searchFilter } : {}),
  };
}

/** Validates a page body. A path may not climb out of the docs (`..`) or hold control characters. */
export function validatePageRequest(body: unknown): PageRequest {
  const problems: ValidationProblem[] = [];
  const fields = bodyObject(body, '{ "path": string }');
  const { path } = fields;
  const pathProblem = textProblem(
    path,
    'the page path, like "/guides/theming"',
    'must not be empty; send a page path, like "/guides/theming"',
    (text) =>
      text.length > MAX_PAGE_PATH_CHARS ? `must be at most ${MAX_PAGE_PATH_CHARS} characters` : undefined,
    (text) =>
      text.split(/[/\\]/).some((segment) => segment === '..' || segment === '.')
        ? 'must not contain "." or ".." segments; send the page path from the docs root, like "/guides/theming"'
        : undefined,
    (text) => (/\p{Cc}/u.test(text) ? 'must not contain control characters' : undefined),
  );
  if (pathProblem) problems.push({ path: 'path', message: pathProblem });
  const groups = readGroups(fields.groups, 'groups', problems);
  if (problems.length) throw invalidRequest('Invalid request body', problems);
  return { path: path as string, ...(groups ? { groups } : {}) };
}

/**
 * The 0–1 score of each hit, in the order given: half the share of the query's content words the
 * section contains, half its relevance (BM25) relative to the best hit of the same search. A
 * section with every word of the query and the best relevance scores 1; `scoreThreshold: 0.5`
 * keeps sections that match the query about as well as the best one, or hold most of its words.
 */
export function discoveryScores(result: RetrievalResult): number[] {
  const best = result.hits.reduce((max, hit) => Math.max(max, hit.score), 0);
  const terms = result.terms.length;
  return result.hits.map((hit) => {
    const coverage = terms ? Math.min(1, hit.questionTerms.length / terms) : 0;
    const relative = best > 0 ? hit.score / best : 0;
    return Math.round((0.5 * coverage + 0.5 * relative) * 1e4) / 1e4;
  });
}

function searchItem(hit: RetrievalHit, score: number, urlFor: (path: string) => string): SearchResultItem {
  const { pagePath, pageTitle, anchor, headingPath, version, language } = hit.section;
  const heading = headingPath[headingPath.length - 1];
  return {
    content: sectionText(hit.section),
    path: pagePath,
    metadata: {
      title: heading ? `${pageTitle} › ${heading}` : pageTitle,
      pageTitle,
      ...(heading ? { heading } : {}),
      anchor,
      url: `${urlFor(pagePath)}${anchor ? `#${anchor}` : ''}`,
      score,
      ...(version ? { version } : {}),
      ...(language ? { language } : {}),
    },
  };
}

const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });

/**
 * The search answer for a validated request over `index`: what the search endpoint answers and the
 * MCP `search` tool returns (`mcp/`), so both give the same sections, scores and order.
 */
export function searchDocs(index: DocsIndex, request: SearchRequest, siteUrl?: string): SearchResultItem[] {
  const filter = request.filter;
  // The assistant's retrieval, reader's scope included: without a filter, the question's language
  // (and the site's default version) chooses the pages, as it does for an answer's sources.
  const { result } = searchForReader(index, {
    question: request.query,
    filter: filter ? { version: filter.version, language: filter.language } : null,
    limit: request.pageSize,
  });
  const scores = discoveryScores(result);
  const urlFor = siteLinkBuilder(siteUrl, index);
  const threshold = request.scoreThreshold ?? 0;
  return result.hits
    .map((hit, i) => ({ hit, score: scores[i]! }))
    .filter(({ score }) => score >= threshold)
    .map(({ hit, score }) => searchItem(hit, score, urlFor));
}

async function handleSearch(c: Context<ServiceEnv>, runtime: AssistantRuntime): Promise<Response> {
  const { domain, decisions } = admitted(c);
  const body = await readJsonBody(c.req.raw, runtime.config.maxBodyBytes);
  // The real schema takes any string as the query; the index reads at most MAX_SEARCH_QUERY_CHARS.
  const adjusted = adjustSearchBody(body, MAX_SEARCH_QUERY_CHARS);
  const headers = { ...rateLimitHeaders(...decisions), ...adjustedHeaders(adjusted.adjustments) };
  if (adjusted.empty) {
    // The rest of the body is still checked: an empty query does not excuse a pageSize of 51.
    validateSearchRequest({ ...(adjusted.body as Record<string, unknown>), query: 'empty' });
    return jsonResponse(200, [], headers);
  }
  const request = validateSearchRequest(adjusted.body);
  const index = await runtime.index(domain.domain);
  const items = searchDocs(index, request, domain.siteUrl);
  runtime.insights?.search(domain.domain, request.query, items.length);
  return jsonResponse(200, items, headers);
}

/**
 * A link's path on the docs site (`/docs/guides/theming` under `siteUrl` `https://x/docs`) as a page
 * path (`/guides/theming`): a widget previewing an answer's source sends the link it has.
 */
function withoutSitePrefix(path: string, siteUrl: string | undefined): string {
  if (!siteUrl) return path;
  const prefix = normalizePath(new URL(siteUrl).pathname);
  if (prefix === '/' || (path !== prefix && !path.startsWith(`${prefix}/`))) return path;
  return normalizePath(path.slice(prefix.length));
}

/** The page at `path`, given as a page path or as its link's path under `siteUrl`. */
export const findPage = (index: DocsIndex, path: string, siteUrl: string | undefined): DocPage | undefined =>
  index.page(path) ?? index.page(withoutSitePrefix(path, siteUrl));

/**
 * The page 404 body: `message`, as the real service answers it, plus `error` and `code` as every
 * other error of this service has them.
 */
const pageNotFound = (message: string, headers: Record<string, string> = {}): Response =>
  jsonResponse(404, { message, error: message, code: 'not_found' }, headers);

/**
 * Admission for the page endpoint: an unknown domain is an index that does not exist, which the
 * page endpoint answers with its own 404 body. Only admission's refusal is reworded, never one of
 * the handler after it.
 */
function pageAdmission(runtime: AssistantRuntime): MiddlewareHandler<ServiceEnv> {
  return answerRefusal(admission(runtime, { key: 'assistant' }), (error) =>
    error instanceof HttpError && error.status === 404 ? pageNotFound(error.message) : undefined,
  );
}

async function handlePage(c: Context<ServiceEnv>, runtime: AssistantRuntime): Promise<Response> {
  const { domain, decisions } = admitted(c);
  const adjusted = adjustPageBody(await readJsonBody(c.req.raw, runtime.config.maxBodyBytes));
  const request = validatePageRequest(adjusted.body);
  const index = await runtime.index(domain.domain);
  const path = normalizePath(request.path);
  const page = findPage(index, path, domain.siteUrl);
  const headers = { ...rateLimitHeaders(...decisions), ...adjustedHeaders(adjusted.adjustments) };
  if (!page) {
    return pageNotFound(
      `No page "${path}" in the docs of domain "${domain.domain}"; send the path of a page as search results give it (their "path").`,
      headers,
    );
  }
  const answer: PageAnswer = { path: page.path, content: pageText(page) };
  return jsonResponse(200, answer, headers);
}

/** The search endpoint's route family. */
export const searchRoutes = (runtime: AssistantRuntime): RouteFamily =>
  readerPostRoutes(runtime, SEARCH_ROUTE, 'search endpoint', handleSearch);

/** The page endpoint's route family. */
export const pageRoutes = (runtime: AssistantRuntime): RouteFamily =>
  readerPostRoutes(runtime, PAGE_ROUTE, 'page endpoint', handlePage, pageAdmission(runtime));
