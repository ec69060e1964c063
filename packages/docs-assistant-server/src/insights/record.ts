/**
 * The recorder: what the answer, search, MCP and feedback paths tell insights, queued in memory
 * and written in batches a moment later (`flushMs`), so no answer waits on it. Before anything is
 * queued, question text, answers and search queries are masked (`maskSecrets`), and `fp` becomes a
 * salted SHA-256 (the salt is a random value the database keeps, so hashes differ between
 * deployments and the raw fp is never written). A write that fails is dropped with a warning:
 * insights are never worth an error to a reader.
 */
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
 * Longest question and answer text kept (characters): enough to read the question and the start of
 * the answer (the thread keeps the whole answer). Every recorded question adds to the database
 * beside its thread, so a reader with the public key sending questions at the size caps must not
 * double what it may store (tests/server/anonymous-caller's bound on the database file).
 */
const MAX_TEXT = 1000;
const MAX_ANSWER = 600;
const MAX_QUERY = 200;
/** Characters kept past those caps while an event waits in the queue (see `record`). */
const QUEUED_SLACK = 256;

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
  maskSecrets(query).trim().toLowerCase().replace(/\s+/g, ' ').slice(0, MAX_QUERY);

/** The stored domain of a v2 thread carries a mark (`assistant.ts`'s threadDomain); insights count the domain. */
const baseDomain = (stored: string): string => stored.replace(/ \(v2\)$/, '');

/** The sources of an answer, one per page with its best score. */
function sourcesOf(facts: AnswerFacts): InsightSource[] {
  const byPath = new Map<string, InsightSource>();
  for (const hit of facts.answerContext.retrieval.hits) {
    const { pagePath: path, pageTitle: title } = hit.section;
    const score = Math.round(hit.score * 1000) / 1000;
    const known = byPath.get(path);
    if (!known || known.score < score) byPath.set(path, { path, title, score });
  }
  return [...byPath.values()];
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export class InsightsRecorder {
  readonly retentionDays: number;
  /** Where the events go, and where the API reads them. */
  readonly storage: InsightsStorage;
  readonly #warn: (message: string) => void;
  readonly #flushMs: number;
  #queue: InsightEvent[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
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
    this.#queue.push(
      event.type === 'question'
        ? {
            ...event,
            text: event.text.slice(0, MAX_TEXT + QUEUED_SLACK),
            answer: event.answer.slice(0, MAX_ANSWER + QUEUED_SLACK),
          }
        : event,
    );
    // A queue that grows while the database refuses writes keeps the newest events only.
    if (this.#queue.length > 50_000) this.#queue.splice(0, this.#queue.length - 50_000);
    if (this.#queue.length >= 2_000) void this.flush();
    else if (!this.#timer) {
      this.#timer = setTimeout(() => void this.flush(), this.#flushMs);
      this.#timer.unref?.();
    }
  }

  /** Writes the queued events now (and waits for writes under way). */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const events = this.#queue;
    this.#queue = [];
    this.#writing = this.#writing.then(async () => {
      if (!events.length) return;
      try {
        await this.recordBatch(events);
      } catch (error) {
        this.#warn(`insights: ${events.length} event(s) not recorded: ${(error as Error).message}`);
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
    this.#salt ??= this.storage.setting('insights_reader_salt', await sha256Hex(crypto.randomUUID()));
    const hash = (await sha256Hex(`${await this.#salt}\n${fp}`)).slice(0, 32);
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
        const text = maskSecrets(event.text).slice(0, MAX_TEXT);
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
          answer: maskSecrets(event.answer).slice(0, MAX_ANSWER),
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

  // The hooks of the paths: one call each, nothing awaited.

  /** The v1/v2 handlers: who asked. A browser sends `Origin`; a server calling the API does not. */
  caller(answer: object, headers: Headers): void {
    this.#callers.set(answer, headers.get('origin') ? 'widget' : 'api');
  }

  /** `runEngine`: the engine's stream, timed to its first text part (time to first token). */
  timed<W extends DataStreamWriter>(answer: object, stream: W): W {
    const timing: { started: number; first?: number } = { started: performance.now() };
    this.#timings.set(answer, timing);
    return new Proxy(stream, {
      get(target, name) {
        const value = Reflect.get(target, name, target) as unknown;
        if (name !== 'write' || typeof value !== 'function') {
          return typeof value === 'function' ? value.bind(target) : value;
        }
        return (part: string) => {
          if (timing.first === undefined && part.startsWith('0:')) timing.first = performance.now();
          return (value as (part: string) => void).call(target, part);
        };
      },
    });
  }

  /** `recordTurn`: a finished answer. */
  answered(facts: AnswerFacts, outcome: AnswerOutcome): void {
    const { thread, answerContext, question } = facts;
    const timing = this.#timings.get(facts);
    const { retrieval } = answerContext;
    this.record({
      type: 'question',
      domain: baseDomain(thread.domain),
      at: Date.now(),
      threadId: thread.id,
      messageId: answerContext.messageId,
      newThread: thread.turns.length === 0,
      fp: thread.fp,
      ...(answerContext.scope?.language ? { language: answerContext.scope.language } : {}),
      ...(answerContext.currentPath ? { currentPath: answerContext.currentPath } : {}),
      caller: this.#callers.get(facts) ?? 'api',
      text: question,
      answer: outcome.text,
      sources: sourcesOf(facts),
      declined: !retrieval.confident || !retrieval.hits.length || !outcome.cited.length,
      ...(timing?.first !== undefined ? { ttftMs: Math.round(timing.first - timing.started) } : {}),
    });
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
