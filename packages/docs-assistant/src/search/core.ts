/**
 * The search itself (request, answer, grouping) and its React state, with no import the widget's
 * launcher shares: what the panel's lazily loaded search view is made of. The config check, the
 * HTTP error mapping and the messages come in a `SearchKit` (`defaultSearchKit` in `client.ts`), so
 * this chunk reaches none of the modules the page loads up front, and bundlers that split by
 * reachability (esbuild) keep the launcher's chunks as they were.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AssistantError, UseDocsAssistantOptions } from '../chat/types.js';
import type { Features } from './features.js';

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

/** What the search takes from the assistant's own code: checks, error mapping and messages. */
export interface SearchKit {
  /** Whether search may be used with these options (`searchAvailable`). */
  available: (options: SearchOptions) => boolean;
  /** A config error before any request (admin key, no domain…), or `null`. */
  checkConfig: (options: SearchOptions) => AssistantError | null;
  /** The error of a non-2xx answer, mapped as the assistant's (`auth`, `rate-limit`, …). */
  httpError: (status: number, headers: Headers, body: string) => AssistantError;
  /** The reader's sentences for a failed request and for an endpoint that is not the service. */
  networkMessage: string;
  configMessage: string;
}

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

/** A page's text, as the page endpoint answers it. */
export interface PageText {
  path: string;
  /** The page's whole text, Markdown. */
  content: string;
}

export const pagePath = (domain: string): string => `/discovery/v1/page/${encodeURIComponent(domain)}`;

/** POSTs a JSON body to an endpoint of the service with the assistant key: the answer, or a mapped error. */
async function postJson(
  kit: SearchKit,
  options: SearchOptions,
  path: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<{ url: string; response: Response }> {
  const configError = kit.checkConfig(options);
  if (configError) throw configError;
  const url = `${options.baseUrl!.replace(/\/+$/, '')}${path}`;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: 'POST',
      headers: {
        ...options.headers,
        Authorization: `Bearer ${options.apiKey}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw {
      kind: 'network',
      message: kit.networkMessage,
      detail: `The request to ${url} failed before a response: ${String(error)}`,
      retryable: true,
    } satisfies AssistantError;
  }
  if (!response.ok)
    throw kit.httpError(response.status, response.headers, await response.text().catch(() => ''));
  return { url, response };
}

const notTheService = (kit: SearchKit, url: string, status: number, what: string): AssistantError => ({
  kind: 'config',
  message: kit.configMessage,
  detail: `${url} answered HTTP ${status} without ${what}. Check baseUrl: it must be the address of the assistant service.`,
  retryable: false,
});

/** The text of the page at `path` (a page path, or a link's path on the docs site). */
export async function pageWith(
  kit: SearchKit,
  options: SearchOptions,
  path: string,
  signal?: AbortSignal,
): Promise<PageText> {
  const { url, response } = await postJson(kit, options, pagePath(options.domain), { path }, signal);
  const body: unknown = await response.json().catch(() => undefined);
  if (!isRecord(body) || typeof body.path !== 'string' || typeof body.content !== 'string') {
    throw notTheService(kit, url, response.status, "the page endpoint's { path, content }");
  }
  return { path: body.path, content: body.content };
}

/**
 * Searches the docs. Rejects with an `AssistantError` (a config error before any request when the
 * options are wrong, as the assistant's), or with the `AbortError` of a superseded search.
 */
export async function searchWith(
  kit: SearchKit,
  options: SearchOptions,
  query: string,
  signal?: AbortSignal,
): Promise<SearchHit[]> {
  const body = {
    query,
    pageSize: options.pageSize ?? 8,
    ...(options.filter ? { filter: options.filter } : {}),
  };
  const { url, response } = await postJson(kit, options, searchPath(options.domain), body, signal);
  const hits = readHits(await response.json().catch(() => undefined));
  if (!hits) throw notTheService(kit, url, response.status, "the search endpoint's JSON array");
  return hits;
}

export interface UseDocsSearchOptions extends SearchOptions {
  /** Milliseconds of quiet typing before a search is sent. @default 150 */
  debounceMs?: number;
  /** Called on every search error, after it is mapped (the same kinds as the assistant's). */
  onError?: (error: AssistantError) => void;
}

export type DocsSearchStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface DocsSearchState {
  /** Whether search is available for these options; when `false`, `search` sends nothing. */
  available: boolean;
  /** The query last given to `search`. */
  query: string;
  /** `loading` from the keystroke until the answer (the previous results stay meanwhile). */
  status: DocsSearchStatus;
  /** The results of the latest answered search, best first. */
  results: SearchHit[];
  /** The same results grouped by page. */
  groups: SearchGroup[];
  error: AssistantError | null;
  /** Searches for `query` after the debounce; an empty query clears the results. */
  search: (query: string) => void;
}

/** The state and `search` action of `useDocsSearch`, with the given kit (see `SearchKit`). */
export function useSearchState(options: UseDocsSearchOptions, kit: SearchKit): DocsSearchState {
  const available = kit.available(options);
  const latest = useRef(options);
  latest.current = options;
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState<DocsSearchStatus>('idle');
  const [results, setResults] = useState<SearchHit[]>([]);
  const [error, setError] = useState<AssistantError | null>(null);
  const pending = useRef<{ timer?: ReturnType<typeof setTimeout>; controller?: AbortController }>({});

  const cancel = useCallback(() => {
    clearTimeout(pending.current.timer);
    pending.current.controller?.abort();
    pending.current = {};
  }, []);
  useEffect(() => cancel, [cancel]);

  const search = useCallback(
    (next: string) => {
      cancel();
      setQuery(next);
      const words = next.trim();
      if (!words || !kit.available(latest.current)) {
        setStatus('idle');
        setResults([]);
        setError(null);
        return;
      }
      setStatus('loading');
      const controller = new AbortController();
      const run = () => {
        searchWith(kit, latest.current, words, controller.signal).then(
          (hits) => {
            if (controller.signal.aborted) return;
            setResults(hits);
            setError(null);
            setStatus('ready');
          },
          (cause: unknown) => {
            if (controller.signal.aborted) return;
            const mapped = cause as AssistantError;
            setError(mapped);
            setStatus('error');
            latest.current.onError?.(mapped);
          },
        );
      };
      pending.current = { controller, timer: setTimeout(run, latest.current.debounceMs ?? 150) };
    },
    [cancel, kit],
  );

  const groups = useMemo(() => groupByPage(results), [results]);
  return { available, query, status, results, groups, error, search };
}
