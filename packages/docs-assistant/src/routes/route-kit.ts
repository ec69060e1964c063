/**
 * What the package's server-side routes (`createStaticExportHandler`, `createAssistantProxy`)
 * share: errors in the real service's shape, the request's media type, a body read as a stream
 * with a cap (`body.ts`), and the one rate limiter (`rate-limit.ts`). Web-standard `Request`/`Response` only, no React.
 */
import type { ValidationProblem } from '../protocol/issues.js';
import { readBody } from './body.js';
import { FixedWindowLimiter } from './rate-limit.js';

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
 * The body's bytes, read as a stream and abandoned as soon as they pass `maxBytes` (`undefined`
 * then), so an oversized body never sits in memory whole (`body.ts`'s `readBody`).
 */
export async function readCappedBody(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const read = await readBody(request, { maxBytes });
  return 'bytes' in read ? read.bytes : undefined;
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
