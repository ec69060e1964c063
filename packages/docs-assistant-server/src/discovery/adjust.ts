/**
 * Bodies the real service's OpenAPI accepts, read the way this service can answer them instead of
 * refused (issue 39: refusing what the real schema allows breaks clients written against it). Each
 * change is named in the `X-Request-Adjusted` header, so a client sees what was answered; what stays
 * stricter, and why, is listed in docs/discovery-api.md ("Bodies read differently").
 */
import {
  CURRENT_PATH_MAX_LENGTH,
  clampCurrentPath,
  codePointLength,
  MAX_RETRIEVAL_PAGE_SIZE,
  REQUEST_ADJUSTED_HEADER,
} from 'docs-assistant/protocol';

/** A body as it will be validated, and the sentences saying what was changed on the way. */
export interface Adjusted<T = unknown> {
  body: T;
  adjustments: string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/** The response header naming the changes; none when nothing changed. */
export const adjustedHeaders = (adjustments: string[]): Record<string, string> =>
  adjustments.length ? { [REQUEST_ADJUSTED_HEADER]: adjustments.join('; ') } : {};

/**
 * The assistant body (v1 or v2): `retrievalPageSize` (a number in the real schema, with no bounds)
 * rounded to a whole number from 1 to `MAX_RETRIEVAL_PAGE_SIZE`; `currentPath` (its 200 characters
 * only a sentence of its description) cut to 200; an empty message `id` (any string there) given
 * one, since nothing here reads it but a part of the stored answer.
 */
export function adjustAssistantBody(body: unknown): Adjusted {
  if (!isRecord(body)) return { body, adjustments: [] };
  const adjustments: string[] = [];
  const next: Record<string, unknown> = { ...body };
  const size = body.retrievalPageSize;
  if (typeof size === 'number' && Number.isFinite(size)) {
    const whole = Math.min(MAX_RETRIEVAL_PAGE_SIZE, Math.max(1, Math.round(size)));
    if (whole !== size) {
      next.retrievalPageSize = whole;
      adjustments.push(
        `retrievalPageSize ${size} read as ${whole} (a whole number from 1 to ${MAX_RETRIEVAL_PAGE_SIZE})`,
      );
    }
  }
  const path = body.currentPath;
  if (typeof path === 'string' && codePointLength(path) > CURRENT_PATH_MAX_LENGTH) {
    next.currentPath = clampCurrentPath(path);
    adjustments.push(
      `currentPath cut to its first ${CURRENT_PATH_MAX_LENGTH} characters (got ${codePointLength(path)})`,
    );
  }
  if (Array.isArray(body.messages)) {
    const unnamed: number[] = [];
    next.messages = body.messages.map((message, index) => {
      if (!isRecord(message) || message.id !== '') return message;
      unnamed.push(index);
      return { ...message, id: `message-${index + 1}` };
    });
    if (unnamed.length) {
      adjustments.push(
        `empty message id given one (messages ${unnamed.map((index) => `${index}`).join(', ')})`,
      );
    }
  }
  return { body: next, adjustments };
}

/**
 * The search body: a `query` longer than the index reads (`maxChars`) is cut to it, and an empty or
 * blank one (a string in the real schema) is marked `empty`: it finds nothing, so the answer is `[]`.
 */
export function adjustSearchBody(body: unknown, maxChars: number): Adjusted & { empty: boolean } {
  if (!isRecord(body) || typeof body.query !== 'string') return { body, adjustments: [], empty: false };
  const query = body.query.trim();
  if (!query) {
    return { body, adjustments: ['query is empty: nothing was searched'], empty: true };
  }
  const length = codePointLength(query);
  if (length <= maxChars) return { body, adjustments: [], empty: false };
  return {
    body: { ...body, query: Array.from(query).slice(0, maxChars).join('') },
    adjustments: [`query cut to its first ${maxChars} characters (got ${length})`],
    empty: false,
  };
}

/** The page body: an empty or blank `path` (a string in the real schema) is the docs' root page, `/`. */
export function adjustPageBody(body: unknown): Adjusted {
  if (!isRecord(body) || typeof body.path !== 'string' || body.path.trim()) return { body, adjustments: [] };
  return { body: { ...body, path: '/' }, adjustments: ['empty path read as "/", the root page'] };
}
