/**
 * Insights' tables (migration 3 of `schema.ts`) over either database. A batch is written in one
 * transaction: its questions as rows, everything else folded first into per-day deltas (daily
 * figures, counts per key, question forms, conversations) and written as one upsert per key, so
 * a batch of thousands of events costs a few statements per day it touches, and two replicas
 * recording into one PostgreSQL add up instead of overwriting each other.
 */
import type { Row, SqlExecutor, SqlValue } from './sql.js';

export interface InsightSource {
  path: string;
  title: string;
  score: number;
}

/** How a question reached the service. */
export type InsightCaller = 'widget' | 'api' | 'mcp';

/** A question as stored: masked text, hashed reader, its form (see `insights/text.ts`). */
export interface InsightQuestionRow {
  domain: string;
  threadId: string;
  messageId: string;
  at: number;
  language: string | null;
  currentPath: string | null;
  caller: InsightCaller;
  reader: string | null;
  form: string;
  text: string;
  answer: string;
  sources: InsightSource[];
  /** Declined, or no source above the threshold: uncertain from the start. */
  declined: boolean;
  ttftMs: number | null;
  /** The first question of its thread: a conversation starts. */
  newThread: boolean;
}

/** A day's counts of one kind of event (searches, clicks, agent calls) with the keys they count under. */
export interface InsightCountRow {
  domain: string;
  at: number;
  reader: string | null;
  daily: Partial<Record<DailyColumn, number>>;
  counts: Array<{ dim: string; key: string }>;
}

export interface InsightVoteRow {
  threadId: string;
  messageId: string;
  vote: 'up' | 'down';
}

export interface InsightBatchRows {
  questions: InsightQuestionRow[];
  events: InsightCountRow[];
  votes: InsightVoteRow[];
}

const DAILY_COLUMNS = [
  'questions',
  'conversations',
  'searches',
  'no_results',
  'search_clicks',
  'source_clicks',
  'agent_calls',
  'uncertain',
  'up',
  'down',
] as const;
export type DailyColumn = (typeof DAILY_COLUMNS)[number];

/** Dimensions whose keys are readers' words (search queries): removed with the text after retention. */
export const TEXT_DIMENSIONS = ['search', 'search_none', 'search_click'] as const;

/** The UTC day of a time: `2026-12-06`. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

type Deltas = Record<string, number>;

/** Per-key deltas of one batch, written as one upsert each. */
class Folded {
  readonly daily = new Map<string, { d: Deltas }>();
  readonly counts = new Map<string, number>();
  readonly forms = new Map<string, { d: Deltas; example?: string; path?: string }>();
  readonly threads = new Map<
    string,
    { d: Deltas; domain: string; started: number; first?: string; language?: string }
  >();
  readonly readers = new Set<string>();

  add<T extends { d: Deltas }>(map: Map<string, T>, key: string, deltas: Deltas, make: () => NoInfer<T>): T {
    let entry = map.get(key);
    if (!entry) {
      entry = make();
      map.set(key, entry);
    }
    for (const [name, value] of Object.entries(deltas)) entry.d[name] = (entry.d[name] ?? 0) + value;
    return entry;
  }

  day(domain: string, day: string, deltas: Deltas): void {
    this.add(this.daily, `${domain}\t${day}`, deltas, () => ({ d: {} }));
  }

  count(domain: string, day: string, dim: string, key: string, n = 1): void {
    const id = `${domain}\t${day}\t${dim}\t${key}`;
    this.counts.set(id, (this.counts.get(id) ?? 0) + n);
  }
}

const ROW_CHUNK = 200;

/** `INSERT … VALUES (…), (…)` of `rows`, in chunks; `tail` is the conflict clause. */
async function insertRows(
  tx: SqlExecutor,
  head: string,
  width: number,
  rows: SqlValue[][],
  tail = '',
): Promise<void> {
  for (let start = 0; start < rows.length; start += ROW_CHUNK) {
    const chunk = rows.slice(start, start + ROW_CHUNK);
    const marks = chunk.map(
      (_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`,
    );
    await tx.run(`${head} VALUES ${marks.join(', ')} ${tail}`, chunk.flat());
  }
}

/** `a = t.a + excluded.a` for each column: deltas add up, whoever wrote first. */
const adding = (table: string, columns: readonly string[]): string =>
  columns.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ');

function foldQuestion(folded: Folded, q: InsightQuestionRow): void {
  const day = dayOf(q.at);
  const uncertain = q.declined ? 1 : 0;
  folded.day(q.domain, day, { questions: 1, conversations: q.newThread ? 1 : 0, uncertain });
  if (q.reader) folded.readers.add(`${q.domain}\t${day}\t${q.reader}`);
  folded.count(q.domain, day, 'language', q.language ?? '');
  if (q.currentPath) folded.count(q.domain, day, 'asked', q.currentPath);
  for (const path of new Set(q.sources.map((s) => s.path))) folded.count(q.domain, day, 'cited', path);
  const form = folded.add(
    folded.forms,
    `${q.domain}\t${day}\t${q.form}`,
    { questions: 1, uncertain },
    () => ({ d: {} }),
  );
  // The shortest wording of a form is its plainest: the one a group is labelled with.
  if (q.text && (!form.example || q.text.length < form.example.length)) form.example = q.text;
  if (q.sources[0]) form.path = q.sources[0].path;
  const thread = folded.add(folded.threads, q.threadId, { questions: 1, uncertain }, () => ({
    d: {},
    domain: q.domain,
    started: q.at,
  }));
  thread.started = Math.min(thread.started, q.at);
  if (q.newThread) thread.first = q.text;
  if (q.language && !thread.language) thread.language = q.language;
}

function foldEvent(folded: Folded, event: InsightCountRow): void {
  const day = dayOf(event.at);
  folded.day(event.domain, day, event.daily);
  if (event.reader) folded.readers.add(`${event.domain}\t${day}\t${event.reader}`);
  for (const { dim, key } of event.counts) folded.count(event.domain, day, dim, key);
}

/** Folds a vote's change (none, first vote, or up ↔ down) into the deltas of its question's day. */
async function foldVote(tx: SqlExecutor, folded: Folded, vote: InsightVoteRow): Promise<void> {
  const [row] = await tx.all(
    'SELECT domain, day, form, sources, declined, vote FROM insight_questions WHERE thread_id = $1 AND message_id = $2',
    [vote.threadId, vote.messageId],
  );
  if (!row || row.vote === vote.vote) return;
  const before = row.vote === 'up' || row.vote === 'down' ? row.vote : null;
  const declined = Number(row.declined) === 1;
  const uncertain = (declined || vote.vote === 'down' ? 1 : 0) - (declined || before === 'down' ? 1 : 0);
  const deltas: Deltas = {
    up: (vote.vote === 'up' ? 1 : 0) - (before === 'up' ? 1 : 0),
    down: (vote.vote === 'down' ? 1 : 0) - (before === 'down' ? 1 : 0),
    uncertain,
  };
  const domain = String(row.domain);
  const day = String(row.day);
  folded.day(domain, day, deltas);
  folded.add(folded.forms, `${domain}\t${day}\t${String(row.form)}`, deltas, () => ({ d: {} }));
  folded.add(folded.threads, vote.threadId, deltas, () => ({
    d: {},
    domain,
    started: Number.MAX_SAFE_INTEGER,
  }));
  for (const path of new Set((JSON.parse(String(row.sources)) as InsightSource[]).map((s) => s.path))) {
    if (deltas.up) folded.count(domain, day, 'cited_up', path, deltas.up);
    if (deltas.down) folded.count(domain, day, 'cited_down', path, deltas.down);
  }
  await tx.run(
    'UPDATE insight_questions SET vote = $3, uncertain = $4 WHERE thread_id = $1 AND message_id = $2',
    [vote.threadId, vote.messageId, vote.vote, declined || vote.vote === 'down' ? 1 : 0],
  );
}

const questionValues = (q: InsightQuestionRow): SqlValue[] => [
  q.threadId,
  q.messageId,
  q.domain,
  dayOf(q.at),
  q.at,
  q.language,
  q.currentPath,
  q.caller,
  q.reader,
  q.form,
  q.text,
  q.answer,
  JSON.stringify(q.sources),
  q.declined ? 1 : 0,
  q.declined ? 1 : 0,
  q.ttftMs,
];

/**
 * Writes the folded deltas, each table's rows in key order: replicas writing into one PostgreSQL
 * then take the rows' locks in the same order, so two batches wait for each other, never deadlock.
 */
async function writeFolded(tx: SqlExecutor, folded: Folded): Promise<void> {
  const split = (key: string) => key.split('\t');
  const sorted = <V>(map: Map<string, V>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  await insertRows(
    tx,
    `INSERT INTO insight_daily (domain, day, ${DAILY_COLUMNS.join(', ')})`,
    2 + DAILY_COLUMNS.length,
    sorted(folded.daily).map(([key, { d }]) => [...split(key), ...DAILY_COLUMNS.map((c) => d[c] ?? 0)]),
    `ON CONFLICT (domain, day) DO UPDATE SET ${adding('insight_daily', DAILY_COLUMNS)}`,
  );
  await insertRows(
    tx,
    'INSERT INTO insight_counts (domain, day, dim, key, n)',
    5,
    sorted(folded.counts).map(([key, n]) => [...split(key), n]),
    `ON CONFLICT (domain, dim, day, key) DO UPDATE SET ${adding('insight_counts', ['n'])}`,
  );
  const formColumns = ['questions', 'uncertain', 'up', 'down'] as const;
  await insertRows(
    tx,
    'INSERT INTO insight_forms (domain, day, form, questions, uncertain, up, down, example, path)',
    9,
    sorted(folded.forms).map(([key, f]) => [
      ...split(key),
      ...formColumns.map((c) => f.d[c] ?? 0),
      f.example ?? null,
      f.path ?? null,
    ]),
    `ON CONFLICT (domain, day, form) DO UPDATE SET ${adding('insight_forms', formColumns)}, example = CASE WHEN insight_forms.example IS NULL OR LENGTH(excluded.example) < LENGTH(insight_forms.example) THEN COALESCE(excluded.example, insight_forms.example) ELSE insight_forms.example END, path = COALESCE(excluded.path, insight_forms.path)`,
  );
  await insertRows(
    tx,
    'INSERT INTO insight_threads (thread_id, domain, started_at, questions, uncertain, up, down, first, language)',
    9,
    sorted(folded.threads).map(([id, t]) => [
      id,
      t.domain,
      t.started,
      ...formColumns.map((c) => t.d[c] ?? 0),
      t.first ?? null,
      t.language ?? null,
    ]),
    `ON CONFLICT (thread_id) DO UPDATE SET ${adding('insight_threads', formColumns)}, started_at = CASE WHEN excluded.started_at < insight_threads.started_at THEN excluded.started_at ELSE insight_threads.started_at END, first = COALESCE(insight_threads.first, excluded.first), language = COALESCE(insight_threads.language, excluded.language)`,
  );
  await insertRows(
    tx,
    'INSERT INTO insight_readers (domain, day, reader)',
    3,
    [...folded.readers].sort().map(split),
    'ON CONFLICT (domain, day, reader) DO NOTHING',
  );
}

/** Writes one batch in the transaction `tx`: questions, then votes on them, then the roll-ups. */
export async function writeInsightBatch(tx: SqlExecutor, batch: InsightBatchRows): Promise<void> {
  const folded = new Folded();
  for (const question of batch.questions) foldQuestion(folded, question);
  for (const event of batch.events) foldEvent(folded, event);
  await insertRows(
    tx,
    'INSERT INTO insight_questions (thread_id, message_id, domain, day, at, language, current_path, caller, reader, form, text, answer, sources, declined, uncertain, ttft_ms)',
    16,
    batch.questions.map(questionValues),
    'ON CONFLICT (thread_id, message_id) DO NOTHING',
  );
  for (const vote of batch.votes) await foldVote(tx, folded, vote);
  await writeFolded(tx, folded);
}

/**
 * Empties readers' words older than `before` (ms): question and answer texts, examples, first
 * questions of conversations, and the counts keyed by search queries. Every figure stays.
 */
export async function forgetInsightText(tx: SqlExecutor, before: number): Promise<number> {
  const day = dayOf(before);
  const removed = await tx.run(
    'UPDATE insight_questions SET text = NULL, answer = NULL WHERE at < $1 AND text IS NOT NULL',
    [before],
  );
  await tx.run('UPDATE insight_forms SET example = NULL WHERE day < $1 AND example IS NOT NULL', [day]);
  await tx.run('UPDATE insight_threads SET first = NULL WHERE started_at < $1 AND first IS NOT NULL', [
    before,
  ]);
  await tx.run(
    `DELETE FROM insight_counts WHERE day < $1 AND dim IN (${TEXT_DIMENSIONS.map((d) => `'${d}'`).join(', ')})`,
    [day],
  );
  return removed;
}

/** The example of a `forms` row without its length prefix. */
export const shortestExample = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value).slice(5);

/** Reads of insights' tables for one domain and range of days (inclusive). */
export class InsightReads {
  constructor(private readonly db: SqlExecutor) {}

  daily(domain: string, from: string, to: string): Promise<Row[]> {
    return this.db.all(
      `SELECT day, ${DAILY_COLUMNS.join(', ')} FROM insight_daily WHERE domain = $1 AND day >= $2 AND day <= $3 ORDER BY day`,
      [domain, from, to],
    );
  }

  async readers(domain: string, from: string, to: string): Promise<{ total: number; daily: Row[] }> {
    const params = [domain, from, to];
    const where = 'WHERE domain = $1 AND day >= $2 AND day <= $3';
    const [total] = await this.db.all(
      `SELECT COUNT(DISTINCT reader) AS n FROM insight_readers ${where}`,
      params,
    );
    const daily = await this.db.all(
      `SELECT day, COUNT(*) AS n FROM insight_readers ${where} GROUP BY day`,
      params,
    );
    return { total: Number(total?.n ?? 0), daily };
  }

  /** Keys of a dimension with their counts over the range, largest first. */
  counts(domain: string, dim: string, from: string, to: string, limit: number): Promise<Row[]> {
    return this.db.all(
      'SELECT key, SUM(n) AS n FROM insight_counts WHERE domain = $1 AND dim = $2 AND day >= $3 AND day <= $4 GROUP BY key ORDER BY SUM(n) DESC, key LIMIT $5',
      [domain, dim, from, to, limit],
    );
  }

  /**
   * Forms over the range (most asked, or most uncertain first), with a page and the shortest example
   * of the range (`example` is prefixed with its length + 10000, five digits, so MIN orders by length
   * on both databases; `shortestExample` strips it).
   */
  forms(
    domain: string,
    from: string,
    to: string,
    options: { uncertain: boolean; limit: number },
  ): Promise<Row[]> {
    const order = options.uncertain ? 'SUM(uncertain)' : 'SUM(questions)';
    return this.db.all(
      `SELECT form, SUM(questions) AS questions, SUM(uncertain) AS uncertain, SUM(up) AS up, SUM(down) AS down, MIN(CAST(LENGTH(example) + 10000 AS TEXT) || example) AS example, MAX(path) AS path
       FROM insight_forms WHERE domain = $1 AND day >= $2 AND day <= $3
       GROUP BY form ${options.uncertain ? 'HAVING SUM(uncertain) > 0' : ''} ORDER BY ${order} DESC, form LIMIT $4`,
      [domain, from, to, options.limit],
    );
  }

  /** Conversations started in [fromMs, toMs), newest first, after the cursor (started, id). */
  conversations(
    domain: string,
    range: { fromMs: number; toMs: number },
    options: { limit: number; uncertain: boolean; down: boolean; after?: { started: number; id: string } },
  ): Promise<Row[]> {
    const params: SqlValue[] = [domain, range.fromMs, range.toMs];
    let where = 'domain = $1 AND started_at >= $2 AND started_at < $3';
    if (options.uncertain) where += ' AND uncertain > 0';
    if (options.down) where += ' AND down > 0';
    if (options.after) {
      params.push(options.after.started, options.after.id);
      where += ' AND (started_at < $4 OR (started_at = $4 AND thread_id < $5))';
    }
    params.push(options.limit);
    return this.db.all(
      `SELECT thread_id, started_at, questions, uncertain, up, down, first, language FROM insight_threads WHERE ${where} ORDER BY started_at DESC, thread_id DESC LIMIT $${params.length}`,
      params,
    );
  }

  async conversation(domain: string, threadId: string): Promise<{ thread?: Row; questions: Row[] }> {
    const [thread] = await this.db.all('SELECT * FROM insight_threads WHERE thread_id = $1 AND domain = $2', [
      threadId,
      domain,
    ]);
    const questions = thread
      ? await this.db.all(
          'SELECT message_id, at, text, answer, sources, uncertain, vote FROM insight_questions WHERE thread_id = $1 ORDER BY at, message_id',
          [threadId],
        )
      : [];
    return { ...(thread ? { thread } : {}), questions };
  }
}
