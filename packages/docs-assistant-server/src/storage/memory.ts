/**
 * Threads held in a `Map`, for the in-memory service (a browser, a worker, tests with their own
 * Markdown), which may load no Node module and no database. The same rules as the SQL storage:
 * per-thread caps on every append, the least recently used threads go first in a sweep.
 */
import { utf8Length } from '../limits.js';
import type {
  FeedbackRecord,
  FeedbackStorage,
  RetentionPolicy,
  ShareStorage,
  StoredShare,
  StoredThread,
  SweepResult,
  ThreadCaps,
  ThreadStorage,
  ThreadTurn,
  Vote,
} from './types.js';

interface Entry {
  thread: StoredThread;
  bytes: number[];
  updated: number;
  /** Turns ever appended: the next turn's number (shares show the turns numbered below theirs). */
  appended: number;
}

const bytesOf = (turn: ThreadTurn): number => utf8Length(JSON.stringify(turn));

export class MemoryThreadStorage implements ThreadStorage, ShareStorage, FeedbackStorage {
  readonly mode = 'memory' as const;
  // Insertion order is use order: a thread written to is moved to the end.
  readonly #threads = new Map<string, Entry>();
  readonly #shares = new Map<string, StoredShare & { upto: number }>();
  // Votes by thread id and message id; kept when their thread goes, as the SQL storage keeps them.
  readonly #feedback = new Map<string, FeedbackRecord>();

  async createThread(thread: Omit<StoredThread, 'turns'>, now: number): Promise<void> {
    if (this.#threads.has(thread.id)) throw new Error(`thread ${thread.id} already exists`);
    this.#threads.set(thread.id, { thread: { ...thread, turns: [] }, bytes: [], updated: now, appended: 0 });
  }

  async getThread(id: string, maxTurns: number): Promise<StoredThread | undefined> {
    const entry = this.#threads.get(id);
    if (!entry) return undefined;
    return { ...entry.thread, turns: entry.thread.turns.slice(-maxTurns) };
  }

  async appendTurn(threadId: string, turn: ThreadTurn, caps: ThreadCaps, now: number): Promise<boolean> {
    const entry = this.#threads.get(threadId);
    if (!entry) return false;
    entry.thread.turns.push(turn);
    entry.bytes.push(bytesOf(turn));
    entry.appended += 1;
    let total = entry.bytes.reduce((sum, n) => sum + n, 0);
    while (
      entry.thread.turns.length > 1 &&
      (entry.thread.turns.length > caps.maxTurns || total > caps.maxThreadBytes)
    ) {
      entry.thread.turns.shift();
      total -= entry.bytes.shift() ?? 0;
    }
    entry.updated = now;
    this.#threads.delete(threadId);
    this.#threads.set(threadId, entry);
    return true;
  }

  async createShare(share: StoredShare, maxPerThread: number): Promise<boolean> {
    const entry = this.#threads.get(share.threadId);
    if (!entry) return false;
    let count = 0;
    for (const other of this.#shares.values()) if (other.threadId === share.threadId) count++;
    if (count >= maxPerThread) return false;
    this.#shares.set(share.idHash, { ...share, upto: entry.appended });
    return true;
  }

  async getShare(
    idHash: string,
    maxTurns: number,
  ): Promise<{ share: StoredShare; thread: StoredThread } | undefined> {
    const kept = this.#shares.get(idHash);
    const entry = kept && this.#threads.get(kept.threadId);
    if (!kept || !entry) return undefined;
    const { upto, ...share } = kept;
    // The kept turns are the newest ones: the first is numbered `appended - length`.
    const shown = Math.max(0, entry.thread.turns.length - (entry.appended - upto));
    const turns = entry.thread.turns.slice(0, shown).slice(-maxTurns);
    return { share, thread: { ...entry.thread, turns } };
  }

  async deleteShare(idHash: string, threadId: string): Promise<boolean> {
    if (this.#shares.get(idHash)?.threadId !== threadId) return false;
    return this.#shares.delete(idHash);
  }

  async threadStats(): Promise<{ threads: number; bytes: number }> {
    let bytes = 0;
    for (const entry of this.#threads.values()) for (const n of entry.bytes) bytes += n;
    return { threads: this.#threads.size, bytes };
  }

  async sweep(policy: RetentionPolicy): Promise<SweepResult> {
    let removed = 0;
    if (policy.olderThan !== undefined) {
      for (const [id, entry] of this.#threads) {
        if (entry.updated < policy.olderThan) {
          this.#threads.delete(id);
          removed++;
        }
      }
    }
    let { threads, bytes } = await this.threadStats();
    const maxBytes = policy.maxStoredBytes ?? Number.POSITIVE_INFINITY;
    const maxThreads = policy.maxThreads ?? Number.POSITIVE_INFINITY;
    for (const [id, entry] of this.#threads) {
      if ((threads <= maxThreads && bytes <= maxBytes) || threads <= 1) break;
      this.#threads.delete(id);
      threads -= 1;
      bytes -= entry.bytes.reduce((sum, n) => sum + n, 0);
      removed++;
    }
    for (const [idHash, share] of this.#shares) {
      if (!this.#threads.has(share.threadId)) this.#shares.delete(idHash);
    }
    return { threadsRemoved: removed, jobsRemoved: 0, rateLimitRowsRemoved: 0 };
  }

  async recordFeedback(
    input: { threadId: string; messageId: string; domain: string; vote: Vote; comment?: string },
    now: number,
  ): Promise<FeedbackRecord> {
    const key = `${input.threadId}\n${input.messageId}`;
    const stamp = new Date(now).toISOString();
    const record: FeedbackRecord = {
      threadId: input.threadId,
      messageId: input.messageId,
      domain: input.domain,
      vote: input.vote,
      ...(input.comment ? { comment: input.comment } : {}),
      createdAt: this.#feedback.get(key)?.createdAt ?? stamp,
      updatedAt: stamp,
    };
    this.#feedback.set(key, record);
    return record;
  }

  async listFeedback(
    domain: string,
    options: { limit?: number; since?: string } = {},
  ): Promise<FeedbackRecord[]> {
    const since = options.since ?? '';
    return [...this.#feedback.values()]
      .filter((record) => record.domain === domain && record.updatedAt >= since)
      .sort(
        (a, b) =>
          b.updatedAt.localeCompare(a.updatedAt) ||
          a.threadId.localeCompare(b.threadId) ||
          a.messageId.localeCompare(b.messageId),
      )
      .slice(0, options.limit ?? 1000);
  }

  async feedbackMessageIds(threadId: string): Promise<string[]> {
    return [...this.#feedback.values()]
      .filter((record) => record.threadId === threadId)
      .map((record) => record.messageId);
  }
}
