/**
 * The one storage interface of the reference service: threads (with their turns), static export
 * jobs and their bundles, feedback votes, rate-limit counters and a few service settings. Two
 * implementations keep the same SQL schema (`schema.ts`): the embedded one (SQLite under
 * `--data-dir`, or in memory without one) and PostgreSQL (`--database-url`), which several
 * replicas share. Free of Node built-ins, so the in-memory service can name these types.
 */
import type { StaticExportStatus } from 'docs-assistant/protocol';
import type { InsightBatchRows, InsightReads } from './insights.js';

/** Where the state lives: SQLite in memory, SQLite in a data folder, or a PostgreSQL server. */
export type StorageMode = 'memory' | 'embedded' | 'postgres';

export interface ThreadTurn {
  question: string;
  answer: string;
  /** Paths of the pages the answer cited. */
  sources: string[];
  /** ISO timestamp of when the turn finished. */
  at: string;
}

/** A thread as stored: its owner, its key's hash and its newest turns (oldest first). */
export interface StoredThread {
  id: string;
  /** SHA-256 (hex) of the thread's key; the key itself is never stored. */
  keyHash: string;
  domain: string;
  fp: string;
  createdAt: string;
  turns: ThreadTurn[];
}

/** What one thread may keep: its newest turns within both caps (the newest turn always stays). */
export interface ThreadCaps {
  maxThreadBytes: number;
  maxTurns: number;
}

/** What a retention sweep removes: threads idle too long, then the least recently used past the caps. */
export interface RetentionPolicy {
  /** Threads (and finished export jobs) not touched since this time (ms since the epoch) go. */
  olderThan?: number;
  /** Bytes of all threads kept. */
  maxStoredBytes?: number;
  /** Threads kept. */
  maxThreads?: number;
}

export interface SweepResult {
  threadsRemoved: number;
  jobsRemoved: number;
  rateLimitRowsRemoved: number;
}

export interface ThreadStorage {
  readonly mode: StorageMode;
  /** Stores a new thread (no turns yet). */
  createThread(thread: Omit<StoredThread, 'turns'>, now: number): Promise<void>;
  /** The thread with its newest `maxTurns` turns, or undefined. */
  getThread(id: string, maxTurns: number): Promise<StoredThread | undefined>;
  /**
   * Adds a finished turn and trims the oldest turns past the caps, in one transaction. False when
   * the thread is gone (removed by retention): the turn is not stored.
   */
  appendTurn(threadId: string, turn: ThreadTurn, caps: ThreadCaps, now: number): Promise<boolean>;
  /** Threads kept and their bytes (turns as stored). */
  threadStats(): Promise<{ threads: number; bytes: number }>;
  /** Removes what the policy says is too old or too much; least recently used threads first. */
  sweep(policy: RetentionPolicy, now: number): Promise<SweepResult>;
}

/**
 * A share of a thread: a read-only link to its turns as they were when it was shared. Kept by the
 * hash of its id (like a thread's key), with the count of turns the thread had then.
 */
export interface StoredShare {
  /** SHA-256 (hex) of the share id; the id itself is never stored. */
  idHash: string;
  threadId: string;
  createdAt: string;
}

/** Shares of threads (`discovery/share.ts`); removing a thread removes its shares. */
export interface ShareStorage {
  /**
   * Stores a share of the thread's turns so far. False when the thread is gone, or already has
   * `maxPerThread` shares.
   */
  createShare(share: StoredShare, maxPerThread: number): Promise<boolean>;
  /** The share and its thread's turns up to the share (newest `maxTurns`), or undefined. */
  getShare(
    idHash: string,
    maxTurns: number,
  ): Promise<{ share: StoredShare; thread: StoredThread } | undefined>;
  /** Removes a share of this thread; false when there was none. */
  deleteShare(idHash: string, threadId: string): Promise<boolean>;
}

/** A feedback vote on one answer (a message of a thread). */
export type Vote = 'up' | 'down';

export interface FeedbackRecord {
  threadId: string;
  /** Id of the assistant message the vote is about. */
  messageId: string;
  domain: string;
  vote: Vote;
  comment?: string;
  /** ISO timestamps: first vote, and the latest change. */
  createdAt: string;
  updatedAt: string;
}

export interface FeedbackStorage {
  /** Records a vote on (thread, message); a second vote on the same message replaces the first. */
  recordFeedback(
    input: { threadId: string; messageId: string; domain: string; vote: Vote; comment?: string },
    now: number,
  ): Promise<FeedbackRecord>;
  /** Votes of a domain, newest change first. */
  listFeedback(domain: string, options?: { limit?: number; since?: string }): Promise<FeedbackRecord[]>;
  /** Ids of the messages of a thread that have a vote (the feedback endpoint caps them per thread). */
  feedbackMessageIds(threadId: string): Promise<string[]>;
}

export interface RateLimitStorage {
  /**
   * Counts one request for `key` in the fixed window `windowMs` that holds `now` (windows start at
   * multiples of `windowMs` since the epoch, so every replica agrees on them), atomically.
   */
  incrementCounter(
    key: string,
    windowMs: number,
    now: number,
  ): Promise<{ count: number; windowStart: number }>;
}

/** A static export job as stored. */
export interface JobRecord {
  jobId: string;
  organization: string;
  domain: string;
  version?: string;
  paths?: string[];
  status: StaticExportStatus;
  progress: number;
  pageCount: number;
  createdAt: string;
  updatedAt: string;
  error?: string;
  sizeBytes?: number;
  /** Runs started for this job; a stop mid-run starts another. */
  attempts: number;
}

export type JobPatch = Partial<
  Pick<JobRecord, 'status' | 'progress' | 'pageCount' | 'error' | 'sizeBytes'>
> & {
  updatedAt: string;
};

export interface JobStorage {
  insertJob(job: JobRecord): Promise<void>;
  getJob(jobId: string): Promise<JobRecord | undefined>;
  /**
   * Takes the oldest job that is queued, or running under a lease that expired (its runner
   * stopped), for `runner` until `now + leaseMs`: status running, attempts + 1, progress reset.
   * Jobs whose lease expired `maxAttempts` times are marked failed instead.
   */
  claimJob(runner: string, now: number, leaseMs: number, maxAttempts: number): Promise<JobRecord | undefined>;
  /** Updates a job `runner` holds and extends its lease; false when it no longer holds it. */
  updateJob(jobId: string, runner: string, patch: JobPatch, leaseUntil: number): Promise<boolean>;
  /** Extends the leases of the jobs `runner` holds. */
  renewLeases(runner: string, leaseUntil: number): Promise<void>;
  /** Lets other runners take `runner`'s running jobs at once (a clean stop). */
  releaseJobs(runner: string): Promise<void>;
  /** Stores a job's bundle (before the job is marked completed). */
  putBundle(jobId: string, bytes: Uint8Array): Promise<void>;
  getBundle(jobId: string): Promise<Uint8Array | undefined>;
}

/** Insights' tables (`insights.ts`); the SQL storages have them, the in-memory thread storage not. */
export interface InsightsStorage {
  recordInsights(batch: InsightBatchRows): Promise<void>;
  readInsights<T>(work: (reads: InsightReads) => Promise<T>): Promise<T>;
  forgetInsightText(before: number): Promise<number>;
  /** A value kept by the service (the salt of readers' hashes), set to `fallback` the first time. */
  setting(name: string, fallback: string): Promise<string>;
}

/** The storage's insights, when it keeps them. */
export const insightsStorage = (storage: object): InsightsStorage | undefined =>
  'recordInsights' in storage ? (storage as InsightsStorage) : undefined;

export interface Storage extends ThreadStorage, ShareStorage, FeedbackStorage, RateLimitStorage, JobStorage {
  /** Where the state lives, for logs and `/health` (no password). */
  readonly description: string;
  /**
   * Connects and brings the schema up to date. Rejects with `StorageUnavailableError` while the
   * database cannot be reached; every operation tries again, so the service recovers by itself.
   */
  open(): Promise<void>;
  /**
   * Whether the database answers now; `degraded` while it answers but keeps nothing: `full` from
   * the first write it refused until one stores something again, `corrupt` from the first damage
   * found until the service restarts (and moves the file aside).
   */
  health(): Promise<{ ok: true; degraded?: 'full' | 'corrupt' } | { ok: false; error: string }>;
  /** A value kept by the service (the bundle link secret), set to `fallback` the first time. */
  setting(name: string, fallback: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * An error of the storage layer, whose message says what to do. Storage knows nothing of HTTP: the
 * HTTP layer gives each kind its answer (`storageAnswer` in `http/errors.ts`).
 */
export class StorageError extends Error {}

/** The database cannot be reached (down, restarting, refusing connections): the request gets 503. */
export class StorageUnavailableError extends StorageError {
  constructor(description: string, reason: string) {
    super(
      `The service's database (${description}) is unreachable: ${reason}. Try again shortly; the service reconnects by itself.`,
    );
    this.name = 'StorageUnavailableError';
  }
}

/**
 * The database cannot keep anything now, though it answers: the disk is full, or the file is
 * corrupt. The assistant goes on without saving (threads and turns are not kept, rate limits are
 * counted in memory); a request whose whole point is to store something gets 503 with this message.
 */
export class StorageDegradedError extends StorageError {
  constructor(
    readonly kind: 'full' | 'corrupt',
    message: string,
  ) {
    super(message);
    this.name = 'StorageDegradedError';
  }
}

/** The disk (or the database's quota) is full: nothing more can be stored until space is freed. */
export class StorageFullError extends StorageDegradedError {
  constructor(description: string, reason: string) {
    super(
      'full',
      `The service's database (${description}) is full: ${reason}. Free disk space or lower the retention settings.`,
    );
    this.name = 'StorageFullError';
  }
}

/**
 * The database file is damaged where it was read or written (SQLITE_CORRUPT). Found at start, the
 * file is moved aside (`sqlite.ts`); found while running, the service goes on without saving until
 * it is restarted, which checks the file and moves it aside.
 */
export class StorageCorruptError extends StorageDegradedError {
  constructor(description: string, reason: string) {
    super(
      'corrupt',
      `The service's database (${description}) is damaged: ${reason}. Restart the service: it checks the file at start and moves a damaged one aside.`,
    );
    this.name = 'StorageCorruptError';
  }
}

/**
 * A service without a data folder keeps the newest bundles only (`memoryBundleBytes`): this job's
 * went to make room. The job itself is kept; running the export again makes a new bundle.
 */
export class BundleEvictedError extends StorageError {
  constructor(
    readonly jobId: string,
    /** Bytes of bundles the service keeps in memory. */
    readonly keptBytes: number,
    /** How to make the bundle again, where the caller knows the job (its request). */
    again = 'Start the export again',
  ) {
    super(
      `The bundle of job "${jobId}" was evicted: without a data folder the service keeps only the newest bundles (${(keptBytes / (1024 * 1024)).toFixed(1)} MiB in all). ${again}, or start the service with --data-dir to keep every bundle on disk.`,
    );
    this.name = 'BundleEvictedError';
  }
}
