// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { AssistantMessage } from '../../packages/docs-assistant/src/chat/types';
import { useDocsAssistant } from '../../packages/docs-assistant/src/chat/use-docs-assistant';
import { createContextStore } from '../../packages/docs-assistant/src/context/store';
import {
  answerResponse,
  baseOptions,
  EARLIER_TURN,
  errorResponse,
  memoryThreadStorage,
  recordingFetch,
  textOf,
} from './helpers';

const threadNotFound = () => errorResponse(404, 'thread_not_found', 'Unknown threadId "gone".');

function renderWithStatuses(options: Parameters<typeof useDocsAssistant>[0]) {
  const statuses: string[] = [];
  const errors: unknown[] = [];
  const view = renderHook(() => {
    const state = useDocsAssistant(options);
    statuses.push(state.status);
    if (state.error) errors.push(state.error);
    return state;
  });
  return { ...view, statuses, errors };
}

describe('useDocsAssistant: a thread the server forgot', () => {
  it('forgets it and sends the same question once as a new thread, keeping the conversation', async () => {
    const { storage, saved } = memoryThreadStorage({
      threadId: 'gone',
      threadKey: 'gone-key',
      messages: EARLIER_TURN,
    });
    const contextStore = createContextStore();
    const onError = vi.fn();
    const onFinish = vi.fn();
    const { fetch, calls } = recordingFetch(threadNotFound, () =>
      answerResponse('A fresh start.', { threadId: 'thread-new' }),
    );
    const { result, statuses, errors } = renderWithStatuses(
      baseOptions({ fetch, storage, contextStore, onError, onFinish }),
    );
    expect(result.current.threadId).toBe('gone');
    act(() => void contextStore.add({ type: 'code', value: 'const t = thread();' }));

    await act(() => result.current.send('And how long is it kept?'));

    expect(calls).toHaveLength(2);
    expect(calls[0]?.body).toMatchObject({ threadId: 'gone', threadKey: 'gone-key' });
    expect(calls[1]?.body).not.toHaveProperty('threadId');
    expect(calls[1]?.body).not.toHaveProperty('threadKey');
    // The new thread gets the conversation so far, the question and its context again.
    expect(((calls[1]?.body.messages ?? []) as AssistantMessage[]).map((m) => m.content)).toEqual([
      'What is a thread?',
      'A conversation the service remembers.',
      'And how long is it kept?',
    ]);
    expect(calls[1]?.body.context).toEqual([{ type: 'code', value: 'const t = thread();' }]);
    expect(result.current.context.items).toEqual([]);

    expect(result.current.status).toBe('ready');
    expect(result.current.error).toBeNull();
    expect(result.current.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(textOf(result.current.messages[3])).toBe('A fresh start.');
    expect(result.current.threadId).toBe('thread-new');
    expect(saved()).toMatchObject({ threadId: 'thread-new' });
    expect(saved()).not.toHaveProperty('threadKey');
    // The lost thread is handled, not reported: no error reached the reader or the host.
    expect(statuses).not.toContain('error');
    expect(errors).toEqual([]);
    expect(onError).not.toHaveBeenCalled();
    expect(onFinish).toHaveBeenCalledTimes(1);
  });

  it('shows the error of a second failure, with the question kept, and does not resend again', async () => {
    const { storage, saved } = memoryThreadStorage({ threadId: 'gone', messages: EARLIER_TURN });
    const onError = vi.fn();
    const { fetch, calls } = recordingFetch(threadNotFound, () =>
      errorResponse(500, 'internal', 'The index is rebuilding.'),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch, storage, onError })));

    await act(() => result.current.send('Still there?'));

    expect(calls).toHaveLength(2);
    expect(result.current.status).toBe('error');
    expect(result.current.error).toMatchObject({ kind: 'network', status: 500, retryable: true });
    expect(onError).toHaveBeenCalledTimes(1);
    expect(result.current.messages.map((m) => m.content)).toEqual([
      'What is a thread?',
      'A conversation the service remembers.',
      'Still there?',
    ]);
    expect(result.current.threadId).toBeUndefined();
    expect(saved()?.threadId).toBeUndefined();
    expect(saved()?.messages).toHaveLength(3);
  });

  it('does not resend when the request named no thread', async () => {
    const { fetch, calls } = recordingFetch(threadNotFound, () => answerResponse('never'));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch, storage: 'memory' })));
    await act(() => result.current.send('First question'));
    expect(calls).toHaveLength(1);
    expect(result.current.error).toMatchObject({ kind: 'request', status: 404 });
    expect(result.current.error?.detail).toContain('thread_not_found');
  });

  it('any 404 to a request that named a thread drops it; a second 404 is shown, not resent again', async () => {
    const { storage, saved } = memoryThreadStorage({
      threadId: 'kept',
      threadKey: 'k',
      messages: EARLIER_TURN,
    });
    const onError = vi.fn();
    const { fetch, calls } = recordingFetch(() => errorResponse(404, 'not_found', 'No such domain.'));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch, storage, onError })));
    await act(() => result.current.send('Anyone?'));
    expect(calls).toHaveLength(2);
    expect(calls[0]?.body).toMatchObject({ threadId: 'kept', threadKey: 'k' });
    expect(calls[1]?.body).not.toHaveProperty('threadId');
    expect(calls[1]?.body).not.toHaveProperty('threadKey');
    expect(result.current.status).toBe('error');
    expect(result.current.error).toMatchObject({ kind: 'request', status: 404 });
    expect(result.current.error?.detail).toContain('No such domain.');
    expect(onError).toHaveBeenCalledTimes(1);
    expect(result.current.threadId).toBeUndefined();
    expect(saved()).not.toHaveProperty('threadId');
    expect(saved()).not.toHaveProperty('threadKey');
    expect(saved()?.messages.map((m) => m.content)).toContain('Anyone?');
  });
});
