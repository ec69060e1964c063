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
  {
    version: 3,
    name: 'insights: questions, daily roll-ups, readers per day, counts per key, question forms, conversations',
    statements: [
      // One row per answered question; text and answer are emptied after the retention window.
      `CREATE TABLE insight_questions (
        thread_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        domain TEXT NOT NULL,
        day TEXT NOT NULL,
        at BIGINT NOT NULL,
        language TEXT,
        current_path TEXT,
        caller TEXT NOT NULL,
        reader TEXT,
        form TEXT NOT NULL,
        text TEXT,
        answer TEXT,
        sources TEXT NOT NULL,
        declined INTEGER NOT NULL,
        uncertain INTEGER NOT NULL,
        vote TEXT,
        ttft_ms INTEGER,
        PRIMARY KEY (thread_id, message_id)
      )`,
      'CREATE INDEX insight_questions_by_time ON insight_questions (at)',
      // The figures of a day, summed over days for any range: a million questions read as 30 rows.
      `CREATE TABLE insight_daily (
        domain TEXT NOT NULL,
        day TEXT NOT NULL,
        questions BIGINT NOT NULL DEFAULT 0,
        conversations BIGINT NOT NULL DEFAULT 0,
        searches BIGINT NOT NULL DEFAULT 0,
        no_results BIGINT NOT NULL DEFAULT 0,
        search_clicks BIGINT NOT NULL DEFAULT 0,
        source_clicks BIGINT NOT NULL DEFAULT 0,
        agent_calls BIGINT NOT NULL DEFAULT 0,
        uncertain BIGINT NOT NULL DEFAULT 0,
        up BIGINT NOT NULL DEFAULT 0,
        down BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (domain, day)
      )`,
      // Readers (salted hashes of fp) seen on a day: distinct readers of a range are counted here.
      `CREATE TABLE insight_readers (
        domain TEXT NOT NULL,
        day TEXT NOT NULL,
        reader TEXT NOT NULL,
        PRIMARY KEY (domain, day, reader)
      )`,
      // Counts per day of one key of a dimension: a language, a page cited, a search query, …
      `CREATE TABLE insight_counts (
        domain TEXT NOT NULL,
        day TEXT NOT NULL,
        dim TEXT NOT NULL,
        key TEXT NOT NULL,
        n BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (domain, dim, day, key)
      )`,
      // Questions per day of one form (their terms, sorted): what top questions and gaps group.
      `CREATE TABLE insight_forms (
        domain TEXT NOT NULL,
        day TEXT NOT NULL,
        form TEXT NOT NULL,
        questions BIGINT NOT NULL DEFAULT 0,
        uncertain BIGINT NOT NULL DEFAULT 0,
        up BIGINT NOT NULL DEFAULT 0,
        down BIGINT NOT NULL DEFAULT 0,
        example TEXT,
        path TEXT,
        PRIMARY KEY (domain, day, form)
      )`,
      `CREATE TABLE insight_threads (
        thread_id TEXT PRIMARY KEY,
        domain TEXT NOT NULL,
        started_at BIGINT NOT NULL,
        questions BIGINT NOT NULL DEFAULT 0,
        uncertain BIGINT NOT NULL DEFAULT 0,
        up BIGINT NOT NULL DEFAULT 0,
        down BIGINT NOT NULL DEFAULT 0,
        first TEXT,
        language TEXT
      )`,
      'CREATE INDEX insight_threads_by_start ON insight_threads (domain, started_at)',
    ],
  },
];
