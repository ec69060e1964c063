/**
 * The recorder: what the answer, search, MCP and feedback paths tell insights, queued in memory
 * and written in batches a moment later (`flushMs`), so no answer waits on it. The paths' hooks
 * only keep references (an answer's event is built when its batch is written); masking, hashing
 * and the write run on a timer that waits for a pause between answers, in slices that yield to
 * the event loop. Before anything is written, question text, answers and search queries are masked
 * (`maskSecrets`), and `fp` becomes a salted SHA-256 (the salt is a random value the database
 * keeps, so hashes differ between deployments and the raw fp is never written). A write that fails
 * is dropped with a warning: insights are never worth an error to a reader.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { DataStreamWriter } from 'ai';
import type { AnswerOutcome } from '../engines/types.js';
import type { InsightBatchRows } from '../storage/insights.js';
import { dayOf, type InsightCaller, type InsightSource } from '../storage/insights.js';
import type { InsightsStorage } from '../storage/types.js';
import { maskSecrets, questionForm } from './text.js';

/** Days question text, answers and search queries are kept; the figures stay. @default 30 */
export const DEFAULT_INSIGHTS_RETENTION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Longest text kept (characters): enough to read the question and the start of the answer (the
 * thread keeps the whole answer). Every recorded question adds to the database beside its thread,
 * so a reader with the public key sending questions at the size caps must not double what it may
 * store (tests/server/anonymous-caller's bound on the database file).
 */
const KEPT_CHARS = {
  question: 1000,
  answer: 600,
  query: 200,
  /** Characters kept past those caps while an event waits in the queue (see `record`). */
  queuedSlack: 256,
} as const;

/** How the queue is written. */
const BATCH = {
  /** Events written in one transaction by the timer: a request arriving meanwhile waits one slice. */
  slice: 250,
  /** The timer's batch waits for this long a pause in answers (ms)… */
  idleMs: 25,
  /** …but no longer than this many `flushMs` in all. */
  maxWaits: 5,
  /** Events queued before a batch goes without waiting for its timer. */
  flushAt: 2_000,
  /** Events the queue holds at most: while the database refuses writes it keeps the newest. */
  queueCap: 50_000,
} as const;

export interface InsightsOptions {
  /** Record questions, searches, agent calls, votes and clicks. @default true */
  enabled?: boolean;
  /** @default DEFAULT_INSIGHTS_RETENTION_DAYS */
  retentionDays?: number;
  /** Wait before a queued event is written (ms). @default 1000 */
  flushMs?: number;
}

/** An event as the paths (or a test's traffic) give it: raw text and fp, masked and hashed here. */
export type InsightEvent =
  | {
      type: 'question';
      domain: string;
      at: number;
      threadId: string;
      messageId: string;
      newThread: boolean;
      fp?: string;
      language?: string;
      currentPath?: string;
      caller: InsightCaller;
      text: string;
      answer: string;
      sources: InsightSource[];
      declined: boolean;
      ttftMs?: number;
    }
  | { type: 'search'; domain: string; at: number; query: string; results: number; fp?: string }
  | {
      type: 'search-click' | 'source-click';
      domain: string;
      at: number;
      path: string;
      query?: string;
      fp?: string;
    }
  | { type: 'agent-call'; domain: string; at: number; tool?: string }
  | { type: 'vote'; domain: string; threadId: string; messageId: string; vote: 'up' | 'down' };

/** What the recorder needs of a prepared answer (`assistant.ts`'s `PreparedAnswer`). */
export interface AnswerFacts {
  question: string;
  thread: { id: string; fp: string; domain: string; turns: unknown[] };
  answerContext: {
    messageId: string;
    currentPath?: string;
    scope?: { language?: string };
    retrieval: {
      confident: boolean;
      hits: Array<{ score: number; section: { pagePath: string; pageTitle: string } }>;
    };
  };
}

/** A search query as counted: masked, trimmed, lower-case, spaces folded. */
export const queryKey = (query: string): string =>
  maskSecrets(query).trim().toLowerCase().replace(/\s+/g, ' ').slice(0, KEPT_CHARS.query);

/** What of `text` waits in the queue: what is kept, and some slack for masking. */
const clipQueued = (text: string, kept: number): string =>
  text.length > kept + KEPT_CHARS.queuedSlack ? text.slice(0, kept + KEPT_CHARS.queuedSlack) : text;

/** The stored domain of a v2 thread carries a mark (`assistant.ts`'s threadDomain); insights count the domain. */
const baseDomain = (stored: string): string => stored.replace(/ \(v2\)$/, '');

type Hits = AnswerFacts['answerContext']['retrieval']['hits'];

/** The sources of an answer, one per page with its best score. */
function sourcesOf(hits: Hits): InsightSource[] {
  const byPath = new Map<string, InsightSource>();
  for (const hit of hits) {
    const { pagePath: path, pageTitle: title } = hit.section;
    const score = Math.round(hit.score * 1000) / 1000;
    const known = byPath.get(path);
    if (!known || known.score < score) byPath.set(path, { path, title, score });
  }
  return [...byPath.values()];
}

const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * An answer as its hook left it: what its question event needs, unbuilt (the sources are folded
 * per page, the event assembled, when its batch is written). Never the prepared answer itself:
 * that holds the request's messages, megabytes a reader may send.
 */
interface PendingAnswer {
  type: 'answer';
  at: number;
  thread: { id: string; domain: string; fp: string; isNew: boolean };
  messageId: string;
  language: string | undefined;
  currentPath: string | undefined;
  caller: InsightCaller;
  hits: Hits;
  confident: boolean;
  cited: boolean;
  question: string;
  answer: string;
  timing: { started: number; first?: number } | undefined;
}

type Queued = InsightEvent | PendingAnswer;

/** A macrotask's pause: what the event loop has waiting (a request, a stream's write) goes first. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class InsightsRecorder {
  readonly retentionDays: number;
  /** Where the events go, and where the API reads them. */
  readonly storage: InsightsStorage;
  readonly #warn: (message: string) => void;
  readonly #flushMs: number;
  #queue: Queued[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the oldest queued event was queued, and when an answer last started or ended. */
  #queuedAt = 0;
  #activeAt = 0;
  #writing: Promise<void> = Promise.resolve();
  #salt: Promise<string> | undefined;
  readonly #callers = new WeakMap<object, InsightCaller>();
  readonly #readers = new Map<string, string>();
  readonly #timings = new WeakMap<object, { started: number; first?: number }>();

  constructor(storage: InsightsStorage, options: InsightsOptions & { warn: (message: string) => void }) {
    this.storage = storage;
    this.#warn = options.warn;
    this.#flushMs = options.flushMs ?? 1000;
    this.retentionDays = options.retentionDays ?? DEFAULT_INSIGHTS_RETENTION_DAYS;
  }

  /** Queues an event; written with the next batch. Never throws, never waits. */
  record(event: InsightEvent): void {
    // Only what is kept waits in the queue: a question of a megabyte held whole until the batch
    // grew the process by 100 MiB under 100 such requests. The slack keeps a secret that crosses
    // the cut whole enough to be masked (`maskSecrets` runs on the batch).
    this.#enqueue(
      event.type === 'question'
        ? {
            ...event,
            text: clipQueued(event.text, KEPT_CHARS.question),
            answer: clipQueued(event.answer, KEPT_CHARS.answer),
          }
        : event,
    );
  }

  #enqueue(item: Queued): void {
    if (!this.#queue.length) this.#queuedAt = performance.now();
    this.#queue.push(item);
    if (this.#queue.length > BATCH.queueCap) this.#queue.splice(0, this.#queue.length - BATCH.queueCap);
    // A full queue goes on the next turn of the event loop, not inside the hook that filled it
    // (that hook is on an answer's path).
    if (this.#queue.length === BATCH.flushAt) this.#schedule(0);
    else if (!this.#timer) this.#schedule(this.#flushMs);
  }

  #schedule(ms: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#onTimer(), ms);
    this.#timer.unref?.();
  }

  /** The timer's batch waits for a pause in answers, up to `BATCH.maxWaits` times `flushMs` in all. */
  #onTimer(): void {
    this.#timer = undefined;
    const now = performance.now();
    const quiet = now - this.#activeAt;
    const full = this.#queue.length >= BATCH.flushAt;
    if (!full && quiet < BATCH.idleMs && now - this.#queuedAt < this.#flushMs * BATCH.maxWaits) {
      this.#schedule(BATCH.idleMs - quiet);
      return;
    }
    void this.#drain(BATCH.slice);
  }

  /** Writes the queued events now (and waits for writes under way). */
  flush(): Promise<void> {
    return this.#drain(BATCH.flushAt);
  }

  /** Takes the queue and writes it in slices of `slice` events, yielding to the loop between them. */
  #drain(slice: number): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const queued = this.#queue;
    this.#queue = [];
    this.#writing = this.#writing.then(async () => {
      for (let at = 0; at < queued.length; at += slice) {
        await yieldToLoop();
        const events = queued.slice(at, at + slice).map((item) => this.#event(item));
        try {
          await this.recordBatch(events);
        } catch (error) {
          this.#warn(`insights: ${events.length} event(s) not recorded: ${(error as Error).message}`);
        }
      }
    });
    return this.#writing;
  }

  /** Masks, hashes and writes `events` in one transaction (tests and benchmarks load traffic here). */
  async recordBatch(events: InsightEvent[]): Promise<void> {
    const rows = await this.#rows(events);
    // Once more after a failure (the batch rolled back whole): PostgreSQL may pick it as the
    // victim of a deadlock with another writer, seen once while loading a million questions.
    await this.storage.recordInsights(rows).catch(() => this.storage.recordInsights(rows));
  }

  async #reader(fp: string | undefined): Promise<string | null> {
    if (!fp) return null;
    const known = this.#readers.get(fp);
    if (known) return known;
    this.#salt ??= this.storage.setting('insights_reader_salt', sha256Hex(randomUUID()));
    const hash = sha256Hex(`${await this.#salt}\n${fp}`).slice(0, 32);
    // Readers come back: their hashes are kept for the next batches (a bounded few, and only for
    // fp values of a usual length: 100 of 300,000 characters held 30 MB as keys here).
    if (this.#readers.size >= 10_000) this.#readers.clear();
    if (fp.length <= 256) this.#readers.set(fp, hash);
    return hash;
  }

  async #rows(events: InsightEvent[]): Promise<InsightBatchRows> {
    const rows: InsightBatchRows = { questions: [], events: [], votes: [] };
    for (const event of events) {
      if (event.type === 'vote') {
        rows.votes.push({ threadId: event.threadId, messageId: event.messageId, vote: event.vote });
      } else if (event.type === 'question') {
        const text = maskSecrets(event.text).slice(0, KEPT_CHARS.question);
        rows.questions.push({
          domain: event.domain,
          threadId: event.threadId,
          messageId: event.messageId,
          at: event.at,
          language: event.language ?? null,
          currentPath: event.currentPath ?? null,
          caller: event.caller,
          reader: await this.#reader(event.fp),
          form: questionForm(text),
          text,
          answer: maskSecrets(event.answer).slice(0, KEPT_CHARS.answer),
          sources: event.sources,
          declined: event.declined,
          ttftMs: event.ttftMs ?? null,
          newThread: event.newThread,
        });
      } else {
        rows.events.push(await this.#countRow(event));
      }
    }
    return rows;
  }

  async #countRow(event: Exclude<InsightEvent, { type: 'question' | 'vote' }>) {
    const base = { domain: event.domain, at: event.at };
    if (event.type === 'agent-call') {
      return {
        ...base,
        reader: null,
        daily: { agent_calls: 1 },
        counts: [{ dim: 'tool', key: event.tool ?? '' }],
      };
    }
    const reader = await this.#reader(event.fp);
    if (event.type === 'search') {
      const key = queryKey(event.query);
      const none = event.results === 0;
      return {
        ...base,
        reader,
        daily: { searches: 1, no_results: none ? 1 : 0 },
        counts: [{ dim: 'search', key }, ...(none ? [{ dim: 'search_none', key }] : [])],
      };
    }
    const search = event.type === 'search-click';
    return {
      ...base,
      reader,
      daily: search ? { search_clicks: 1 } : { source_clicks: 1 },
      counts: [
        { dim: search ? 'clicked' : 'source_clicked', key: event.path.slice(0, 500) },
        ...(search && event.query ? [{ dim: 'search_click', key: queryKey(event.query) }] : []),
      ],
    };
  }

  // The hooks of the paths: one call each, nothing awaited, nothing computed that can wait.

  /** The v1/v2 handlers: who asked. A browser sends `Origin`; a server calling the API does not. */
  caller(answer: object, headers: Headers): void {
    this.#activeAt = performance.now();
    this.#callers.set(answer, headers.get('origin') ? 'widget' : 'api');
  }

  /** `runEngine`: the engine's stream, timed to its first text part (time to first token). */
  timed<W extends DataStreamWriter>(answer: object, stream: W): W {
    const timing: { started: number; first?: number } = { started: performance.now() };
    this.#timings.set(answer, timing);
    const write: W['write'] = (part) => {
      if (timing.first === undefined && part.startsWith('0:')) timing.first = performance.now();
      stream.write(part);
    };
    // One bound function per method, made once (not on every access of a write).
    const bound = new Map<PropertyKey, unknown>([['write', write]]);
    return new Proxy(stream, {
      get(target, name) {
        if (bound.has(name)) return bound.get(name);
        const value = Reflect.get(target, name, target) as unknown;
        if (typeof value !== 'function') return value;
        const method = value.bind(target);
        bound.set(name, method);
        return method;
      },
    });
  }

  /** `recordTurn`: a finished answer, kept unbuilt until its batch is written. */
  answered(facts: AnswerFacts, outcome: AnswerOutcome): void {
    this.#activeAt = performance.now();
    const { thread, answerContext } = facts;
    this.#enqueue({
      type: 'answer',
      at: Date.now(),
      thread: { id: thread.id, domain: thread.domain, fp: thread.fp, isNew: thread.turns.length === 0 },
      messageId: answerContext.messageId,
      language: answerContext.scope?.language,
      currentPath: answerContext.currentPath,
      caller: this.#callers.get(facts) ?? 'api',
      hits: answerContext.retrieval.hits,
      confident: answerContext.retrieval.confident,
      cited: outcome.cited.length > 0,
      // Cut now, not when written: the queue must not hold a request's megabytes (see `record`).
      question: clipQueued(facts.question, KEPT_CHARS.question),
      answer: clipQueued(outcome.text, KEPT_CHARS.answer),
      timing: this.#timings.get(facts),
    });
  }

  /** A queued item as the event it records. */
  #event(item: Queued): InsightEvent {
    if (item.type !== 'answer') return item;
    const { thread, hits, timing } = item;
    return {
      type: 'question',
      domain: baseDomain(thread.domain),
      at: item.at,
      threadId: thread.id,
      messageId: item.messageId,
      newThread: thread.isNew,
      fp: thread.fp,
      ...(item.language ? { language: item.language } : {}),
      ...(item.currentPath ? { currentPath: item.currentPath } : {}),
      caller: item.caller,
      text: item.question,
      answer: item.answer,
      sources: sourcesOf(hits),
      declined: !item.confident || !hits.length || !item.cited,
      ...(timing?.first !== undefined ? { ttftMs: Math.round(timing.first - timing.started) } : {}),
    };
  }

  /** The search endpoint: a query and how many results it found. */
  search(domain: string, query: string, results: number): void {
    this.record({ type: 'search', domain, at: Date.now(), query, results });
  }

  /** The MCP endpoint: one tool call admitted. */
  agentCall(domain: string, tool?: string): void {
    this.record({ type: 'agent-call', domain, at: Date.now(), ...(tool ? { tool } : {}) });
  }

  /** The feedback endpoint: a vote stored. */
  vote(domain: string, threadId: string, messageId: string, vote: 'up' | 'down'): void {
    this.record({ type: 'vote', domain, threadId, messageId, vote });
  }

  /** The retention sweep: readers' words older than the window go, the figures stay. */
  async sweep(now = Date.now()): Promise<number> {
    await this.flush();
    const before = Date.parse(dayOf(now - this.retentionDays * DAY_MS));
    return this.storage.forgetInsightText(before);
  }

  async close(): Promise<void> {
    await this.flush();
  }
}
