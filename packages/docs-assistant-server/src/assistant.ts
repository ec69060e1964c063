/**
 * The v1 assistant endpoint (spec §4.1): POST /discovery/v1/assistant/:domain/message. Checks
 * limits, key, domain and body, searches the docs, then streams the `search` tool call, its
 * result and the engine's answer in the AI SDK v4 data stream protocol, ending with a finish part
 * that carries the thread id (spec §6).
 */
import { createDataStreamResponse, type DataStreamWriter, formatDataStreamPart } from 'ai';
import {
  type AssistantRequest,
  codePointLength,
  DEFAULT_RETRIEVAL_PAGE_SIZE,
  type FinishMessageValue,
  type Message,
  THREAD_ID_HEADER,
  THREAD_KEY_HEADER,
  validateAssistantRequest,
} from 'docs-assistant/protocol';
import type { Context, MiddlewareHandler } from 'hono';
import { attachmentContext, attachmentsBodyAllowance, checkAttachments } from './attachments.js';
import type { DomainConfig, ServiceConfig } from './config.js';
import { adjustAssistantBody, adjustedHeaders } from './discovery/adjust.js';
import { siteLinkBuilder, siteTitle } from './docs/sites/published.js';
import { searchOutput } from './engines/sources.js';
import type { AnswerContext, AnswerEngine, AnswerOutcome } from './engines/types.js';
import {
  admission,
  bodyCap,
  discoveryWrongMethod,
  HttpError,
  invalidRequest,
  RouteFamily,
  rateLimitHeaders,
  readJsonBody,
  type ServiceEnv,
} from './http/index.js';
import type { InsightsRecorder } from './insights/record.js';
import { type AssistantLimits, DEFAULT_ASSISTANT_LIMITS } from './limits.js';
import type { RateLimitDecision, RateLimiter } from './rate-limit.js';
import type { DocsIndex } from './retrieval/index.js';
import { searchForReader } from './retrieval/reader.js';
import type { Thread, ThreadStore } from './threads.js';

export const ASSISTANT_MESSAGE_ROUTE = '/discovery/v1/assistant/:domain/message';

export interface AssistantRuntime {
  config: ServiceConfig;
  threads: ThreadStore;
  engine: AnswerEngine;
  /** Counted in the storage (shared by replicas) or in memory; `hit` may return a promise. */
  limiters: { perOrganization: RateLimiter; perIp: RateLimiter };
  /** The search index of a domain, built on first use. */
  index: (domain: string) => Promise<DocsIndex>;
  trustProxy: boolean;
  warn: (message: string) => void;
  /** Records questions, searches, agent calls and votes (insights/record.ts); absent when off. */
  insights?: InsightsRecorder;
}

/** The error part's text when an answer fails; the details go to the service's log. */
export const ANSWER_FAILED = 'The assistant could not finish this answer; try again.';

// Sections searched in all, so pages just below the cut can be suggested as related.
const RELATED_POOL = 15;

export const randomId = (prefix: string): string =>
  prefix + crypto.getRandomValues(new Uint32Array(3)).reduce((id, n) => id + n.toString(36), '');

/** The first `max` characters (code points) of `text`. */
const clip = (text: string, max: number): string =>
  text.length <= max ? text : Array.from(text).slice(0, max).join('');

function messageText(message: Message): string {
  if (message.content.trim()) return message.content.trim();
  return message.parts
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('')
    .trim();
}

/**
 * Characters of a message's text: its `content` or its text and reasoning parts, whichever is
 * longer (the v4 client sends the same text in both).
 */
function messageChars(message: Message): number {
  let parts = 0;
  for (const part of message.parts) {
    if (part.type === 'text') parts += codePointLength(part.text);
    else if (part.type === 'reasoning') parts += codePointLength(part.reasoning);
  }
  return Math.max(codePointLength(message.content), parts);
}

/**
 * 413 when `fp` or a message is longer than the service keeps: both would be stored (the question
 * in the thread, `fp` on every line of it), and the key that sends them is public.
 */
function checkStoredSizes(request: AssistantRequest, limits: AssistantLimits): void {
  const issues: { path: string; message: string }[] = [];
  const fpLength = codePointLength(request.fp);
  if (fpLength > limits.maxFpLength) {
    issues.push({
      path: 'fp',
      message: `must be at most ${limits.maxFpLength} characters (got ${fpLength}); send an id or a hash of the reader`,
    });
  }
  request.messages.forEach((message, index) => {
    const chars = messageChars(message);
    if (chars > limits.maxMessageChars) {
      issues.push({
        path: `messages.${index}`,
        message: `must be at most ${limits.maxMessageChars} characters of text (got ${chars}); shorten it`,
      });
    }
  });
  if (!issues.length) return;
  throw new HttpError(
    413,
    'payload_too_large',
    `Request too large: ${issues.map((issue) => `${issue.path} ${issue.message}`).join('; ')}.`,
    { issues },
  );
}

/** The latest user question, or a 400 saying what is wrong with the conversation. */
function latestQuestion(request: AssistantRequest): string {
  const index = request.messages.length - 1;
  const last = request.messages[index]!;
  if (last.role !== 'user') {
    throw new HttpError(
      400,
      'invalid_request',
      `messages.${index}.role: the last message must be the user's question (got role "${last.role}").`,
      {
        issues: [{ path: `messages.${index}.role`, message: 'must be "user" for the last message' }],
      },
    );
  }
  const text = messageText(last);
  if (!text) {
    throw new HttpError(
      400,
      'invalid_request',
      'The last user message has no text; send the question as content.',
      {
        issues: [{ path: `messages.${index}.content`, message: 'must hold the question' }],
      },
    );
  }
  return text;
}

/**
 * Which endpoint a thread was started on. A thread holds the answers of one wire protocol: the v1
 * endpoint's AI SDK 4 messages and the v2 endpoint's AI SDK 5 UI messages are not interchangeable,
 * so neither endpoint continues a thread of the other.
 */
export type ThreadProtocol = 'v1' | 'v2';

/**
 * The domain a thread of `protocol` is stored under. v2 threads carry a mark in their stored
 * domain, so a lookup from the other endpoint does not find them (and can then say why).
 */
export const threadDomain = (domain: string, protocol: ThreadProtocol): string =>
  protocol === 'v1' ? domain : `${domain} (v2)`;

const ENDPOINT_OF: Record<ThreadProtocol, string> = {
  v1: 'the v1 endpoint (POST /discovery/v1/assistant/{domain}/message, AI SDK 4 messages)',
  v2: 'the v2 endpoint (POST /discovery/v2/assistant/{domain}/message, AI SDK 5 UI messages)',
};

/**
 * The thread a request continues, or a new one. A new thread comes with its key, which is sent to
 * the client this once (`X-Thread-Key` and the finish part); every later request must send it back.
 */
async function findThread(
  runtime: AssistantRuntime,
  request: AssistantRequest,
  domain: string,
  protocol: ThreadProtocol,
): Promise<{ thread: Thread; key?: string }> {
  const stored = threadDomain(domain, protocol);
  if (!request.threadId) return runtime.threads.create({ domain: stored, fp: request.fp });
  const owner = { fp: request.fp, key: request.threadKey };
  const found = await runtime.threads.find(request.threadId, { domain: stored, ...owner });
  if (!found.ok) {
    // A thread of the other endpoint is only named to whoever holds its key, so this says nothing
    // about threads the caller could not continue anyway.
    const other: ThreadProtocol = protocol === 'v1' ? 'v2' : 'v1';
    if (request.threadKey) {
      const elsewhere = await runtime.threads.find(request.threadId, {
        domain: threadDomain(domain, other),
        ...owner,
      });
      if (elsewhere.ok) {
        throw new HttpError(
          409,
          'conflict',
          `Thread "${request.threadId}" was started on ${ENDPOINT_OF[other]} and can only continue there; ` +
            `this is ${ENDPOINT_OF[protocol]}. Leave threadId out to start a new thread here.`,
        );
      }
    }
    // Same answer for "no such thread", "someone else's thread" and "wrong key", so ids cannot be
    // probed; a missing key is named, which tells nothing about the thread. The 404 is what the real
    // service answers; the code tells our clients to drop the stored thread and ask again, which
    // they must not do for an unknown domain (`not_found`).
    const advice =
      "send threadId with the threadKey from the X-Thread-Key header of the thread's first response, or leave threadId out to start a new thread.";
    throw new HttpError(
      404,
      'thread_not_found',
      request.threadKey
        ? `Thread not found: no thread "${request.threadId}" with this threadKey for this reader on domain "${domain}"; ${advice}`
        : `Thread not found: threadId "${request.threadId}" was sent without its threadKey; ${advice}`,
    );
  }
  return { thread: found.thread };
}

/** What `admission` let in: the domain and the limits counted, for `answerHeaders`. */
export interface AdmittedRequest {
  domain: DomainConfig;
  /** The limits it counted against, for `rateLimitHeaders`. */
  decisions: RateLimitDecision[];
}

/** The admitted request of a route behind `admission` (its typed context variables). */
export const admitted = (c: Context<ServiceEnv>): AdmittedRequest => ({
  domain: c.get('domain'),
  decisions: c.get('decisions'),
});

/** Everything an answer needs, found once for either endpoint: the thread, the search, the context. */
export interface PreparedAnswer {
  question: string;
  thread: Thread;
  /** Set when the thread was created by this request: the key is handed out this once. */
  newThreadKey?: string;
  answerContext: AnswerContext;
  limits: AssistantLimits;
}

/**
 * Checks the sizes and the question of a validated request, finds or starts its thread and runs
 * the one search both the `search` tool result and the engine's answer come from.
 */
export async function prepareAnswer(
  runtime: AssistantRuntime,
  domain: DomainConfig,
  request: AssistantRequest,
  options: { protocol: ThreadProtocol; signal?: AbortSignal },
): Promise<PreparedAnswer> {
  const limits = runtime.config.limits ?? DEFAULT_ASSISTANT_LIMITS;
  checkStoredSizes(request, limits);
  // Text files attached to the question inform the search and the answer like page context does.
  const attached = attachmentContext(request);
  if (attached.length) request = { ...request, context: [...(request.context ?? []), ...attached] };
  const question = latestQuestion(request);
  const { thread, key: newThreadKey } = await findThread(runtime, request, domain.domain, options.protocol);
  const index = await runtime.index(domain.domain);

  const earlier = thread.turns.length
    ? thread.turns.map((turn) => turn.question)
    : request.messages
        .slice(0, -1)
        .filter((m) => m.role === 'user')
        .map(messageText);
  const pageSize = request.retrievalPageSize ?? DEFAULT_RETRIEVAL_PAGE_SIZE;
  // One search, deeper than the page size: the rest of the list names related pages to suggest.
  // In the reader's language and version (retrieval/reader.ts).
  const { result: wide, scope } = searchForReader(index, {
    question,
    history: earlier,
    context: request.context ?? [],
    ...(request.currentPath ? { currentPath: request.currentPath } : {}),
    filter: request.filter ?? null,
    limit: Math.max(pageSize, RELATED_POOL),
  });
  const retrieval = { ...wide, hits: wide.hits.slice(0, pageSize) };
  const answerContext = buildAnswerContext({ runtime, domain, index, request, question, thread, retrieval });
  answerContext.scope = scope;
  for (const hit of wide.hits.slice(pageSize)) {
    const { pagePath, pageTitle } = hit.section;
    if (
      answerContext.sources.some((s) => s.path === pagePath) ||
      answerContext.related.some((r) => r.path === pagePath)
    ) {
      continue;
    }
    answerContext.related.push({ title: pageTitle, path: pagePath });
  }
  if (options.signal) answerContext.abortSignal = options.signal;
  return { question, thread, ...(newThreadKey ? { newThreadKey } : {}), answerContext, limits };
}

/** The `search` tool call's arguments, as both endpoints show them. */
export const searchToolArgs = (request: AssistantRequest, question: string) => ({
  query: question,
  ...(request.filter ? { filter: request.filter } : {}),
  ...(request.currentPath ? { currentPath: request.currentPath } : {}),
});

/**
 * Runs the engine; an engine that throws gets the error part (written by `onFailure`) and an
 * `error` outcome, so the caller still ends the stream with the thread.
 */
export async function runEngine(
  runtime: AssistantRuntime,
  prepared: PreparedAnswer,
  stream: DataStreamWriter,
  onFailure: () => void,
): Promise<AnswerOutcome> {
  try {
    return await runtime.engine.answer(
      prepared.answerContext,
      runtime.insights?.timed(prepared, stream) ?? stream,
    );
  } catch (error) {
    runtime.warn(`answer failed: ${error instanceof Error ? error.message : String(error)}`);
    onFailure();
    return { text: '', cited: [], finishReason: 'error', usage: { promptTokens: 0, completionTokens: 0 } };
  }
}

/** Stores a finished answer as a turn of its thread (not a failed or stopped one). */
export async function recordTurn(
  runtime: AssistantRuntime,
  prepared: PreparedAnswer,
  outcome: AnswerOutcome,
): Promise<void> {
  const { thread, question, limits, answerContext } = prepared;
  if (outcome.finishReason === 'error' || answerContext.abortSignal?.aborted) return;
  runtime.insights?.answered(prepared, outcome);
  try {
    await runtime.threads.append(thread, {
      question,
      // An engine's answer is not the caller's to size; kept no longer than a message may be.
      answer: clip(outcome.text, limits.maxMessageChars),
      sources: [...new Set(outcome.cited.map((source) => source.path))],
      at: new Date().toISOString(),
    });
  } catch (error) {
    // The answer is already streamed; losing its persistence is worth a warning, not an error part.
    runtime.warn(`could not persist thread ${thread.id}: ${error instanceof Error ? error.message : error}`);
  }
}

/** Headers of a streamed answer: the new thread's id and key (first response only), the limits. */
export function answerHeaders(prepared: PreparedAnswer, admitted: AdmittedRequest): Record<string, string> {
  const { newThreadKey, thread } = prepared;
  return {
    // Only on the response that created the thread, like the real service: the key cannot be read
    // later (only its hash is stored), and later responses of the thread need neither.
    ...(newThreadKey ? { [THREAD_ID_HEADER]: thread.id, [THREAD_KEY_HEADER]: newThreadKey } : {}),
    ...rateLimitHeaders(...admitted.decisions),
    'Cache-Control': 'no-cache, no-transform',
    'X-Accel-Buffering': 'no',
  };
}

/**
 * Reads and validates the v1 body: 400 with every problem and its path. What the real schema
 * accepts and this service reads differently comes back as `adjustments` (discovery/adjust.ts).
 */
async function readAssistantRequest(
  c: Context,
  config: ServiceConfig,
): Promise<{ request: AssistantRequest; adjustments: string[] }> {
  // Attachments' data URLs may go beyond maxBodyBytes (one message's worth at their limits, each
  // checked below); the rest of the body may not.
  const body = await readJsonBody(
    c.req.raw,
    config.maxBodyBytes,
    attachmentsBodyAllowance(config.maxBodyBytes),
  );
  const adjusted = adjustAssistantBody(body);
  const validation = validateAssistantRequest(adjusted.body);
  if (!validation.success) {
    throw invalidRequest('Invalid request body', validation.problems);
  }
  checkAttachments(validation.data);
  return { request: validation.data, adjustments: adjusted.adjustments };
}

async function handleMessage(c: Context<ServiceEnv>, runtime: AssistantRuntime): Promise<Response> {
  const { request, adjustments } = await readAssistantRequest(c, runtime.config);
  const signal = c.req.raw.signal;
  const prepared = await prepareAnswer(runtime, c.get('domain'), request, {
    protocol: 'v1',
    ...(signal ? { signal } : {}),
  });
  runtime.insights?.caller(prepared, c.req.raw.headers);
  const { answerContext, thread, newThreadKey, question } = prepared;

  return createDataStreamResponse({
    headers: { ...answerHeaders(prepared, admitted(c)), ...adjustedHeaders(adjustments) },
    onError: (error) => {
      runtime.warn(`answer failed: ${error instanceof Error ? error.message : String(error)}`);
      return ANSWER_FAILED;
    },
    execute: async (stream) => {
      const { messageId } = answerContext;
      const toolCallId = randomId('call_');
      const args = searchToolArgs(request, question);
      const noUsage = { promptTokens: 0, completionTokens: 0 };
      stream.write(formatDataStreamPart('start_step', { messageId }));
      stream.write(formatDataStreamPart('tool_call_streaming_start', { toolCallId, toolName: 'search' }));
      stream.write(
        formatDataStreamPart('tool_call_delta', { toolCallId, argsTextDelta: JSON.stringify(args) }),
      );
      stream.write(formatDataStreamPart('tool_call', { toolCallId, toolName: 'search', args }));
      stream.write(formatDataStreamPart('tool_result', { toolCallId, result: answerContext.results }));
      stream.write(
        formatDataStreamPart('finish_step', {
          finishReason: 'tool-calls',
          usage: noUsage,
          isContinued: false,
        }),
      );

      // As the AI SDK's own server helpers do (and so the real service): on failure the error part,
      // then the step's end and the finish part with the thread, so a client keeps the thread.
      const outcome = await runEngine(runtime, prepared, stream, () => {
        stream.write(formatDataStreamPart('error', ANSWER_FAILED));
        stream.write(
          formatDataStreamPart('finish_step', { finishReason: 'error', usage: noUsage, isContinued: false }),
        );
      });
      await recordTurn(runtime, prepared, outcome);
      // `formatDataStreamPart` serialises the whole value, so `threadId` (spec §6) reaches the wire
      // even though its TypeScript type names only finishReason and usage. (The v4 client's parser
      // drops unknown fields, which is why the widget also reads the raw line and `X-Thread-Id`.)
      const finish = {
        finishReason: outcome.finishReason,
        usage: outcome.usage,
        threadId: thread.id,
        ...(newThreadKey ? { threadKey: newThreadKey } : {}),
      } satisfies FinishMessageValue;
      stream.write(formatDataStreamPart('finish_message', finish));
    },
  });
}

function buildAnswerContext(input: {
  runtime: AssistantRuntime;
  domain: DomainConfig;
  index: DocsIndex;
  request: AssistantRequest;
  question: string;
  thread: Thread;
  retrieval: ReturnType<DocsIndex['query']>;
}): AnswerContext {
  const { domain, index, request, question, thread, retrieval } = input;
  const urlFor = siteLinkBuilder(domain.siteUrl, index);
  const { results, sources } = searchOutput(retrieval.hits, urlFor);
  return {
    question,
    messages: request.messages,
    history: thread.turns,
    context: request.context ?? [],
    ...(request.currentPath ? { currentPath: request.currentPath } : {}),
    retrieval,
    results,
    sources,
    related: [],
    index,
    siteTitle: siteTitle(domain, index.pages),
    urlFor,
    messageId: randomId('msg_'),
  };
}

/**
 * The v1 assistant endpoint's route family. Its body is read by `readAssistantRequest` alone, not
 * capped by `bodyCap` first: attachments may take it past `maxBodyBytes`, and only the streaming
 * meter of `readJsonBody` tells their bytes from the rest while reading.
 */
export function assistantRoutes(runtime: AssistantRuntime): RouteFamily {
  return new RouteFamily({ cors: 'public', wrongMethod: discoveryWrongMethod }).post(
    ASSISTANT_MESSAGE_ROUTE,
    'assistant message endpoint',
    admission(runtime, { key: 'assistant' }),
    (c) => handleMessage(c, runtime),
  );
}

/**
 * A reader's POST endpoint as a route family of its own: public CORS, the discovery API's 405s,
 * the assistant key (`admit`: the service's admission unless the route words its refusals itself)
 * and a body held to `maxBodyBytes`.
 */
export function readerPostRoutes(
  runtime: AssistantRuntime,
  route: string,
  purpose: string,
  handle: (c: Context<ServiceEnv>, runtime: AssistantRuntime) => Promise<Response>,
  admit: MiddlewareHandler<ServiceEnv> = admission(runtime, { key: 'assistant' }),
): RouteFamily {
  return new RouteFamily({ cors: 'public', wrongMethod: discoveryWrongMethod }).post(
    route,
    purpose,
    admit,
    bodyCap(runtime.config.maxBodyBytes),
    (c) => handle(c, runtime),
  );
}
