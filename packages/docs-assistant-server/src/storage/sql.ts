/**
 * The storage over SQL, shared by both databases: every operation is one statement or one
 * transaction, so a process killed at any point leaves each row either whole or absent. A driver
 * (`sqlite.ts`, `postgres.ts`) runs the statements; queries are written with `$1`-style parameters,
 * which the SQLite driver rewrites.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { forgetInsightText, type InsightBatchRows, InsightReads, writeInsightBatch } from './insights.js';
import { MIGRATIONS } from './schema.js';
import {
  BundleEvictedError,
  type FeedbackRecord,
  type JobPatch,
  type JobRecord,
  type RetentionPolicy,
  type Storage,
  StorageCorruptError,
  StorageDegradedError,
  StorageFullError,
  type StorageMode,
  StorageUnavailableError,
  type StoredShare,
  type StoredThread,
  type SweepResult,
  type ThreadCaps,
  type ThreadTurn,
  type Vote,
} from './types.js';

export type SqlValue = string | number | null | Uint8Array;
export type Row = Record<string, unknown>;

export interface SqlExecutor {
  all(sql: string, params?: SqlValue[]): Promise<Row[]>;
  /** Runs a statement; resolves with the number of rows it changed. */
  run(sql: string, params?: SqlValue[]): Promise<number>;
}

export interface SqlDriver extends SqlExecutor {
  readonly mode: StorageMode;
  readonly description: string;
  readonly bytesType: 'BLOB' | 'BYTEA';
  /** Folder of bundle files (embedded with a data folder); bundles go into the database without one. */
  readonly bundleDir?: string;
  /** Whether one process owns the database (SQLite): its running jobs at start are from a stop. */
  readonly exclusive: boolean;
  connect(): Promise<void>;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Taken inside the migration transaction so replicas starting together migrate one at a time. */
  lockMigrations(tx: SqlExecutor): Promise<void>;
  /** Which kind of failure an error of this database is. */
  classify(error: unknown): 'unavailable' | 'full' | 'corrupt' | 'other';
  close(): Promise<void>;
}

const num = (value: unknown): number => Number(value ?? 0);
const text = (value: unknown): string | undefined =>
  value === null || value === undefined ? undefined : String(value);

/** Bytes a turn takes (its JSON), the unit of the per-thread and total caps. */
export const turnBytes = (turn: ThreadTurn): number => Buffer.byteLength(JSON.stringify(turn), 'utf8');

const JOB_COLUMNS =
  'job_id, organization, domain, version, paths, status, progress, page_count, created_at, updated_at, error, size_bytes, attempts';

/** A job's values in the order of `JOB_COLUMNS`. */
const jobValues = (job: JobRecord): SqlValue[] => [
  job.jobId,
  job.organization,
  job.domain,
  job.version ?? null,
  job.paths ? JSON.stringify(job.paths) : null,
  job.status,
  job.progress,
  job.pageCount,
  job.createdAt,
  job.updatedAt,
  job.error ?? null,
  job.sizeBytes ?? null,
  job.attempts,
];

function jobFromRow(row: Row): JobRecord {
  const job: JobRecord = {
    jobId: String(row.job_id),
    organization: String(row.organization),
    domain: String(row.domain),
    status: String(row.status) as JobRecord['status'],
    progress: num(row.progress),
    pageCount: num(row.page_count),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
    attempts: num(row.attempts),
  };
  const version = text(row.version);
  if (version) job.version = version;
  const paths = text(row.paths);
  if (paths) job.paths = JSON.parse(paths) as string[];
  const error = text(row.error);
  if (error) job.error = error;
  if (row.size_bytes !== null && row.size_bytes !== undefined) job.sizeBytes = num(row.size_bytes);
  return job;
}

const TURNS_OF_THREAD = 'SELECT question, answer, sources, at FROM turns WHERE thread_id = $1';

/**
 * A thread from its row (`key_hash`, `domain`, `fp`, `created_at`) and its newest `maxTurns` turns;
 * with `beforeSeq`, only turns before it (those a share shows).
 */
async function readThread(
  driver: SqlExecutor,
  id: string,
  row: Row,
  maxTurns: number,
  beforeSeq?: number,
): Promise<StoredThread> {
  const newestFirst =
    beforeSeq === undefined
      ? await driver.all(`${TURNS_OF_THREAD} ORDER BY seq DESC LIMIT $2`, [id, maxTurns])
      : await driver.all(`${TURNS_OF_THREAD} AND seq < $2 ORDER BY seq DESC LIMIT $3`, [
          id,
          beforeSeq,
          maxTurns,
        ]);
  return {
    id,
    keyHash: String(row.key_hash),
    domain: String(row.domain),
    fp: String(row.fp),
    createdAt: String(row.created_at),
    turns: newestFirst.reverse().map((turn) => ({
      question: String(turn.question),
      answer: String(turn.answer),
      sources: JSON.parse(String(turn.sources)) as string[],
      at: String(turn.at),
    })),
  };
}

function feedbackFromRow(row: Row): FeedbackRecord {
  const record: FeedbackRecord = {
    threadId: String(row.thread_id),
    messageId: String(row.message_id),
    domain: String(row.domain),
    vote: String(row.vote) as Vote,
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  };
  const comment = text(row.comment);
  if (comment) record.comment = comment;
  return record;
}

const BUNDLE_TEMP = /\.tar\.gz\.[^/]*\.tmp$/;

/**
 * Bytes of export bundles a service without a data folder keeps in memory. Past it the oldest
 * bundles go (their jobs say so when asked for them); the newest always stays. @default 32 MiB
 */
export const DEFAULT_MEMORY_BUNDLE_BYTES = 32 * 1024 * 1024;

/** Most keys counted in memory while the database refuses writes (oldest windows go first). */
const FALLBACK_COUNTER_KEYS = 10_000;

export interface SqlStorageOptions {
  /** Told once when the database starts refusing writes (full, damaged) and once when it is back. */
  warn?: (message: string) => void;
  /** In memory (no data folder): bytes of bundles kept. @default DEFAULT_MEMORY_BUNDLE_BYTES */
  memoryBundleBytes?: number;
}

export class SqlStorage implements Storage {
  readonly mode: StorageMode;
  readonly description: string;
  readonly #driver: SqlDriver;
  readonly #warn: (message: string) => void;
  readonly #memoryBundleBytes: number;
  #opening: Promise<void> | undefined;
  /**
   * Set from the first write the database refused: while full, until a write that stores something
   * succeeds; while damaged, until the service restarts (the file does not mend, though writes to
   * its sound pages may still succeed, and the check at start moves it aside).
   */
  #degraded: StorageDegradedError | undefined;
  /** Rate-limit windows counted while the database refuses writes, so the limits still hold. */
  readonly #fallbackCounters = new Map<string, { windowStart: number; count: number }>();

  constructor(driver: SqlDriver, options: SqlStorageOptions = {}) {
    this.#driver = driver;
    this.mode = driver.mode;
    this.description = driver.description;
    this.#warn = options.warn ?? ((message) => console.warn(`[docs-assistant] ${message}`));
    this.#memoryBundleBytes = options.memoryBundleBytes ?? DEFAULT_MEMORY_BUNDLE_BYTES;
  }

  open(): Promise<void> {
    if (!this.#opening) {
      const opening = this.#guard(() => this.#migrate());
      this.#opening = opening;
      // A failed open is tried again by the next operation (the database may be back by then).
      opening.catch(() => {
        if (this.#opening === opening) this.#opening = undefined;
      });
    }
    return this.#opening;
  }

  async #migrate(): Promise<void> {
    const driver = this.#driver;
    await driver.connect();
    await driver.transaction(async (tx) => {
      await driver.lockMigrations(tx);
      await tx.run(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
      );
    });
    for (const migration of MIGRATIONS) {
      await driver.transaction(async (tx) => {
        await driver.lockMigrations(tx);
        const done = await tx.all('SELECT version FROM schema_migrations WHERE version = $1', [
          migration.version,
        ]);
        if (done.length) return;
        for (const statement of migration.statements) {
          await tx.run(statement.replaceAll('{{bytes}}', driver.bytesType));
        }
        await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          migration.version,
          migration.name,
          new Date().toISOString(),
        ]);
      });
    }
    if (driver.exclusive) {
      // One process owns an embedded database: a job still running at start-up lost its runner.
      await driver.run("UPDATE export_jobs SET lease_until = 0 WHERE status = 'running'");
    }
    if (driver.bundleDir) {
      await mkdir(driver.bundleDir, { recursive: true });
      // A bundle write that a stop cut short; no job row points at it.
      for (const name of await readdir(driver.bundleDir)) {
        if (BUNDLE_TEMP.test(name)) await rm(join(driver.bundleDir, name), { force: true });
      }
    }
  }

  /** Maps the database's errors to the ones the service treats specially. */
  async #guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof StorageUnavailableError) throw error;
      if (error instanceof StorageDegradedError) throw this.#degrade(error);
      const kind = this.#driver.classify(error);
      const reason = error instanceof Error ? error.message : String(error);
      if (kind === 'unavailable') throw new StorageUnavailableError(this.description, reason);
      if (kind === 'full') throw this.#degrade(new StorageFullError(this.description, reason));
      if (kind === 'corrupt') throw this.#degrade(new StorageCorruptError(this.description, reason));
      throw error;
    }
  }

  /** Says once that the database refuses writes, and what the service does meanwhile. */
  #degrade(error: StorageDegradedError): StorageDegradedError {
    if (this.#degraded?.kind !== error.kind) {
      this.#warn(
        `${error.message} Meanwhile the assistant answers without saving threads or turns, and counts rate limits in memory.`,
      );
    }
    this.#degraded = error;
    return error;
  }

  /** Runs an operation once the schema is ready. */
  #op<T>(work: (driver: SqlDriver) => Promise<T>): Promise<T> {
    return this.#guard(async () => {
      await this.open();
      return work(this.#driver);
    });
  }

  /**
   * A read of one thread or share: where the file is damaged it is as good as gone (the caller
   * answers as for an unknown thread, and the widget starts a new one), said once in the log.
   */
  async #unlessCorrupt<T>(work: (driver: SqlDriver) => Promise<T>): Promise<T | undefined> {
    try {
      return await this.#op(work);
    } catch (error) {
      if (error instanceof StorageCorruptError) return undefined;
      throw error;
    }
  }

  /**
   * An operation that writes: once one stores something after a full disk refused writes, that is
   * said too. `stored` tells a write that changed nothing (an append to a thread that was never
   * kept): its success says nothing about the disk, and taking it as one made the log say "full"
   * and "accepts writes again" on every request.
   */
  async #write<T>(
    work: (driver: SqlDriver) => Promise<T>,
    stored: (result: T) => boolean = () => true,
  ): Promise<T> {
    const result = await this.#op(work);
    if (this.#degraded?.kind === 'full' && stored(result)) {
      this.#warn(`The service's database (${this.description}) accepts writes again.`);
      this.#degraded = undefined;
      this.#fallbackCounters.clear();
    }
    return result;
  }

  async health(): Promise<{ ok: true; degraded?: 'full' | 'corrupt' } | { ok: false; error: string }> {
    try {
      await this.#op((driver) => driver.all('SELECT 1 AS ok'));
      return this.#degraded ? { ok: true, degraded: this.#degraded.kind } : { ok: true };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Writes a batch of insights (`insights.ts`) in one transaction. */
  recordInsights(batch: InsightBatchRows): Promise<void> {
    return this.#write((driver) => driver.transaction((tx) => writeInsightBatch(tx, batch)));
  }

  /** Reads insights' tables. */
  readInsights<T>(work: (reads: InsightReads) => Promise<T>): Promise<T> {
    return this.#op((driver) => work(new InsightReads(driver)));
  }

  /** Empties readers' words recorded before `before` (ms); resolves with the questions emptied. */
  forgetInsightText(before: number): Promise<number> {
    return this.#write((driver) => driver.transaction((tx) => forgetInsightText(tx, before)));
  }

  setting(name: string, fallback: string): Promise<string> {
    return this.#op(async (driver) => {
      await driver.run('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
        name,
        fallback,
      ]);
      const rows = await driver.all('SELECT value FROM settings WHERE name = $1', [name]);
      return String(rows[0]?.value ?? fallback);
    });
  }

  // Threads

  createThread(thread: Omit<StoredThread, 'turns'>, now: number): Promise<void> {
    return this.#write(async (driver) => {
      await driver.run(
        'INSERT INTO threads (id, key_hash, domain, fp, created_at, updated_ms) VALUES ($1, $2, $3, $4, $5, $6)',
        [thread.id, thread.keyHash, thread.domain, thread.fp, thread.createdAt, now],
      );
    });
  }

  getThread(id: string, maxTurns: number): Promise<StoredThread | undefined> {
    return this.#unlessCorrupt(async (driver) => {
      const rows = await driver.all(
        'SELECT id, key_hash, domain, fp, created_at FROM threads WHERE id = $1',
        [id],
      );
      const row = rows[0];
      return row ? readThread(driver, String(row.id), row, maxTurns) : undefined;
    });
  }

  appendTurn(threadId: string, turn: ThreadTurn, caps: ThreadCaps, now: number): Promise<boolean> {
    const bytes = turnBytes(turn);
    return this.#write(
      (driver) =>
        driver.transaction(async (tx) => {
          // The update takes the thread's row lock first, so two replicas appending to one thread queue.
          const updated = await tx.all(
            'UPDATE threads SET next_seq = next_seq + 1, turn_count = turn_count + 1, bytes = bytes + $2, updated_ms = $3 WHERE id = $1 RETURNING next_seq, turn_count, bytes',
            [threadId, bytes, now],
          );
          const row = updated[0];
          if (!row) return false;
          await tx.run(
            'INSERT INTO turns (thread_id, seq, question, answer, sources, at, bytes) VALUES ($1, $2, $3, $4, $5, $6, $7)',
            [
              threadId,
              num(row.next_seq) - 1,
              turn.question,
              turn.answer,
              JSON.stringify(turn.sources),
              turn.at,
              bytes,
            ],
          );
          let count = num(row.turn_count);
          let total = num(row.bytes);
          if (count <= caps.maxTurns && total <= caps.maxThreadBytes) return true;
          // Oldest first; the newest turn always stays.
          const turns = await tx.all('SELECT seq, bytes FROM turns WHERE thread_id = $1 ORDER BY seq ASC', [
            threadId,
          ]);
          let cut = -1;
          let removed = 0;
          let removedBytes = 0;
          for (const old of turns.slice(0, -1)) {
            if (count <= caps.maxTurns && total <= caps.maxThreadBytes) break;
            cut = num(old.seq);
            count -= 1;
            total -= num(old.bytes);
            removed += 1;
            removedBytes += num(old.bytes);
          }
          if (removed) {
            await tx.run('DELETE FROM turns WHERE thread_id = $1 AND seq <= $2', [threadId, cut]);
            await tx.run(
              'UPDATE threads SET turn_count = turn_count - $2, bytes = bytes - $3 WHERE id = $1',
              [threadId, removed, removedBytes],
            );
          }
          return true;
        }),
      (stored) => stored,
    );
  }

  threadStats(): Promise<{ threads: number; bytes: number }> {
    return this.#op(async (driver) => {
      const rows = await driver.all(
        'SELECT COUNT(*) AS threads, COALESCE(SUM(bytes), 0) AS bytes FROM threads',
      );
      return { threads: num(rows[0]?.threads), bytes: num(rows[0]?.bytes) };
    });
  }

  // Shares

  createShare(share: StoredShare, maxPerThread: number): Promise<boolean> {
    return this.#op((driver) =>
      driver.transaction(async (tx) => {
        // Locks the thread's row (PostgreSQL), so two shares at once count each other.
        const rows = await tx.all('UPDATE threads SET next_seq = next_seq WHERE id = $1 RETURNING next_seq', [
          share.threadId,
        ]);
        const thread = rows[0];
        if (!thread) return false;
        const count = await tx.all('SELECT COUNT(*) AS n FROM shares WHERE thread_id = $1', [share.threadId]);
        if (num(count[0]?.n) >= maxPerThread) return false;
        await tx.run(
          'INSERT INTO shares (id_hash, thread_id, created_at, upto_seq) VALUES ($1, $2, $3, $4)',
          [share.idHash, share.threadId, share.createdAt, num(thread.next_seq)],
        );
        return true;
      }),
    );
  }

  getShare(
    idHash: string,
    maxTurns: number,
  ): Promise<{ share: StoredShare; thread: StoredThread } | undefined> {
    return this.#unlessCorrupt(async (driver) => {
      const rows = await driver.all(
        'SELECT s.thread_id, s.created_at AS shared_at, s.upto_seq, t.key_hash, t.domain, t.fp, t.created_at FROM shares s JOIN threads t ON t.id = s.thread_id WHERE s.id_hash = $1',
        [idHash],
      );
      const row = rows[0];
      if (!row) return undefined;
      const threadId = String(row.thread_id);
      return {
        share: { idHash, threadId, createdAt: String(row.shared_at) },
        thread: await readThread(driver, threadId, row, maxTurns, num(row.upto_seq)),
      };
    });
  }

  deleteShare(idHash: string, threadId: string): Promise<boolean> {
    return this.#op(
      async (driver) =>
        (await driver.run('DELETE FROM shares WHERE id_hash = $1 AND thread_id = $2', [idHash, threadId])) >
        0,
    );
  }

  /** Removes threads (with their turns) in one transaction. */
  async #removeThreads(driver: SqlDriver, ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += 500) {
      const batch = ids.slice(i, i + 500);
      const marks = batch.map((_, n) => `$${n + 1}`).join(', ');
      await driver.transaction(async (tx) => {
        await tx.run(`DELETE FROM turns WHERE thread_id IN (${marks})`, batch);
        await tx.run(`DELETE FROM shares WHERE thread_id IN (${marks})`, batch);
        await tx.run(`DELETE FROM threads WHERE id IN (${marks})`, batch);
      });
    }
  }

  sweep(policy: RetentionPolicy, now: number): Promise<SweepResult> {
    return this.#op(async (driver) => {
      const result: SweepResult = { threadsRemoved: 0, jobsRemoved: 0, rateLimitRowsRemoved: 0 };
      if (policy.olderThan !== undefined) {
        const old = await driver.all('SELECT id FROM threads WHERE updated_ms < $1', [policy.olderThan]);
        const ids = old.map((row) => String(row.id));
        await this.#removeThreads(driver, ids);
        result.threadsRemoved += ids.length;
        const cutoff = new Date(policy.olderThan).toISOString();
        const jobs = await driver.all(
          "SELECT job_id, bundle FROM export_jobs WHERE status IN ('completed', 'failed') AND updated_at < $1",
          [cutoff],
        );
        for (const job of jobs) {
          const jobId = String(job.job_id);
          await driver.transaction(async (tx) => {
            await tx.run('DELETE FROM export_bundles WHERE job_id = $1', [jobId]);
            await tx.run('DELETE FROM export_jobs WHERE job_id = $1', [jobId]);
          });
          if (driver.bundleDir) await rm(join(driver.bundleDir, `${jobId}.tar.gz`), { force: true });
        }
        result.jobsRemoved = jobs.length;
      }
      if (policy.maxStoredBytes !== undefined || policy.maxThreads !== undefined) {
        const stats = await driver.all(
          'SELECT COUNT(*) AS threads, COALESCE(SUM(bytes), 0) AS bytes FROM threads',
        );
        let threads = num(stats[0]?.threads);
        let bytes = num(stats[0]?.bytes);
        const maxBytes = policy.maxStoredBytes ?? Number.POSITIVE_INFINITY;
        const maxThreads = policy.maxThreads ?? Number.POSITIVE_INFINITY;
        if (threads > maxThreads || bytes > maxBytes) {
          // Least recently used first; the most recent thread always stays.
          const rows = await driver.all('SELECT id, bytes FROM threads ORDER BY updated_ms ASC, id ASC');
          const ids: string[] = [];
          for (const row of rows.slice(0, -1)) {
            if (threads <= maxThreads && bytes <= maxBytes) break;
            ids.push(String(row.id));
            threads -= 1;
            bytes -= num(row.bytes);
          }
          await this.#removeThreads(driver, ids);
          result.threadsRemoved += ids.length;
        }
      }
      result.rateLimitRowsRemoved = await driver.run('DELETE FROM rate_limits WHERE window_end <= $1', [now]);
      return result;
    });
  }

  /**
   * Imports threads of the old `threads.jsonl` in one transaction with `marker` in the settings;
   * undefined (nothing imported) when the marker is already there. Each thread keeps its newest
   * turns within the caps.
   */
  importThreads(
    threads: StoredThread[],
    options: ThreadCaps & { marker: string; duringImport?: () => Promise<void> },
  ): Promise<number | undefined> {
    return this.#op((driver) =>
      driver.transaction(async (tx) => {
        const name = `imported:${options.marker}`;
        if ((await tx.all('SELECT value FROM settings WHERE name = $1', [name])).length) return undefined;
        let imported = 0;
        for (const thread of threads) {
          if ((await tx.all('SELECT id FROM threads WHERE id = $1', [thread.id])).length) continue;
          const kept: ThreadTurn[] = [];
          let bytes = 0;
          for (const turn of [...thread.turns].reverse()) {
            const size = turnBytes(turn);
            if (kept.length && (kept.length >= options.maxTurns || bytes + size > options.maxThreadBytes))
              break;
            kept.unshift(turn);
            bytes += size;
          }
          const last = kept.at(-1)?.at ?? thread.createdAt;
          const used = Number.isFinite(Date.parse(last)) ? Date.parse(last) : Date.now();
          await tx.run(
            'INSERT INTO threads (id, key_hash, domain, fp, created_at, updated_ms, bytes, turn_count, next_seq) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)',
            [thread.id, thread.keyHash, thread.domain, thread.fp, thread.createdAt, used, bytes, kept.length],
          );
          for (const [seq, turn] of kept.entries()) {
            await tx.run(
              'INSERT INTO turns (thread_id, seq, question, answer, sources, at, bytes) VALUES ($1, $2, $3, $4, $5, $6, $7)',
              [
                thread.id,
                seq,
                turn.question,
                turn.answer,
                JSON.stringify(turn.sources),
                turn.at,
                turnBytes(turn),
              ],
            );
          }
          imported++;
        }
        await options.duringImport?.();
        await tx.run('INSERT INTO settings (name, value) VALUES ($1, $2)', [name, new Date().toISOString()]);
        return imported;
      }),
    );
  }

  /**
   * Imports a job record of the JSON files of earlier versions, with its bundle file when it has
   * one; a job already in the database is left as it is. True when imported.
   */
  importJob(job: JobRecord, bundleFile: string | undefined): Promise<boolean> {
    return this.#op((driver) =>
      driver.transaction(async (tx) => {
        if ((await tx.all('SELECT job_id FROM export_jobs WHERE job_id = $1', [job.jobId])).length)
          return false;
        await tx.run(
          `INSERT INTO export_jobs (${JOB_COLUMNS}, bundle) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
          [...jobValues(job), bundleFile ? `file:${bundleFile}` : null],
        );
        return true;
      }),
    );
  }

  // Feedback

  recordFeedback(
    input: { threadId: string; messageId: string; domain: string; vote: Vote; comment?: string },
    now: number,
  ): Promise<FeedbackRecord> {
    const stamp = new Date(now).toISOString();
    return this.#write(async (driver) => {
      const rows = await driver.all(
        `INSERT INTO feedback (thread_id, message_id, domain, vote, comment, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6)
         ON CONFLICT (thread_id, message_id) DO UPDATE SET vote = excluded.vote, comment = excluded.comment, updated_at = excluded.updated_at
         RETURNING thread_id, message_id, domain, vote, comment, created_at, updated_at`,
        [input.threadId, input.messageId, input.domain, input.vote, input.comment ?? null, stamp],
      );
      return feedbackFromRow(rows[0]!);
    });
  }

  listFeedback(domain: string, options: { limit?: number; since?: string } = {}): Promise<FeedbackRecord[]> {
    return this.#op(async (driver) => {
      const rows = await driver.all(
        'SELECT thread_id, message_id, domain, vote, comment, created_at, updated_at FROM feedback WHERE domain = $1 AND updated_at >= $2 ORDER BY updated_at DESC, thread_id, message_id LIMIT $3',
        [domain, options.since ?? '', options.limit ?? 1000],
      );
      return rows.map(feedbackFromRow);
    });
  }

  feedbackMessageIds(threadId: string): Promise<string[]> {
    return this.#op(async (driver) => {
      const rows = await driver.all('SELECT message_id FROM feedback WHERE thread_id = $1', [threadId]);
      return rows.map((row) => String(row.message_id));
    });
  }

  // Rate limits

  incrementCounter(
    key: string,
    windowMs: number,
    now: number,
  ): Promise<{ count: number; windowStart: number }> {
    const windowStart = Math.floor(now / windowMs) * windowMs;
    // While the database refuses writes the window is counted here, as the log said (per replica,
    // so a shared limit is looser until the database is back). Not tried there meanwhile: a counter
    // row updated in place may fit where nothing else does, and its success is no sign of room.
    if (this.#degraded) return Promise.resolve(this.#countInMemory(key, windowStart));
    const upsert = async (executor: SqlExecutor) => {
      // One statement: the row lock (PostgreSQL) or the write lock (SQLite) makes it atomic across replicas.
      const rows = await executor.all(
        `INSERT INTO rate_limits (key, window_start, window_end, count) VALUES ($1, $2, $3, 1)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.count + 1 ELSE 1 END,
           window_start = excluded.window_start, window_end = excluded.window_end
         RETURNING count, window_start`,
        [key, windowStart, windowStart + windowMs],
      );
      return { count: num(rows[0]?.count), windowStart: num(rows[0]?.window_start) };
    };
    const counted = this.#op((driver) => {
      if (driver.mode !== 'postgres') return upsert(driver);
      // A counter need not outlive a crash of the server: its commit does not wait for the disk, so
      // the row (one per organization, shared by every replica) is locked for microseconds, not for
      // an fsync.
      return driver.transaction(async (tx) => {
        await tx.run('SET LOCAL synchronous_commit TO OFF');
        return upsert(tx);
      });
    });
    // A full or damaged database must not stop the answers it cannot save.
    return counted.catch((error: unknown) => {
      if (!(error instanceof StorageDegradedError)) throw error;
      return this.#countInMemory(key, windowStart);
    });
  }

  #countInMemory(key: string, windowStart: number): { count: number; windowStart: number } {
    const counters = this.#fallbackCounters;
    let counter = counters.get(key);
    if (!counter || counter.windowStart !== windowStart) {
      counters.delete(key);
      if (counters.size >= FALLBACK_COUNTER_KEYS) counters.delete(counters.keys().next().value!);
      counter = { windowStart, count: 0 };
      counters.set(key, counter);
    }
    counter.count += 1;
    return { count: counter.count, windowStart };
  }

  // Export jobs

  insertJob(job: JobRecord): Promise<void> {
    return this.#write(async (driver) => {
      await driver.run(
        `INSERT INTO export_jobs (${JOB_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        jobValues(job),
      );
    });
  }

  getJob(jobId: string): Promise<JobRecord | undefined> {
    return this.#op(async (driver) => {
      const rows = await driver.all(`SELECT ${JOB_COLUMNS} FROM export_jobs WHERE job_id = $1`, [jobId]);
      return rows[0] ? jobFromRow(rows[0]) : undefined;
    });
  }

  claimJob(
    runner: string,
    now: number,
    leaseMs: number,
    maxAttempts: number,
  ): Promise<JobRecord | undefined> {
    const stamp = new Date(now).toISOString();
    return this.#op(async (driver) => {
      await driver.run(
        `UPDATE export_jobs SET status = 'failed', updated_at = $2, runner = NULL,
           error = 'the service stopped while this job was running, ' || attempts || ' times; start a new export job'
         WHERE status = 'running' AND lease_until < $1 AND attempts >= $3`,
        [now, stamp, maxAttempts],
      );
      // Another replica may take a candidate first: the conditional update then changes nothing.
      for (let tries = 0; tries < 5; tries++) {
        const candidates = await driver.all(
          "SELECT job_id FROM export_jobs WHERE status = 'queued' OR (status = 'running' AND lease_until < $1) ORDER BY created_at ASC, job_id ASC LIMIT 1",
          [now],
        );
        const jobId = candidates[0]?.job_id;
        if (jobId === undefined) return undefined;
        const claimed = await driver.all(
          `UPDATE export_jobs SET status = 'running', progress = 0, page_count = 0, attempts = attempts + 1,
             runner = $2, lease_until = $3, updated_at = $4
           WHERE job_id = $1 AND (status = 'queued' OR (status = 'running' AND lease_until < $5))
           RETURNING ${JOB_COLUMNS}`,
          [String(jobId), runner, now + leaseMs, stamp, now],
        );
        if (claimed[0]) return jobFromRow(claimed[0]);
      }
      return undefined;
    });
  }

  updateJob(jobId: string, runner: string, patch: JobPatch, leaseUntil: number): Promise<boolean> {
    const sets = ['updated_at = $3', 'lease_until = $4'];
    const values: SqlValue[] = [jobId, runner, patch.updatedAt, leaseUntil];
    const columns: [keyof JobPatch, string][] = [
      ['status', 'status'],
      ['progress', 'progress'],
      ['pageCount', 'page_count'],
      ['error', 'error'],
      ['sizeBytes', 'size_bytes'],
    ];
    for (const [field, column] of columns) {
      const value = patch[field];
      if (value === undefined) continue;
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    }
    return this.#write(
      async (driver) =>
        (await driver.run(
          `UPDATE export_jobs SET ${sets.join(', ')} WHERE job_id = $1 AND runner = $2 AND status = 'running'`,
          values,
        )) > 0,
      (held) => held,
    );
  }

  renewLeases(runner: string, leaseUntil: number): Promise<void> {
    return this.#op(async (driver) => {
      await driver.run("UPDATE export_jobs SET lease_until = $2 WHERE runner = $1 AND status = 'running'", [
        runner,
        leaseUntil,
      ]);
    });
  }

  releaseJobs(runner: string): Promise<void> {
    return this.#op(async (driver) => {
      await driver.run("UPDATE export_jobs SET lease_until = 0 WHERE runner = $1 AND status = 'running'", [
        runner,
      ]);
    });
  }

  putBundle(jobId: string, bytes: Uint8Array): Promise<void> {
    return this.#write(async (driver) => {
      if (driver.bundleDir) {
        // Written whole under a temporary name, then renamed: a stop mid-write leaves no partial bundle.
        const file = join(driver.bundleDir, `${jobId}.tar.gz`);
        const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
        try {
          await writeFile(temp, bytes);
          await rename(temp, file);
        } catch (error) {
          await rm(temp, { force: true });
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC')
            throw new StorageFullError(
              this.description,
              `no space left for the bundle in ${driver.bundleDir}`,
            );
          throw error;
        }
        await driver.run('UPDATE export_jobs SET bundle = $2 WHERE job_id = $1', [
          jobId,
          `file:${jobId}.tar.gz`,
        ]);
        return;
      }
      await driver.transaction(async (tx) => {
        await tx.run(
          'INSERT INTO export_bundles (job_id, data) VALUES ($1, $2) ON CONFLICT (job_id) DO UPDATE SET data = excluded.data',
          [jobId, bytes],
        );
        await tx.run("UPDATE export_jobs SET bundle = 'database' WHERE job_id = $1", [jobId]);
        if (driver.mode === 'memory') await this.#evictBundles(tx, jobId);
      });
    });
  }

  /**
   * In memory, bundles past `memoryBundleBytes` go, the oldest first (SQLite's rowid is the order
   * they were stored in); the one just stored stays. Their jobs are marked, so asking for the
   * bundle says it was evicted rather than that it never existed.
   */
  async #evictBundles(tx: SqlExecutor, keep: string): Promise<void> {
    const rows = await tx.all('SELECT job_id, length(data) AS bytes FROM export_bundles ORDER BY rowid DESC');
    let total = 0;
    const evicted: string[] = [];
    for (const row of rows) {
      total += num(row.bytes);
      if (total > this.#memoryBundleBytes && String(row.job_id) !== keep) evicted.push(String(row.job_id));
    }
    for (const jobId of evicted) {
      await tx.run('DELETE FROM export_bundles WHERE job_id = $1', [jobId]);
      await tx.run("UPDATE export_jobs SET bundle = 'evicted' WHERE job_id = $1", [jobId]);
    }
  }

  getBundle(jobId: string): Promise<Uint8Array | undefined> {
    return this.#op(async (driver) => {
      const rows = await driver.all('SELECT bundle FROM export_jobs WHERE job_id = $1', [jobId]);
      const where = text(rows[0]?.bundle);
      if (!where) return undefined;
      if (where === 'evicted') throw new BundleEvictedError(jobId, this.#memoryBundleBytes);
      if (where.startsWith('file:')) {
        if (!driver.bundleDir) return undefined;
        try {
          return await readFile(join(driver.bundleDir, where.slice('file:'.length)));
        } catch {
          return undefined;
        }
      }
      const data = await driver.all('SELECT data FROM export_bundles WHERE job_id = $1', [jobId]);
      const bytes = data[0]?.data;
      // Not `instanceof Uint8Array`: under a DOM test environment the driver's Buffer comes from
      // another realm than the global Uint8Array.
      return ArrayBuffer.isView(bytes)
        ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
        : undefined;
    });
  }

  close(): Promise<void> {
    return this.#driver.close();
  }
}
