/**
 * The v2 assistant endpoint: `POST /discovery/v2/assistant/{domain}/message`, for clients on AI SDK
 * 5 and later (`useChat` with `DefaultChatTransport`). The same body fields as v1, but `messages`
 * are AI SDK 5 UI messages (`parts`, no `content`), and the answer is the AI SDK 5 UI message
 * stream (server-sent events of JSON chunks) built with the SDK's own `createUIMessageStream`.
 *
 * It answers from the same search, engines and thread store as v1 (`prepareAnswer`, `runEngine`,
 * `recordTurn`); a thread remembers which endpoint started it, and neither continues the other's.
 * The engines write AI SDK 4 data stream parts; `UIMessageBridge` turns each into its UI message
 * chunk, so an engine needs no second implementation.
 *
 * The wire follows the real service's OpenAPI (its v2 definitions, in
 * `tests/fixtures/schemas/discovery-v2-*`): the finish chunk carries `threadId` at its top level
 * ("`event.threadId` when `event.type === 'finish'`"), and the search comes as `source-url` chunks,
 * never as a tool. AI SDK 5 keeps every chunk it gets as a part of the answer and sends the answer
 * back with the next question; a `tool-search` part there is not a part the real request schema
 * allows (text, reasoning, source-url, file, step-start), so a client built for the real service
 * would send a body it refuses.
 */
import { type DataStreamWriter, type JSONValue, parseDataStreamPart } from 'ai';
import {
  createUIMessageStream,
  createUIMessageStreamResponse,
  type FinishReason,
  type UIMessage,
  type UIMessageStreamWriter,
} from 'ai-v5';
import {
  type AssistantRequest,
  type Message,
  type ValidationProblem,
  validateAssistantRequest,
} from 'docs-assistant/protocol';
import type { Context } from 'hono';
import {
  ANSWER_FAILED,
  type AssistantRuntime,
  admitted,
  answerHeaders,
  prepareAnswer,
  randomId,
  readerPostRoutes,
  recordTurn,
  runEngine,
} from '../assistant.js';
import { invalidRequest, type RouteFamily, readJsonBody, type ServiceEnv } from '../http/index.js';
import { adjustAssistantBody, adjustedHeaders } from './adjust.js';

export const ASSISTANT_V2_MESSAGE_ROUTE = '/discovery/v2/assistant/:domain/message';

/** What the v2 stream's `start` and `finish` chunks carry as `messageMetadata`. */
export interface DocsMessageMetadata {
  /** The thread this answer belongs to: send it back as `threadId` to continue the conversation. */
  threadId: string;
  /** The thread's key, on the answer that started the thread only: send it back as `threadKey`. */
  threadKey?: string;
}

/**
 * The stream's last chunk: AI SDK 5's `finish` with the thread at its top level too, where the real
 * OpenAPI puts it (`messageMetadata` is where `useChat` reads it into the answer's `metadata`).
 */
export interface DocsFinishChunk {
  type: 'finish';
  finishReason: FinishReason;
  messageMetadata: DocsMessageMetadata;
  threadId: string;
  /** On the answer that started the thread only, as in v1's finish part. */
  threadKey?: string;
}

/** An AI SDK 5 UI message of this endpoint's conversations. */
export type DocsUIMessage = UIMessage<DocsMessageMetadata>;

const V2_ROLES = ['system', 'user', 'assistant'] as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

const kindOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;

/** The text of a UI message: its text parts, joined. */
const uiMessageText = (parts: Record<string, unknown>[]): string =>
  parts
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('');

/**
 * Checks the shape of AI SDK 5 UI messages as far as the service reads them (id, role, parts, the
 * text of text parts); other parts (reasoning, source-url, file, tool parts…) pass as they are.
 */
function checkUIMessages(messages: unknown): ValidationProblem[] {
  if (messages === undefined) {
    return [{ path: 'messages', message: 'required: an array of AI SDK 5 UI messages (the question last)' }];
  }
  if (!Array.isArray(messages)) {
    return [
      { path: 'messages', message: `expected an array of AI SDK 5 UI messages, got ${kindOf(messages)}` },
    ];
  }
  if (!messages.length) return [{ path: 'messages', message: 'must hold at least the latest user message' }];
  const problems: ValidationProblem[] = [];
  messages.forEach((message, i) => {
    const at = `messages.${i}`;
    if (!isRecord(message)) {
      problems.push({
        path: at,
        message: `expected a UI message { "id", "role", "parts" }, got ${kindOf(message)}`,
      });
      return;
    }
    if (typeof message.id !== 'string' || !message.id) {
      problems.push({ path: `${at}.id`, message: 'must be a non-empty string (the message id)' });
    }
    if (!V2_ROLES.includes(message.role as (typeof V2_ROLES)[number])) {
      problems.push({
        path: `${at}.role`,
        message: `must be one of ${V2_ROLES.join(', ')} (got ${JSON.stringify(message.role)})`,
      });
    }
    if (!Array.isArray(message.parts)) {
      const hint =
        typeof message.content === 'string'
          ? '; this looks like an AI SDK 4 message (content): send it to the v1 endpoint, or send parts: [{ "type": "text", "text": "…" }]'
          : '';
      problems.push({
        path: `${at}.parts`,
        message: `expected an array of parts, like [{ "type": "text", "text": "…" }], got ${kindOf(message.parts)}${hint}`,
      });
      return;
    }
    message.parts.forEach((part: unknown, p: number) => {
      if (!isRecord(part) || typeof part.type !== 'string') {
        problems.push({ path: `${at}.parts.${p}`, message: 'expected a part object with a string "type"' });
      } else if (part.type === 'text' && typeof part.text !== 'string') {
        problems.push({
          path: `${at}.parts.${p}.text`,
          message: `expected a string, got ${kindOf(part.text)}`,
        });
      }
    });
    if (message.metadata !== undefined && !isRecord(message.metadata) && message.metadata !== null) {
      problems.push({
        path: `${at}.metadata`,
        message: `expected an object, got ${kindOf(message.metadata)}`,
      });
    }
  });
  return problems;
}

/** A UI message as the engines read messages (AI SDK 4 shape): its text as `content` and one part. */
function toEngineMessage(message: Record<string, unknown>): Message {
  const text = uiMessageText(message.parts as Record<string, unknown>[]);
  return {
    id: message.id as string,
    role: message.role as Message['role'],
    content: text,
    parts: text ? [{ type: 'text', text }] : [],
  };
}

/**
 * The thread named by the last assistant message's metadata, for a client that keeps the thread in
 * its messages (as `useChat` does with `messageMetadata`) rather than in the body.
 */
function threadFromMessages(messages: Record<string, unknown>[]): { threadId?: string; threadKey?: string } {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'assistant' || !isRecord(message.metadata)) continue;
    const { threadId, threadKey } = message.metadata;
    if (typeof threadId !== 'string' || !threadId) continue;
    return { threadId, ...(typeof threadKey === 'string' && threadKey ? { threadKey } : {}) };
  }
  return {};
}

/**
 * Validates a v2 body: the UI messages here, every other field (`fp`, `threadId`, `filter`,
 * `context`, `currentPath`…) by the v1 rules, so both endpoints accept and refuse the same.
 * Returns the request with the messages as the engines read them.
 */
export function validateV2Request(body: unknown): { request: AssistantRequest; uiMessages: DocsUIMessage[] } {
  if (!isRecord(body)) {
    throw invalidRequest('Invalid request body', [
      {
        path: '(body)',
        message: `expected a JSON object { "fp": string, "messages": [ … ], … }, got ${kindOf(body)}`,
      },
    ]);
  }
  const messageProblems = checkUIMessages(body.messages);
  const uiMessages = messageProblems.length ? [] : (body.messages as Record<string, unknown>[]);
  // An explicit threadId wins; without one, the thread the conversation's last answer named.
  const fallback =
    body.threadId === undefined || body.threadId === null ? threadFromMessages(uiMessages) : {};
  const validation = validateAssistantRequest({
    ...body,
    ...fallback,
    ...(body.threadKey !== undefined && body.threadKey !== null ? { threadKey: body.threadKey } : {}),
    messages: uiMessages.length ? uiMessages.map(toEngineMessage) : body.messages,
  });
  // With bad UI messages the v1 rules' opinion of them is noise: the problems above say it better.
  const problems = [
    ...messageProblems,
    ...(validation.success
      ? []
      : validation.problems.filter((p) => !messageProblems.length || !p.path.startsWith('messages'))),
  ];
  if (problems.length || !validation.success) {
    throw invalidRequest('Invalid request body', problems);
  }
  return { request: validation.data, uiMessages: uiMessages as unknown as DocsUIMessage[] };
}

/**
 * A `DataStreamWriter` (what the engines write to) whose parts become AI SDK 5 UI message chunks:
 * text and reasoning open a block on their first delta and close it when something else comes,
 * sources become `source-url`, steps `start-step`/`finish-step`, errors `error`. The finish part is
 * the service's to write (with the thread), so an engine's own is dropped; so are data and
 * annotation parts, which no engine writes and the v2 protocol would need typed data parts for.
 */
export class UIMessageBridge implements DataStreamWriter {
  private open: { kind: 'text' | 'reasoning'; id: string } | undefined;
  onError: ((error: unknown) => string) | undefined = undefined;

  /**
   * @param sent Source ids already sent (the search results): an engine's citation of one of them
   * is not sent again, so the answer lists each source once and `[n]` stays its n-th entry.
   */
  constructor(
    private readonly writer: UIMessageStreamWriter<DocsUIMessage>,
    private readonly sent = new Set<string>(),
  ) {}

  write(data: string): void {
    for (const line of data.split('\n')) if (line) this.writePart(line);
  }

  writeData(_value: JSONValue): void {}

  writeMessageAnnotation(_value: JSONValue): void {}

  writeSource(source: { id: string; url: string; title?: string }): void {
    if (this.sent.has(source.id)) return;
    this.sent.add(source.id);
    this.writer.write({
      type: 'source-url',
      sourceId: source.id,
      url: source.url,
      ...(source.title ? { title: source.title } : {}),
    });
  }

  merge(stream: ReadableStream<string>): void {
    // Engines that merge (the OpenAI engine) pipe through `write` themselves; this covers others.
    void (async () => {
      const reader = stream.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        this.write(value);
      }
    })();
  }

  /** Ends an open text or reasoning block. */
  close(): void {
    if (!this.open) return;
    this.writer.write({ type: `${this.open.kind}-end`, id: this.open.id });
    this.open = undefined;
  }

  error(errorText: string): void {
    this.close();
    this.writer.write({ type: 'error', errorText });
  }

  private delta(kind: 'text' | 'reasoning', delta: string): void {
    if (this.open?.kind !== kind) {
      this.close();
      this.open = { kind, id: randomId(kind === 'text' ? 'txt_' : 'rsn_') };
      this.writer.write({ type: `${kind}-start`, id: this.open.id });
    }
    this.writer.write({ type: `${kind}-delta`, id: this.open.id, delta });
  }

  private writePart(line: string): void {
    const part = parseDataStreamPart(line);
    switch (part.type) {
      case 'text':
        this.delta('text', part.value);
        return;
      case 'reasoning':
        this.delta('reasoning', part.value);
        return;
      case 'source':
        this.writeSource(part.value);
        return;
      case 'file':
        this.writer.write({
          type: 'file',
          url: `data:${part.value.mimeType};base64,${part.value.data}`,
          mediaType: part.value.mimeType,
        });
        return;
      case 'start_step':
        this.close();
        this.writer.write({ type: 'start-step' });
        return;
      case 'finish_step':
        this.close();
        this.writer.write({ type: 'finish-step' });
        return;
      case 'error':
        this.error(part.value);
        return;
      case 'tool_call_streaming_start':
        this.close();
        this.writer.write({
          type: 'tool-input-start',
          toolCallId: part.value.toolCallId,
          toolName: part.value.toolName,
        });
        return;
      case 'tool_call_delta':
        this.writer.write({
          type: 'tool-input-delta',
          toolCallId: part.value.toolCallId,
          inputTextDelta: part.value.argsTextDelta,
        });
        return;
      case 'tool_call':
        this.close();
        this.writer.write({
          type: 'tool-input-available',
          toolCallId: part.value.toolCallId,
          toolName: part.value.toolName,
          input: part.value.args,
        });
        return;
      case 'tool_result':
        this.writer.write({
          type: 'tool-output-available',
          toolCallId: part.value.toolCallId,
          output: part.value.result,
        });
        return;
      default:
        // finish_message, data, message_annotations, redacted reasoning and its signature: see above.
        return;
    }
  }
}

async function handleV2Message(c: Context<ServiceEnv>, runtime: AssistantRuntime): Promise<Response> {
  const adjusted = adjustAssistantBody(await readJsonBody(c.req.raw, runtime.config.maxBodyBytes));
  const { request } = validateV2Request(adjusted.body);
  const signal = c.req.raw.signal;
  const prepared = await prepareAnswer(runtime, c.get('domain'), request, {
    protocol: 'v2',
    ...(signal ? { signal } : {}),
  });
  runtime.insights?.caller(prepared, c.req.raw.headers);
  const { answerContext, thread, newThreadKey } = prepared;
  const metadata: DocsMessageMetadata = {
    threadId: thread.id,
    ...(newThreadKey ? { threadKey: newThreadKey } : {}),
  };

  const stream = createUIMessageStream<DocsUIMessage>({
    onError: (error) => {
      runtime.warn(`answer failed: ${error instanceof Error ? error.message : String(error)}`);
      return ANSWER_FAILED;
    },
    execute: async ({ writer }) => {
      writer.write({ type: 'start', messageId: answerContext.messageId, messageMetadata: metadata });
      // The search's step: its results as sources, in list order, so `[n]` in the answer is the
      // n-th source (v1 sends the same list as the `search` tool's result).
      writer.write({ type: 'start-step' });
      const bridge = new UIMessageBridge(writer);
      for (const source of answerContext.sources) bridge.writeSource(source);
      writer.write({ type: 'finish-step' });

      // As v1: after a failure the error chunk, then the finish chunk with the thread.
      const outcome = await runEngine(runtime, prepared, bridge, () => bridge.error(ANSWER_FAILED));
      bridge.close();
      await recordTurn(runtime, prepared, outcome);
      const finish: DocsFinishChunk = {
        type: 'finish',
        finishReason: outcome.finishReason,
        messageMetadata: metadata,
        ...metadata,
      };
      // AI SDK 5 reads chunks as loose objects: the top-level thread fields pass its client.
      writer.write(finish);
    },
  });
  return createUIMessageStreamResponse({
    stream,
    headers: { ...answerHeaders(prepared, admitted(c)), ...adjustedHeaders(adjusted.adjustments) },
  });
}

/** The v2 assistant endpoint's route family (no attachments here: the body is held to `maxBodyBytes`). */
export const v2AssistantRoutes = (runtime: AssistantRuntime): RouteFamily =>
  readerPostRoutes(runtime, ASSISTANT_V2_MESSAGE_ROUTE, 'v2 assistant message endpoint', handleV2Message);
