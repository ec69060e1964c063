/**
 * An engine backed by any OpenAI-compatible chat endpoint. The retrieved passages go into the
 * system prompt; the model's stream (text and reasoning) is merged into the service's data stream
 * after the service's own `search` tool parts.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { type CoreMessage, type DataStreamWriter, type ImagePart, type LanguageModel, streamText } from 'ai';
import { ATTACHMENT_IMAGE_TYPES, parseDataUrl } from 'docs-assistant/protocol';
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
  return [
    `You are the documentation assistant of ${context.siteTitle}. Answer the reader's question using only the passages below.`,
    'Be brief and use Markdown. Cite the passages you use with their numbers, like [1].',
    "If the passages do not answer the question, say plainly that the docs don't cover it; never invent APIs, options or links.",
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

type DataStreamChunks = Parameters<DataStreamWriter['merge']>[0];

async function pipeInto(stream: DataStreamChunks, writer: DataStreamWriter): Promise<void> {
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    writer.write(value);
  }
}

export function createOpenAIEngine(options: OpenAIEngineOptions = {}): AnswerEngine {
  const model = resolveOpenAIModel(options);
  return {
    name: 'openai',
    async answer(context, stream): Promise<AnswerOutcome> {
      let failed = false;
      const result = streamText({
        model,
        system: buildSystemPrompt(context),
        messages: toCoreMessages(context, options.maxHistoryMessages ?? 10),
        temperature: options.temperature ?? 0.2,
        maxTokens: options.maxTokens ?? 1024,
        ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
        // The result's promises never settle after a stream error, so the error is noted here.
        onError: () => {
          failed = true;
        },
      });
      // `mergeIntoDataStream` hands its stream to `writer.merge`; taking that stream here lets the
      // service know when the model is done, so its `d:` part (with threadId) comes last.
      let merged: Promise<void> = Promise.resolve();
      const writer: DataStreamWriter = {
        ...stream,
        merge: (part) => {
          merged = pipeInto(part, stream);
        },
      };
      result.mergeIntoDataStream(writer, {
        sendReasoning: true,
        sendSources: false,
        experimental_sendFinish: false,
      });
      await merged;
      const noUsage = { promptTokens: 0, completionTokens: 0 };
      // The model failed or the reader left; the error part, if any, is already in the stream.
      if (failed || context.abortSignal?.aborted)
        return { text: '', cited: [], finishReason: 'error', usage: noUsage };
      const [text, finishReason, used] = await Promise.all([result.text, result.finishReason, result.usage]);
      const usage = {
        promptTokens: Number.isFinite(used.promptTokens) ? used.promptTokens : 0,
        completionTokens: Number.isFinite(used.completionTokens) ? used.completionTokens : 0,
      };
      const cited = citedSources(text, context.sources);
      writeSources(stream, cited);
      return { text, cited, finishReason, usage };
    },
  };
}
