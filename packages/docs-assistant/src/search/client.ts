/**
 * Documentation search (`POST {baseUrl}/discovery/v1/search/{domain}`) with the assistant's own
 * config check, error mapping and messages: errors are `AssistantError`s of the same kinds and
 * sentences as the assistant's.
 */
import { type SearchHit, type SearchOptions, searchWith } from './core.js';
import { defaultSearchKit } from './kit.js';

export {
  groupByPage,
  type SearchGroup,
  type SearchHit,
  type SearchKit,
  type SearchOptions,
  searchPath,
} from './core.js';
export { assistantAvailable, type Features, searchAvailable } from './features.js';

export { defaultSearchKit } from './kit.js';

/**
 * Searches the docs. Rejects with an `AssistantError` (a config error before any request when the
 * options are wrong, as the assistant's), or with the `AbortError` of a superseded search.
 */
export const searchDocs = (
  options: SearchOptions,
  query: string,
  signal?: AbortSignal,
): Promise<SearchHit[]> => searchWith(defaultSearchKit, options, query, signal);
