/**
 * An engine backed by any OpenAI-compatible chat endpoint (a hosted API, or a local server such as
 * Ollama or llama.cpp: `docs/engines.md`). It keeps the extractive engine's discipline: the model
 * answers only from the numbered passages the search found, every `[n]` in its text is checked
 * against the sources sent (a number that names none is dropped as the text streams), nothing
 * is asked of the model when the search found nothing (the extractive decline, naming the site,
 * is sent instead), and the answer streams the same parts (`f:`, text, `h:` for the sources it
 * cites, `e:`) and ends with the same related pages.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  type CoreMessage,
  type DataStreamWriter,
  formatDataStreamPart,
  type ImagePart,
  type LanguageModel,
  streamText,
} from 'ai';
import { ATTACHMENT_IMAGE_TYPES, parseDataUrl } from 'docs-assistant/protocol';
import { citationFilter } from './citations.js';
import { declineText, relatedPages, suggestionsBlock } from './format.js';
import { inListOrder, sourceNumber, writeSources } from './sources.js';
import type { AnswerContext, AnswerEngine, AnswerOutcome, SourceRef } from './types.js';

export interface OpenAIEngineOptions {
  /** A ready model (tests pass `MockLanguageModelV1`); when given, the settings below are unused. */
  model?: LanguageModel;
  /** @default process.env.DOCS_ASSISTANT_LLM_BASE_URL */
  baseURL?: string;
  /** @default process.env.DOCS_ASSISTANT_LLM_API_KEY */
  apiKey?: string;
  /** @default process.env.DOCS_ASSISTANT_LLM_MODEL */
  modelId?: string;
  /** @default 0.2 */
  temperature?: number;
  /** Longest answer (in tokens). @default 1024 */
  maxTokens?: number;
  /** Retries of a failed model call (the AI SDK's backoff). @default 2 */
  maxRetries?: number;
  /** Earlier messages of the conversation passed to the model. @default 10 */
  maxHistoryMessages?: number;
  env?: Record<string, string | undefined>;
}

// Characters of each passage put in the prompt; five passages stay well within small contexts.
const MAX_PASSAGE_CHARS = 1500;

/** Resolves the model from options or environment, with an error that names what is missing. */
export function resolveOpenAIModel(options: OpenAIEngineOptions = {}): LanguageModel {
  if (options.model) return options.model;
  const env = options.env ?? (typeof process !== 'undefined' ? process.env : {});
  const baseURL = options.baseURL ?? env.DOCS_ASSISTANT_LLM_BASE_URL;
  const apiKey = options.apiKey ?? env.DOCS_ASSISTANT_LLM_API_KEY;
  const modelId = options.modelId ?? env.DOCS_ASSISTANT_LLM_MODEL;
  const missing = [
    !baseURL && 'a base URL (DOCS_ASSISTANT_LLM_BASE_URL)',
    !modelId && 'a model name (DOCS_ASSISTANT_LLM_MODEL)',
  ].filter(Boolean);
  if (missing.length || !baseURL || !modelId) {
    throw new Error(
      `The openai engine needs ${missing.join(' and ')}; set them in the environment or the engine options, ` +
        'or use the extractive engine, which needs no model.',
    );
  }
  return createOpenAICompatible({
    name: 'docs-assistant-llm',
    baseURL,
    ...(apiKey ? { apiKey } : {}),
  }).chatModel(modelId);
}

/** The system prompt: how to answer, and the numbered passages to answer from. */
export function buildSystemPrompt(context: AnswerContext): string {
  const passages = context.retrieval.hits.map((hit) => {
    const number = sourceNumber(context.sources, hit.section.id);
    const heading = [hit.section.pageTitle, ...hit.section.headingPath].join(' › ');
    const code = hit.section.code.map((block) => `\`\`\`${block.lang}\n${block.code}\n\`\`\``).join('\n');
    const body = `${[...hit.section.blocks, ...hit.section.rows].join('\n')}\n${code}`
      .trim()
      .slice(0, MAX_PASSAGE_CHARS);
    return `[${number}] ${heading} (${context.sources[number - 1]?.url ?? context.urlFor(hit.section.pagePath)})\n${body}`;
  });
  const readerContext = context.context.map(
    (item) =>
      `- ${item.type}${item.path ? ` from ${item.path}` : ''}:\n${item.value.slice(0, MAX_PASSAGE_CHARS)}`,
  );
  const numbers = passages.length ? `[1] to [${context.sources.length}]` : 'none';
  return [
    `You are the documentation assistant of the ${context.siteTitle} docs. Answer the reader's question using only the numbered passages below, never what you know from elsewhere.`,
    `Be brief and use Markdown. Cite each passage you use with its number in square brackets, like [1]; the only numbers are ${numbers}.`,
    "If the passages do not answer the question, say plainly that the docs don't cover it; never invent APIs, options or links.",
    'If the reader attached a passage or code and asks about it ("explain this", "what does this do?"), explain that passage from the passages below.',
    context.currentPath ? `The reader is on the page ${context.currentPath}.` : '',
    // The passages come from another language than the reader's (retrieval/reader.ts).
    context.scope?.notice ? `Say first, in the reader's language: ${context.scope.notice}` : '',
    readerContext.length ? `The reader attached:\n${readerContext.join('\n')}` : '',
    passages.length ? `Passages:\n\n${passages.join('\n\n')}` : 'Passages: none matched the question.',
  ]
    .filter(Boolean)
    .join('\n\n');
}

function toCoreMessages(context: AnswerContext, maxHistory: number): CoreMessage[] {
  const messages: CoreMessage[] = [];
  const latest = context.messages.at(-1);
  for (const message of context.messages.slice(-maxHistory - 1)) {
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    const text =
      message.content ||
      message.parts
        .map((part) => (part.type === 'text' ? part.text : ''))
        .join('')
        .trim();
    if (!text) continue;
    const images = message === latest && message.role === 'user' ? imageParts(message) : [];
    if (images.length) messages.push({ role: 'user', content: [{ type: 'text', text }, ...images] });
    else messages.push({ role: message.role, content: text });
  }
  return messages;
}

/**
 * Images attached to the question (data URLs, checked by the service) as image parts for a model
 * that reads them; text files reach the model as context in the system prompt.
 */
function imageParts(message: AnswerContext['messages'][number]): ImagePart[] {
  const parts: ImagePart[] = [];
  for (const attachment of message.experimental_attachments ?? []) {
    const data = parseDataUrl(attachment.url);
    const mimeType = (attachment.contentType ?? data?.contentType ?? '').split(';')[0]!.trim();
    if (data && ATTACHMENT_IMAGE_TYPES.includes(mimeType)) {
      parts.push({ type: 'image', image: data.base64, mimeType });
    }
  }
  return parts;
}

/** The sources whose numbers the text cites (`[2]`, `[1, 3]`), in the order of their numbers. */
export function citedSources(text: string, sources: SourceRef[]): SourceRef[] {
  const cited = new Set<SourceRef>();
  for (const match of text.matchAll(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g)) {
    for (const number of match[1]!.split(',')) {
      const source = sources[Number(number.trim()) - 1];
      if (source) cited.add(source);
    }
  }
  return inListOrder([...cited], sources);
}

/** Whether the search found something the model can answer from (a passage the reader attached counts). */
const hasMaterial = (context: AnswerContext): boolean =>
  context.retrieval.hits.length > 0 && (context.retrieval.confident || context.context.length > 0);

const usageOf = (used: { promptTokens: number; completionTokens: number } | undefined) => ({
  promptTokens: Number.isFinite(used?.promptTokens) ? used!.promptTokens : 0,
  completionTokens: Number.isFinite(used?.completionTokens) ? used!.completionTokens : 0,
});

/** The extractive engine's decline, sent without asking the model. */
function decline(context: AnswerContext, stream: DataStreamWriter): AnswerOutcome {
  const text = declineText(context);
  const usage = usageOf(undefined);
  stream.write(formatDataStreamPart('start_step', { messageId: context.messageId }));
  stream.write(formatDataStreamPart('text', text));
  stream.write(formatDataStreamPart('finish_step', { finishReason: 'stop', usage, isContinued: false }));
  return { text, cited: [], finishReason: 'stop', usage };
}

type FullStream = ReturnType<typeof streamText>['fullStream'];

/**
 * Streams the model's reasoning and text (its citations checked) into the data stream; returns the
 * text sent, or `undefined` when the model failed (its error part is already sent).
 */
async function relay(context: AnswerContext, parts: FullStream, stream: DataStreamWriter) {
  const citations = citationFilter(context.sources.length);
  let text = '';
  let finishReason: AnswerOutcome['finishReason'] = 'unknown';
  let usage = usageOf(undefined);
  const send = (chunk: string) => {
    if (!chunk) return;
    text += chunk;
    stream.write(formatDataStreamPart('text', chunk));
  };
  for await (const part of parts) {
    if (context.abortSignal?.aborted) return undefined;
    if (part.type === 'text-delta') send(citations.push(part.textDelta));
    else if (part.type === 'reasoning') stream.write(formatDataStreamPart('reasoning', part.textDelta));
    else if (part.type === 'finish') {
      finishReason = part.finishReason;
      usage = usageOf(part.usage);
    } else if (part.type === 'error') {
      stream.write(formatDataStreamPart('error', 'The language model did not answer; try again later.'));
      return undefined;
    }
  }
  send(citations.flush());
  return { text, finishReason, usage };
}

export function createOpenAIEngine(options: OpenAIEngineOptions = {}): AnswerEngine {
  const model = resolveOpenAIModel(options);
  return {
    name: 'openai',
    async answer(context, stream): Promise<AnswerOutcome> {
      if (!hasMaterial(context)) return decline(context, stream);
      const result = streamText({
        model,
        system: buildSystemPrompt(context),
        messages: toCoreMessages(context, options.maxHistoryMessages ?? 10),
        temperature: options.temperature ?? 0.2,
        maxTokens: options.maxTokens ?? 1024,
        ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
        ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
        // Errors arrive as `error` parts of the full stream; this keeps them off the console.
        onError: () => {},
      });
      stream.write(formatDataStreamPart('start_step', { messageId: context.messageId }));
      const relayed = await relay(context, result.fullStream, stream);
      // The model failed or the reader left; the error part, if any, is already in the stream.
      if (!relayed) return { text: '', cited: [], finishReason: 'error', usage: usageOf(undefined) };
      const cited = citedSources(relayed.text, context.sources);
      // The same closing pages as the extractive engine's answer.
      const related = suggestionsBlock(relatedPages(context, new Set(cited.map((source) => source.path))));
      const tail = related ? `${/\n\s*$/.test(relayed.text) ? '\n' : '\n\n'}${related}` : '';
      if (tail) stream.write(formatDataStreamPart('text', tail));
      const text = relayed.text + tail;
      writeSources(stream, cited);
      const { finishReason, usage } = relayed;
      stream.write(formatDataStreamPart('finish_step', { finishReason, usage, isContinued: false }));
      return { text, cited, finishReason, usage };
    },
  };
}
