/**
 * The schema both databases share, as versioned migrations. Each migration runs in one
 * transaction with the row that records it, so a process killed mid-migration leaves the schema as
 * it was, and the next start runs it again. The SQL is the common subset of SQLite and PostgreSQL;
 * the one word that differs (the type of bundle bytes) is filled in per database.
 */

export interface Migration {
  version: number;
  name: string;
  /** Statements, run in order; `{{bytes}}` is BLOB (SQLite) or BYTEA (PostgreSQL). */
  statements: string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'threads, turns, feedback, rate limits, export jobs and bundles, settings',
    statements: [
      `CREATE TABLE threads (
        id TEXT PRIMARY KEY,
        key_hash TEXT NOT NULL,
        domain TEXT NOT NULL,
        fp TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_ms BIGINT NOT NULL,
        bytes BIGINT NOT NULL DEFAULT 0,
        turn_count INTEGER NOT NULL DEFAULT 0,
        next_seq INTEGER NOT NULL DEFAULT 0
      )`,
      'CREATE INDEX threads_by_use ON threads (updated_ms)',
      `CREATE TABLE turns (
        thread_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        question TEXT NOT NULL,
        answer TEXT NOT NULL,
        sources TEXT NOT NULL,
        at TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        PRIMARY KEY (thread_id, seq)
      )`,
      `CREATE TABLE feedback (
        thread_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        domain TEXT NOT NULL,
        vote TEXT NOT NULL,
        comment TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (thread_id, message_id)
      )`,
      'CREATE INDEX feedback_by_domain ON feedback (domain, updated_at)',
      `CREATE TABLE rate_limits (
        key TEXT PRIMARY KEY,
        window_start BIGINT NOT NULL,
        window_end BIGINT NOT NULL,
        count INTEGER NOT NULL
      )`,
      `CREATE TABLE export_jobs (
        job_id TEXT PRIMARY KEY,
        organization TEXT NOT NULL,
        domain TEXT NOT NULL,
        version TEXT,
        paths TEXT,
        status TEXT NOT NULL,
        progress INTEGER NOT NULL,
        page_count INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        error TEXT,
        size_bytes BIGINT,
        attempts INTEGER NOT NULL,
        runner TEXT,
        lease_until BIGINT NOT NULL DEFAULT 0,
        bundle TEXT
      )`,
      'CREATE INDEX export_jobs_by_status ON export_jobs (status, created_at)',
      'CREATE TABLE export_bundles (job_id TEXT PRIMARY KEY, data {{bytes}} NOT NULL)',
      'CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)',
    ],
  },
  {
    version: 2,
    name: 'shares of threads',
    statements: [
      // upto_seq: the thread's next turn number when it was shared; later turns are not shown.
      `CREATE TABLE shares (
        id_hash TEXT PRIMARY KEY,
        thread_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        upto_seq INTEGER NOT NULL
      )`,
      'CREATE INDEX shares_by_thread ON shares (thread_id)',
    ],
  },
];
