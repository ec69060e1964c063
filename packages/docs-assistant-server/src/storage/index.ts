/**
 * Opens the service's storage: PostgreSQL when a database URL is given (`--database-url`,
 * `DATABASE_URL`), else SQLite under the data folder, else SQLite in memory. On the first open of
 * a data folder that still holds the `threads.jsonl` of earlier versions, its threads are copied
 * into the database in one transaction and the file is renamed `threads.jsonl.migrated`, never to
 * be read again.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { hashThreadKey, MAX_TURNS, THREADS_FILE } from '../threads.js';
import { PostgresDriver } from './postgres.js';
import { SqlStorage, turnBytes } from './sql.js';
import { SqliteDriver } from './sqlite.js';
import type { JobRecord, StoredThread, ThreadTurn } from './types.js';

export { redactDatabaseUrl } from './postgres.js';
export { DEFAULT_MEMORY_BUNDLE_BYTES } from './sql.js';
export { DEFAULT_INTEGRITY_CHECK_MAX_BYTES, SQLITE_FILE } from './sqlite.js';
export * from './types.js';

export interface StorageOptions {
  /** PostgreSQL URL (`postgres://user:password@host:5432/db`); wins over `dataDir`. */
  databaseUrl?: string;
  /** Folder of the embedded database (and export bundles); in memory without one. */
  dataDir?: string;
  warn?: (message: string) => void;
  /** Tests: the largest embedded database, in 4 KiB pages (to fill it). */
  maxPages?: number;
  /** Without a data folder: bytes of export bundles kept in memory. @default 32 MiB */
  memoryBundleBytes?: number;
  /** An embedded database file up to this size is checked at start. @default 512 MiB */
  integrityCheckMaxBytes?: number;
}

export function createStorage(options: StorageOptions): SqlStorage {
  const warn = options.warn ? { warn: options.warn } : {};
  if (options.databaseUrl) {
    return new SqlStorage(new PostgresDriver({ url: options.databaseUrl, ...warn }), warn);
  }
  return new SqlStorage(
    new SqliteDriver({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.maxPages ? { maxPages: options.maxPages } : {}),
      ...(options.integrityCheckMaxBytes !== undefined
        ? { integrityCheckMaxBytes: options.integrityCheckMaxBytes }
        : {}),
      ...warn,
    }),
    { ...warn, ...(options.memoryBundleBytes ? { memoryBundleBytes: options.memoryBundleBytes } : {}) },
  );
}

/** A line of `threads.jsonl`: a finished turn, or (without `turn`) a thread created with no turn yet. */
interface JsonlRecord {
  v: 1;
  threadId: string;
  /** Hashed key; files of the first versions held the plain `threadKey`. */
  threadKeyHash?: string;
  threadKey?: string;
  domain: string;
  fp: string;
  createdAt: string;
  turn?: ThreadTurn;
}

function isJsonlRecord(value: unknown): value is JsonlRecord {
  if (!value || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  const turn = record.turn as Record<string, unknown> | undefined;
  return (
    record.v === 1 &&
    typeof record.threadId === 'string' &&
    (typeof record.threadKeyHash === 'string' || typeof record.threadKey === 'string') &&
    typeof record.domain === 'string' &&
    typeof record.fp === 'string' &&
    (turn === undefined || (!!turn && typeof turn.question === 'string' && typeof turn.answer === 'string'))
  );
}

/** Threads of a `threads.jsonl`, in file order; bad lines are skipped with a warning. */
export async function readThreadsJsonl(
  file: string,
  warn: (message: string) => void,
): Promise<StoredThread[]> {
  const lines = (await readFile(file, 'utf8')).split('\n');
  const threads = new Map<string, StoredThread>();
  const hashes = new Map<string, string>();
  for (const [index, line] of lines.entries()) {
    if (!line.trim()) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      warn(
        index === lines.length - 1
          ? `${file}: skipped an incomplete last line (a write cut short, e.g. by a crash)`
          : `${file}: skipped line ${index + 1}, which is not valid JSON`,
      );
      continue;
    }
    if (!isJsonlRecord(record)) {
      warn(`${file}: skipped line ${index + 1}, which is not a thread record`);
      continue;
    }
    let keyHash = record.threadKeyHash;
    if (!keyHash) {
      const plain = record.threadKey ?? '';
      keyHash = hashes.get(plain) ?? (await hashThreadKey(plain));
      hashes.set(plain, keyHash);
    }
    let thread = threads.get(record.threadId);
    if (!thread) {
      thread = {
        id: record.threadId,
        keyHash,
        domain: record.domain,
        fp: record.fp,
        createdAt: record.createdAt,
        turns: [],
      };
      threads.set(thread.id, thread);
    }
    if (record.turn) {
      thread.turns.push({
        question: record.turn.question,
        answer: record.turn.answer,
        sources: Array.isArray(record.turn.sources) ? record.turn.sources.map(String) : [],
        at: typeof record.turn.at === 'string' ? record.turn.at : record.createdAt,
      });
    }
  }
  return [...threads.values()];
}

export interface JsonlMigrationHooks {
  /** Tests: awaited inside the import transaction, before it commits. */
  duringImport?: () => Promise<void>;
}

/**
 * Copies `<dataDir>/threads.jsonl` into the database, once: the threads, the marker that says it
 * was done and nothing else commit together, then the file is renamed. A process killed before the
 * commit imports again from scratch at the next start; killed between the commit and the rename, the
 * marker says the file is already in and it is only renamed. Returns the threads imported.
 */
export async function migrateThreadsJsonl(
  storage: SqlStorage,
  dataDir: string,
  options: { warn: (message: string) => void; maxThreadBytes: number; hooks?: JsonlMigrationHooks },
): Promise<number> {
  const file = join(dataDir, THREADS_FILE);
  // Temporary files of compactions of the old store that never finished: nothing reads them.
  const names = await readdir(dataDir).catch(() => [] as string[]);
  for (const name of names) {
    if (/^threads\.jsonl\.[^/]*\.tmp$/.test(name)) await rm(join(dataDir, name), { force: true });
  }
  if (!existsSync(file)) return 0;
  const threads = await readThreadsJsonl(file, options.warn);
  const imported = await storage.importThreads(threads, {
    maxThreadBytes: options.maxThreadBytes,
    maxTurns: MAX_TURNS,
    marker: `${THREADS_FILE}`,
    ...(options.hooks?.duringImport ? { duringImport: options.hooks.duringImport } : {}),
  });
  await rename(file, `${file}.migrated`);
  options.warn(
    imported === undefined
      ? `${file} was already in the database; renamed it to ${THREADS_FILE}.migrated`
      : `moved ${imported} thread(s) from ${file} into the database; the file is now ${THREADS_FILE}.migrated and is not read again`,
  );
  return imported ?? 0;
}

/**
 * Moves the export jobs of earlier versions (`<dataDir>/static-export/jobs/*.json`) into the
 * database, pointing completed ones at their bundle files (which stay where they are), then renames
 * the folder `jobs.migrated`. Safe to run again after a stop half-way: jobs already in are skipped.
 */
export async function migrateJobFiles(
  storage: SqlStorage,
  dataDir: string,
  warn: (message: string) => void,
): Promise<number> {
  const folder = join(dataDir, 'static-export', 'jobs');
  if (!existsSync(folder)) return 0;
  let imported = 0;
  for (const name of (await readdir(folder)).sort()) {
    if (!/^exp_[0-9a-f]{24}\.json$/.test(name)) continue;
    let job: JobRecord;
    try {
      job = JSON.parse(await readFile(join(folder, name), 'utf8')) as JobRecord;
    } catch {
      warn(`${join(folder, name)}: skipped, not a readable job record`);
      continue;
    }
    if (typeof job.jobId !== 'string' || typeof job.status !== 'string') continue;
    const bundle = `${job.jobId}.tar.gz`;
    const hasBundle =
      job.status === 'completed' && existsSync(join(dataDir, 'static-export', 'bundles', bundle));
    if (await storage.importJob({ ...job, attempts: job.attempts ?? 0 }, hasBundle ? bundle : undefined))
      imported++;
  }
  await rename(folder, `${folder}.migrated`);
  warn(`moved ${imported} export job(s) from ${folder} into the database; the folder is now jobs.migrated`);
  return imported;
}

export { turnBytes };
