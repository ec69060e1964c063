/**
 * The tapped `fetch` the v4 chat client is given (`createTappedFetch`): it records each request in
 * its trace (see `trace.ts`), reads the body of a response that is not 2xx for the error mapping,
 * refuses a 2xx response that is not a data stream, and passes the stream through the line tap
 * (`line-tap.ts`) and the frame batches (`line-batch.ts`). The client drops fields it does not know
 * from the finish part (`d:`), so the spec's `threadId` (§6) would never reach us without it.
 */
import { THREAD_ID_HEADER, THREAD_KEY_HEADER } from '../protocol/index.js';
import { batchLines } from './line-batch.js';
import { NEWLINE, tapDataStream } from './line-tap.js';
import {
  BODY_START_CHARS,
  bodyStart,
  NotDataStreamError,
  type RequestTrace,
  type ThreadInfo,
  threadInfoOf,
} from './trace.js';

// The pieces, for callers that join them another way (the bench's floor, the tests).
export { animationFrames, batchLines, coalesceDeltas, type FrameClock } from './line-batch.js';
export { tapDataStream } from './line-tap.js';
export {
  createRequestTrace,
  MalformedStreamError,
  NotDataStreamError,
  type RequestTrace,
  resolveThread,
  type ThreadInfo,
  UnfinishedStreamError,
} from './trace.js';

function headerThread(headers: Headers): ThreadInfo | undefined {
  return threadInfoOf({
    threadId: headers.get(THREAD_ID_HEADER) ?? undefined,
    threadKey: headers.get(THREAD_KEY_HEADER) ?? undefined,
  });
}

const COLON = 0x3a;
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
 * of the answer is handed to the reader (the chat client then shows it). Chunks after it are passed
 * on without a look.
 */
function watchAnswerStart(body: ReadableStream<Uint8Array>, onStart: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // A failed read rejects this pull, which errors this stream with the same reason.
        const chunk = await reader.read();
        if (chunk.done) return controller.close();
        if (!started && holdsAnswerPart(chunk.value)) {
          started = true;
          onStart();
        }
        controller.enqueue(chunk.value);
      },
      cancel: (reason) => reader.cancel(reason),
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

const withBody = (response: Response, body: BodyInit | null) =>
  new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });

export interface TappedFetchInput {
  getFetch: () => typeof fetch;
  getTrace: () => RequestTrace;
  onAccepted?: (trace: RequestTrace) => void;
  onAnswerStarted?: (trace: RequestTrace) => void;
  /**
   * Hands the stream over in batches, one per animation frame, and at least this often (in ms)
   * where no frame comes; see `batchLines`. Without it every line goes on its own.
   */
  batchIntervalMs?: number;
}

/**
 * A `fetch` for the chat client that records each request in the trace `getTrace()` returns at call
 * time, reads non-2xx bodies for the error mapping, refuses a 2xx response that is not a data
 * stream, calls `onAccepted` on a 2xx one, taps the stream, (with `batchIntervalMs`) batches its
 * lines, and calls `onAnswerStarted` as the first part of the answer reaches the client.
 */
export function createTappedFetch(input: TappedFetchInput): typeof fetch {
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
      return withBody(response, body);
    }
    const contentType = response.headers.get('Content-Type');
    trace.response = { url: response.url || urlOf(url), status: response.status, contentType };
    if (!mayBeDataStream(response.headers)) {
      const start = await readStart(response);
      // Stopped while the start was read: a stop, not an error.
      if (init?.signal?.aborted) throw init.signal.reason;
      trace.notDataStream = { start };
      throw new NotDataStreamError(`The response is ${contentType}, not a data stream.`);
    }
    input.onAccepted?.(trace);
    if (!response.body) {
      // The client throws its own error for a response without a body.
      trace.unfinished = 'empty';
      return response;
    }
    const tapped = tapDataStream(response.body, trace, init?.signal);
    const { batchIntervalMs, onAnswerStarted } = input;
    const batched = batchIntervalMs ? batchLines(tapped, batchIntervalMs, init?.signal) : tapped;
    return withBody(
      response,
      onAnswerStarted ? watchAnswerStart(batched, () => onAnswerStarted(trace)) : batched,
    );
  };
}
