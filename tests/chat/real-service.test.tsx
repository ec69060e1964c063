// @vitest-environment jsdom
/**
 * The widget against a server that answers like the real service (issue 12): error bodies
 * `{ "error": "<message>" }`, a thread key handed out only when a thread is created (headers
 * `X-Thread-Id` / `X-Thread-Key`), 404 for a thread without its right key, and, after an error
 * part, the AI SDK's `e:` and `d:` (with the `threadId`) still written. Over real HTTP on 127.0.0.1,
 * streams written with the AI SDK's own server helpers.
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import { createDataStreamResponse, formatDataStreamPart } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLocalThreadStorage, threadStorageKey } from '../../packages/docs-assistant/src/chat/storage';
import type { StoredThread } from '../../packages/docs-assistant/src/chat/types';
import { useDocsAssistant } from '../../packages/docs-assistant/src/chat/use-docs-assistant';
import {
  answerResponse,
  baseOptions,
  DATA_STREAM_HEADERS,
  EARLIER_TURN,
  finishLine,
  sendResponse,
  serveHttp,
  textOf,
} from './helpers';

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

const stored = () =>
  JSON.parse(localStorage.getItem(threadStorageKey('acme')) ?? 'null') as StoredThread | null;

/** A JSON error as the real service writes it. */
function jsonError(response: import('node:http').ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

/**
 * A server with the real service's thread rules: a request without `threadId` creates a thread
 * (its id and key in the response headers, the id in the finish part); a request with a `threadId`
 * must carry its `threadKey`, or it gets 404 `{ "error": "Thread not found" }`.
 */
async function realService() {
  const keys = new Map<string, string>();
  const server = await serveHttp(async (_request, response, index, text) => {
    const body = JSON.parse(text) as { threadId?: string; threadKey?: string };
    let threadId = body.threadId;
    const headers: Record<string, string> = {};
    if (threadId !== undefined) {
      if (!body.threadKey || keys.get(threadId) !== body.threadKey) {
        jsonError(response, 404, { error: 'Thread not found' });
        return;
      }
    } else {
      threadId = `thread-${index}`;
      const threadKey = `key-${index}`;
      keys.set(threadId, threadKey);
      // The key is returned only when the thread is created.
      headers['X-Thread-Id'] = threadId;
      headers['X-Thread-Key'] = threadKey;
    }
    await sendResponse(response, answerResponse(`Answer ${index}.`, { threadId, headers }));
  });
  closeServer = server.close;
  return server;
}

describe('useDocsAssistant against the real service’s thread rules (over HTTP)', () => {
  it('a 404 "Thread not found" to a stored thread: one resend as a new thread, the answer shown, the new id and key stored and sent on', async () => {
    createLocalThreadStorage('acme').save({
      threadId: 'gone',
      threadKey: 'gone-key',
      messages: EARLIER_TURN,
    });
    const server = await realService();
    const onError = vi.fn();
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ baseUrl: server.baseUrl, onError })));
    expect(result.current.threadId).toBe('gone');

    await act(() => result.current.send('And how long is it kept?'));

    const [first, second] = server.bodies();
    expect(first).toMatchObject({ threadId: 'gone', threadKey: 'gone-key' });
    expect(second).not.toHaveProperty('threadId');
    expect(second).not.toHaveProperty('threadKey');
    expect(server.requests()).toBe(2);
    expect(result.current.status).toBe('ready');
    expect(result.current.error).toBeNull();
    expect(onError).not.toHaveBeenCalled();
    expect(result.current.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(textOf(result.current.messages[3])).toBe('Answer 1.');
    expect(result.current.threadId).toBe('thread-1');
    await waitFor(() => expect(stored()).toMatchObject({ threadId: 'thread-1', threadKey: 'key-1' }));

    // The follow-up names the new thread with its key; the service only answers when the key is right.
    await act(() => result.current.send('Thanks. And after that?'));
    expect(server.requests()).toBe(3);
    expect(server.bodies()[2]).toMatchObject({ threadId: 'thread-1', threadKey: 'key-1' });
    expect(textOf(result.current.messages[5])).toBe('Answer 2.');
    // The follow-up's response carried no key; the one from the thread's creation is kept.
    await waitFor(() => expect(stored()).toMatchObject({ threadId: 'thread-1', threadKey: 'key-1' }));
  });

  it('a thread stored without its key gets 404 and is replaced the same way', async () => {
    createLocalThreadStorage('acme').save({ threadId: 'thread-x', messages: EARLIER_TURN });
    const server = await realService();
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ baseUrl: server.baseUrl })));
    await act(() => result.current.send('Still there?'));
    expect(server.requests()).toBe(2);
    expect(textOf(result.current.messages.at(-1))).toBe('Answer 1.');
    await waitFor(() => expect(stored()).toMatchObject({ threadId: 'thread-1', threadKey: 'key-1' }));
  });

  it('a second 404 is an error the reader sees, not a loop', async () => {
    createLocalThreadStorage('acme').save({
      threadId: 'gone',
      threadKey: 'gone-key',
      messages: EARLIER_TURN,
    });
    const server = await serveHttp((_request, response) =>
      jsonError(response, 404, { error: 'No assistant for the domain "acme"' }),
    );
    closeServer = server.close;
    const onError = vi.fn();
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ baseUrl: server.baseUrl, onError })));
    await act(() => result.current.send('Anyone?'));
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(server.requests()).toBe(2);
    expect(server.bodies()[1]).not.toHaveProperty('threadId');
    expect(result.current.error).toMatchObject({ kind: 'request', status: 404, retryable: false });
    expect(result.current.error?.detail).toContain('No assistant for the domain "acme"');
    expect(onError).toHaveBeenCalledTimes(1);
    // The question is kept; the dead thread and its key are not.
    await waitFor(() => expect(stored()?.messages.at(-1)?.content).toBe('Anyone?'));
    expect(stored()).not.toHaveProperty('threadId');
    expect(stored()).not.toHaveProperty('threadKey');
  });
});

describe('useDocsAssistant reads every error body shape (over HTTP)', () => {
  it.each([
    ['the real service’s string error', { error: 'fp is required' }, 'fp is required'],
    [
      'the reference service’s string error with a code',
      { error: 'fp is required', code: 'invalid_request' },
      'invalid_request: fp is required',
    ],
    [
      'an object error with code and message',
      { error: { code: 'invalid_request', message: 'fp is required' } },
      'invalid_request: fp is required',
    ],
    ['a message field', { message: 'fp is required' }, 'fp is required'],
  ])('%s', async (_name, body, said) => {
    const server = await serveHttp((_request, response) => jsonError(response, 400, body));
    closeServer = server.close;
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ baseUrl: server.baseUrl })));
    await act(() => result.current.send('Hello?'));
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(result.current.error).toMatchObject({
      kind: 'request',
      status: 400,
      detail: `HTTP 400 — ${said}`,
    });
  });
});

describe('useDocsAssistant after an error part (over HTTP)', () => {
  /** What the AI SDK's server helpers write when the model fails mid-answer: `3:`, then `e:` and `d:`. */
  const failingAnswer = (threadId: string) =>
    createDataStreamResponse({
      execute(stream) {
        stream.write(formatDataStreamPart('start_step', { messageId: 'msg-failing' }));
        stream.write(formatDataStreamPart('text', 'Half an answer'));
        stream.write(formatDataStreamPart('error', 'The model provider failed'));
        stream.write(
          formatDataStreamPart('finish_step', {
            finishReason: 'error',
            usage: { promptTokens: 1, completionTokens: 1 },
            isContinued: false,
          }),
        );
        stream.write(finishLine({ threadId }));
      },
    });

  it('reports the error, keeps the partial answer, and takes the thread from the finish part after it', async () => {
    const server = await serveHttp(async (_request, response, index) => {
      await sendResponse(
        response,
        index === 0
          ? failingAnswer('thread-after-error')
          : answerResponse('Second try.', { threadId: 'thread-after-error' }),
      );
    });
    closeServer = server.close;
    const onError = vi.fn();
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ baseUrl: server.baseUrl, onError })));

    await act(() => result.current.send('Explain streams'));
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(result.current.error).toMatchObject({ kind: 'stream', retryable: true });
    expect(result.current.error?.detail).toContain('The model provider failed');
    expect(onError).toHaveBeenCalledTimes(1);
    expect(textOf(result.current.messages[1])).toBe('Half an answer');
    await waitFor(() => expect(result.current.threadId).toBe('thread-after-error'));
    await waitFor(() => expect(stored()).toMatchObject({ threadId: 'thread-after-error' }));

    // The next question continues that thread.
    await act(() => result.current.send('Try again, please'));
    expect(server.bodies()[1]).toMatchObject({ threadId: 'thread-after-error' });
    expect(textOf(result.current.messages.at(-1))).toBe('Second try.');
  });

  it('stops reading a stream held open after its error part once the next question is sent', async () => {
    let firstClosed = false;
    const server = await serveHttp(async (_request, response, index) => {
      if (index > 0) {
        await sendResponse(response, answerResponse('Next answer.', { threadId: 'thread-next' }));
        return;
      }
      response.on('close', () => {
        firstClosed = true;
      });
      response.writeHead(200, DATA_STREAM_HEADERS);
      response.write(formatDataStreamPart('text', 'Half an answer'));
      response.write(formatDataStreamPart('error', 'The model provider failed'));
      // Held open, with no finish part.
    });
    closeServer = server.close;
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ baseUrl: server.baseUrl })));
    await act(() => result.current.send('Explain streams'));
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(firstClosed).toBe(false);

    await act(() => result.current.send('Try again, please'));
    expect(textOf(result.current.messages.at(-1))).toBe('Next answer.');
    await waitFor(() => expect(firstClosed).toBe(true));
    expect(result.current.threadId).toBe('thread-next');
  });
});
