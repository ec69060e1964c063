import { simulateReadableStream } from 'ai';
import { MockLanguageModelV1 } from 'ai/test';
import {
  createOpenAIEngine,
  resolveOpenAIModel,
} from '../../packages/docs-assistant-server/src/engines/openai';
import { createAssistantService } from '../../packages/docs-assistant-server/src/service';
import { ASSISTANT_KEY, ask, DOMAIN, FIXTURE_DOCS } from './helpers';

type DoStream = NonNullable<ConstructorParameters<typeof MockLanguageModelV1>[0]>['doStream'] & {};
type LanguageModelV1CallOptions = Parameters<DoStream>[0];
type LanguageModelV1StreamPart =
  Awaited<ReturnType<DoStream>>['stream'] extends ReadableStream<infer T> ? T : never;

function mockModel(chunks: LanguageModelV1StreamPart[], calls: LanguageModelV1CallOptions[] = []) {
  return new MockLanguageModelV1({
    doStream: async (options) => {
      calls.push(options);
      return {
        stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }),
        rawCall: { rawPrompt: null, rawSettings: {} },
      };
    },
  });
}

const serviceWith = (model: MockLanguageModelV1) =>
  createAssistantService({
    docs: FIXTURE_DOCS,
    domain: DOMAIN,
    assistantKey: ASSISTANT_KEY,
    engine: createOpenAIEngine({ model }),
    warn: () => {},
  });

describe('openai engine', () => {
  it('streams the search parts, then the model text and reasoning, sources it cites, and d: with threadId last', async () => {
    const calls: LanguageModelV1CallOptions[] = [];
    const model = mockModel(
      [
        { type: 'reasoning', textDelta: 'The theming page covers dark mode. ' },
        { type: 'text-delta', textDelta: 'Use the `theme="dark"` prop ' },
        { type: 'text-delta', textDelta: '[1].' },
        { type: 'finish', finishReason: 'stop', usage: { promptTokens: 120, completionTokens: 9 } },
      ],
      calls,
    );
    const service = serviceWith(model);
    const answer = await ask(service, 'How do I enable dark mode?');
    const names = answer.parts.map((part) => part.name);

    // The model's text, then the same related pages the extractive engine ends with.
    expect(answer.text).toMatch(/^Use the `theme="dark"` prop \[1\]\.\n\n```suggestions\n\(.+\)\[\/.*\]/);
    expect(answer.parts.filter((p) => p.name === 'reasoning').map((p) => p.value)).toEqual([
      'The theming page covers dark mode. ',
    ]);
    // Our search tool step comes first, the model's parts after it.
    expect(names.indexOf('toolResult')).toBeLessThan(names.indexOf('reasoning'));
    expect(names.filter((n) => n === 'finishMessage')).toHaveLength(1);
    expect(names.at(-1)).toBe('finishMessage');
    expect(answer.finish).toMatchObject({
      finishReason: 'stop',
      usage: { promptTokens: 120, completionTokens: 9 },
    });
    expect(answer.finish?.threadId).toMatch(/^thr_/);
    const sources = answer.parts.filter((p) => p.name === 'source').map((p) => p.value as { url: string });
    // `[1]` is the first search result; its source part carries that result's link, section and all.
    expect(sources.map((s) => s.url)).toEqual([answer.searchResults[0]!.url]);
    expect(sources[0]?.url).toBe('/guides/theming#dark-mode');

    // The retrieved passages reach the model in the system prompt.
    const system = calls[0]?.prompt.find((message) => message.role === 'system');
    expect(system?.content).toContain('[1] Theming › Dark mode');
    expect(system?.content).toContain('theme="dark"');
    expect(calls[0]?.prompt.at(-1)).toMatchObject({ role: 'user' });
  });

  it('keeps the thread for a follow-up and passes the conversation to the model', async () => {
    const calls: LanguageModelV1CallOptions[] = [];
    const chunks: LanguageModelV1StreamPart[] = [
      { type: 'text-delta', textDelta: 'Set theme="light" [1].' },
      { type: 'finish', finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1 } },
    ];
    const service = serviceWith(mockModel(chunks, calls));
    const first = await ask(service, 'How do I enable dark mode?');
    const second = await ask(service, 'How do I turn it off?', {
      threadId: first.finish?.threadId,
      threadKey: first.finish?.threadKey,
      messages: [
        { id: 'u1', role: 'user', content: 'How do I enable dark mode?', parts: [] },
        { id: 'a1', role: 'assistant', content: first.text, parts: [{ type: 'text', text: first.text }] },
        { id: 'u2', role: 'user', content: 'How do I turn it off?', parts: [] },
      ],
    });
    expect(second.finish?.threadId).toBe(first.finish?.threadId);
    expect(calls[1]?.prompt.filter((m) => m.role !== 'system').map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
    ]);
    expect(second.searchResults[0]?.url).toBe('/guides/theming#turning-dark-mode-off');
  });

  it('sends an error part and keeps no turn when the model fails (the thread itself stays)', async () => {
    const model = new MockLanguageModelV1({
      doStream: async () => {
        throw new Error('upstream 500');
      },
    });
    const service = serviceWith(model);
    const answer = await ask(service, 'How do I enable dark mode?');
    expect(answer.parts.some((p) => p.name === 'error')).toBe(true);
    expect(answer.finish?.finishReason).toBe('error');
    const found = await service.threads.find(answer.finish!.threadId!, {
      domain: DOMAIN,
      fp: 'anonymous',
      key: answer.finish!.threadKey!,
    });
    expect(found.ok && found.thread.turns).toEqual([]);
  });

  it('says which settings are missing when no model is configured', () => {
    expect(() => resolveOpenAIModel({ env: {} })).toThrow(
      /DOCS_ASSISTANT_LLM_BASE_URL.*DOCS_ASSISTANT_LLM_MODEL/,
    );
    const model = resolveOpenAIModel({
      env: { DOCS_ASSISTANT_LLM_BASE_URL: 'http://127.0.0.1:1/v1', DOCS_ASSISTANT_LLM_MODEL: 'm' },
    });
    expect(model.modelId).toBe('m');
  });
});
