/**
 * The embedded database: SQLite (`node:sqlite` where Node has it, else `better-sqlite3`: see
 * `sqlite-binding.ts`), in `<dataDir>/docs-assistant.sqlite`
 * (write-ahead log: a committed transaction survives a kill of the process), or in memory without
 * a data folder. Chosen over PGlite by measuring both (bench/storage.ts):
 * start-up in tens of milliseconds instead of about a second, and several times the writes per
 * second of answer turns.
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
// The library is loaded when a database is opened, not when the package is imported: the `export`
// and `serve-bundle` commands never need it.
import type { Row, SqlDriver, SqlExecutor, SqlValue } from './sql.js';
import {
  openSqlite,
  type SqliteConnection,
  type SqliteLibrary,
  type SqliteStatement,
  sqliteErrorCode,
} from './sqlite-binding.js';

export const SQLITE_FILE = 'docs-assistant.sqlite';

/**
 * Largest database file checked at start (in bytes). `PRAGMA quick_check` reads every page once
 * (a few hundred MB a second from the page cache), so this bounds the start-up to a second or
 * two; a bigger file starts unchecked, and damage found while running still degrades, never 500s.
 * The threads kept are capped at 128 MiB by default (`maxStoredBytes`), so a file this big is rare.
 * @default 512 MiB
 */
export const DEFAULT_INTEGRITY_CHECK_MAX_BYTES = 512 * 1024 * 1024;

/** Error codes of SQLite for a file that is damaged or is not a database at all. */
const isCorruptCode = (code: string | undefined): boolean =>
  code !== undefined && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');

/** `$1`-style parameters to SQLite's `?`, with the values in the order the marks appear. */
function positional(sql: string, params: SqlValue[]): { sql: string; values: SqlValue[] } {
  const values: SqlValue[] = [];
  const rewritten = sql.replace(/\$(\d+)/g, (_, n: string) => {
    values.push(params[Number(n) - 1] ?? null);
    return '?';
  });
  return { sql: rewritten, values };
}

export interface SqliteOptions {
  /** Folder of the database file and bundle files; in memory without one. */
  dataDir?: string;
  /** Largest size of the database, in pages of 4 KiB (tests fill it to see a full disk). */
  maxPages?: number;
  /** A file up to this size is checked at start. @default DEFAULT_INTEGRITY_CHECK_MAX_BYTES */
  integrityCheckMaxBytes?: number;
  /** Told when the file is moved aside or is too big to check. @default console.warn */
  warn?: (message: string) => void;
  /** The SQLite library. @default `node:sqlite` where this Node has it, else `better-sqlite3` */
  library?: SqliteLibrary;
}

export class SqliteDriver implements SqlDriver {
  readonly mode;
  readonly description: string;
  readonly bytesType = 'BLOB' as const;
  readonly bundleDir: string | undefined;
  readonly exclusive = true;
  readonly #file: string;
  readonly #maxPages: number | undefined;
  readonly #checkMaxBytes: number;
  readonly #warn: (message: string) => void;
  readonly #library: SqliteLibrary | undefined;
  #db: SqliteConnection | undefined;
  readonly #statements = new Map<string, SqliteStatement>();
  // Both SQLite libraries are synchronous on one connection: a transaction that awaits must not let other
  // work in between its statements, so operations run one after another.
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: SqliteOptions = {}) {
    this.mode = options.dataDir ? ('embedded' as const) : ('memory' as const);
    this.#file = options.dataDir ? join(options.dataDir, SQLITE_FILE) : ':memory:';
    this.description = options.dataDir ? `SQLite at ${this.#file}` : 'SQLite in memory';
    this.bundleDir = options.dataDir && join(options.dataDir, 'static-export', 'bundles');
    this.#maxPages = options.maxPages;
    this.#checkMaxBytes = options.integrityCheckMaxBytes ?? DEFAULT_INTEGRITY_CHECK_MAX_BYTES;
    this.#warn = options.warn ?? ((message) => console.warn(`[docs-assistant] ${message}`));
    this.#library = options.library;
  }

  async connect(): Promise<void> {
    if (this.#db) return;
    if (this.#file !== ':memory:') mkdirSync(join(this.#file, '..'), { recursive: true });
    if (this.#file !== ':memory:') await this.#checkFile();
    const db = await openSqlite(this.#file, this.#library);
    const pragma = (setting: string) => db.exec(`PRAGMA ${setting}`);
    pragma('journal_mode = WAL');
    // In WAL mode NORMAL is safe against any crash of the process (kill -9 included): a committed
    // transaction is in the log before the call returns. Only a power cut may lose the last
    // commits, never corrupt the file; FULL would fsync each turn and rate-limit count, several
    // times slower on a busy disk.
    pragma('synchronous = NORMAL');
    // Another process holding the write lock (a second service on the same folder) waits, not fails.
    pragma('busy_timeout = 5000');
    // The log is folded into the database every 1 MiB and cut back to 2 MiB after, so the files stay
    // near what is kept (deleted pages are reused, never returned to the disk).
    pragma('wal_autocheckpoint = 256');
    pragma(`journal_size_limit = ${2 * 1024 * 1024}`);
    if (this.#maxPages) pragma(`max_page_count = ${this.#maxPages}`);
    this.#db = db;
  }

  /**
   * Checks an existing file with `PRAGMA quick_check` (every page's structure, not the indexes'
   * agreement with their tables, which `integrity_check` adds at several times the cost) and moves
   * a damaged one aside, with its write-ahead log, so the service starts on a new database instead
   * of answering 500 to every request. Nothing is deleted: what SQLite can still read of the old
   * file is recovered with its `.recover` command, which the warning names.
   */
  async #checkFile(): Promise<void> {
    const file = this.#file;
    if (!existsSync(file)) return;
    const size = statSync(file).size;
    if (size > this.#checkMaxBytes) {
      this.#warn(
        `${file} is ${Math.round(size / (1024 * 1024))} MiB, more than the ${Math.round(this.#checkMaxBytes / (1024 * 1024))} MiB checked at start; started without checking it (damage found while running stops saving, not answering).`,
      );
      return;
    }
    let problem: string | undefined;
    let db: SqliteConnection | undefined;
    try {
      db = await openSqlite(file, this.#library);
      const rows = db.prepare('PRAGMA quick_check(3)').all([]);
      const found = rows.map((row) => String(Object.values(row)[0])).filter((line) => line !== 'ok');
      if (found.length) problem = found.join('; ');
    } catch (error) {
      if (!isCorruptCode(sqliteErrorCode(error))) {
        db?.close();
        throw error;
      }
      problem = (error as Error).message;
    }
    db?.close();
    if (!problem) return;
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const aside = `${file}.damaged-${stamp}`;
    renameSync(file, aside);
    if (existsSync(`${file}-wal`)) renameSync(`${file}-wal`, `${aside}-wal`);
    // The shared-memory index is rebuilt from the log; it holds nothing of its own.
    rmSync(`${file}-shm`, { force: true });
    this.#warn(
      `${file} is damaged (${problem}). Moved it to ${aside} and started a new, empty database at ${file}: ` +
        'the assistant answers as before, but earlier threads (readers start new ones), export jobs, feedback and bundle links are not in it. ' +
        `Nothing was deleted; to get back what SQLite can still read, stop the service and run: sqlite3 ${aside} .recover | sqlite3 recovered.sqlite`,
    );
  }

  #statement(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      if (!this.#db) throw new Error('the SQLite database is not open');
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #serial<T>(work: () => T | Promise<T>): Promise<T> {
    const run = this.#queue.then(work);
    this.#queue = run.catch(() => {});
    return run;
  }

  #executor: SqlExecutor = {
    all: async (sql, params = []) => {
      const { sql: text, values } = positional(sql, params);
      return this.#statement(text).all(values);
    },
    run: async (sql, params = []) => {
      const { sql: text, values } = positional(sql, params);
      return this.#statement(text).run(values);
    },
  };

  all(sql: string, params?: SqlValue[]): Promise<Row[]> {
    return this.#serial(() => this.#executor.all(sql, params));
  }

  run(sql: string, params?: SqlValue[]): Promise<number> {
    return this.#serial(() => this.#executor.run(sql, params));
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.#serial(async () => {
      const db = this.#db;
      if (!db) throw new Error('the SQLite database is not open');
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(this.#executor);
        db.exec('COMMIT');
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  async lockMigrations(): Promise<void> {
    // BEGIN IMMEDIATE already holds SQLite's write lock.
  }

  classify(error: unknown): 'unavailable' | 'full' | 'corrupt' | 'other' {
    const code = sqliteErrorCode(error);
    if (code === undefined) return 'other';
    if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'full';
    if (isCorruptCode(code)) return 'corrupt';
    if (code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_BUSY' || code.startsWith('SQLITE_IOERR'))
      return 'unavailable';
    return 'other';
  }

  async close(): Promise<void> {
    await this.#queue;
    this.#statements.clear();
    this.#db?.close();
    this.#db = undefined;
  }
}
