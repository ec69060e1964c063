/**
 * The tapped `fetch` the v4 chat client is given (`createTappedFetch`): it records each request in
 * its trace (see `trace.ts`), reads the body of a response that is not 2xx for the error mapping,
 * refuses a 2xx response that is not a data stream, and passes the stream through the line tap
 * (`line-tap.ts`) and the frame batches (`line-batch.ts`). The client drops fields it does not know
 * from the finish part (`d:`), so the spec's `threadId` (§6) would never reach us without it.
 */
import { THREAD_ID_HEADER, THREAD_KEY_HEADER } from '../protocol/index.js';
import { STREAM_RENDER_THROTTLE_MS } from './config.js';
import { animationFrames, batchLines } from './line-batch.js';
import { tapDataStream } from './line-tap.js';
import { bodyStart, NotDataStreamError, type RequestTrace, type ThreadInfo, threadInfoOf } from './trace.js';

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

// Types a data stream is never sent as: the address answered with a page or an API response.
const NOT_A_STREAM_TYPE =
  /^(?:text\/html|application\/xhtml\+xml|application\/json|application\/xml|text\/xml|[a-z]+\/[^;\s]*\+(?:json|xml))\s*(?:;|$)/i;

/**
 * Whether a 2xx response can be a data stream: `X-Vercel-AI-Data-Stream` says it is; a type no
 * data stream has says it is not. Anything else is read, and its first line decides (see the tap).
 */
const mayBeDataStream = (headers: Headers): boolean =>
  headers.has('X-Vercel-AI-Data-Stream') || !NOT_A_STREAM_TYPE.test(headers.get('Content-Type') ?? '');

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
   * The longest wait between batches where no animation frame comes (in ms); see `batchLines`.
   * @default STREAM_RENDER_THROTTLE_MS
   */
  batchIntervalMs?: number;
}

/**
 * A `fetch` for the chat client that records each request in the trace `getTrace()` returns at call
 * time, reads non-2xx bodies for the error mapping, refuses a 2xx response that is not a data
 * stream, calls `onAccepted` on a 2xx one, taps the stream, batches its lines per animation frame,
 * and calls `onAnswerStarted` as the first part of the answer reaches the client.
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
      // The beginning of the body, for the error message (a page or an API response: not large).
      const start = bodyStart(await response.text().catch(() => ''));
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
    const { batchIntervalMs = STREAM_RENDER_THROTTLE_MS, onAnswerStarted } = input;
    const signal = init?.signal;
    const tapped = tapDataStream(response.body, trace, signal);
    const onAnswer = onAnswerStarted && (() => onAnswerStarted(trace));
    return withBody(response, batchLines(tapped, batchIntervalMs, signal, animationFrames, onAnswer));
  };
}
