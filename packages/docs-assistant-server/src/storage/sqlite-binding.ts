/**
 * The SQLite library under `SqliteDriver`: Node's own `node:sqlite` where the running Node has it
 * (22.16 and later, 24), so that installing the service there needs no compiled module; otherwise
 * `better-sqlite3` (Node 20 has no built-in SQLite). Both are synchronous on one connection and run
 * the same SQL; this is the little of them the driver uses, with their errors named alike
 * (`SQLITE_FULL`, `SQLITE_BUSY`, …). Why, and what was measured: docs/decisions/sqlite.md.
 */
import type { Row, SqlValue } from './sql.js';

export type SqliteLibrary = 'node:sqlite' | 'better-sqlite3';

export interface SqliteStatement {
  /** The rows a statement returns (none for a statement that returns no rows). */
  all(values: SqlValue[]): Row[];
  /** Runs a statement; the rows it changed (0 for a query). */
  run(values: SqlValue[]): number;
}

export interface SqliteConnection {
  readonly library: SqliteLibrary;
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  readonly inTransaction: boolean;
  close(): void;
}

// The two libraries' shapes, as far as they are used here (their own types are in neither
// package's install on every Node).
interface NodeStatement {
  all(...values: SqlValue[]): unknown[];
  run(...values: SqlValue[]): { changes: number | bigint };
  columns(): unknown[];
}
interface NodeDatabase {
  exec(sql: string): void;
  prepare(sql: string): NodeStatement;
  readonly isTransaction: boolean;
  close(): void;
}
type NodeSqlite = { DatabaseSync: new (file: string) => NodeDatabase };

/**
 * `node:sqlite` when this Node has all of it that is used (`columns()` and `isTransaction` came in
 * 22.16; 22.5 to 22.12 have the module behind a flag only), else `undefined`. Asked of the process,
 * not imported: bundlers and test runners that resolve imports do not all know this built-in.
 */
let nodeSqlite: NodeSqlite | null | undefined;

function loadNodeSqlite(): NodeSqlite | undefined {
  if (nodeSqlite === undefined) {
    const module = process.getBuiltinModule?.('node:sqlite') as NodeSqlite | undefined;
    nodeSqlite = null;
    if (module) {
      // Both are instance members, so a throwaway database in memory says whether they are there.
      const probe = new module.DatabaseSync(':memory:');
      if (
        typeof probe.isTransaction === 'boolean' &&
        typeof probe.prepare('SELECT 1').columns === 'function'
      ) {
        nodeSqlite = module;
      }
      probe.close();
    }
  }
  return nodeSqlite ?? undefined;
}

function fromNodeSqlite({ DatabaseSync }: NodeSqlite, file: string): SqliteConnection {
  const db = new DatabaseSync(file);
  return {
    library: 'node:sqlite',
    exec: (sql) => db.exec(sql),
    prepare(sql) {
      const statement = db.prepare(sql);
      const reader = statement.columns().length > 0;
      return {
        all: (values) => statement.all(...values) as Row[],
        run: (values) => {
          if (!reader) return Number(statement.run(...values).changes);
          // Stepped through like better-sqlite3's `run` of a query; `changes` would be the last write's.
          statement.all(...values);
          return 0;
        },
      };
    },
    get inTransaction() {
      return db.isTransaction;
    },
    close: () => db.close(),
  };
}

/** better-sqlite3, an optional dependency: an install may have left it out (`--omit=optional`, no compiler). */
async function loadBetterSqlite3(): Promise<typeof import('better-sqlite3')> {
  try {
    return (await import('better-sqlite3')).default;
  } catch (error) {
    throw new Error(
      `Node ${process.versions.node} has no built-in SQLite (node:sqlite needs Node 22.16 or later) and better-sqlite3 could not be loaded (${(error as Error).message.split('\n')[0]}). Run the service on Node 22.16+ or 24, or install better-sqlite3 (\`npm install better-sqlite3\`, which compiles where no prebuilt binary is reachable), or keep the data in PostgreSQL with --database-url.`,
    );
  }
}

async function fromBetterSqlite3(file: string): Promise<SqliteConnection> {
  const BetterSqlite3 = await loadBetterSqlite3();
  const db = new BetterSqlite3(file);
  return {
    library: 'better-sqlite3',
    exec: (sql) => void db.exec(sql),
    prepare(sql) {
      const statement = db.prepare(sql);
      return {
        all: (values) => {
          if (statement.reader) return statement.all(...values) as Row[];
          statement.run(...values);
          return [];
        },
        run: (values) => {
          if (!statement.reader) return statement.run(...values).changes;
          statement.all(...values);
          return 0;
        },
      };
    },
    get inTransaction() {
      return db.inTransaction;
    },
    close: () => void db.close(),
  };
}

/** Which library `openSqlite` uses on this Node when none is asked for. */
export function defaultSqliteLibrary(): SqliteLibrary {
  return loadNodeSqlite() ? 'node:sqlite' : 'better-sqlite3';
}

/**
 * Opens `file` (or `':memory:'`) with `library`, by default `node:sqlite` where this Node has it.
 * Asking for `node:sqlite` on a Node without it throws, saying which versions have it.
 */
export async function openSqlite(file: string, library?: SqliteLibrary): Promise<SqliteConnection> {
  if (library === 'better-sqlite3') return fromBetterSqlite3(file);
  const builtin = loadNodeSqlite();
  if (builtin) return fromNodeSqlite(builtin, file);
  if (library === 'node:sqlite') {
    throw new Error(
      `node:sqlite is not available in Node ${process.versions.node}: it needs Node 22.16 or later (or 24); use better-sqlite3 on this Node.`,
    );
  }
  return fromBetterSqlite3(file);
}

/** SQLite's primary result codes by number (https://sqlite.org/rescode.html), for `node:sqlite`'s errors. */
const PRIMARY_CODES: Record<number, string> = {
  1: 'SQLITE_ERROR',
  2: 'SQLITE_INTERNAL',
  3: 'SQLITE_PERM',
  4: 'SQLITE_ABORT',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  7: 'SQLITE_NOMEM',
  8: 'SQLITE_READONLY',
  9: 'SQLITE_INTERRUPT',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  12: 'SQLITE_NOTFOUND',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  15: 'SQLITE_PROTOCOL',
  17: 'SQLITE_SCHEMA',
  18: 'SQLITE_TOOBIG',
  19: 'SQLITE_CONSTRAINT',
  20: 'SQLITE_MISMATCH',
  21: 'SQLITE_MISUSE',
  23: 'SQLITE_AUTH',
  25: 'SQLITE_RANGE',
  26: 'SQLITE_NOTADB',
};

/**
 * The error's code as better-sqlite3 names it (`SQLITE_FULL`, `SQLITE_IOERR_WRITE`…; for
 * `node:sqlite`, the primary code of its `errcode`), or a system error's (`ENOSPC`), or `undefined`.
 */
export function sqliteErrorCode(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number') return PRIMARY_CODES[errcode & 0xff];
  return typeof code === 'string' ? code : undefined;
}
