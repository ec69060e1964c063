/**
 * Test helpers: a recording `fetch`, v4 data streams written by the AI SDK's own helpers, options,
 * and a real HTTP server on 127.0.0.1 for what only a network can do (drop a connection mid-answer).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { act } from '@testing-library/react';
import { createDataStreamResponse, type DataStreamWriter, formatDataStreamPart } from 'ai';
import { vi } from 'vitest';
import type {
  AssistantMessage,
  StoredThread,
  ThreadStorage,
  UseDocsAssistantOptions,
} from '../../packages/docs-assistant/src/chat/types';

export const ASSISTANT_KEY = 'svc_dsc_public_test_key';
export const BASE_URL = 'https://api.example.com';
export const ENDPOINT = `${BASE_URL}/discovery/v1/assistant/acme/message`;

export const baseOptions = (overrides: Partial<UseDocsAssistantOptions> = {}): UseDocsAssistantOptions => ({
  domain: 'acme',
  apiKey: ASSISTANT_KEY,
  baseUrl: BASE_URL,
  ...overrides,
});

export interface RecordedCall {
  url: string;
  method: string | undefined;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

type Responder = (call: RecordedCall, init: RequestInit | undefined) => Response | Promise<Response>;

/** A `fetch` that records each call and answers with the responders in turn (the last one repeats). */
export function recordingFetch(...responders: Responder[]) {
  const calls: RecordedCall[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: RecordedCall = {
      url: String(input),
      method: init?.method,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: JSON.parse(String(init?.body)) as Record<string, unknown>,
    };
    calls.push(call);
    const responder = responders[Math.min(calls.length - 1, responders.length - 1)];
    if (!responder) throw new Error('no responder');
    return responder(call, init);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch & typeof fetch, calls, mock: fetch };
}

/** The finish part as the spec's server sends it: the SDK's fields plus `threadId` (and a key). */
export function finishLine(
  thread: { threadId?: string; threadKey?: string } = {},
): ReturnType<typeof formatDataStreamPart> {
  // `formatDataStreamPart` only types the SDK's fields; it writes whatever value it is given.
  const value = { finishReason: 'stop' as const, usage: { promptTokens: 1, completionTokens: 2 }, ...thread };
  return formatDataStreamPart('finish_message', value);
}

/** A whole answer, written with `createDataStreamResponse`. */
export function answerResponse(
  text: string,
  options: { threadId?: string; threadKey?: string; headers?: Record<string, string> } = {},
): Response {
  return createDataStreamResponse({
    headers: options.headers,
    execute(stream: DataStreamWriter) {
      stream.write(formatDataStreamPart('start_step', { messageId: 'msg-answer' }));
      stream.write(formatDataStreamPart('text', text));
      stream.write(
        formatDataStreamPart('finish_step', {
          finishReason: 'stop',
          usage: { promptTokens: 1, completionTokens: 2 },
          isContinued: false,
        }),
      );
      stream.write(finishLine({ threadId: options.threadId, threadKey: options.threadKey }));
    },
  });
}

/** A stream the test writes to line by line, to stop or break it mid-answer. */
export function controlledStream(headers: Record<string, string> = {}) {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    response: () =>
      new Response(body, {
        status: 200,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Vercel-AI-Data-Stream': 'v1', ...headers },
      }),
    write: (text: string) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
    /** Breaks the stream, as a dropped connection does. */
    fail: (reason: unknown) => controller.error(reason),
  };
}

/** The headers a v4 data stream response has (`createDataStreamResponse` sets the same). */
export const DATA_STREAM_HEADERS = {
  'Content-Type': 'text/plain; charset=utf-8',
  'X-Vercel-AI-Data-Stream': 'v1',
};

/**
 * A real HTTP server on 127.0.0.1; `handle` gets each request with its index (0 for the first) and
 * its body as text. `baseUrl` is its address; `bodies()` every request body received, in order;
 * `close()` ends open connections too.
 */
export async function serveHttp(
  handle: (
    request: IncomingMessage,
    response: ServerResponse,
    index: number,
    body: string,
  ) => void | Promise<void>,
) {
  let count = 0;
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    const index = count++;
    // The body is read before answering, as a real service does.
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies[index] = body;
      void Promise.resolve(handle(request, response, index, body)).catch((error: unknown) => {
        response.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests: () => count,
    bodies: () => bodies.map((body) => JSON.parse(body) as Record<string, unknown>),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes a fetch `Response` (status, headers, body) to a Node response. */
export async function sendResponse(target: ServerResponse, response: Response): Promise<void> {
  target.writeHead(response.status, Object.fromEntries(response.headers.entries()));
  const reader = response.body?.getReader();
  for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader?.read()) {
    target.write(chunk.value);
  }
  target.end();
}

/**
 * A JSON error response in the real service's shape: `{ "error": "<message>" }` (a string), plus
 * the reference service's `code` when one is given.
 */
export function serviceErrorResponse(status: number, message: string, code?: string) {
  return new Response(JSON.stringify(code ? { error: message, code } : { error: message }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** A JSON error response in the reference service's earlier shape, `{ error: { code, message } }`. */
export function errorResponse(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
) {
  return new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** The text of a message's text parts. */
export const textOf = (message: { parts?: Array<{ type: string; text?: string }> } | undefined): string =>
  (message?.parts ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');

/** Starts `send` inside `act` and hands back its promise, to write the stream while it runs. */
export function startSend(
  result: { current: { send: (question: string) => Promise<void> } },
  question: string,
): Promise<void> {
  let sending!: Promise<void>;
  act(() => {
    sending = result.current.send(question);
  });
  return sending;
}

/** A storage in memory, holding `thread` to start with; `saved()` is what the hook last saved. */
export function memoryThreadStorage(thread: StoredThread | null) {
  let saved: StoredThread | null = thread;
  const storage: ThreadStorage = {
    load: () => saved,
    save: (next) => {
      saved = next;
    },
    clear: () => {
      saved = null;
    },
  };
  return { storage, saved: () => saved };
}

/** One earlier question and answer of a stored conversation, for tests that continue a thread. */
export const EARLIER_TURN: AssistantMessage[] = [
  {
    id: 'u1',
    role: 'user',
    content: 'What is a thread?',
    parts: [{ type: 'text', text: 'What is a thread?' }],
  },
  {
    id: 'a1',
    role: 'assistant',
    content: 'A conversation the service remembers.',
    parts: [{ type: 'text', text: 'A conversation the service remembers.' }],
  },
];
