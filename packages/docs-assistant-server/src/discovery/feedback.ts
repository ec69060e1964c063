/**
 * Feedback on answers: the reader who holds a thread votes on its answers, and the site owner
 * reads the votes.
 *
 * - `POST /discovery/v1/assistant/{domain}/feedback` (assistant key) with
 *   `{ threadId, threadKey, fp, messageId, rating: "up" | "down", comment? }` stores one vote per
 *   answer (thread + message id); a later vote on the same answer replaces it, comment included.
 *   Answers `200 { threadId, messageId, rating, comment?, createdAt, updatedAt }`.
 * - `GET /discovery/v1/assistant/{domain}/feedback` (admin key) lists the domain's votes, newest
 *   change first, as JSON `{ domain, feedback: [...] }`, or as CSV with `?format=csv` or
 *   `Accept: text/csv`; `?limit=` (1–1000, default 1000) and `?since=` (ISO time of the latest change).
 *
 * Only the thread's owner may vote (its key and fp, as for continuing it): the same 404 for an
 * unknown thread and a wrong key, so thread ids cannot be probed. Votes are stored with the thread
 * id and stay when the thread itself is removed by retention. The list is an admin route: like the
 * static export API it sends no CORS header (see `app.ts`), so no page can read it from a browser.
 */
import type { ValidationProblem } from 'docs-assistant/protocol';
import type { Context } from 'hono';
import { type AssistantRuntime, threadDomain } from '../assistant.js';
import {
  admission,
  bodyCap,
  discoveryWrongMethod,
  HttpError,
  invalidRequest,
  listFormat,
  listLimit,
  ownerAdmission,
  RouteFamily,
  rateLimitHeaders,
  readJsonBody,
  type ServiceEnv,
  throwIfInvalidQuery,
} from '../http/index.js';
import type { FeedbackRecord, FeedbackStorage, ThreadStorage, Vote } from '../storage/types.js';

export const FEEDBACK_ROUTE = '/discovery/v1/assistant/:domain/feedback';

/** What `/health` lists when this service takes feedback (the widget posts votes only then). */
export const FEEDBACK_CAPABILITY = 'feedback';

/** What one vote and one list request may hold. */
const FEEDBACK_LIMITS = {
  /** Longest comment kept (characters); a longer one is refused with a 400 saying so. */
  commentChars: 1000,
  /** Longest message id accepted. */
  messageIdChars: 200,
  /**
   * Answers of one thread that may have a vote. Anyone holding a thread's key could otherwise
   * store votes on any number of made-up message ids; a thread keeps 20 turns, a conversation
   * rarely more.
   */
  perThread: 100,
  /** Most votes one list request answers. */
  list: 1000,
  /** Largest vote body read (a comment of 1,000 characters fits several times over). */
  bodyBytes: 16 * 1024,
} as const;

/** A vote as the endpoints answer it. */
export interface FeedbackItem {
  threadId: string;
  messageId: string;
  rating: Vote;
  comment?: string;
  createdAt: string;
  updatedAt: string;
}

export interface FeedbackVote {
  threadId: string;
  threadKey: string;
  fp: string;
  messageId: string;
  rating: Vote;
  comment?: string;
}

/** The storage's feedback, when it keeps any (every storage of this package does). */
export function feedbackStorage(storage: ThreadStorage): (ThreadStorage & FeedbackStorage) | undefined {
  return 'recordFeedback' in storage ? (storage as ThreadStorage & FeedbackStorage) : undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

const kindOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;

/** Validates a vote body; every problem is listed with its path. */
export function validateFeedbackVote(body: unknown): FeedbackVote {
  if (!isRecord(body)) {
    throw invalidRequest('Invalid feedback', [
      {
        path: '(body)',
        message: `expected a JSON object { "threadId", "threadKey", "fp", "messageId", "rating", "comment"? }, got ${kindOf(body)}`,
      },
    ]);
  }
  const problems: ValidationProblem[] = [];
  const text = (name: string, what: string, max = 200): string => {
    const value = body[name];
    if (typeof value !== 'string' || !value) {
      problems.push({
        path: name,
        message: `required: ${what}${value === undefined ? '' : ` (got ${kindOf(value)})`}`,
      });
      return '';
    }
    if (value.length > max) problems.push({ path: name, message: `must be at most ${max} characters` });
    return value;
  };
  const threadId = text(
    'threadId',
    'the id of the thread the answer belongs to (its finish part or X-Thread-Id)',
  );
  const threadKey = text('threadKey', "the thread's key (X-Thread-Key of its first answer)");
  const fp = text('fp', 'the fingerprint the thread was started with');
  const messageId = text(
    'messageId',
    'the id of the answer voted on (its start part, `f:{"messageId":…}`)',
    FEEDBACK_LIMITS.messageIdChars,
  );
  const { rating, comment } = body;
  if (rating !== 'up' && rating !== 'down') {
    problems.push({
      path: 'rating',
      message: `must be "up" or "down" (got ${JSON.stringify(rating) ?? 'nothing'})`,
    });
  }
  if (comment !== undefined && comment !== null) {
    if (typeof comment !== 'string') {
      problems.push({ path: 'comment', message: `expected a string, got ${kindOf(comment)}` });
    } else if (Array.from(comment).length > FEEDBACK_LIMITS.commentChars) {
      problems.push({
        path: 'comment',
        message: `must be at most ${FEEDBACK_LIMITS.commentChars} characters (got ${Array.from(comment).length}); shorten it`,
      });
    }
  }
  if (problems.length) throw invalidRequest('Invalid feedback', problems);
  const trimmed = typeof comment === 'string' ? comment.trim() : '';
  return {
    threadId,
    threadKey,
    fp,
    messageId,
    rating: rating as Vote,
    ...(trimmed ? { comment: trimmed } : {}),
  };
}

function storageOf(runtime: AssistantRuntime): ThreadStorage & FeedbackStorage {
  const storage = feedbackStorage(runtime.threads.storage);
  if (!storage) throw new HttpError(404, 'not_found', "This service's storage does not keep feedback.");
  return storage;
}

const item = (record: FeedbackRecord): FeedbackItem => ({
  threadId: record.threadId,
  messageId: record.messageId,
  rating: record.vote,
  ...(record.comment ? { comment: record.comment } : {}),
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
});

async function handleVote(c: Context<ServiceEnv>, runtime: AssistantRuntime): Promise<Response> {
  const storage = storageOf(runtime);
  const vote = validateFeedbackVote(await readJsonBody(c.req.raw, FEEDBACK_LIMITS.bodyBytes));
  const domain = c.get('domain').domain;
  let owned = false;
  for (const protocol of ['v1', 'v2'] as const) {
    const found = await runtime.threads.find(vote.threadId, {
      domain: threadDomain(domain, protocol),
      fp: vote.fp,
      key: vote.threadKey,
    });
    if (found.ok) {
      owned = true;
      break;
    }
  }
  if (!owned) {
    throw new HttpError(
      404,
      'thread_not_found',
      `Thread not found: no thread "${vote.threadId}" with this threadKey for this reader on domain "${domain}"; only the reader who holds a thread's key can vote on its answers.`,
    );
  }
  const voted = await storage.feedbackMessageIds(vote.threadId);
  if (voted.length >= FEEDBACK_LIMITS.perThread && !voted.includes(vote.messageId)) {
    throw new HttpError(
      409,
      'conflict',
      `Thread "${vote.threadId}" already has votes on ${FEEDBACK_LIMITS.perThread} answers; a vote on one of them can still be changed.`,
    );
  }
  const record = await storage.recordFeedback(
    {
      threadId: vote.threadId,
      messageId: vote.messageId,
      domain,
      vote: vote.rating,
      ...(vote.comment ? { comment: vote.comment } : {}),
    },
    Date.now(),
  );
  runtime.insights?.vote(domain, vote.threadId, vote.messageId, vote.rating);
  return new Response(JSON.stringify(item(record)), {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      ...rateLimitHeaders(...c.get('decisions')),
    },
  });
}

/** A CSV field: quoted when it holds a comma, a quote or a line break; a leading formula sign is neutralised. */
export function csvField(value: string): string {
  // A spreadsheet would run `=…`, `+…`, `-…`, `@…` in a reader's comment as a formula.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export const FEEDBACK_CSV_COLUMNS = [
  'threadId',
  'messageId',
  'rating',
  'comment',
  'createdAt',
  'updatedAt',
] as const;

export function feedbackCsv(items: FeedbackItem[]): string {
  const rows = items.map((entry) =>
    FEEDBACK_CSV_COLUMNS.map((column) => csvField(entry[column] ?? '')).join(','),
  );
  return `${[FEEDBACK_CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}

function readListQuery(c: Context): { limit: number; since?: string; csv: boolean } {
  const problems: ValidationProblem[] = [];
  const limit = listLimit(c.req.query('limit'), FEEDBACK_LIMITS.list, FEEDBACK_LIMITS.list, problems);
  const since = c.req.query('since');
  if (since !== undefined && Number.isNaN(Date.parse(since))) {
    problems.push({ path: 'since', message: 'must be an ISO date or time, e.g. 2026-11-01T00:00:00Z' });
  }
  const format = listFormat(c.req.query('format'), problems);
  throwIfInvalidQuery(problems);
  const accept = c.req.header('accept') ?? '';
  const csv = format === 'csv' || (format === undefined && /\btext\/csv\b/i.test(accept));
  return { limit, ...(since ? { since: new Date(since).toISOString() } : {}), csv };
}

async function handleList(c: Context<ServiceEnv>, runtime: AssistantRuntime): Promise<Response> {
  const domain = c.get('domain');
  const storage = storageOf(runtime);
  const query = readListQuery(c);
  const records = await storage.listFeedback(domain.domain, {
    limit: query.limit,
    ...(query.since ? { since: query.since } : {}),
  });
  const items = records.map(item);
  const headers = { 'Cache-Control': 'no-store', Vary: 'Accept' };
  if (query.csv) {
    return new Response(feedbackCsv(items), {
      headers: {
        ...headers,
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="feedback-${domain.domain.replace(/[^\w.-]/g, '_')}.csv"`,
      },
    });
  }
  return new Response(JSON.stringify({ domain: domain.domain, feedback: items }), {
    headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' },
  });
}

/**
 * The feedback route family. The vote takes the assistant key readers hold (with CORS); the list
 * an admin key, a server-side secret: its GET gets no CORS header, like the static export API, and
 * counts against the address's limit only (it is the owner reading, not a reader asking).
 */
export function feedbackRoutes(runtime: AssistantRuntime): RouteFamily {
  return new RouteFamily({ cors: { publicExcept: ['GET', 'HEAD'] }, wrongMethod: discoveryWrongMethod })
    .post(
      FEEDBACK_ROUTE,
      'feedback endpoint (POST a vote with the assistant key, GET the list with an admin key)',
      admission(runtime, { key: 'assistant' }),
      bodyCap(FEEDBACK_LIMITS.bodyBytes),
      (c) => handleVote(c, runtime),
    )
    .get(FEEDBACK_ROUTE, 'feedback endpoint', ownerAdmission(runtime, 'listing feedback needs'), (c) =>
      handleList(c, runtime),
    );
}
