/**
 * The tap between the network and the v4 chat client. The client drops fields it does not know from
 * the finish part (`d:`), so the spec's `threadId` (§6) would never reach us; the tapped `fetch`
 * reads the raw stream on the way through and records what it saw for the hook.
 *
 * The bytes of every well-formed line reach the client unchanged, one line per chunk, so a part the
 * client cannot use only costs that part. A line that is not a data stream part (unknown code, bad
 * JSON, cut off at the end) is dropped and the stream ends with a `MalformedStreamError` after the
 * lines before it were delivered: the client keeps the partial answer and reports the error. So does
 * a stream that ends without its finish part (`d:`, the protocol's last part): the answer was cut
 * off at a line boundary, or the body was empty, which the client alone would take as a success.
 */
import { parseStreamLine, THREAD_ID_HEADER, THREAD_KEY_HEADER } from '../protocol/index.js';

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
  return { ...(threadId ? { threadId } : {}), ...(threadKey ? { threadKey } : {}) };
}

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

// What a data stream line starts with: a one-character part code and a colon. A first line that
// does not is another kind of body (`<!doctype html>`, `{"ok":true}`), not a broken stream.
const PART_LINE_START = /^[0-9a-z]:/;

/** How much of a body that is not a data stream the error shows (in characters). */
const BODY_START_CHARS = 120;

const bodyStart = (text: string): string => {
  const line = text.trim().replace(/\s+/g, ' ');
  return line.length > BODY_START_CHARS ? `${line.slice(0, BODY_START_CHARS)}…` : line;
};

function threadInfoOf(value: unknown): ThreadInfo | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { threadId, threadKey } = value as Record<string, unknown>;
  const info: ThreadInfo = {
    ...(typeof threadId === 'string' && threadId ? { threadId } : {}),
    ...(typeof threadKey === 'string' && threadKey ? { threadKey } : {}),
  };
  return info.threadId || info.threadKey ? info : undefined;
}

/** Records the thread a finish part or an annotation gives. */
function recordThread(trace: RequestTrace, parsed: { name: string; value: unknown }): void {
  if (parsed.name === 'finishMessage') {
    trace.thread.finish = threadInfoOf(parsed.value) ?? trace.thread.finish;
  } else if (parsed.name === 'messageAnnotations' && Array.isArray(parsed.value)) {
    for (const annotation of parsed.value) {
      trace.thread.annotation = threadInfoOf(annotation) ?? trace.thread.annotation;
    }
  }
}

const NEWLINE = 0x0a;

/**
 * How much of a stream is read after an error part, looking for the thread (in bytes); the finish
 * part follows within a few lines, so anything longer is not a stream worth reading on.
 */
const MAX_BYTES_AFTER_ERROR = 64 * 1024;

/**
 * Passes a data stream through, recording the thread, error parts and malformed lines in `trace`.
 * Aborting `signal` ends the stream with the abort reason even when the source ignores the signal,
 * so `stop()` works with any `fetch`.
 */
export function tapDataStream(
  body: ReadableStream<Uint8Array>,
  trace: RequestTrace,
  signal?: AbortSignal | null,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending: Uint8Array = new Uint8Array(0);
  let failure: Error | undefined;
  let finished = false;
  let parts = 0;
  let finishSeen = false;

  /** Records what a line says: `malformed`, `last` (an error part: the client stops there) or `ok`. */
  const inspect = (bytes: Uint8Array): 'ok' | 'last' | 'malformed' => {
    const line = decoder.decode(bytes).replace(/\r$/, '');
    if (line === '') return 'ok';
    const parsed = parseStreamLine(line);
    if (!parsed.ok) {
      if (parts === 0 && !PART_LINE_START.test(line)) {
        trace.notDataStream = { start: bodyStart(line) };
        failure = new NotDataStreamError(`The response is not a data stream: ${bodyStart(line)}`);
        return 'malformed';
      }
      trace.malformedLine = parsed.reason;
      failure = new MalformedStreamError(`Malformed data stream line: ${parsed.reason}`);
      return 'malformed';
    }
    parts += 1;
    if (parsed.name === 'finishMessage') finishSeen = true;
    recordThread(trace, parsed);
    if (parsed.name === 'error') {
      trace.errorPart = typeof parsed.value === 'string' ? parsed.value : JSON.stringify(parsed.value);
      return 'last';
    }
    return 'ok';
  };

  /**
   * Reads what follows an error part (`rest` is what was already read of it) for the thread only:
   * the client stops at the error, but the AI SDK's server helpers still write the finish part with
   * the `threadId`. Lines that cannot be read are skipped; a stop or a broken connection ends it.
   */
  const readRestForThread = async (rest: Uint8Array): Promise<void> => {
    const stop = () => void reader.cancel(signal?.reason).catch(() => {});
    trace.stopAfterError = stop;
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop);
    let buffer = rest;
    let total = rest.length;
    const note = (bytes: Uint8Array) => {
      const parsed = parseStreamLine(decoder.decode(bytes).replace(/\r$/, ''));
      if (parsed.ok) recordThread(trace, parsed);
    };
    try {
      for (;;) {
        let start = 0;
        for (let end = buffer.indexOf(NEWLINE); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
          note(buffer.subarray(start, end));
          start = end + 1;
        }
        buffer = buffer.slice(start);
        if (total > MAX_BYTES_AFTER_ERROR) {
          stop();
          return;
        }
        const chunk = await reader.read();
        if (chunk.done) {
          if (buffer.length > 0) note(buffer);
          return;
        }
        total += chunk.value.length;
        const joined = new Uint8Array(buffer.length + chunk.value.length);
        joined.set(buffer);
        joined.set(chunk.value, buffer.length);
        buffer = joined;
      }
    } catch {
      // Stopped or broken: the thread is whatever was read before.
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  };

  const stopSource = (reason?: unknown) => {
    finished = true;
    signal?.removeEventListener('abort', onAbort);
    reader.cancel(reason).catch(() => {});
  };

  let output: ReadableStreamDefaultController<Uint8Array>;
  function onAbort() {
    if (finished) return;
    stopSource(signal?.reason);
    output.error(signal?.reason ?? new DOMException('The request was aborted.', 'AbortError'));
  }

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        output = controller;
        if (signal?.aborted) onAbort();
        else signal?.addEventListener('abort', onAbort);
      },
      async pull(controller) {
        // A malformed line (or the end without a finish part) was found while earlier lines were
        // still queued: they have been read now.
        if (failure) {
          finished = true;
          signal?.removeEventListener('abort', onAbort);
          controller.error(failure);
          return;
        }
        let delivered = 0;
        while (delivered === 0) {
          let chunk: ReadableStreamReadResult<Uint8Array>;
          try {
            chunk = await reader.read();
          } catch (error) {
            if (finished) return;
            finished = true;
            signal?.removeEventListener('abort', onAbort);
            controller.error(error);
            return;
          }
          if (finished) return;
          if (chunk.done) {
            // A last line without its newline is still a line (the client reads it too).
            const seen = pending.length > 0 ? inspect(pending) : 'ok';
            if (seen === 'malformed') {
              stopSource();
              if (delivered === 0) controller.error(failure);
              return;
            }
            if (pending.length > 0) {
              controller.enqueue(pending);
              delivered += 1;
              pending = new Uint8Array(0);
            }
            // An error part ends a stream early on purpose; anything else must end with `d:`. The
            // error waits for the next read when lines are queued, so the client gets them first.
            if (seen !== 'last' && !finishSeen) {
              trace.unfinished = parts === 0 ? 'empty' : 'cut-off';
              failure = new UnfinishedStreamError(
                parts === 0
                  ? 'The response held no data stream part.'
                  : 'The data stream ended without its finish part (d:).',
              );
              if (delivered === 0) {
                finished = true;
                signal?.removeEventListener('abort', onAbort);
                controller.error(failure);
              }
              return;
            }
            finished = true;
            signal?.removeEventListener('abort', onAbort);
            controller.close();
            return;
          }
          let bytes: Uint8Array = chunk.value;
          if (pending.length > 0) {
            const joined = new Uint8Array(pending.length + bytes.length);
            joined.set(pending);
            joined.set(bytes, pending.length);
            bytes = joined;
          }
          let start = 0;
          for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
            const seen = inspect(bytes.subarray(start, end));
            if (seen === 'malformed') {
              stopSource();
              if (delivered === 0) controller.error(failure);
              return;
            }
            controller.enqueue(bytes.slice(start, end + 1));
            delivered += 1;
            start = end + 1;
            if (seen === 'last') {
              // The client throws at an error part and reads nothing after it; the rest of the
              // stream is read here for the thread, while the client reports the error.
              finished = true;
              signal?.removeEventListener('abort', onAbort);
              trace.afterError = readRestForThread(bytes.slice(start));
              controller.close();
              return;
            }
          }
          pending = bytes.slice(start);
        }
      },
      cancel(reason) {
        stopSource(reason);
      },
    },
    // Pull only when the client reads, so queued lines are delivered before a deferred error.
    { highWaterMark: 0 },
  );
}

/**
 * Hands the lines of a tapped stream to the chat client in batches, at most one batch per
 * `intervalMs`: the client re-renders once per batch instead of once per token. The first lines go
 * through at once; the last ones go through as soon as the source ends, so the client has the whole
 * answer before it reports the request finished (its `status` never says `ready` while text is
 * still held back), and no update is left pending after the request.
 *
 * This is why the hook does not use `useChat`'s own `experimental_throttle`: its trailing update
 * fires on a timer after the request ended, into whatever conversation the client shows by then.
 *
 * An error of the source is passed on after the lines read before it (a malformed line keeps the
 * answer up to it); an abort is passed on at once, and nothing read after it reaches the client.
 */
export function batchLines(
  body: ReadableStream<Uint8Array>,
  intervalMs: number,
  signal?: AbortSignal | null,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  // A read that outlived its batch's deadline; the next batch starts with it.
  let pendingRead: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  let lastDelivery = Number.NEGATIVE_INFINITY;
  let deferredError: { error: unknown } | undefined;
  const read = () => {
    pendingRead ??= reader.read();
    return pendingRead;
  };
  const TIMED_OUT = Symbol('timed out');

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (deferredError) {
          controller.error(deferredError.error);
          return;
        }
        const batch: Uint8Array[] = [];
        const deliver = () => {
          if (batch.length === 0) return;
          coalesceDeltas(batch);
          const size = batch.reduce((total, chunk) => total + chunk.length, 0);
          const joined = new Uint8Array(size);
          let offset = 0;
          for (const chunk of batch) {
            joined.set(chunk, offset);
            offset += chunk.length;
          }
          controller.enqueue(joined);
          lastDelivery = Date.now();
        };
        // One timer per batch, not per read: a fast stream brings a line per token.
        let timer: ReturnType<typeof setTimeout> | undefined;
        let deadline: Promise<typeof TIMED_OUT> | undefined;
        try {
          for (;;) {
            const wait =
              batch.length === 0 ? Number.POSITIVE_INFINITY : lastDelivery + intervalMs - Date.now();
            if (wait <= 0) break;
            if (wait !== Number.POSITIVE_INFINITY) {
              deadline ??= new Promise<typeof TIMED_OUT>((resolve) => {
                timer = setTimeout(() => resolve(TIMED_OUT), wait);
              });
            }
            const result = await (deadline ? Promise.race([read(), deadline]) : read());
            if (result === TIMED_OUT) break;
            pendingRead = undefined;
            if (result.done) {
              deliver();
              controller.close();
              return;
            }
            batch.push(result.value);
          }
        } catch (error) {
          pendingRead = undefined;
          // Stopped: the reader asked for nothing more, so nothing more is handed over.
          if (signal?.aborted || batch.length === 0) {
            controller.error(error);
            return;
          }
          deferredError = { error };
        } finally {
          clearTimeout(timer);
        }
        deliver();
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** Part codes whose values are string deltas the client appends (text, reasoning). */
const DELTA_CODES = new Set([0x30 /* 0 */, 0x67 /* g */]);
const COLON = 0x3a;
const QUOTE = 0x22;

/**
 * Whether a line is `C:"…"\n` with C a delta code: a JSON string value with nothing around it. The
 * tap has already checked that the line's JSON is valid, so the bytes between the first and the
 * last quote are a complete string body, and bodies can be joined without decoding them.
 */
function isDeltaLine(line: Uint8Array): boolean {
  const n = line.length;
  return (
    n >= 5 &&
    DELTA_CODES.has(line[0]!) &&
    line[1] === COLON &&
    line[2] === QUOTE &&
    line[n - 2] === QUOTE &&
    line[n - 1] === NEWLINE
  );
}

/**
 * Merges runs of consecutive text (or reasoning) lines of a batch into one line each, in place. The
 * client updates the message once per line, so a batch of K tokens would otherwise still cost K
 * message copies and K renders in one task; merged, it costs one. The end state is the same: the
 * client appends the deltas either way. Works on the bytes (no decoding or JSON), and expects one
 * line per chunk, as the tap delivers them; any other line is passed on as it is.
 */
export function coalesceDeltas(lines: Uint8Array[]): void {
  const merged: Uint8Array[] = [];
  let run: Uint8Array[] = [];
  const flush = () => {
    if (run.length === 0) return;
    if (run.length === 1) {
      merged.push(run[0]!);
    } else {
      // `C:"` + every body + `"\n`
      const size = run.reduce((total, line) => total + line.length - 5, 5);
      const joined = new Uint8Array(size);
      joined.set(run[0]!.subarray(0, 3));
      let offset = 3;
      for (const line of run) {
        const body = line.subarray(3, line.length - 2);
        joined.set(body, offset);
        offset += body.length;
      }
      joined[offset] = QUOTE;
      joined[offset + 1] = NEWLINE;
      merged.push(joined);
    }
    run = [];
  };
  for (const line of lines) {
    if (!isDeltaLine(line)) {
      flush();
      merged.push(line);
      continue;
    }
    if (run.length > 0 && run[0]![0] !== line[0]) flush();
    run.push(line);
  }
  flush();
  lines.splice(0, lines.length, ...merged);
}

function headerThread(headers: Headers): ThreadInfo | undefined {
  return threadInfoOf({
    threadId: headers.get(THREAD_ID_HEADER) ?? undefined,
    threadKey: headers.get(THREAD_KEY_HEADER) ?? undefined,
  });
}

// Part codes that put something of the answer on screen (text, reasoning, a file, a source, a tool
// call or result); the others only carry data, annotations or the steps around them.
const ANSWER_CODES = new Set(['0', 'g', 'i', 'k', 'h', 'b', '9', 'a'].map((code) => code.charCodeAt(0)));

/** Whether a chunk of whole lines holds a part of the answer. */
function holdsAnswerPart(bytes: Uint8Array): boolean {
  for (let start = 0; start < bytes.length; ) {
    if (ANSWER_CODES.has(bytes[start]!) && bytes[start + 1] === COLON) return true;
    const end = bytes.indexOf(NEWLINE, start);
    if (end === -1) return false;
    start = end + 1;
  }
  return false;
}

/**
 * Passes a stream of whole lines through and calls `onStart` once, as the first chunk holding a part
 * of the answer is handed to the reader (the chat client then shows it).
 */
function watchAnswerStart(body: ReadableStream<Uint8Array>, onStart: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // A failed read rejects this pull, which errors this stream with the same reason.
        const chunk = await reader.read();
        if (chunk.done) {
          controller.close();
          return;
        }
        if (!started && holdsAnswerPart(chunk.value)) {
          started = true;
          onStart();
        }
        controller.enqueue(chunk.value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

// Types a data stream is never sent as: the address answered with a page or an API response.
const NOT_A_STREAM_TYPE =
  /^(?:text\/html|application\/xhtml\+xml|application\/json|application\/xml|text\/xml|[a-z]+\/[^;\s]*\+(?:json|xml))\s*(?:;|$)/i;

/**
 * Whether a 2xx response can be a data stream: `X-Vercel-AI-Data-Stream` says it is; a type no
 * data stream has says it is not. Anything else is read, and its first line decides (see the tap).
 */
const mayBeDataStream = (headers: Headers): boolean =>
  headers.has('X-Vercel-AI-Data-Stream') || !NOT_A_STREAM_TYPE.test(headers.get('Content-Type') ?? '');

/** The beginning of a body, for an error message; never throws. */
async function readStart(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < BODY_START_CHARS * 4) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // Only the start of the body was wanted, for the message.
  } finally {
    reader.cancel().catch(() => {});
  }
  return bodyStart(text);
}

const urlOf = (input: RequestInfo | URL): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

/**
 * A `fetch` for the chat client that records each request in the trace `getTrace()` returns at call
 * time, reads non-2xx bodies for the error mapping, refuses a 2xx response that is not a data
 * stream, calls `onAccepted` on a 2xx one, taps the stream, (with `batchIntervalMs`) batches its
 * lines, and calls `onAnswerStarted` as the first part of the answer reaches the client.
 */
export function createTappedFetch(input: {
  getFetch: () => typeof fetch;
  getTrace: () => RequestTrace;
  onAccepted?: (trace: RequestTrace) => void;
  onAnswerStarted?: (trace: RequestTrace) => void;
  /** Hands the stream over in batches at most this often (in ms); see `batchLines`. */
  batchIntervalMs?: number;
}): typeof fetch {
  return async (url, init) => {
    const trace = input.getTrace();
    let response: Response;
    try {
      response = await input.getFetch()(url, init);
    } catch (error) {
      if (!(error instanceof Error && error.name === 'AbortError')) trace.networkError = error;
      throw error;
    }
    trace.thread.header = headerThread(response.headers);
    if (!response.ok) {
      const body = await response.text().catch(() => '');
      trace.httpError = { status: response.status, headers: response.headers, body };
      // The client reads the body again for its own error; hand it a fresh copy.
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    }
    trace.response = {
      url: response.url || urlOf(url),
      status: response.status,
      contentType: response.headers.get('Content-Type'),
    };
    if (!mayBeDataStream(response.headers)) {
      const start = await readStart(response);
      // Stopped while the start was read: a stop, not an error.
      if (init?.signal?.aborted) throw init.signal.reason;
      trace.notDataStream = { start };
      throw new NotDataStreamError(`The response is ${trace.response.contentType}, not a data stream.`);
    }
    input.onAccepted?.(trace);
    if (!response.body) {
      // The client throws its own error for a response without a body.
      trace.unfinished = 'empty';
      return response;
    }
    const tapped = tapDataStream(response.body, trace, init?.signal);
    const batched = input.batchIntervalMs ? batchLines(tapped, input.batchIntervalMs, init?.signal) : tapped;
    const { onAnswerStarted } = input;
    const body = onAnswerStarted ? watchAnswerStart(batched, () => onAnswerStarted(trace)) : batched;
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
