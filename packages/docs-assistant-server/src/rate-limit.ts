/**
 * Request counters (spec §8), on the one rate limiter of both packages (`docs-assistant/proxy`,
 * whose doc comment states the semantics: fixed windows aligned to the epoch). `StoredLimiter`
 * counts in the service's storage, so replicas on one PostgreSQL share one counter per key;
 * `FixedWindowLimiter` counts in memory (the in-memory service).
 */
import {
  checkRateLimit,
  type RateLimitDecision,
  type RateLimiter,
  windowDecision,
} from 'docs-assistant/proxy';
import type { RateLimitStorage } from './storage/types.js';

export type { FixedWindowLimiterOptions, RateLimitDecision, RateLimiter } from 'docs-assistant/proxy';
export { FixedWindowLimiter } from 'docs-assistant/proxy';

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
    checkRateLimit(options.limit, options.windowMs);
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
    return windowDecision(this.#limit, this.#windowMs, count, windowStart, now);
  }
}
