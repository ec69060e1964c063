/**
 * The two SQLite libraries under the embedded database (`storage/sqlite-binding.ts`) behave alike
 * where the driver depends on them: rows and blobs back as written, the rows a write changed, a
 * query "run" changing none, transactions, and a full database and an unopenable file named by the
 * same codes (the driver's 503 and 507 answers depend on those). Each library is checked on every
 * Node that has it: `node:sqlite` from 22.16 (`.ci/run` runs this on Node 22 and 24),
 * better-sqlite3 where its compiled module matches this Node (Node 20 always: it has nothing else).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDriver } from '../../packages/docs-assistant-server/src/storage/sqlite';
import {
  defaultSqliteLibrary,
  openSqlite,
  type SqliteConnection,
  type SqliteLibrary,
  sqliteErrorCode,
} from '../../packages/docs-assistant-server/src/storage/sqlite-binding';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const hasNodeSqlite = major > 22 || (major === 22 && minor >= 16);

/** Whether a library opens on this Node (better-sqlite3's module is built for one Node ABI). */
async function opens(library: SqliteLibrary): Promise<boolean> {
  try {
    (await openSqlite(':memory:', library)).close();
    return true;
  } catch {
    return false;
  }
}

const available = {
  'node:sqlite': await opens('node:sqlite'),
  'better-sqlite3': await opens('better-sqlite3'),
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'da-sqlite-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('on this Node', () => {
  it('has node:sqlite from 22.16 on, and better-sqlite3 where it has nothing else', () => {
    expect(available['node:sqlite']).toBe(hasNodeSqlite);
    if (!hasNodeSqlite) expect(available['better-sqlite3']).toBe(true);
  });

  it('uses node:sqlite by default where it has it', () => {
    expect(defaultSqliteLibrary()).toBe(hasNodeSqlite ? 'node:sqlite' : 'better-sqlite3');
  });

  it.skipIf(hasNodeSqlite)(
    'says which Node versions have node:sqlite when it is asked for on another',
    async () => {
      await expect(openSqlite(':memory:', 'node:sqlite')).rejects.toThrow(/needs Node 22\.16 or later/);
    },
  );
});

describe.each(['node:sqlite', 'better-sqlite3'] as const)('%s', (library) => {
  const run = available[library] ? it : it.skip;
  let db: SqliteConnection | undefined;
  afterEach(() => {
    db?.close();
    db = undefined;
  });
  /** Opens a database this test closes after it. */
  const opened = async (file: string) => {
    db = await openSqlite(file, library);
    return db;
  };

  run('returns rows and blobs as written, and counts the rows a write changed', async () => {
    const db = await opened(join(dir, 'a.sqlite'));
    expect(db.library).toBe(library);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, data BLOB)');
    const insert = db.prepare('INSERT INTO t (id, name, data) VALUES (?, ?, ?)');
    expect(insert.run([1, 'one', new Uint8Array([0, 255, 7])])).toBe(1);
    expect(insert.run([2, 'two', null])).toBe(1);
    expect(db.prepare('UPDATE t SET name = upper(name)').run([])).toBe(2);
    const rows = db.prepare('SELECT id, name, data FROM t ORDER BY id').all([]);
    expect(rows.map((row) => ({ ...row, data: row.data && [...(row.data as Uint8Array)] }))).toEqual([
      { id: 1, name: 'ONE', data: [0, 255, 7] },
      { id: 2, name: 'TWO', data: null },
    ]);
    // A query "run" changes nothing, even right after a write; a write "all" returns no rows.
    expect(db.prepare('SELECT id FROM t').run([])).toBe(0);
    expect(db.prepare('DELETE FROM t WHERE id = ?').all([2])).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM t').all([])).toEqual([{ n: 1 }]);
    expect(db.prepare('UPDATE t SET name = ? WHERE id = ? RETURNING name').all(['uno', 1])).toEqual([
      { name: 'uno' },
    ]);
  });

  run('knows when it is inside a transaction, and a rollback keeps nothing', async () => {
    const db = await opened(':memory:');
    db.exec('CREATE TABLE t (n INTEGER)');
    expect(db.inTransaction).toBe(false);
    db.exec('BEGIN IMMEDIATE');
    expect(db.inTransaction).toBe(true);
    db.prepare('INSERT INTO t VALUES (?)').run([1]);
    db.exec('ROLLBACK');
    expect(db.inTransaction).toBe(false);
    expect(db.prepare('SELECT COUNT(*) AS n FROM t').all([])).toEqual([{ n: 0 }]);
  });

  run('names a full database SQLITE_FULL and an unopenable file SQLITE_CANTOPEN', async () => {
    const db = await opened(join(dir, 'full.sqlite'));
    db.exec('PRAGMA max_page_count = 8; CREATE TABLE t (data BLOB)');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    const full = (() => {
      try {
        for (let i = 0; i < 100; i++) insert.run([new Uint8Array(4096)]);
      } catch (error) {
        return error;
      }
    })();
    expect(sqliteErrorCode(full)).toBe('SQLITE_FULL');
    // A folder where the file should be (better-sqlite3 refuses a missing folder itself, uncoded).
    const cantOpen = await openSqlite(dir, library)
      .then((opened) => opened.prepare('SELECT * FROM sqlite_master').all([]))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(sqliteErrorCode(cantOpen)).toBe('SQLITE_CANTOPEN');
  });

  run('is what the storage driver runs on when asked for, and its failures sort the same way', async () => {
    const driver = new SqliteDriver({ dataDir: dir, library, maxPages: 16 });
    await driver.connect();
    try {
      await driver.run('CREATE TABLE t (data BLOB)');
      const failure = await driver
        .transaction(async (tx) => {
          for (let i = 0; i < 100; i++) await tx.run('INSERT INTO t VALUES ($1)', [new Uint8Array(4096)]);
        })
        .catch((error: unknown) => error);
      expect(driver.classify(failure)).toBe('full');
      // Rolled back whole: the database is as before the transaction.
      expect(await driver.all('SELECT COUNT(*) AS n FROM t')).toEqual([{ n: 0 }]);
    } finally {
      await driver.close();
    }
  });
});
