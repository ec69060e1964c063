/**
 * Maps what can go wrong around a request to an `AssistantError`: a kind a UI can act on and words
 * for developers (`message`, `detail`). The reader's sentence is the UI's: it words the kind with
 * its labels (`errorText` in the shell), so this module knows no language and no React.
 */
import { readErrorText } from '../protocol/error-body.js';
import { describeError, type RequestTrace } from './trace.js';
import type { AssistantError } from './types.js';

/** Reads `Retry-After` (delay-seconds or an HTTP date) as whole seconds from now. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * What the server said in an error body, as one line (`code: message` when it gave a code), or the
 * raw body (shortened) when it is not JSON of a known shape (see `readErrorBody`).
 */
function serverMessage(body: string): string {
  const error = readErrorText(body);
  if (error) return error.code ? `${error.code}: ${error.message}` : error.message;
  const text = body.trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/**
 * The server does not know the thread the request named: any 404 to a request that carried a
 * `threadId`. The real service answers 404 `{ "error": "Thread not found" }` for an unknown thread
 * or a wrong (or missing) `threadKey`; the reference service adds `code: thread_not_found`; a proxy
 * may answer a bare 404. Whatever the body, resending the same thread would fail the same way, so
 * the hook drops it and sends the question once as a new thread instead of showing an error.
 */
export function isThreadLost(trace: RequestTrace | undefined): boolean {
  return trace?.httpError?.status === 404 && Boolean(trace.sentThread?.threadId);
}

/** Maps a response that was not 2xx. */
export function httpError(status: number, headers: Headers, body: string): AssistantError {
  const said = serverMessage(body);
  const detail = `HTTP ${status}${said ? ` — ${said}` : ''}`;
  if (status === 401 || status === 403) {
    return {
      kind: 'auth',
      message: detail,
      detail: `${detail}. Check that apiKey is a valid assistant key (svc_dsc_…) for this domain (with api: that your route lets this reader in and holds a valid key).`,
      status,
      retryable: false,
    };
  }
  if (status === 429) {
    const retryAfter = parseRetryAfter(headers.get('Retry-After'));
    return {
      kind: 'rate-limit',
      message: detail,
      detail,
      status,
      ...(retryAfter === undefined ? {} : { retryAfter }),
      retryable: true,
    };
  }
  if (status >= 500) {
    return { kind: 'network', message: detail, detail, status, retryable: true };
  }
  return { kind: 'request', message: detail, detail, status, retryable: false };
}

/**
 * Maps an error the chat client threw, using what the tapped `fetch` saw of the request. Without a
 * trace (or with an empty one) an error is taken as a broken stream when a response had started,
 * which is the only other place the client throws.
 */
export function toAssistantError(error: unknown, trace: RequestTrace | undefined): AssistantError {
  if (trace?.httpError) {
    const { status, headers, body } = trace.httpError;
    return httpError(status, headers, body);
  }
  if (trace?.networkError !== undefined) {
    const detail = `The request failed before a response: ${describeError(trace.networkError)}`;
    return { kind: 'network', message: detail, detail, retryable: true };
  }
  if (trace?.notDataStream !== undefined) {
    const { url = 'The endpoint', status = 200, contentType = null } = trace.response ?? {};
    const start = trace.notDataStream.start;
    const detail = `${url} answered HTTP ${status} with ${contentType ? `Content-Type ${contentType}` : 'no Content-Type'}${start ? ` starting "${start}"` : ''}, not with the assistant's data stream. Check baseUrl (or api): it must be the address of the assistant service (e.g. https://api.example.com), or of your route that forwards to it, not of the docs site or another server.`;
    return { kind: 'config', message: detail, detail, status, retryable: false };
  }
  const detail = streamDetail(error, trace);
  return { kind: 'stream', message: detail, detail, retryable: true };
}

/** What broke in a stream (a `stream` error keeps the partial answer; a retry may help). */
function streamDetail(error: unknown, trace: RequestTrace | undefined): string {
  if (trace?.errorPart !== undefined) return `The server sent an error part: ${trace.errorPart}`;
  if (trace?.malformedLine !== undefined) {
    return `The stream held a line that is not a v4 data stream part (${trace.malformedLine}); it was dropped and the answer ended there.`;
  }
  if (trace?.unfinished === 'cut-off') {
    return 'The stream ended before its finish part (d:): the answer was cut off (the connection closed early, or a proxy ended the response).';
  }
  if (trace?.unfinished === 'empty') {
    return `The response${trace.response ? ` (HTTP ${trace.response.status})` : ''} was empty: no part of the answer arrived. Retry; if it keeps happening, check that baseUrl (or api) is the address of the assistant service (or of your route that forwards to it).`;
  }
  return `Reading the answer failed: ${describeError(error)}`;
}
