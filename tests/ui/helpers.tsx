/** UI test helpers: a recording `fetch` answering with real v4 data streams (AI SDK helpers). */
import { createDataStreamResponse, type DataStreamWriter, formatDataStreamPart } from 'ai';
import { vi } from 'vitest';

export const ASSISTANT_KEY = 'svc_dsc_public_ui_test_key';
export const BASE_URL = 'https://api.example.com';

/** Widget props for tests; call `freshDomain()` before each test so no conversation carries over. */
export const baseProps = {
  domain: 'acme',
  apiKey: ASSISTANT_KEY,
  baseUrl: BASE_URL,
  storage: 'memory' as const,
  docsBaseUrl: 'https://docs.example.com',
};

let domainCount = 0;
/** Conversations are kept per domain (in memory here): a new domain per test starts empty. */
export function freshDomain(): void {
  domainCount += 1;
  baseProps.domain = `acme-${domainCount}`;
}

export interface RecordedRequest {
  url: string;
  body: {
    messages: Array<{ role: string; content: string }>;
    context?: Array<{ type: string; value: string }>;
    [key: string]: unknown;
  };
}

type Responder = (request: RecordedRequest) => Response | Promise<Response>;

/** A `fetch` that records each request and answers with the responders in turn (the last repeats). */
export function recordingFetch(...responders: Responder[]) {
  const requests: RecordedRequest[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request: RecordedRequest = { url: String(input), body: JSON.parse(String(init?.body)) };
    requests.push(request);
    const responder = responders[Math.min(requests.length - 1, responders.length - 1)];
    if (!responder) throw new Error('recordingFetch: no responder');
    return responder(request);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, requests, mock: fetch };
}

const usage = { promptTokens: 1, completionTokens: 2 };

/** A whole answer: a start, the text deltas, a source, and the finish (with the spec's threadId). */
export function answer(
  deltas: string[],
  options: { gate?: Promise<void>; sources?: Array<{ url: string; title: string }> } = {},
): Response {
  return createDataStreamResponse({
    async execute(stream: DataStreamWriter) {
      stream.write(formatDataStreamPart('start_step', { messageId: 'msg-answer' }));
      const [first, ...rest] = deltas;
      if (first !== undefined) stream.write(formatDataStreamPart('text', first));
      // Held here so a test can see the answer mid-stream (and stop it).
      if (options.gate) await options.gate;
      for (const delta of rest) stream.write(formatDataStreamPart('text', delta));
      for (const [i, source] of (options.sources ?? []).entries()) {
        stream.write(formatDataStreamPart('source', { sourceType: 'url', id: `s${i}`, ...source }));
      }
      stream.write(formatDataStreamPart('finish_step', { finishReason: 'stop', usage, isContinued: false }));
      stream.write(formatDataStreamPart('finish_message', { finishReason: 'stop', usage }));
    },
  });
}

/** A promise with its resolver, to hold a response or a stream until the test lets it go. */
export function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export const serverError = () =>
  new Response(JSON.stringify({ error: { code: 'internal', message: 'boom' } }), {
    status: 500,
    headers: { 'Content-Type': 'application/json' },
  });

/** Records every value an attribute takes on an element (a MutationObserver, so no value is missed). */
export function recordAttribute(element: Element, name: string) {
  const values: Array<string | null> = [element.getAttribute(name)];
  const observer = new MutationObserver(() => {
    const value = element.getAttribute(name);
    if (values[values.length - 1] !== value) values.push(value);
  });
  observer.observe(element, { attributes: true, attributeFilter: [name] });
  return { values, stop: () => observer.disconnect() };
}

/** Records every distinct text a live region shows. */
export function recordText(element: Element) {
  const values: string[] = [];
  const observer = new MutationObserver(() => {
    const text = element.textContent ?? '';
    if (values[values.length - 1] !== text) values.push(text);
  });
  observer.observe(element, { childList: true, subtree: true, characterData: true });
  return { values, stop: () => observer.disconnect() };
}
