/**
 * What the package's server-side routes (`createStaticExportHandler`, `createAssistantProxy`)
 * share: errors in the real service's shape, the request's media type, a body read as a stream
 * with a cap (`body.ts`), and the one rate limiter (`rate-limit.ts`). Web-standard `Request`/`Response` only, no React.
 */
import type { ValidationProblem } from '../protocol/issues.js';
import { readBody } from './body.js';
import { FixedWindowLimiter } from './rate-limit.js';

/** A route's limit per caller: `limit` requests per key within each window of `windowMs`. */
export interface RouteRateLimit {
  /** Requests allowed per key within a window. */
  limit: number;
  /** Length of the window (in ms). */
  windowMs: number;
  /** The key requests are counted under. Called only for authorized requests. */
  key?: (request: Request) => string | Promise<string>;
}

/**
 * An error of a route itself, in the real service's shape (`error` is the message, `code` the
 * machine code), like the service's errors the routes pass through.
 */
export function jsonError(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
  issues?: ValidationProblem[],
): Response {
  return new Response(JSON.stringify({ error: message, code, ...(issues ? { issues } : {}) }), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

/** The media type of a Content-Type header, lower-cased, without its parameters. */
export const mediaType = (contentType: string | null): string | undefined =>
  contentType === null ? undefined : contentType.split(';')[0]?.trim().toLowerCase();

export const isPositiveInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0;

/**
 * A JSON request's body as sent, read as a stream and abandoned as soon as it passes `maxBytes`, so
 * an oversized body never sits in memory whole (`body.ts`'s `readBody`); or the answer that refuses
 * it: 415 when it is not `application/json`, 413 when it is declared or read larger than `maxBytes`,
 * 400 when it cannot be read. `say` is what the route tells the caller to send instead.
 */
export async function readJsonRequest(
  request: Request,
  maxBytes: number,
  say: { notJson: string; tooLarge: string },
): Promise<Uint8Array<ArrayBuffer> | Response> {
  if (mediaType(request.headers.get('content-type')) !== 'application/json') {
    return jsonError(415, 'unsupported_media_type', say.notJson);
  }
  const tooLarge = () => jsonError(413, 'payload_too_large', say.tooLarge);
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) return tooLarge();
  let read: Awaited<ReturnType<typeof readBody>>;
  try {
    read = await readBody(request, { maxBytes });
  } catch {
    return jsonError(400, 'invalid_request', 'The request body could not be read; send it again.');
  }
  return 'bytes' in read ? read.bytes : tooLarge();
}

/** Rate-limit keys kept at once; past it, ended windows go, then the oldest. */
const MAX_RATE_LIMIT_KEYS = 10_000;

/**
 * The routes' per-reader limit, on the one limiter (`rate-limit.ts`, whose semantics it has: fixed
 * windows): `take` answers the seconds to wait when the key is over its limit, else `undefined`.
 */
export function createRateLimiter(limit: number, windowMs: number) {
  const limiter = new FixedWindowLimiter({ limit, windowMs, maxKeys: MAX_RATE_LIMIT_KEYS });
  return {
    take(key: string): number | undefined {
      const decision = limiter.hit(key);
      return decision.allowed ? undefined : decision.retryAfterSeconds;
    },
  };
}
