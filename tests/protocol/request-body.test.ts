// @vitest-environment jsdom
/**
 * Every request the widget sends matches spec §2.1–2.4 exactly (issue 12, point 6), checked with
 * a JSON Schema written by hand from the spec (`request-body-schema.ts`): after an answer with
 * reasoning, a source, a tool call and a file part, after a tool call stopped before its arguments,
 * after a retry, and after a page reload (the conversation read back from storage). The server is
 * real HTTP on 127.0.0.1 and writes its streams with the AI SDK's own helpers.
 */
import type { ServerResponse } from 'node:http';
import { act, renderHook, waitFor } from '@testing-library/react';
import { createDataStreamResponse, type DataStreamWriter, formatDataStreamPart } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../../packages/docs-assistant/src/chat/types';
import { useDocsAssistant } from '../../packages/docs-assistant/src/chat/use-docs-assistant';
import { toWireMessage } from '../../packages/docs-assistant/src/chat/wire-messages';
import { createContextStore } from '../../packages/docs-assistant/src/context/store';
import {
  baseOptions,
  DATA_STREAM_HEADERS,
  finishLine,
  sendResponse,
  serveHttp,
  textOf,
} from '../chat/helpers';
import { requestBodyProblems } from './request-body-schema';

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

const finishStep = formatDataStreamPart('finish_step', {
  finishReason: 'stop',
  usage: { promptTokens: 1, completionTokens: 1 },
  isContinued: false,
});

/** An answer with every part kind the spec lists, plus a source the SDK gives provider metadata. */
function richAnswer(stream: DataStreamWriter) {
  stream.write(formatDataStreamPart('start_step', { messageId: 'msg-rich' }));
  stream.write(formatDataStreamPart('reasoning', 'The reader asks about threads.'));
  stream.write(formatDataStreamPart('reasoning_signature', { signature: 'sig-1' }));
  stream.write(formatDataStreamPart('redacted_reasoning', { data: 'redacted-1' }));
  stream.write(
    formatDataStreamPart('tool_call', {
      toolCallId: 'call-1',
      toolName: 'search',
      args: { query: 'threads' },
    }),
  );
  stream.write(
    formatDataStreamPart('tool_result', {
      toolCallId: 'call-1',
      result: [{ path: 'guides/threads', metadata: { title: 'Threads' } }],
    }),
  );
  stream.write(
    formatDataStreamPart('source', {
      sourceType: 'url',
      id: 'src-1',
      url: 'https://docs.example.com/guides/threads',
      title: 'Threads',
      providerMetadata: { engine: { score: 0.9 } },
    }),
  );
  stream.write(formatDataStreamPart('text', 'A thread keeps the conversation.'));
  stream.write(formatDataStreamPart('message_annotations', [{ note: 'from the docs' }]));
  stream.write(finishStep);
}

/** An answer that holds a file part (not a §2.3 variant) besides its text. */
function fileAnswer(stream: DataStreamWriter) {
  stream.write(formatDataStreamPart('start_step', { messageId: 'msg-file' }));
  stream.write(formatDataStreamPart('file', { mimeType: 'image/png', data: 'iVBORw0KGgo=' }));
  stream.write(formatDataStreamPart('text', 'Here is a diagram.'));
  stream.write(finishStep);
}

/**
 * A server with the real service's thread rules, answering each request by its turn: `stopped`
 * starts a tool call (no arguments yet) and holds the response open until the widget stops it.
 */
async function service(script: Array<'rich' | 'file' | 'stopped' | 'plain'>) {
  const server = await serveHttp(async (_request, response: ServerResponse, index, text) => {
    const body = JSON.parse(text) as { threadId?: string };
    const kind = script[index] ?? 'plain';
    const headers: Record<string, string> = {};
    if (!body.threadId) {
      headers['X-Thread-Id'] = 'thread-1';
      headers['X-Thread-Key'] = 'key-1';
    }
    if (kind === 'stopped') {
      response.writeHead(200, { ...DATA_STREAM_HEADERS, ...headers });
      response.write(formatDataStreamPart('start_step', { messageId: 'msg-stopped' }));
      response.write(formatDataStreamPart('text', 'Let me search. '));
      response.write(
        formatDataStreamPart('tool_call_streaming_start', { toolCallId: 'call-2', toolName: 'search' }),
      );
      // Held open: the reader stops it.
      return;
    }
    await sendResponse(
      response,
      createDataStreamResponse({
        headers,
        execute(stream) {
          if (kind === 'rich') richAnswer(stream);
          else if (kind === 'file') fileAnswer(stream);
          else {
            stream.write(formatDataStreamPart('start_step', { messageId: `msg-${index}` }));
            stream.write(formatDataStreamPart('text', `Answer ${index}.`));
            stream.write(finishStep);
          }
          stream.write(finishLine({ threadId: 'thread-1' }));
        },
      }),
    );
  });
  closeServer = server.close;
  return server;
}

const partTypes = (message: AssistantMessage | undefined) => message?.parts.map((part) => part.type);

describe('the request body the widget sends (spec §2.1–2.4, JSON Schema)', () => {
  it('the schema itself refuses what the spec does not list', () => {
    const valid = {
      fp: 'anonymous',
      messages: [{ id: 'u1', role: 'user', content: 'Hi', parts: [{ type: 'text', text: 'Hi' }] }],
    };
    expect(requestBodyProblems(valid)).toEqual([]);
    const withMessage = (extra: Record<string, unknown>) => ({
      ...valid,
      messages: [{ ...valid.messages[0], ...extra }],
    });
    expect(requestBodyProblems({ ...valid, id: 'chat-1' })).not.toEqual([]);
    expect(requestBodyProblems(withMessage({ revisionId: 'r1' }))).not.toEqual([]);
    expect(requestBodyProblems(withMessage({ toolInvocations: [] }))).not.toEqual([]);
    expect(requestBodyProblems(withMessage({ createdAt: 'yesterday' }))).not.toEqual([]);
    expect(
      requestBodyProblems(withMessage({ parts: [{ type: 'file', mimeType: 'image/png', data: 'x' }] })),
    ).not.toEqual([]);
    const partialCall = { state: 'partial-call', toolCallId: 'c', toolName: 'search' };
    expect(
      requestBodyProblems(withMessage({ parts: [{ type: 'tool-invocation', toolInvocation: partialCall }] })),
    ).not.toEqual([]);
    expect(
      requestBodyProblems(
        withMessage({ parts: [{ type: 'tool-invocation', toolInvocation: { ...partialCall, args: {} } }] }),
      ),
    ).toEqual([]);
    expect(
      requestBodyProblems(
        withMessage({
          parts: [{ type: 'source', source: { sourceType: 'url', id: 's', url: 'u', providerMetadata: {} } }],
        }),
      ),
    ).not.toEqual([]);
    expect(requestBodyProblems({ ...valid, currentPath: 'a'.repeat(201) })).not.toEqual([]);
  });

  it('every request of a conversation is valid, while the reader keeps seeing every part', async () => {
    const server = await service(['rich', 'file', 'stopped', 'plain', 'plain', 'plain']);
    const contextStore = createContextStore();
    const options = baseOptions({
      baseUrl: server.baseUrl,
      contextStore,
      filter: { version: 'v2' },
      currentPath: '/docs/guides/threads',
    });
    const first = renderHook(() => useDocsAssistant(options));

    // 1. An answer with reasoning, a tool call and result, a source, an annotation.
    act(() => void contextStore.add({ type: 'textSelection', value: 'a thread', path: '/docs/guides' }));
    await act(() => first.result.current.send('What is a thread?'));
    await waitFor(() => expect(first.result.current.status).toBe('ready'));
    expect(partTypes(first.result.current.messages[1])).toEqual([
      'step-start',
      'reasoning',
      'tool-invocation',
      'source',
      'text',
    ]);

    // 2. An answer with a file part.
    await act(() => first.result.current.send('Show me a diagram'));
    await waitFor(() => expect(textOf(first.result.current.messages[3])).toBe('Here is a diagram.'));
    expect(partTypes(first.result.current.messages[3])).toContain('file');

    // 3. A tool call the reader stops before its arguments arrive.
    let sending!: Promise<void>;
    act(() => {
      sending = first.result.current.send('Search for keys');
    });
    await waitFor(() => expect(partTypes(first.result.current.messages[5])).toContain('tool-invocation'));
    act(() => first.result.current.stop());
    await act(() => sending);
    const stopped = first.result.current.messages[5];
    const invocation = stopped?.parts.find((part) => part.type === 'tool-invocation');
    expect(invocation?.type === 'tool-invocation' && invocation.toolInvocation).toMatchObject({
      state: 'partial-call',
      toolName: 'search',
    });
    expect(invocation?.type === 'tool-invocation' && invocation.toolInvocation.args).toBeUndefined();

    // 4. The next question carries all of the above; 5. a retry of its answer.
    await act(() => first.result.current.send('And thread keys?'));
    await waitFor(() => expect(textOf(first.result.current.messages[7])).toBe('Answer 3.'));
    await act(() => first.result.current.retry());
    await waitFor(() => expect(textOf(first.result.current.messages[7])).toBe('Answer 4.'));
    // The reader still sees the file part and the stopped call.
    expect(partTypes(first.result.current.messages[3])).toContain('file');
    expect(partTypes(first.result.current.messages[5])).toContain('tool-invocation');
    first.unmount();

    // 6. A page reload: the conversation comes back from storage, and the next question goes out.
    const second = renderHook(() => useDocsAssistant(options));
    expect(second.result.current.messages).toHaveLength(8);
    expect(partTypes(second.result.current.messages[3])).toContain('file');
    await act(() => second.result.current.send('One more thing'));
    await waitFor(() => expect(textOf(second.result.current.messages[9])).toBe('Answer 5.'));

    const bodies = server.bodies();
    expect(bodies).toHaveLength(6);
    for (const [index, body] of bodies.entries()) {
      expect({ request: index, problems: requestBodyProblems(body) }).toEqual({
        request: index,
        problems: [],
      });
    }

    // What the cleaning did, on the last request (the whole conversation).
    const last = bodies[5] as { threadId?: string; threadKey?: string; messages: AssistantMessage[] };
    expect(last).toMatchObject({ threadId: 'thread-1', threadKey: 'key-1', filter: { version: 'v2' } });
    expect(last.messages).toHaveLength(9);
    expect(partTypes(last.messages[1])).toEqual([
      'step-start',
      'reasoning',
      'tool-invocation',
      'source',
      'text',
    ]);
    expect(last.messages[1]?.parts[1]).toEqual({
      type: 'reasoning',
      reasoning: 'The reader asks about threads.',
      details: [
        { type: 'text', text: 'The reader asks about threads.', signature: 'sig-1' },
        { type: 'redacted', data: 'redacted-1' },
      ],
    });
    expect(last.messages[1]?.parts[3]).toEqual({
      type: 'source',
      source: {
        sourceType: 'url',
        id: 'src-1',
        url: 'https://docs.example.com/guides/threads',
        title: 'Threads',
      },
    });
    expect(last.messages[1]?.annotations).toEqual([{ note: 'from the docs' }]);
    // The file part and the stopped call stay off the wire; the text around them goes.
    expect(partTypes(last.messages[3])).toEqual(['step-start', 'text']);
    expect(partTypes(last.messages[5])).toEqual(['step-start', 'text']);
    expect(last.messages[5]?.content).toBe('Let me search. ');
    // The first request carried the context item and no thread yet.
    expect(bodies[0]).toMatchObject({
      context: [{ type: 'textSelection', value: 'a thread', path: '/docs/guides' }],
    });
    expect(bodies[0]).not.toHaveProperty('threadId');
  });
});

describe('toWireMessage', () => {
  it('keeps a finished tool call, drops calls without a result, and writes dates as ISO strings', () => {
    const message = {
      id: 'a1',
      role: 'assistant',
      content: 'Done.',
      createdAt: new Date('2026-01-02T03:04:05.000Z'),
      revisionId: 'rev-1',
      toolInvocations: [],
      parts: [
        {
          type: 'tool-invocation',
          toolInvocation: { state: 'call', step: 0, toolCallId: 'c1', toolName: 'search', args: { q: 'x' } },
        },
        {
          type: 'tool-invocation',
          toolInvocation: {
            state: 'result',
            step: 1,
            toolCallId: 'c2',
            toolName: 'search',
            args: { q: 'y' },
            result: [],
          },
        },
        { type: 'source', source: { sourceType: 'document', id: 'd', url: 'u' } },
      ],
    } as unknown as AssistantMessage;
    const wire = toWireMessage(message);
    expect(wire).toEqual({
      id: 'a1',
      role: 'assistant',
      content: 'Done.',
      createdAt: '2026-01-02T03:04:05.000Z',
      parts: [
        {
          type: 'tool-invocation',
          toolInvocation: {
            state: 'result',
            step: 1,
            toolCallId: 'c2',
            toolName: 'search',
            args: { q: 'y' },
            result: [],
          },
        },
      ],
    });
    expect(requestBodyProblems({ fp: 'anonymous', messages: [wire] })).toEqual([]);
    // The message the reader sees is not changed.
    expect(message.parts).toHaveLength(3);
  });
});
