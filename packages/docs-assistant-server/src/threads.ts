/**
 * Conversation threads. A thread belongs to the domain and the `fp` that created it; it holds the
 * finished turns, whose questions inform the retrieval of follow-ups. A thread is stored when it
 * is created, before its id is sent to the client, so a follow-up or a retry with that id works
 * even when its first answer failed or was stopped. Threads live in the service's storage
 * (`storage/`): SQLite (in memory, or under `--data-dir`) or PostgreSQL shared by replicas, where
 * each finished turn is one transaction, so a crash loses no finished turn and leaves no partial one.
 * The in-memory service keeps them in a `Map` (`storage/memory.ts`).
 *
 * What is kept is bounded by bytes too, since anyone holding the public key can write here: each
 * thread keeps its newest turns within `maxThreadBytes` (and the last 20), checked on every append;
 * all threads together stay within `maxStoredBytes` and `maxThreads`, the least recently used
 * going first, checked by a sweep that runs once enough was written since the last one.
 *
 * A thread's key is a bearer secret: it is handed out once, when the thread is created, and only its
 * SHA-256 hash is kept, so neither a leaked database nor the service can give it out again. A
 * lookup hashes the key it is given and compares the hashes in constant time.
 */

import { DEFAULT_ASSISTANT_LIMITS } from './limits.js';
import { MemoryThreadStorage } from './storage/memory.js';
import {
  StorageDegradedError,
  type StoredThread,
  type ThreadStorage,
  type ThreadTurn,
} from './storage/types.js';

export type { ThreadTurn } from './storage/types.js';

export type Thread = StoredThread;

/** The file threads were kept in before the database; read once at start-up to migrate it. */
export const THREADS_FILE = 'threads.jsonl';

/** Turns of a thread kept; only the latest few inform retrieval anyway. */
export const MAX_TURNS = 20;

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

const randomId = (prefix: string): string => prefix + hex(crypto.getRandomValues(new Uint8Array(16)));

/** SHA-256 of a thread key, hex. Web Crypto, so the in-memory service runs in a browser too. */
export async function hashThreadKey(key: string): Promise<string> {
  // Browsers expose `crypto.subtle` in secure contexts only (https, localhost).
  if (!globalThis.crypto?.subtle) {
    throw new Error(
      'Web Crypto (crypto.subtle) is not available here, and thread keys are hashed with it: run the service in Node 20+, or serve the page that runs it over https or from localhost.',
    );
  }
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key))));
}

/**
 * Compares two strings in time that depends only on their length, not on where they differ. Used on
 * hashes, whose length (64) is no secret.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

export interface ThreadStoreOptions {
  /** Where threads live. @default in memory (a `Map`) */
  storage?: ThreadStorage;
  /** Threads kept; past it the least recently used go first (a follow-up then gets 404). @default 10_000 */
  maxThreads?: number;
  /** Bytes of turns kept per thread; the oldest go first, the newest always stays. @default 256 KiB */
  maxThreadBytes?: number;
  /** Bytes of all threads kept; the least recently used go first. @default 128 MiB */
  maxStoredBytes?: number;
  warn?: (message: string) => void;
  now?: () => number;
}

export type ThreadLookup =
  | { ok: true; thread: Thread }
  /** Unknown, owned by another fp/domain, no key or a wrong key: all look the same to the caller. */
  | { ok: false };

/** A thread just created, with its key: the only time the key is known. */
export interface CreatedThread {
  thread: Thread;
  key: string;
}

export class ThreadStore {
  readonly storage: ThreadStorage;
  readonly #maxThreads: number;
  readonly #maxThreadBytes: number;
  readonly #maxStoredBytes: number;
  readonly #warn: (message: string) => void;
  readonly #now: () => number;
  // Written since the last sweep of the totals; a sweep runs once it is an eighth of a cap.
  #bytesSinceSweep = 0;
  #createdSinceSweep = 0;
  #sweeping: Promise<void> | undefined;
  #sweepAgain = false;
  #lastUsedAt = 0;
  /**
   * Threads created while the storage refused writes: answered, never stored, so their turns are
   * not appended (an append to no row is no write at all).
   */
  readonly #unsaved = new WeakSet<Thread>();

  constructor(options: ThreadStoreOptions = {}) {
    this.storage = options.storage ?? new MemoryThreadStorage();
    this.#maxThreads = options.maxThreads ?? 10_000;
    this.#maxThreadBytes = options.maxThreadBytes ?? DEFAULT_ASSISTANT_LIMITS.maxThreadBytes;
    this.#maxStoredBytes = options.maxStoredBytes ?? DEFAULT_ASSISTANT_LIMITS.maxStoredBytes;
    this.#warn = options.warn ?? ((message) => console.warn(`[docs-assistant] ${message}`));
    this.#now = options.now ?? Date.now;
  }

  /**
   * The time a thread is marked as used at: the clock, but never the same millisecond twice in this
   * process, so threads written in one millisecond keep their order for least-recently-used removal.
   */
  #usedAt(): number {
    this.#lastUsedAt = Math.max(this.#now(), this.#lastUsedAt + 1);
    return this.#lastUsedAt;
  }

  /**
   * A thread for this domain, fp and key. Another domain or fp, a missing key or a wrong one gets
   * nothing, the same as an unknown id, so thread ids can be neither probed nor used without the key.
   */
  async find(id: string, owner: { domain: string; fp: string; key?: string | null }): Promise<ThreadLookup> {
    // Hashed whatever happens, so a missing thread takes as long as a wrong key.
    const hash = await hashThreadKey(owner.key ?? '');
    const thread = await this.storage.getThread(id, MAX_TURNS);
    if (!thread || thread.domain !== owner.domain || thread.fp !== owner.fp) return { ok: false };
    if (!owner.key || !constantTimeEqual(hash, thread.keyHash)) return { ok: false };
    return { ok: true, thread };
  }

  /**
   * A new thread, stored before it resolves: its id is sent to the client before the first answer
   * finishes, and must name a thread from then on. Turns come with `append`. With the storage full
   * or damaged, the answer still goes out on a thread that is not kept (the storage says so once in
   * the log, not once per thread); with the database unreachable, this rejects with a 503.
   */
  async create(owner: { domain: string; fp: string }): Promise<CreatedThread> {
    const key = randomId('thk_');
    const thread: Thread = {
      id: randomId('thr_'),
      keyHash: await hashThreadKey(key),
      domain: owner.domain,
      fp: owner.fp,
      createdAt: new Date(this.#now()).toISOString(),
      turns: [],
    };
    try {
      await this.storage.createThread(thread, this.#usedAt());
    } catch (error) {
      if (!(error instanceof StorageDegradedError)) throw error;
      this.#unsaved.add(thread);
      return { thread, key };
    }
    this.#createdSinceSweep += 1;
    this.#sweepIfDue();
    return { thread, key };
  }

  /**
   * Records a finished turn of a thread, in one transaction; stored before it resolves. Not stored
   * while the storage is full or damaged (said once by the storage), nor on a thread that was never
   * stored.
   */
  async append(thread: Thread, turn: ThreadTurn): Promise<void> {
    if (this.#unsaved.has(thread)) return;
    let stored: boolean;
    try {
      stored = await this.storage.appendTurn(
        thread.id,
        turn,
        { maxThreadBytes: this.#maxThreadBytes, maxTurns: MAX_TURNS },
        this.#usedAt(),
      );
    } catch (error) {
      if (error instanceof StorageDegradedError) return;
      throw error;
    }
    if (!stored) {
      this.#warn(`thread ${thread.id} is no longer stored (removed by retention); its new turn is not saved`);
      return;
    }
    thread.turns.push(turn);
    if (thread.turns.length > MAX_TURNS) thread.turns.splice(0, thread.turns.length - MAX_TURNS);
    this.#bytesSinceSweep += JSON.stringify(turn).length;
    this.#sweepIfDue();
  }

  #sweepIfDue(): void {
    if (
      this.#bytesSinceSweep < this.#maxStoredBytes / 8 &&
      this.#createdSinceSweep < Math.max(1, Math.floor(this.#maxThreads / 8))
    )
      return;
    // What is written during a sweep may not be counted by it: one more runs after it.
    if (this.#sweeping) {
      this.#sweepAgain = true;
      return;
    }
    this.#bytesSinceSweep = 0;
    this.#createdSinceSweep = 0;
    this.#sweeping = this.sweep()
      .then(() => {})
      .catch((error: unknown) =>
        this.#warn(`sweeping threads failed: ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => {
        this.#sweeping = undefined;
        if (this.#sweepAgain) {
          this.#sweepAgain = false;
          this.#bytesSinceSweep = Number.POSITIVE_INFINITY;
          this.#sweepIfDue();
        }
      });
  }

  /** Removes the least recently used threads past `maxStoredBytes` and `maxThreads` (and older than `olderThan`). */
  sweep(olderThan?: number) {
    return this.storage.sweep(
      {
        maxStoredBytes: this.#maxStoredBytes,
        maxThreads: this.#maxThreads,
        ...(olderThan === undefined ? {} : { olderThan }),
      },
      this.#now(),
    );
  }

  /** Waits for the sweeps in progress. */
  async flush(): Promise<void> {
    while (this.#sweeping) await this.#sweeping;
  }

  /** Threads kept and their bytes. */
  stats(): Promise<{ threads: number; bytes: number }> {
    return this.storage.threadStats();
  }
}
