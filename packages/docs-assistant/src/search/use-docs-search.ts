'use client';
import { type DocsSearchState, type UseDocsSearchOptions, useSearchState } from './core.js';
/**
 * `useDocsSearch`: instant documentation search for a UI of your own (the widget's search view is
 * the same state). `search(query)` is debounced; a search that a newer one supersedes is aborted,
 * and its answer, if it still comes, is dropped. Where search is unavailable (air-gapped,
 * client-hosted without `features.search`, or `api`) nothing is ever sent.
 */
import { defaultSearchKit } from './kit.js';

export type { DocsSearchState, DocsSearchStatus, UseDocsSearchOptions } from './core.js';

export function useDocsSearch(options: UseDocsSearchOptions): DocsSearchState {
  return useSearchState(options, defaultSearchKit);
}
