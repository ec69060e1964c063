'use client';
/**
 * `useDocsSearch`: instant documentation search for a UI of your own (the widget's search view uses
 * it too). `search(query)` is debounced; a search that a newer one supersedes is aborted, and its
 * answer, if it still comes, is dropped. Where search is unavailable (air-gapped, client-hosted
 * without `features.search`, or `api`) nothing is ever sent.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AssistantError } from '../chat/types.js';
import {
  groupByPage,
  type SearchGroup,
  type SearchHit,
  type SearchOptions,
  searchAvailable,
  searchDocs,
} from './client.js';

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

export function useDocsSearch(options: UseDocsSearchOptions): DocsSearchState {
  const available = searchAvailable(options);
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
      if (!words || !searchAvailable(latest.current)) {
        setStatus('idle');
        setResults([]);
        setError(null);
        return;
      }
      setStatus('loading');
      const controller = new AbortController();
      const run = () => {
        searchDocs(latest.current, words, controller.signal).then(
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
    [cancel],
  );

  const groups = useMemo(() => groupByPage(results), [results]);
  return { available, query, status, results, groups, error, search };
}
