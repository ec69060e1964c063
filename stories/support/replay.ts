/**
 * A `fetch` for stories that answers the assistant endpoint the way a server would: a v4 data
 * stream (`CODE:JSON\n` lines written with the AI SDK's own `formatDataStreamPart`) sent line by
 * line with a delay between lines, or an HTTP error, or a failed connection. The widget reads it
 * with its real client, so every state a story shows was reached by streaming.
 */
import { formatDataStreamPart } from 'ai';

/** One thing the replayed stream does, in order. */
export type StreamStep =
  /** A formatted data stream line (see the builders below). */
  | { line: string }
  /** Stop sending and keep the connection open until the reader presses Stop (a "while streaming" state). */
  | { hold: true }
  /** Wait longer than the usual pacing, e.g. while the "server" searches. */
  | { pause: number }
  /** The connection drops here: the body errors like a reset socket. */
  | { drop: string };

/** What one request gets back. */
export type Reply =
  | { kind: 'stream'; steps: StreamStep[]; headers?: Record<string, string> }
  | { kind: 'http'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'network-error'; message: string };

export interface ReplayOptions {
  /** Delay between two lines of a stream (in ms); stories pass their `pacing` parameter. */
  delayMs: number;
}

export interface ReplayRequest {
  url: string;
  body: { messages?: Array<{ role: string; content: string }>; [key: string]: unknown };
}

export interface ReplayFetch {
  fetch: typeof globalThis.fetch;
  /** Every request the widget made, for stories that show (and tests that check) what was sent. */
  requests: ReplayRequest[];
}

const sleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });

const usage = { promptTokens: 120, completionTokens: 80 };

/** Text as the model streams it: a few words per delta, so a designer sees tokens arrive. */
export function textDeltas(text: string, wordsPerDelta = 3): StreamStep[] {
  const words = text.split(/(?<=\s)/);
  const steps: StreamStep[] = [];
  for (let i = 0; i < words.length; i += wordsPerDelta) {
    steps.push({ line: formatDataStreamPart('text', words.slice(i, i + wordsPerDelta).join('')) });
  }
  return steps;
}

export function reasoningDeltas(text: string, wordsPerDelta = 3): StreamStep[] {
  const words = text.split(/(?<=\s)/);
  const steps: StreamStep[] = [];
  for (let i = 0; i < words.length; i += wordsPerDelta) {
    steps.push({ line: formatDataStreamPart('reasoning', words.slice(i, i + wordsPerDelta).join('')) });
  }
  return steps;
}

export const startStep = (messageId: string): StreamStep => ({
  line: formatDataStreamPart('start_step', { messageId }),
});

export const finishStep = (finishReason: 'stop' | 'tool-calls' = 'stop'): StreamStep => ({
  line: formatDataStreamPart('finish_step', { finishReason, usage, isContinued: false }),
});

/** The spec's finish event (§6): the SDK's finish part plus `threadId`. */
export function finishMessage(threadId: string): StreamStep {
  const value = { finishReason: 'stop' as const, usage, threadId };
  return { line: formatDataStreamPart('finish_message', value) };
}

export const source = (id: string, url: string, title: string): StreamStep => ({
  line: formatDataStreamPart('source', { sourceType: 'url', id, url, title }),
});

/** A tool call whose arguments stream in (the `partial-call` state), then the complete call. */
export function toolCallStreaming(toolCallId: string, toolName: string, args: object): StreamStep[] {
  const json = JSON.stringify(args);
  const cut = Math.max(1, Math.floor(json.length / 3));
  return [
    { line: formatDataStreamPart('tool_call_streaming_start', { toolCallId, toolName }) },
    { line: formatDataStreamPart('tool_call_delta', { toolCallId, argsTextDelta: json.slice(0, cut) }) },
    {
      line: formatDataStreamPart('tool_call_delta', { toolCallId, argsTextDelta: json.slice(cut, cut * 2) }),
    },
    { line: formatDataStreamPart('tool_call_delta', { toolCallId, argsTextDelta: json.slice(cut * 2) }) },
  ];
}

export const toolCall = (toolCallId: string, toolName: string, args: object): StreamStep => ({
  line: formatDataStreamPart('tool_call', { toolCallId, toolName, args }),
});

export const toolResult = (toolCallId: string, result: unknown): StreamStep => ({
  line: formatDataStreamPart('tool_result', { toolCallId, result }),
});

export const errorPart = (message: string): StreamStep => ({ line: formatDataStreamPart('error', message) });

/** A whole answer: start, the steps, finish with a thread id. */
export function answerStream(messageId: string, steps: StreamStep[], threadId = `thr_${messageId}`): Reply {
  return {
    kind: 'stream',
    steps: [startStep(messageId), ...steps, finishStep(), finishMessage(threadId)],
  };
}

const encoder = new TextEncoder();

function streamBody(steps: StreamStep[], delayMs: number, signal?: AbortSignal | null) {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const step = steps[index++];
      if (!step) {
        controller.close();
        return;
      }
      try {
        if ('hold' in step) {
          // Until Stop: the widget's abort ends the request like a closed tab would.
          await new Promise<never>((_, reject) => {
            if (signal?.aborted) reject(signal.reason);
            signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
          });
        } else if ('pause' in step) {
          await sleep(step.pause, signal);
          return;
        } else if ('drop' in step) {
          controller.error(new TypeError(step.drop));
          return;
        } else {
          if (delayMs > 0) await sleep(delayMs, signal);
          controller.enqueue(encoder.encode(`${step.line}`));
        }
      } catch (reason) {
        controller.error(reason);
      }
    },
  });
}

/**
 * A `fetch` that answers each request with the next reply (the last one repeats). Every reply
 * waits one pacing interval before its response, like a round trip.
 */
export function replayFetch(replies: Reply[], { delayMs }: ReplayOptions): ReplayFetch {
  if (replies.length === 0) throw new Error('replayFetch needs at least one reply.');
  const requests: ReplayRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    requests.push({ url, body: init?.body ? JSON.parse(String(init.body)) : {} });
    const reply = replies[Math.min(requests.length - 1, replies.length - 1)]!;
    const signal = init?.signal;
    await sleep(delayMs * 4, signal);
    if (reply.kind === 'network-error') throw new TypeError(reply.message);
    if (reply.kind === 'http') {
      return new Response(JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'Content-Type': 'application/json', ...reply.headers },
      });
    }
    return new Response(streamBody(reply.steps, delayMs, signal), {
      status: 200,
      headers: {
        'Content-Type': 'text/plain; charset=utf-8',
        'X-Vercel-AI-Data-Stream': 'v1',
        ...reply.headers,
      },
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

/**
 * Paces a real service's data stream: the same bytes, one line at a time with `delayMs` between
 * lines, so an answer computed at once still arrives the way a model streams it.
 */
export function pacedFetch(
  handler: (request: Request) => Promise<Response>,
  { delayMs }: ReplayOptions,
): typeof globalThis.fetch {
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = await handler(new Request(input, init));
    if (!response.ok || !response.body) return response;
    const signal = init?.signal;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          while (!buffered.includes('\n')) {
            const { done, value } = await reader.read();
            if (done) {
              if (buffered) controller.enqueue(encoder.encode(buffered));
              buffered = '';
              controller.close();
              return;
            }
            buffered += value;
          }
          const end = buffered.indexOf('\n') + 1;
          const line = buffered.slice(0, end);
          buffered = buffered.slice(end);
          if (delayMs > 0) await sleep(delayMs, signal);
          controller.enqueue(encoder.encode(line));
        } catch (reason) {
          controller.error(reason);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return fetch as typeof globalThis.fetch;
}
