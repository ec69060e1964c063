/** Limits of the v1 assistant endpoint (spec §8) and the defaults of §2.1. */

/** Longest accepted `currentPath` (in characters). */
export const CURRENT_PATH_MAX_LENGTH = 200;

/** Search results used for an answer when the request gives none (spec §2.1, recommended). */
export const DEFAULT_RETRIEVAL_PAGE_SIZE = 5;

/**
 * Largest `retrievalPageSize` the reference service accepts. The spec states no maximum; a bound
 * keeps one request from asking the index for everything.
 */
export const MAX_RETRIEVAL_PAGE_SIZE = 50;

/** Fingerprint for readers who are not signed in (spec §2.1). */
export const ANONYMOUS_FP = 'anonymous';

/** Requests per organization per hour on the assistant API (spec §8). */
export const ORGANIZATION_REQUESTS_PER_HOUR = 10_000;

/** Requests per IP address per day on the assistant API (spec §8). */
export const IP_REQUESTS_PER_DAY = 10_000;

/** Cuts a path to the longest `currentPath` the endpoint accepts. */
export function clampCurrentPath(path: string): string {
  return path.length > CURRENT_PATH_MAX_LENGTH ? path.slice(0, CURRENT_PATH_MAX_LENGTH) : path;
}
