/**
 * What one request went through, as the tapped `fetch` saw it (`RequestTrace`): the thread it named
 * and the one it got back, and whatever went wrong on the way. The error mapping (`errors.ts`) and
 * the controller read it; the tap (`line-tap.ts`, `stream-tap.ts`) fills it in.
 */

export interface ThreadInfo {
  threadId?: string;
  threadKey?: string;
}

/** What the tapped `fetch` saw of one request; filled in while the request runs. */
export interface RequestTrace {
  /** The request never got a response (refused connection, DNS, CORS, offline). */
  networkError?: unknown;
  /** A response that was not 2xx, with its body read as text. */
  httpError?: { status: number; headers: Headers; body: string };
  /** The thread the request named (`threadId`, `threadKey` of its body), set as the body is built. */
  sentThread?: ThreadInfo;
  /** The text of an error part (`3:`) in the stream. */
  errorPart?: string;
  /**
   * After an error part: settles once the rest of the stream has been read for the thread (the AI
   * SDK's server helpers still write `e:` and the finish part `d:`, with the `threadId`, after it).
   * The client has stopped reading at the error by then; only the trace's `thread` is updated.
   */
  afterError?: Promise<void>;
  /** Stops that reading (the thread no longer matters: another request started, or a new conversation). */
  stopAfterError?: () => void;
  /** Why a line of the stream could not be read. */
  malformedLine?: string;
  /** The stream ended without its finish part: `empty` when it held no part at all. */
  unfinished?: 'empty' | 'cut-off';
  /**
   * The 2xx response is not a data stream at all (an HTML page, JSON): `baseUrl` most likely points
   * at another server. `start` is the beginning of the body, for the developer.
   */
  notDataStream?: { start: string };
  /** The 2xx response the stream came from: where it came from and what it said it holds. */
  response?: { url: string; status: number; contentType: string | null };
  /** The thread as each place gave it; `resolveThread` picks. */
  thread: { finish?: ThreadInfo; annotation?: ThreadInfo; header?: ThreadInfo };
}

export const createRequestTrace = (): RequestTrace => ({ thread: {} });

/** The thread of a request: the finish part wins over an annotation, which wins over the headers. */
export function resolveThread(trace: RequestTrace): ThreadInfo {
  const { finish, annotation, header } = trace.thread;
  const threadId = finish?.threadId ?? annotation?.threadId ?? header?.threadId;
  const threadKey = finish?.threadKey ?? annotation?.threadKey ?? header?.threadKey;
  return threadOf({ threadId, threadKey });
}

/**
 * The `threadId` and `threadKey` of a value that are non-empty strings, and nothing else: what a
 * request body, a stored conversation and a session hold of their thread.
 */
export function threadOf(value: unknown): ThreadInfo {
  const { threadId, threadKey } = (value ?? {}) as Record<string, unknown>;
  return {
    ...(typeof threadId === 'string' && threadId ? { threadId } : {}),
    ...(typeof threadKey === 'string' && threadKey ? { threadKey } : {}),
  };
}

/** An error as one line for a message: its name and message. */
export const describeError = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

/** Thrown into the client's read when the stream holds a line that is not a data stream part. */
export class MalformedStreamError extends Error {
  override name = 'MalformedStreamError';
}

/** Thrown into the client's read when the stream ends before its finish part (`d:`). */
export class UnfinishedStreamError extends Error {
  override name = 'UnfinishedStreamError';
}

/** Thrown when a 2xx response is not a data stream (see `RequestTrace.notDataStream`). */
export class NotDataStreamError extends Error {
  override name = 'NotDataStreamError';
}

/** How much of a body that is not a data stream the error shows (in characters). */
const BODY_START_CHARS = 120;

export const bodyStart = (text: string): string => {
  const line = text.trim().replace(/\s+/g, ' ');
  return line.length > BODY_START_CHARS ? `${line.slice(0, BODY_START_CHARS)}…` : line;
};

export function threadInfoOf(value: unknown): ThreadInfo | undefined {
  if (typeof value !== 'object') return undefined;
  const info = threadOf(value);
  return info.threadId || info.threadKey ? info : undefined;
}

/** Records the thread a finish part or an annotation gives. */
export function recordThread(trace: RequestTrace, parsed: { name: string; value: unknown }): void {
  if (parsed.name === 'finishMessage') {
    trace.thread.finish = threadInfoOf(parsed.value) ?? trace.thread.finish;
  } else if (parsed.name === 'messageAnnotations' && Array.isArray(parsed.value)) {
    for (const annotation of parsed.value) {
      trace.thread.annotation = threadInfoOf(annotation) ?? trace.thread.annotation;
    }
  }
}
