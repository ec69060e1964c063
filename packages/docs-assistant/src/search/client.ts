/**
 * Documentation search (`POST {baseUrl}/discovery/v1/search/{domain}`) for the widget and
 * `useDocsSearch`: when it is available, the request, and the answer as results grouped by page.
 * Errors are mapped as the assistant's are (`AssistantError`, same kinds and sentences).
 */
import { checkConfig } from '../chat/config.js';
import { httpError } from '../chat/errors.js';
import type { AssistantError, Deployment, UseDocsAssistantOptions } from '../chat/types.js';
import { defaultLabels } from '../labels.js';
import { joinUrl } from '../protocol/paths.js';
import type { Filter } from '../protocol/schemas.js';

/** Which parts of the widget a client-hosted deployment turns on (spec §1's deployment table). */
export interface Features {
  /** Documentation search: on for `cloud`, off unless `true` for `client-hosted`, never for `air-gapped`. */
  search?: boolean;
  /** The AI assistant (the "Ask AI" row and the chat). @default true (never for `air-gapped`) */
  assistant?: boolean;
}

/** One section of a page that matched the query. */
export interface SearchHit {
  /** `Page title › Heading`. */
  title: string;
  pageTitle: string;
  heading?: string;
  /** The page's path (`/guides/theming`). */
  path: string;
  /** The section's link (absolute when the service knows the docs site, else `path#anchor`). */
  url: string;
  /** The section's text. */
  content: string;
  /** 0–1: how well the section matches (1 for the best result holding every word). */
  score: number;
}

/** The results of one page, in the order the page's best result came. */
export interface SearchGroup {
  path: string;
  title: string;
  hits: SearchHit[];
}

export type SearchOptions = Pick<
  UseDocsAssistantOptions,
  'domain' | 'apiKey' | 'baseUrl' | 'api' | 'deployment' | 'fetch' | 'headers' | 'filter'
> & {
  features?: Features;
  /** Results per search (1–50). @default 8 */
  pageSize?: number;
};

/**
 * Whether search may be used here: never air-gapped (nothing is sent), on for cloud unless
 * `features.search` is `false`, on for client-hosted only with `features.search: true`. With `api`
 * (a route of the host) there is no search endpoint to call: the route forwards the assistant only.
 */
export function searchAvailable(options: {
  deployment?: Deployment;
  features?: Features;
  api?: string;
}): boolean {
  const { deployment = 'cloud', features, api } = options;
  if (deployment === 'air-gapped' || api !== undefined) return false;
  return deployment === 'client-hosted' ? features?.search === true : features?.search !== false;
}

/** Whether the assistant (the "Ask AI" row) is offered beside search. */
export const assistantAvailable = (options: { deployment?: Deployment; features?: Features }): boolean =>
  options.deployment !== 'air-gapped' && options.features?.assistant !== false;

export const searchPath = (domain: string): string => `/discovery/v1/search/${encodeURIComponent(domain)}`;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/** The service's items as hits; items without a path are left out. */
function readHits(body: unknown): SearchHit[] | null {
  if (!Array.isArray(body)) return null;
  const hits: SearchHit[] = [];
  for (const item of body) {
    if (!isRecord(item) || typeof item.path !== 'string') continue;
    const meta = isRecord(item.metadata) ? item.metadata : {};
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    const pageTitle = text(meta.pageTitle) || text(meta.title) || item.path;
    const heading = text(meta.heading);
    const anchor = text(meta.anchor);
    hits.push({
      title: text(meta.title) || pageTitle,
      pageTitle,
      ...(heading ? { heading } : {}),
      path: item.path,
      url: text(meta.url) || `${item.path}${anchor ? `#${anchor}` : ''}`,
      content: text(item.content),
      score: typeof meta.score === 'number' ? meta.score : 0,
    });
  }
  return hits;
}

/** Hits grouped by page, pages in the order of their best hit. */
export function groupByPage(hits: SearchHit[]): SearchGroup[] {
  const groups = new Map<string, SearchGroup>();
  for (const hit of hits) {
    let group = groups.get(hit.path);
    if (!group) {
      group = { path: hit.path, title: hit.pageTitle, hits: [] };
      groups.set(hit.path, group);
    }
    group.hits.push(hit);
  }
  return [...groups.values()];
}

const failure = (kind: AssistantError['kind'], detail: string, retryable: boolean): AssistantError => ({
  kind,
  message: kind === 'network' ? defaultLabels.errorNetwork : defaultLabels.errorConfig,
  detail,
  retryable,
});

/**
 * Searches the docs. Rejects with an `AssistantError` (a config error before any request when the
 * options are wrong, as the assistant's), or with the `AbortError` of a superseded search.
 */
export async function searchDocs(
  options: SearchOptions,
  query: string,
  signal?: AbortSignal,
): Promise<SearchHit[]> {
  const configError = checkConfig(options);
  if (configError) throw configError;
  const url = joinUrl(options.baseUrl!, searchPath(options.domain));
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: 'POST',
      headers: {
        ...options.headers,
        Authorization: `Bearer ${options.apiKey}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        query,
        pageSize: options.pageSize ?? 8,
        ...(options.filter ? { filter: options.filter satisfies Filter } : {}),
      }),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw failure('network', `The search request failed before a response: ${String(error)}`, true);
  }
  if (!response.ok) throw httpError(response.status, response.headers, await response.text().catch(() => ''));
  const hits = readHits(await response.json().catch(() => undefined));
  if (!hits) {
    throw failure(
      'config',
      `${url} answered HTTP ${response.status} without the search endpoint's JSON array. Check baseUrl: it must be the address of the assistant service.`,
      false,
    );
  }
  return hits;
}
