/**
 * A `fetch` for `<StaticExportPanel>` stories that replays recorded answers of the host's
 * `createStaticExportHandler` route, one list per operation (the last answer repeats). The real
 * handler and the reference service's job runner need Node (file system, crypto, gzip), so the
 * stories replay what they answer instead: same paths, statuses and JSON bodies.
 */
import type {
  StaticExportBundle,
  StaticExportJob,
} from '../../packages/docs-assistant/src/protocol/static-export';

export interface RecordedAnswer {
  status: number;
  body: unknown;
}

export interface StaticExportRecording {
  /** Answers of `POST {endpoint}/jobs`. */
  start: RecordedAnswer[];
  /** Answers of `GET {endpoint}/jobs/{jobId}`, one per poll. */
  status: RecordedAnswer[];
  /** Answers of `POST {endpoint}/jobs/{jobId}/bundle`; functions are answered when asked (expiry times). */
  bundle: Array<RecordedAnswer | (() => RecordedAnswer)>;
}

export const STORY_JOB_ID = 'exp_7f3a9c2e41';
const CREATED = '2026-11-21T09:30:00.000Z';

/** A job as the status route answers it. */
export function job(status: StaticExportJob['status'], progress: number, pageCount: number, error?: string) {
  const body: StaticExportJob = {
    jobId: STORY_JOB_ID,
    status,
    progress,
    pageCount,
    createdAt: CREATED,
    updatedAt: CREATED,
    domain: 'docs-assistant',
    ...(error ? { error } : {}),
  };
  return { status: status === 'queued' ? 202 : 200, body };
}

/** A bundle link that expires `lifetimeMs` after it is generated. */
export function bundle(lifetimeMs: number): () => RecordedAnswer {
  return () => {
    const expires = Date.now() + lifetimeMs;
    const body: StaticExportBundle = {
      jobId: STORY_JOB_ID,
      bundleUrl: `https://exports.example.com/v1/static-export/bundles/${STORY_JOB_ID}.tar.gz?expires=${Math.floor(expires / 1000)}&signature=3b9d0c`,
      sizeBytes: 1_482_113,
      expiresAt: new Date(expires).toISOString(),
    };
    return { status: 200, body };
  };
}

export interface StaticExportFetch {
  fetch: (input: string, init?: RequestInit) => Promise<Response>;
  /** `METHOD path` of every call, in order. */
  calls: string[];
  /**
   * The panel's clock (its `now`): the time, except that it stands still from the moment a link
   * that outlives any story (more than a minute) is issued, so its countdown reads the same in
   * every picture ("1:00:00", not whichever second a picture was taken in). A link issued to
   * expire within the story lets it run until it has.
   */
  now: () => number;
}

/** A link living longer than this (in ms) is never seen to expire by a story: the clock stops. */
const OUTLIVES_STORY_MS = 60_000;

export function staticExportFetch(recording: StaticExportRecording, delayMs: number): StaticExportFetch {
  const calls: string[] = [];
  const seen = { start: 0, status: 0, bundle: 0 };
  const next = (kind: keyof typeof seen) => {
    const list = recording[kind];
    const answer = list[Math.min(seen[kind]++, list.length - 1)];
    if (!answer) throw new Error(`staticExportFetch: no recorded answer for ${kind}.`);
    return typeof answer === 'function' ? answer() : answer;
  };
  const fetch = async (input: string, init?: RequestInit) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = new URL(input, 'https://dashboard.example.com').pathname;
    calls.push(`${method} ${path}`);
    const segments = path.split('/').filter(Boolean);
    const rest = segments.slice(segments.lastIndexOf('jobs') + 1);
    const kind =
      method === 'POST' && rest.length === 0
        ? 'start'
        : method === 'GET' && rest.length === 1
          ? 'status'
          : method === 'POST' && rest[1] === 'bundle'
            ? 'bundle'
            : undefined;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (!kind) {
      return Response.json(
        { error: { code: 'not_found', message: `No route for ${method} ${path}.` } },
        { status: 404 },
      );
    }
    const askedAt = Date.now();
    const answer = next(kind);
    if (kind === 'bundle') {
      const expiresAt = Date.parse(String((answer.body as Partial<StaticExportBundle>).expiresAt));
      // The link's lifetime in whole seconds, as it was meant (the answer was made a moment later).
      const lifetime = Math.round((expiresAt - askedAt) / 1000) * 1000;
      stoppedAt = lifetime > OUTLIVES_STORY_MS ? expiresAt - lifetime : undefined;
    }
    return Response.json(answer.body, { status: answer.status });
  };
  let stoppedAt: number | undefined;
  return { fetch, calls, now: () => stoppedAt ?? Date.now() };
}
