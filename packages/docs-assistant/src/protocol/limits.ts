/** Limits of the v1 assistant endpoint (spec §8) and the defaults of §2.1. */

/** Longest accepted `currentPath` (in characters, i.e. Unicode code points). */
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

/** Length in characters as the spec counts them: code points, so an emoji is one, not two. */
export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/**
 * Cuts a path to the longest `currentPath` the endpoint accepts, by code points, so the cut never
 * splits an emoji into a lone surrogate.
 */
export function clampCurrentPath(path: string): string {
  // Fast path: no string of at most this many UTF-16 units has more code points.
  if (path.length <= CURRENT_PATH_MAX_LENGTH) return path;
  return Array.from(path).slice(0, CURRENT_PATH_MAX_LENGTH).join('');
}

// --- Attachments (spec §2.2 `experimental_attachments`) ------------------------------------------

/** Largest attachment, in bytes of the file (not of its data URL), a message may carry. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

/** Most attachments one message may carry. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10;
