// @vitest-environment jsdom
import { act, renderHook, waitFor } from '@testing-library/react';
import { createDataStreamResponse, formatDataStreamPart, simulateReadableStream, streamText } from 'ai';
import { MockLanguageModelV1 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { STREAM_RENDER_THROTTLE_MS } from '../../packages/docs-assistant/src/chat/config';
import { useDocsAssistant } from '../../packages/docs-assistant/src/chat/use-docs-assistant';
import { createContextStore } from '../../packages/docs-assistant/src/context/store';
import {
  ASSISTANT_KEY,
  answerResponse,
  baseOptions,
  ENDPOINT,
  finishLine,
  recordingFetch,
  textOf,
} from './helpers';

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('useDocsAssistant: the request', () => {
  it('posts the spec body with the bearer key, the context and the path at send time', async () => {
    const { fetch, calls } = recordingFetch(() =>
      answerResponse('First answer.', { threadId: 'thread-1', headers: { 'X-Thread-Key': 'key-1' } }),
    );
    const contextStore = createContextStore();
    let path = `/docs/${'a'.repeat(250)}`;
    const { result } = renderHook(() =>
      useDocsAssistant(
        baseOptions({
          fetch,
          contextStore,
          fp: 'user-42',
          retrievalPageSize: 8,
          filter: { version: 'v2', language: 'en' },
          currentPath: () => path,
          headers: { 'X-Site': 'docs' },
        }),
      ),
    );
    act(() => {
      result.current.context.add({ type: 'code', value: 'npm i docs-assistant', path: '/docs/install' });
    });
    expect(result.current.context.items).toHaveLength(1);

    await act(() => result.current.send('  How do I install it?  '));

    expect(calls).toHaveLength(1);
    const [first] = calls;
    expect(first?.url).toBe(ENDPOINT);
    expect(first?.method).toBe('POST');
    expect(first?.headers.authorization).toBe(`Bearer ${ASSISTANT_KEY}`);
    expect(first?.headers['content-type']).toBe('application/json');
    expect(first?.headers['x-site']).toBe('docs');
    // Exactly the spec's fields: no `id` or `data` of the chat client.
    expect(Object.keys(first?.body ?? {}).sort()).toEqual(
      ['context', 'currentPath', 'filter', 'fp', 'messages', 'retrievalPageSize'].sort(),
    );
    expect(first?.body).toMatchObject({
      fp: 'user-42',
      retrievalPageSize: 8,
      filter: { version: 'v2', language: 'en' },
      context: [{ type: 'code', value: 'npm i docs-assistant', path: '/docs/install' }],
      currentPath: path.slice(0, 200),
    });
    expect(first?.body.currentPath).toHaveLength(200);
    const sent = first?.body.messages as Array<Record<string, unknown>>;
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ role: 'user', content: 'How do I install it?' });
    expect(sent[0]?.parts).toEqual([{ type: 'text', text: 'How do I install it?' }]);
    expect(sent[0]?.id).toEqual(expect.any(String));

    // Accepted: the sent context items are cleared; the answer and the thread are in.
    await waitFor(() => expect(textOf(result.current.messages[1])).toBe('First answer.'));
    expect(result.current.context.items).toEqual([]);
    expect(result.current.threadId).toBe('thread-1');
    expect(result.current.status).toBe('ready');

    path = '/docs/next-page';
    await act(() => result.current.send('And then?'));
    const second = calls[1];
    expect(second?.body).toMatchObject({
      threadId: 'thread-1',
      threadKey: 'key-1',
      currentPath: '/docs/next-page',
    });
    expect(second?.body).not.toHaveProperty('context');
    expect(second?.body.messages).toHaveLength(3);
  });

  it('defaults fp to anonymous, retrievalPageSize to 5 and currentPath to the pathname', async () => {
    const { fetch, calls } = recordingFetch(() => answerResponse('Hi.'));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    window.history.replaceState(null, '', '/guides/setup?tab=1');
    await act(() => result.current.send('Hello'));
    expect(calls[0]?.body).toEqual({
      fp: 'anonymous',
      retrievalPageSize: 5,
      currentPath: '/guides/setup',
      messages: expect.any(Array),
    });
    expect(calls[0]?.body).not.toHaveProperty('threadId');
  });

  it('ignores an empty or whitespace question', async () => {
    const { fetch, mock } = recordingFetch(() => answerResponse('never'));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('   \n '));
    await act(() => result.current.send(''));
    expect(mock).not.toHaveBeenCalled();
    expect(result.current.messages).toEqual([]);
  });

  it('throttles re-renders to a display rate', () => {
    expect(STREAM_RENDER_THROTTLE_MS).toBeGreaterThan(0);
    expect(STREAM_RENDER_THROTTLE_MS).toBeLessThanOrEqual(100);
  });
});

describe('useDocsAssistant: the stream and the thread', () => {
  it('reads every part of a createDataStreamResponse and the threadId of the finish part', async () => {
    const onFinish = vi.fn();
    const { fetch } = recordingFetch(() =>
      createDataStreamResponse({
        execute(stream) {
          stream.write(formatDataStreamPart('start_step', { messageId: 'msg-1' }));
          stream.write(formatDataStreamPart('reasoning', 'Looking for the install page.'));
          stream.write(
            formatDataStreamPart('tool_call', {
              toolCallId: 'call-1',
              toolName: 'search',
              args: { query: 'install' },
            }),
          );
          stream.write(
            formatDataStreamPart('tool_result', {
              toolCallId: 'call-1',
              result: [{ title: 'Install', path: '/docs/install' }],
            }),
          );
          stream.writeSource({
            sourceType: 'url',
            id: 'src-1',
            url: 'https://docs.example.com/install',
            title: 'Install',
          });
          stream.write(formatDataStreamPart('text', 'Run '));
          stream.write(formatDataStreamPart('text', '`npm i`.'));
          stream.writeMessageAnnotation({ note: 'not a thread' });
          stream.write(
            formatDataStreamPart('finish_step', {
              finishReason: 'stop',
              usage: { promptTokens: 1, completionTokens: 2 },
              isContinued: false,
            }),
          );
          stream.write(finishLine({ threadId: 'thread-from-finish' }));
        },
      }),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch, onFinish })));
    await act(() => result.current.send('How do I install?'));
    await waitFor(() => expect(textOf(result.current.messages[1])).toBe('Run `npm i`.'));

    const answer = result.current.messages[1];
    expect(answer?.role).toBe('assistant');
    expect(answer?.parts.map((part) => part.type)).toEqual([
      'step-start',
      'reasoning',
      'tool-invocation',
      'source',
      'text',
    ]);
    expect(answer?.parts[2]).toMatchObject({
      toolInvocation: {
        state: 'result',
        toolName: 'search',
        result: [{ title: 'Install', path: '/docs/install' }],
      },
    });
    expect(answer?.annotations).toEqual([{ note: 'not a thread' }]);
    expect(result.current.threadId).toBe('thread-from-finish');
    expect(onFinish).toHaveBeenCalledTimes(1);
    expect(onFinish.mock.calls[0]?.[1]).toEqual({ threadId: 'thread-from-finish' });
  });

  it('reads the threadId from an 8: annotation when the finish part has none', async () => {
    const { fetch, calls } = recordingFetch(
      () =>
        createDataStreamResponse({
          execute(stream) {
            stream.write(formatDataStreamPart('text', 'Hello.'));
            stream.writeMessageAnnotation({ threadId: 'thread-from-annotation' });
            stream.write(finishLine());
          },
        }),
      () => answerResponse('Again.'),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('Hi'));
    await waitFor(() => expect(result.current.threadId).toBe('thread-from-annotation'));
    await act(() => result.current.send('Follow-up'));
    expect(calls[1]?.body.threadId).toBe('thread-from-annotation');
  });

  it('reads the threadId from the X-Thread-Id header of a streamText response', async () => {
    const model = new MockLanguageModelV1({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [
            { type: 'reasoning' as const, textDelta: 'Checking the docs.' },
            {
              type: 'source' as const,
              source: { sourceType: 'url' as const, id: 's1', url: 'https://docs.example.com/a', title: 'A' },
            },
            { type: 'text-delta' as const, textDelta: 'Streamed ' },
            { type: 'text-delta' as const, textDelta: 'answer.' },
            {
              type: 'finish' as const,
              finishReason: 'stop' as const,
              usage: { promptTokens: 3, completionTokens: 4 },
            },
          ],
        }),
        rawCall: { rawPrompt: null, rawSettings: {} },
      }),
    });
    const { fetch } = recordingFetch(() =>
      streamText({ model, prompt: 'q' }).toDataStreamResponse({
        sendReasoning: true,
        sendSources: true,
        headers: { 'X-Thread-Id': 'thread-from-header', 'X-Thread-Key': 'key-from-header' },
      }),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('Question'));
    await waitFor(() => expect(textOf(result.current.messages[1])).toBe('Streamed answer.'));
    expect(result.current.messages[1]?.parts.map((part) => part.type)).toEqual([
      'step-start',
      'reasoning',
      'source',
      'text',
    ]);
    expect(result.current.threadId).toBe('thread-from-header');
  });

  it('prefers the finish part over the header', async () => {
    const { fetch } = recordingFetch(() =>
      answerResponse('x', { threadId: 'from-finish', headers: { 'X-Thread-Id': 'from-header' } }),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('Hi'));
    await waitFor(() => expect(result.current.threadId).toBe('from-finish'));
  });
});
