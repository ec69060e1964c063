/**
 * The embedded database: SQLite through `better-sqlite3`, in `<dataDir>/docs-assistant.sqlite`
 * (write-ahead log: a committed transaction survives a kill of the process), or in memory without
 * a data folder. Chosen over PGlite by measuring both (bench/storage.ts):
 * start-up in tens of milliseconds instead of about a second, and several times the writes per
 * second of answer turns.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
// The native module is loaded when a database is opened, not when the package is imported: the
// `export` and `serve-bundle` commands never need it.
import type Database from 'better-sqlite3';
import type { Row, SqlDriver, SqlExecutor, SqlValue } from './sql.js';

export const SQLITE_FILE = 'docs-assistant.sqlite';

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
}

export class SqliteDriver implements SqlDriver {
  readonly mode;
  readonly description: string;
  readonly bytesType = 'BLOB' as const;
  readonly bundleDir: string | undefined;
  readonly exclusive = true;
  readonly #file: string;
  readonly #maxPages: number | undefined;
  #db: Database.Database | undefined;
  readonly #statements = new Map<string, Database.Statement>();
  // better-sqlite3 is synchronous on one connection: a transaction that awaits must not let other
  // work in between its statements, so operations run one after another.
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: SqliteOptions = {}) {
    this.mode = options.dataDir ? ('embedded' as const) : ('memory' as const);
    this.#file = options.dataDir ? join(options.dataDir, SQLITE_FILE) : ':memory:';
    this.description = options.dataDir ? `SQLite at ${this.#file}` : 'SQLite in memory';
    this.bundleDir = options.dataDir && join(options.dataDir, 'static-export', 'bundles');
    this.#maxPages = options.maxPages;
  }

  async connect(): Promise<void> {
    if (this.#db) return;
    if (this.#file !== ':memory:') mkdirSync(join(this.#file, '..'), { recursive: true });
    const { default: BetterSqlite3 } = await import('better-sqlite3');
    const db = new BetterSqlite3(this.#file);
    db.pragma('journal_mode = WAL');
    // In WAL mode NORMAL is safe against any crash of the process (kill -9 included): a committed
    // transaction is in the log before the call returns. Only a power cut may lose the last
    // commits, never corrupt the file; FULL would fsync each turn and rate-limit count, several
    // times slower on a busy disk.
    db.pragma('synchronous = NORMAL');
    // Another process holding the write lock (a second service on the same folder) waits, not fails.
    db.pragma('busy_timeout = 5000');
    // The log is folded into the database every 1 MiB and cut back to 2 MiB after, so the files stay
    // near what is kept (deleted pages are reused, never returned to the disk).
    db.pragma('wal_autocheckpoint = 256');
    db.pragma(`journal_size_limit = ${2 * 1024 * 1024}`);
    if (this.#maxPages) db.pragma(`max_page_count = ${this.#maxPages}`);
    this.#db = db;
  }

  #statement(sql: string): Database.Statement {
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
      const statement = this.#statement(text);
      if (statement.reader) return statement.all(...values) as Row[];
      statement.run(...values);
      return [];
    },
    run: async (sql, params = []) => {
      const { sql: text, values } = positional(sql, params);
      const statement = this.#statement(text);
      if (statement.reader) {
        statement.all(...values);
        return 0;
      }
      return statement.run(...values).changes;
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

  classify(error: unknown): 'unavailable' | 'full' | 'other' {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string') return 'other';
    if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'full';
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
