/**
 * The one rate limiter of both packages (the service's per-IP and per-organization limits, the
 * proxy's and the static export handler's per-reader limits). Web-standard, no React.
 *
 * Semantics: fixed windows of `windowMs`, aligned to multiples of it since the epoch (so replicas
 * counting in one database agree on where a window starts). Every request counts; the first
 * `limit` of a window are allowed, the rest refused until the window ends, with `retryAfterSeconds`
 * the whole seconds left of it (at least 1). A burst at a window's end and one at the next start may
 * both pass: at most 2 x `limit` requests in any `windowMs`, which is the price of one counter per key.
 */

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the current window. */
  remaining: number;
  /** Seconds until the current window ends and requests are counted afresh. */
  retryAfterSeconds: number;
}

/** Counts requests per key; `hit` may answer a promise (counted in a database). */
export interface RateLimiter {
  /** Counts one request for `key` and says whether it is within the limit. */
  hit(key: string): RateLimitDecision | Promise<RateLimitDecision>;
}

/** Throws, saying what to change, unless `limit` and `windowMs` are positive finite numbers. */
export function checkRateLimit(limit: number, windowMs: number): void {
  if (!(limit >= 1) || !Number.isFinite(limit)) {
    throw new Error(`Rate limit must be a positive number of requests (got ${limit}).`);
  }
  if (!(windowMs > 0) || !Number.isFinite(windowMs)) {
    throw new Error(`Rate limit window must be a positive number of milliseconds (got ${windowMs}).`);
  }
}

/** The start of the window `now` falls in. */
export const windowStartOf = (now: number, windowMs: number): number => Math.floor(now / windowMs) * windowMs;

/**
 * The decision for the `count`-th request of the window that started at `windowStart`: how every
 * limiter answers, whatever it counts in.
 */
export function windowDecision(
  limit: number,
  windowMs: number,
  count: number,
  windowStart: number,
  now: number,
): RateLimitDecision {
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), retryAfterSeconds };
}

export interface FixedWindowLimiterOptions {
  limit: number;
  windowMs: number;
  /** Most keys kept at once; past it, ended windows go, then the oldest. @default 100_000 */
  maxKeys?: number;
  now?: () => number;
}

/** The limiter counting in memory, bounded by `maxKeys`. */
export class FixedWindowLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(options: FixedWindowLimiterOptions) {
    checkRateLimit(options.limit, options.windowMs);
    this.limit = Math.floor(options.limit);
    this.windowMs = options.windowMs;
    this.maxKeys = options.maxKeys ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  hit(key: string): RateLimitDecision {
    const now = this.now();
    const start = windowStartOf(now, this.windowMs);
    let window = this.windows.get(key);
    if (!window || window.start !== start) {
      if (window) this.windows.delete(key);
      if (this.windows.size >= this.maxKeys) this.prune(start);
      window = { start, count: 0 };
      // Inserted anew, so the map's order stays oldest window first.
      this.windows.set(key, window);
    }
    window.count += 1;
    return windowDecision(this.limit, this.windowMs, window.count, start, now);
  }

  /** Keys currently held (for tests of the memory bound). */
  get size(): number {
    return this.windows.size;
  }

  private prune(currentStart: number): void {
    for (const [key, window] of this.windows) {
      if (window.start !== currentStart) this.windows.delete(key);
    }
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}
