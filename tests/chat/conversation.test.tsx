// @vitest-environment jsdom
import { act, renderHook, waitFor } from '@testing-library/react';
import { createDataStreamResponse, formatDataStreamPart } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { STREAM_RENDER_THROTTLE_MS } from '../../packages/docs-assistant/src/chat/config';
import { threadStorageKey } from '../../packages/docs-assistant/src/chat/storage';
import type { StoredThread, ThreadStorage } from '../../packages/docs-assistant/src/chat/types';
import { useDocsAssistant } from '../../packages/docs-assistant/src/chat/use-docs-assistant';
import { createContextStore } from '../../packages/docs-assistant/src/context/store';
import {
  answerResponse,
  baseOptions,
  controlledStream,
  finishLine,
  recordingFetch,
  startSend,
  textOf,
} from './helpers';

/** An answer in many small text parts that arrive together: a throttle holds the last ones back. */
function burstResponse(words: string[], thread: { threadId?: string } = {}): Response {
  return createDataStreamResponse({
    execute(stream) {
      stream.write(formatDataStreamPart('start_step', { messageId: 'msg-burst' }));
      for (const word of words) stream.write(formatDataStreamPart('text', word));
      stream.write(
        formatDataStreamPart('finish_step', {
          finishReason: 'stop',
          usage: { promptTokens: 1, completionTokens: 2 },
          isContinued: false,
        }),
      );
      stream.write(finishLine(thread));
    },
  });
}

const WORDS = ['Threads ', 'are ', 'kept ', 'per ', 'domain ', 'in ', 'local ', 'storage.'];

function spyStorage() {
  let saved: StoredThread | null = null;
  const storage: ThreadStorage & { save: ReturnType<typeof vi.fn> } = {
    load: () => saved,
    save: vi.fn((thread: StoredThread) => {
      saved = thread;
    }),
    clear: () => {
      saved = null;
    },
  };
  return { storage, saved: () => saved };
}

describe('useDocsAssistant: the conversation', () => {
  it('saves at the pauses of a conversation, not per streamed token', async () => {
    const { storage, saved } = spyStorage();
    const stream = controlledStream();
    const { fetch } = recordingFetch(stream.response);
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch, storage })));
    const sending = startSend(result, 'Count the saves');
    await waitFor(() => expect(storage.save).toHaveBeenCalledTimes(1));
    for (const word of ['one ', 'two ', 'three ', 'four']) {
      stream.write(formatDataStreamPart('text', word));
      await waitFor(() => expect(textOf(result.current.messages[1])).toContain(word));
    }
    expect(storage.save).toHaveBeenCalledTimes(1);
    stream.write(formatDataStreamPart('finish_message', { finishReason: 'stop' }));
    stream.close();
    await act(() => sending);
    await waitFor(() => expect(textOf(saved()?.messages[1])).toBe('one two three four'));
    expect(storage.save.mock.calls.length).toBeLessThanOrEqual(3);
  });

  it('stops the request and keeps the partial answer when unmounted mid-answer', async () => {
    const stream = controlledStream();
    let signal: AbortSignal | undefined;
    const { fetch } = recordingFetch((_call, init) => {
      signal = init?.signal ?? undefined;
      return stream.response();
    });
    const { result, unmount } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    act(() => {
      void result.current.send('Leaving soon');
    });
    stream.write(formatDataStreamPart('text', 'Half of it'));
    await waitFor(() => expect(textOf(result.current.messages[1])).toBe('Half of it'));
    unmount();
    expect(signal?.aborted).toBe(true);
    const stored = JSON.parse(localStorage.getItem(threadStorageKey('acme')) ?? 'null') as StoredThread;
    expect(stored.messages.map((m) => m.content)).toEqual(['Leaving soon', 'Half of it']);
  });

  it('retry() regenerates the last answer with the same context', async () => {
    const contextStore = createContextStore();
    const { fetch, calls } = recordingFetch(
      () => answerResponse('First take.'),
      () => answerResponse('Second take.'),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch, contextStore })));
    act(() => {
      contextStore.add({ type: 'code', value: 'const a = 1;' });
    });
    expect(result.current.context.items).toHaveLength(1);
    await act(() => result.current.send('Explain'));
    await waitFor(() => expect(textOf(result.current.messages[1])).toBe('First take.'));
    expect(result.current.context.items).toEqual([]);

    await act(() => result.current.retry());
    await waitFor(() => expect(textOf(result.current.messages[1])).toBe('Second take.'));
    expect(result.current.messages).toHaveLength(2);
    expect(calls[1]?.body.context).toEqual([{ type: 'code', value: 'const a = 1;' }]);
    expect(calls[1]?.body.messages).toHaveLength(1);
  });

  it('keeps context added while a request runs, and ignores a send while busy', async () => {
    const stream = controlledStream();
    const { fetch, mock } = recordingFetch(stream.response);
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    act(() => {
      result.current.context.add({ type: 'textSelection', value: 'first' });
    });
    const sending = startSend(result, 'With first');
    await waitFor(() => expect(result.current.context.items).toEqual([]));
    act(() => {
      result.current.context.add({ type: 'textSelection', value: 'second' });
    });
    await act(() => result.current.send('Too soon'));
    expect(mock).toHaveBeenCalledTimes(1);
    stream.write(formatDataStreamPart('text', 'ok'));
    stream.close();
    await act(() => sending);
    expect(result.current.context.items.map((item) => item.value)).toEqual(['second']);
    expect(result.current.messages.filter((m) => m.role === 'user')).toHaveLength(1);
  });

  it('calls onError with the mapped error', async () => {
    const onError = vi.fn();
    const { fetch } = recordingFetch(() => new Response('nope', { status: 404 }));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch, onError })));
    await act(() => result.current.send('Q'));
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]?.[0]).toMatchObject({
      kind: 'request',
      status: 404,
      detail: 'HTTP 404 — nope',
    });
  });

  it('newConversation() right after `ready` stays empty: no update of the old answer lands later', async () => {
    const { fetch } = recordingFetch(() => burstResponse(WORDS, { threadId: 'thread-old' }));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    const sending = startSend(result, 'Where are threads kept?');
    await waitFor(() => expect(result.current.status).toBe('ready'));
    act(() => result.current.newConversation());
    expect(result.current.messages).toEqual([]);
    // A quiet period longer than a render interval: an update still pending from the old request
    // (as `useChat`'s trailing throttle left one) would land in it.
    await act(() => new Promise((resolve) => setTimeout(resolve, STREAM_RENDER_THROTTLE_MS * 4)));
    await act(() => sending);
    expect(result.current.messages).toEqual([]);
    expect(result.current.threadId).toBeUndefined();
    // The old conversation stays in the history, whole.
    expect(result.current.conversations).toMatchObject([
      {
        title: 'Where are threads kept?',
        threadId: 'thread-old',
        messages: [{}, { content: WORDS.join('') }],
      },
    ]);
  });

  it('never reports `ready` before the final text is in `messages`', async () => {
    const { fetch } = recordingFetch(() => burstResponse(WORDS));
    const seen: Array<{ status: string; text: string }> = [];
    const { result } = renderHook(() => {
      const state = useDocsAssistant(baseOptions({ fetch }));
      seen.push({ status: state.status, text: textOf(state.messages[1]) });
      return state;
    });
    await act(() => result.current.send('Where are threads kept?'));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    const final = WORDS.join('');
    expect(textOf(result.current.messages[1])).toBe(final);
    const sentAt = seen.findIndex((render) => render.status !== 'ready');
    expect(sentAt).toBeGreaterThan(-1);
    const readyAfterSend = seen.slice(sentAt).filter((render) => render.status === 'ready');
    expect(readyAfterSend.length).toBeGreaterThan(0);
    expect(readyAfterSend.map((render) => render.text)).toEqual(readyAfterSend.map(() => final));
  });
});
