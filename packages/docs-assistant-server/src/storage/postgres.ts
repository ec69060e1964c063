/**
 * PostgreSQL through `pg`, for several replicas of the service on one database
 * (`--database-url postgres://…` or `DATABASE_URL`). A pool of connections; a server that goes
 * away makes operations fail with `unavailable` (503) until it answers again, and the pool
 * reconnects by itself.
 */
// Loaded when the database is first reached, so the embedded mode never loads it.
import type pg from 'pg';
import type { Row, SqlDriver, SqlExecutor, SqlValue } from './sql.js';

/** The URL without its password, for logs and `/health`. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

// Arbitrary key of the advisory lock that makes replicas starting together migrate one at a time.
const MIGRATION_LOCK = 7_346_201;

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

export interface PostgresOptions {
  url: string;
  /** Connections kept open. @default 10 */
  maxConnections?: number;
  warn?: (message: string) => void;
}

export class PostgresDriver implements SqlDriver {
  readonly mode = 'postgres' as const;
  readonly description: string;
  readonly bytesType = 'BYTEA' as const;
  readonly exclusive = false;
  readonly #url: string;
  readonly #maxConnections: number;
  readonly #warn: (message: string) => void;
  #pool: pg.Pool | undefined;

  constructor(options: PostgresOptions) {
    if (!/^postgres(ql)?:\/\//.test(options.url)) {
      throw new Error(
        `The database URL must start with postgres:// or postgresql:// (got "${redactDatabaseUrl(options.url)}").`,
      );
    }
    this.description = `PostgreSQL at ${redactDatabaseUrl(options.url)}`;
    this.#url = options.url;
    this.#maxConnections = options.maxConnections ?? 10;
    this.#warn = options.warn ?? (() => {});
  }

  async connect(): Promise<void> {
    if (!this.#pool) {
      const { default: pgModule } = await import('pg');
      const pool = new pgModule.Pool({
        connectionString: this.#url,
        max: this.#maxConnections,
        connectionTimeoutMillis: 5_000,
        idleTimeoutMillis: 30_000,
      });
      // An idle connection the server closed (a restart) must not crash the process: the pool drops it.
      pool.on('error', (error) => this.#warn(`database connection lost: ${error.message}`));
      this.#pool ??= pool;
    }
    const client = await this.#pool.connect();
    client.release();
  }

  /** The pool, once `connect` made it (every operation opens the storage first). */
  get #ready(): pg.Pool {
    if (!this.#pool) throw new Error('the PostgreSQL pool is not open yet');
    return this.#pool;
  }

  #executor(client: pg.Pool | pg.PoolClient): SqlExecutor {
    return {
      all: async (sql, params = []) => (await client.query(sql, params)).rows as Row[],
      run: async (sql, params = []) => (await client.query(sql, params)).rowCount ?? 0,
    };
  }

  /**
   * Runs `attempt` again once when it failed on a broken connection: after the server restarted,
   * the pool may still hold connections to the old one, and the first use of each fails.
   */
  async #retried<T>(attempt: () => Promise<T>): Promise<T> {
    try {
      return await attempt();
    } catch (error) {
      if (this.classify(error) !== 'unavailable') throw error;
      return attempt();
    }
  }

  all(sql: string, params?: SqlValue[]): Promise<Row[]> {
    return this.#retried(() => this.#executor(this.#ready).all(sql, params));
  }

  run(sql: string, params?: SqlValue[]): Promise<number> {
    return this.#retried(() => this.#executor(this.#ready).run(sql, params));
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    // Only the start is tried again: once work ran, a failure may have committed nothing or
    // everything, and the caller must hear of it.
    let broken = false;
    // The pool stops listening to a connection it lends out: a server that goes away while this
    // one is held would emit an error no one hears, which ends the process. Heard here, the
    // connection is dropped instead of reused, and the query in flight fails as usual.
    const onLost = () => {
      broken = true;
    };
    const client = await this.#retried(async () => {
      const candidate = await this.#ready.connect();
      candidate.on('error', onLost);
      try {
        await candidate.query('BEGIN');
        return candidate;
      } catch (error) {
        candidate.removeListener('error', onLost);
        candidate.release(true);
        throw error;
      }
    });
    try {
      const result = await work(this.#executor(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      throw error;
    } finally {
      // A connection that could not even roll back is dropped, not reused.
      client.removeListener('error', onLost);
      client.release(broken);
    }
  }

  async lockMigrations(tx: SqlExecutor): Promise<void> {
    await tx.all('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
  }

  classify(error: unknown): 'unavailable' | 'full' | 'corrupt' | 'other' {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code === '53100') return 'full';
    // data_corrupted, index_corrupted: the server found damaged pages.
    if (code === 'XX001' || code === 'XX002') return 'corrupt';
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08')))
      return 'unavailable';
    if (
      typeof message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED/i.test(
        message,
      )
    )
      return 'unavailable';
    return 'other';
  }

  async close(): Promise<void> {
    await this.#pool?.end();
  }
}
