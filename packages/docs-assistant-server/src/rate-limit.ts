/**
 * Fixed-window request counters (spec §8). `StoredLimiter` counts in the service's storage, so
 * replicas on one PostgreSQL share one counter per key; `FixedWindowLimiter` counts in memory (the
 * in-memory service), bounded: expired windows are pruned as the map grows, and past `maxKeys` the
 * oldest windows go first.
 */
import type { RateLimitStorage } from './storage/types.js';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends and requests are counted afresh. */
  retryAfterSeconds: number;
}

/** What the assistant endpoint counts requests with. */
export interface RateLimiter {
  /** Counts one request for `key` and says whether it is within the limit. */
  hit(key: string): RateLimitDecision | Promise<RateLimitDecision>;
}

function checkLimit(limit: number, windowMs: number): void {
  if (!(limit >= 1) || !Number.isFinite(limit)) {
    throw new Error(`Rate limit must be a positive number of requests (got ${limit}).`);
  }
  if (!(windowMs > 0) || !Number.isFinite(windowMs)) {
    throw new Error(`Rate limit window must be a positive number of milliseconds (got ${windowMs}).`);
  }
}

export interface StoredLimiterOptions {
  /** Names the counters of this limit apart from others on the same keys (`ip`, `org`). */
  scope: string;
  limit: number;
  windowMs: number;
  now?: () => number;
}

/**
 * Counts in the storage, one atomic increment per request: every replica on one database adds to
 * the same counter. Windows start at multiples of `windowMs` since the epoch, the same for all.
 */
export class StoredLimiter implements RateLimiter {
  readonly #storage: RateLimitStorage;
  readonly #scope: string;
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: () => number;

  constructor(storage: RateLimitStorage, options: StoredLimiterOptions) {
    checkLimit(options.limit, options.windowMs);
    this.#storage = storage;
    this.#scope = options.scope;
    this.#limit = Math.floor(options.limit);
    this.#windowMs = options.windowMs;
    this.#now = options.now ?? Date.now;
  }

  async hit(key: string): Promise<RateLimitDecision> {
    const now = this.#now();
    const { count, windowStart } = await this.#storage.incrementCounter(
      `${this.#scope}:${this.#windowMs}:${key}`,
      this.#windowMs,
      now,
    );
    const retryAfterSeconds = Math.max(1, Math.ceil((windowStart + this.#windowMs - now) / 1000));
    const allowed = count <= this.#limit;
    return { allowed, limit: this.#limit, remaining: Math.max(0, this.#limit - count), retryAfterSeconds };
  }
}

export interface FixedWindowLimiterOptions {
  limit: number;
  windowMs: number;
  /** Most keys kept at once. @default 100_000 */
  maxKeys?: number;
  now?: () => number;
}

export class FixedWindowLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(options: FixedWindowLimiterOptions) {
    checkLimit(options.limit, options.windowMs);
    this.limit = Math.floor(options.limit);
    this.windowMs = options.windowMs;
    this.maxKeys = options.maxKeys ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  /** Counts one request for `key` and says whether it is within the limit. */
  hit(key: string): RateLimitDecision {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      if (window) this.windows.delete(key);
      if (this.windows.size >= this.maxKeys) this.prune(now);
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    const retryAfterSeconds = Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
    if (window.count >= this.limit) {
      return { allowed: false, limit: this.limit, remaining: 0, retryAfterSeconds };
    }
    window.count += 1;
    return { allowed: true, limit: this.limit, remaining: this.limit - window.count, retryAfterSeconds };
  }

  /** Keys currently held (for tests of the memory bound). */
  get size(): number {
    return this.windows.size;
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) {
      if (now - window.start >= this.windowMs) this.windows.delete(key);
    }
    // Still full: windows are kept in insertion order, so the first ones are the oldest.
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}
