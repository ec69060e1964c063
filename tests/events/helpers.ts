/** Helpers of the events tests: a service `fetch` answering with real v4 data streams (AI SDK helpers). */
import { createDataStreamResponse, type DataStreamWriter, formatDataStreamPart } from 'ai';
import type { DocsAssistantEvent } from '../../packages/docs-assistant/src/index';

export const ASSISTANT_KEY = 'svc_dsc_events_test_key';
export const BASE_URL = 'https://api.example.com';

let count = 0;
/** Props with a domain of their own, so no conversation or vote carries over between tests. */
export function props() {
  count += 1;
  return {
    domain: `events-${count}`,
    apiKey: ASSISTANT_KEY,
    baseUrl: BASE_URL,
    storage: 'memory' as const,
    docsBaseUrl: 'https://docs.example.com',
  };
}

const usage = { promptTokens: 1, completionTokens: 2 };

export interface AnswerScript {
  messageId?: string;
  deltas?: string[];
  sources?: Array<{ url: string; title: string }>;
  threadId?: string;
  threadKey?: string;
}

/** A whole answer on a new thread: start, text, sources, finish with the thread and its key. */
export function answer(script: AnswerScript = {}): Response {
  const {
    messageId = 'msg_1',
    deltas = ['Install it ', 'with npm.'],
    sources = [],
    threadId = 'thr_1',
    threadKey = 'thk_1',
  } = script;
  return createDataStreamResponse({
    async execute(stream: DataStreamWriter) {
      stream.write(formatDataStreamPart('start_step', { messageId }));
      for (const delta of deltas) stream.write(formatDataStreamPart('text', delta));
      for (const [i, source] of sources.entries()) {
        stream.write(formatDataStreamPart('source', { sourceType: 'url', id: `s${i}`, ...source }));
      }
      stream.write(formatDataStreamPart('finish_step', { finishReason: 'stop', usage, isContinued: false }));
      // `threadId`/`threadKey` ride on the finish part as the service sends them (spec §6).
      stream.write(
        formatDataStreamPart('finish_message', {
          finishReason: 'stop',
          usage,
          threadId,
          threadKey,
        } as Parameters<typeof formatDataStreamPart<'finish_message'>>[1]),
      );
    },
  });
}

export interface SeenRequest {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/**
 * A `fetch` for the service: the message endpoint answers with the scripts in turn (the last
 * repeats), the feedback endpoint with `feedbackStatus`, `/health` with `capabilities`. Every POST
 * is recorded.
 */
export function serviceFetch(
  scripts: Array<AnswerScript | (() => Response)>,
  feedbackStatus = 200,
  capabilities: string[] = ['feedback'],
) {
  const messages: SeenRequest[] = [];
  const feedback: SeenRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    if (url.endsWith('/health')) {
      return new Response(JSON.stringify({ ok: true, capabilities }), {
        headers: { 'Content-Type': 'application/json' },
      });
    }
    const seen = {
      url,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: JSON.parse(String(init?.body)) as Record<string, unknown>,
    };
    if (url.includes('/discovery/v1/search/')) {
      return new Response('[]', { headers: { 'Content-Type': 'application/json' } });
    }
    if (url.endsWith('/feedback')) {
      feedback.push(seen);
      return new Response(
        JSON.stringify(feedbackStatus === 200 ? { ok: true } : { error: 'no', code: 'x' }),
        {
          status: feedbackStatus,
          headers: { 'Content-Type': 'application/json' },
        },
      );
    }
    messages.push(seen);
    const script = scripts[Math.min(messages.length - 1, scripts.length - 1)]!;
    return typeof script === 'function' ? script() : answer(script);
  };
  return { fetch: fetch as typeof globalThis.fetch, messages, feedback };
}

/** Records the events a widget reports. */
export function eventLog() {
  const events: DocsAssistantEvent[] = [];
  return { events, onEvent: (event: DocsAssistantEvent) => void events.push(event) };
}

/** The events of some types, in order. */
export const ofType = <T extends DocsAssistantEvent['type']>(events: DocsAssistantEvent[], ...types: T[]) =>
  events.filter((event): event is Extract<DocsAssistantEvent, { type: T }> =>
    types.includes(event.type as T),
  );
