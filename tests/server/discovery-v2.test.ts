/**
 * The v2 assistant endpoint over real HTTP on 127.0.0.1, read by the AI SDK 5 client's own pieces:
 * `DefaultChatTransport` (what `useChat` sends and how it parses the answer) and
 * `readUIMessageStream` (how it builds the message). A two-turn conversation keeps its thread, a
 * thread of one endpoint is refused by the other with a 409 naming it, and bad bodies get 400s.
 */
import { formatDataStreamPart, simulateReadableStream } from 'ai';
import { MockLanguageModelV1 } from 'ai/test';
import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai-v5';
import { createOpenAIEngine } from '../../packages/docs-assistant-server/src/engines/openai';
import type { AnswerEngine } from '../../packages/docs-assistant-server/src/engines/types';
import {
  ADMIN_KEY,
  ASSISTANT_KEY,
  authHeaders,
  DOMAIN,
  type RunningService,
  startService,
  body as v1Body,
} from './helpers';

type Metadata = { threadId: string; threadKey?: string };
type Message = UIMessage<Metadata>;

let running: RunningService;
const v2Url = (service: RunningService = running, domain = DOMAIN) =>
  `${service.url}/discovery/v2/assistant/${domain}/message`;

const user = (text: string, id = `u-${text.length}`): Message => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});

function transport(extraBody: Record<string, unknown> = {}, service = running) {
  return new DefaultChatTransport<Message>({
    api: v2Url(service),
    headers: { Authorization: `Bearer ${ASSISTANT_KEY}` },
    body: { fp: 'reader-1', retrievalPageSize: 3, ...extraBody },
  });
}

/** Sends the conversation and reads the answer as `useChat` does: the last message snapshot. */
async function ask(messages: Message[], via = transport()): Promise<Message> {
  const stream = await via.sendMessages({
    trigger: 'submit-message',
    chatId: 'chat-1',
    messageId: undefined,
    messages,
    abortSignal: undefined,
  });
  let last: Message | undefined;
  for await (const message of readUIMessageStream<Message>({ stream, terminateOnError: true }))
    last = message;
  if (!last) throw new Error('the stream held no message');
  return last;
}

const textOf = (message: Message) =>
  message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
/** The pages the search found, from the sources it came as (`https://docs.acme.test/{path}#…`). */
const searchedPaths = (message: Message): string[] =>
  message.parts.flatMap((part) =>
    part.type === 'source-url' ? [new URL(part.url, 'https://docs.acme.test').pathname] : [],
  );
const sourceUrls = (message: Message) =>
  message.parts.flatMap((part) => (part.type === 'source-url' ? [part.url] : []));

/** The chunks of a raw v2 response, parsed from its server-sent events. */
async function chunksOf(response: Response): Promise<UIMessageChunk[]> {
  const text = await response.text();
  const events = text.split('\n\n').filter(Boolean);
  expect(events.at(-1)).toBe('data: [DONE]');
  return events.slice(0, -1).map((event) => {
    expect(event.startsWith('data: ')).toBe(true);
    return JSON.parse(event.slice('data: '.length)) as UIMessageChunk;
  });
}

const post = (url: string, body: unknown, headers: Record<string, string> = authHeaders()) =>
  fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });

beforeAll(async () => {
  running = await startService({ siteUrl: 'https://docs.acme.test' });
});
afterAll(async () => {
  await running.close();
});

describe('POST /discovery/v2/assistant/{domain}/message', () => {
  it('answers two turns through DefaultChatTransport, with the search as sources and the thread kept', async () => {
    const first = user('How do I enable dark mode?', 'u-1');
    const answer = await ask([first]);
    expect(answer.role).toBe('assistant');
    // The search comes as sources, never as a tool part (which the real request schema refuses).
    expect(answer.parts.some((part) => part.type.startsWith('tool-'))).toBe(false);
    expect(searchedPaths(answer)[0]).toBe('/guides/theming');
    expect(sourceUrls(answer).some((url) => url.startsWith('https://docs.acme.test/guides/theming#'))).toBe(
      true,
    );
    expect(textOf(answer)).toMatch(/theme="dark"/);
    expect(answer.metadata?.threadId).toMatch(/\S/);
    expect(answer.metadata?.threadKey).toMatch(/\S/);

    // As useChat sends it: the whole conversation, the thread named by the last answer's metadata.
    const second = await ask([first, answer, user('And how do I turn it off again?', 'u-2')]);
    expect(second.metadata?.threadId).toBe(answer.metadata?.threadId);
    // Only the answer that started the thread hands out its key.
    expect(second.metadata?.threadKey).toBeUndefined();
    expect(sourceUrls(second).some((url) => url.endsWith('#turning-dark-mode-off'))).toBe(true);

    // The thread, not the message list, carries the first question: sent alone with the thread, a
    // follow-up with no word of its own is still searched as one about dark mode.
    const followUp = 'And how do I undo that?';
    const third = await ask(
      [user(followUp, 'u-3')],
      transport({ threadId: answer.metadata?.threadId, threadKey: answer.metadata?.threadKey }),
    );
    expect(third.metadata?.threadId).toBe(answer.metadata?.threadId);
    expect(searchedPaths(third)).toContain('/guides/theming');
    const alone = await ask([user(followUp, 'u-4')]);
    expect(alone.metadata?.threadId).not.toBe(answer.metadata?.threadId);
    expect(searchedPaths(alone)).not.toContain('/guides/theming');
  });

  it('streams the AI SDK 5 UI message protocol: SSE chunks in order, thread headers as v1, threadId on finish', async () => {
    const response = await post(v2Url(), {
      fp: 'anonymous',
      messages: [user('How do I change the accent color?')],
      currentPath: '/guides/theming',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const threadId = response.headers.get('x-thread-id');
    expect(threadId).toMatch(/\S/);
    expect(response.headers.get('x-thread-key')).toMatch(/\S/);
    expect(response.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const chunks = await chunksOf(response);
    const types = chunks.map((chunk) => chunk.type);
    // The search's step: its results as sources, then the answer's step.
    const searchStepEnd = types.indexOf('finish-step');
    expect(types.slice(0, 2)).toEqual(['start', 'start-step']);
    expect(searchStepEnd).toBeGreaterThan(2);
    expect(new Set(types.slice(2, searchStepEnd))).toEqual(new Set(['source-url']));
    expect(types.some((type) => type.startsWith('tool-'))).toBe(false);
    expect(types.at(-1)).toBe('finish');
    expect(types.at(-2)).toBe('finish-step');
    expect(types).toContain('source-url');
    const textStart = types.indexOf('text-start');
    expect(textStart).toBeGreaterThan(0);
    expect(types.indexOf('text-end')).toBeGreaterThan(types.lastIndexOf('text-delta'));
    const finish = chunks.at(-1) as Extract<UIMessageChunk, { type: 'finish' }>;
    expect(finish.messageMetadata).toEqual({ threadId, threadKey: response.headers.get('x-thread-key') });
    // Where the real OpenAPI says the thread is: `event.threadId` when `event.type === 'finish'`.
    expect(finish).toMatchObject({ threadId, threadKey: response.headers.get('x-thread-key') });
    expect(finish.finishReason).toBe('stop');
    const sources = chunks.filter((chunk) => chunk.type === 'source-url');
    expect(sources.map((chunk) => chunk.url)).toContain('https://docs.acme.test/guides/theming#accent-color');
  });

  it('uses context like v1: a vague question about attached code searches by the code', async () => {
    const response = await post(v2Url(), {
      fp: 'anonymous',
      messages: [user('What does this do?')],
      context: [{ type: 'code', value: '<DocsAssistant theme="dark" />' }],
    });
    const chunks = await chunksOf(response);
    const sourceUrls = chunks.flatMap((chunk) => (chunk.type === 'source-url' ? [chunk.url] : []));
    expect(sourceUrls.some((url) => url.includes('/guides/theming#'))).toBe(true);
  });

  it('bridges what an engine writes: reasoning and text blocks, sources, an error chunk after which the finish keeps the thread', async () => {
    const engine: AnswerEngine = {
      name: 'scripted',
      async answer(context, stream) {
        stream.write(formatDataStreamPart('start_step', { messageId: context.messageId }));
        stream.write(formatDataStreamPart('reasoning', 'Looking at '));
        stream.write(formatDataStreamPart('reasoning', 'the theming page.'));
        stream.write(formatDataStreamPart('text', 'Use '));
        stream.write(formatDataStreamPart('text', 'the theme prop.'));
        stream.write(
          formatDataStreamPart('source', {
            sourceType: 'url',
            id: 's1',
            url: '/guides/theming',
            title: 'Theming',
          }),
        );
        if (context.question.includes('fail')) throw new Error('model went away');
        stream.write(
          formatDataStreamPart('finish_step', {
            finishReason: 'stop',
            usage: { promptTokens: 1, completionTokens: 2 },
            isContinued: false,
          }),
        );
        return {
          text: 'Use the theme prop.',
          cited: [],
          finishReason: 'stop',
          usage: { promptTokens: 1, completionTokens: 2 },
        };
      },
    };
    const scripted = await startService({ engine });
    try {
      const answer = await ask([user('dark mode?')], transport({}, scripted));
      const kinds = answer.parts.filter((part) => part.type !== 'step-start').map((part) => part.type);
      // The search's sources, then what the engine wrote, its own source last.
      const searched = kinds.indexOf('reasoning');
      expect(new Set(kinds.slice(0, searched))).toEqual(new Set(['source-url']));
      expect(kinds.slice(searched)).toEqual(['reasoning', 'text', 'source-url']);
      expect(answer.parts.find((part) => part.type === 'reasoning')).toMatchObject({
        text: 'Looking at the theming page.',
        state: 'done',
      });
      expect(textOf(answer)).toBe('Use the theme prop.');

      const failed = await post(v2Url(scripted), { fp: 'anonymous', messages: [user('please fail')] });
      const chunks = await chunksOf(failed);
      const types = chunks.map((chunk) => chunk.type);
      const error = types.indexOf('error');
      expect(error).toBeGreaterThan(types.indexOf('text-end'));
      expect(chunks[error]).toEqual({
        type: 'error',
        errorText: 'The assistant could not finish this answer; try again.',
      });
      expect(types.at(-1)).toBe('finish');
      const finish = chunks.at(-1) as Extract<UIMessageChunk, { type: 'finish' }>;
      expect(finish.messageMetadata).toMatchObject({ threadId: failed.headers.get('x-thread-id') });
      expect(finish.finishReason).toBe('error');
    } finally {
      await scripted.close();
    }
  });
});

describe('the OpenAI-compatible engine on v2', () => {
  it('bridges a real AI SDK 4 streamText answer (reasoning, text, the sources it cites) into the v5 message', async () => {
    const prompts: unknown[] = [];
    const model = new MockLanguageModelV1({
      doStream: async (options) => {
        prompts.push(options.prompt);
        return {
          stream: simulateReadableStream({
            chunks: [
              { type: 'reasoning', textDelta: 'The theming page covers dark mode. ' },
              { type: 'text-delta', textDelta: 'Use the `theme="dark"` prop ' },
              { type: 'text-delta', textDelta: '[1].' },
              { type: 'finish', finishReason: 'stop', usage: { promptTokens: 12, completionTokens: 9 } },
            ],
            initialDelayInMs: null,
            chunkDelayInMs: null,
          }),
          rawCall: { rawPrompt: null, rawSettings: {} },
        };
      },
    });
    const llm = await startService({ engine: createOpenAIEngine({ model }) });
    try {
      const answer = await ask([user('How do I enable dark mode?')], transport({}, llm));
      expect(answer.parts.find((part) => part.type === 'reasoning')).toMatchObject({
        text: 'The theming page covers dark mode. ',
        state: 'done',
      });
      // The model's text, then the related pages every engine ends with (issue 37).
      expect(textOf(answer)).toMatch(/^Use the `theme="dark"` prop \[1\]\.\n\n```suggestions\n/);
      // The search's sources in list order, so the cited [1] is the first; each listed once, though
      // the engine cites it again.
      const listed = sourceUrls(answer);
      expect(listed[0]).toBe('/guides/theming#dark-mode');
      expect(new Set(listed).size).toBe(listed.length);
      expect(answer.metadata?.threadId).toMatch(/\S/);
      // The UI message's text reached the model as the user's question.
      expect(JSON.stringify(prompts[0])).toContain('How do I enable dark mode?');
    } finally {
      await llm.close();
    }
  });
});

describe('threads of the other endpoint', () => {
  it('409 for a v1 thread continued on v2, naming the v1 endpoint', async () => {
    const v1 = await post(running.endpoint(), v1Body('How do I enable dark mode?'));
    const threadId = v1.headers.get('x-thread-id');
    const threadKey = v1.headers.get('x-thread-key');
    await v1.text();
    const response = await post(v2Url(), {
      fp: 'anonymous',
      threadId,
      threadKey,
      messages: [user('And how do I turn it off?')],
    });
    expect(response.status).toBe(409);
    const error = (await response.json()) as { error: string; code: string };
    expect(error.code).toBe('conflict');
    expect(error.error).toMatch(/started on the v1 endpoint/);
  });

  it('409 for a v2 thread continued on v1, naming the v2 endpoint', async () => {
    const answer = await ask([user('How do I enable dark mode?')], transport({ fp: 'anonymous' }));
    const { threadId, threadKey } = answer.metadata!;
    const response = await post(
      running.endpoint(),
      v1Body('And how do I turn it off?', { threadId, threadKey }),
    );
    expect(response.status).toBe(409);
    const error = (await response.json()) as { error: string; code: string };
    expect(error.code).toBe('conflict');
    expect(error.error).toMatch(/started on the v2 endpoint/);
  });

  it('404 thread_not_found (not 409) for a thread of the other endpoint sent without its key', async () => {
    const answer = await ask([user('How do I enable dark mode?')], transport({ fp: 'anonymous' }));
    const response = await post(
      running.endpoint(),
      v1Body('And off?', { threadId: answer.metadata!.threadId }),
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'thread_not_found' });
  });
});

describe('bad requests to the v2 endpoint', () => {
  const bad: [string, unknown, string][] = [
    ['no messages', { fp: 'anonymous' }, 'messages'],
    ['messages not an array', { fp: 'anonymous', messages: 'hi' }, 'messages'],
    ['no message', { fp: 'anonymous', messages: [] }, 'messages'],
    [
      'an AI SDK 4 message',
      { fp: 'anonymous', messages: [{ id: 'a', role: 'user', content: 'hi' }] },
      'messages.0.parts',
    ],
    [
      'an unknown role',
      { fp: 'anonymous', messages: [{ id: 'a', role: 'data', parts: [] }] },
      'messages.0.role',
    ],
    [
      'a text part without text',
      { fp: 'anonymous', messages: [{ id: 'a', role: 'user', parts: [{ type: 'text' }] }] },
      'messages.0.parts.0.text',
    ],
    ['no fp', { messages: [user('hi')] }, 'fp'],
    [
      'retrievalPageSize a string',
      { fp: 'anonymous', messages: [user('hi')], retrievalPageSize: '5' },
      'retrievalPageSize',
    ],
    ['a bad filter', { fp: 'anonymous', messages: [user('hi')], filter: { version: 2 } }, 'filter.version'],
  ];
  it.each(bad)('400 for %s, naming the field', async (_name, body, field) => {
    const response = await post(v2Url(), body);
    expect(response.status).toBe(400);
    const error = (await response.json()) as { error: string; code: string; issues: { path: string }[] };
    expect(error.code).toBe('invalid_request');
    expect(error.issues.map((issue) => issue.path)).toContain(field);
  });

  it('says to use the v1 endpoint for AI SDK 4 messages', async () => {
    const response = await post(v2Url(), {
      fp: 'anonymous',
      messages: [{ id: 'a', role: 'user', content: 'hi' }],
    });
    expect(((await response.json()) as { error: string }).error).toMatch(/AI SDK 4 message .*v1 endpoint/);
  });

  it('400 when the last message is not the question', async () => {
    const response = await post(v2Url(), {
      fp: 'anonymous',
      messages: [user('hi'), { id: 'b', role: 'assistant', parts: [{ type: 'text', text: 'Hello' }] }],
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'invalid_request' });
  });

  it('403 for an admin key, 401 for none, 415 for text, 404 for an unknown domain', async () => {
    const body = { fp: 'anonymous', messages: [user('hi')] };
    expect((await post(v2Url(), body, authHeaders(ADMIN_KEY))).status).toBe(403);
    expect((await post(v2Url(), body, { 'Content-Type': 'application/json' })).status).toBe(401);
    expect(
      (await post(v2Url(), body, { Authorization: `Bearer ${ASSISTANT_KEY}`, 'Content-Type': 'text/plain' }))
        .status,
    ).toBe(415);
    const unknown = await post(v2Url(running, 'nope'), body);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'not_found' });
  });
});
