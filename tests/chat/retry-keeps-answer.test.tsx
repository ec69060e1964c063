// @vitest-environment jsdom
/**
 * `retry()` replaces the last answer, but only once a new one arrives: a retry that fails (or is
 * stopped) before any of the new answer came leaves the old answer on screen and in storage.
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import { formatDataStreamPart } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { threadStorageKey } from '../../packages/docs-assistant/src/chat/storage';
import type { StoredThread } from '../../packages/docs-assistant/src/chat/types';
import { useDocsAssistant } from '../../packages/docs-assistant/src/chat/use-docs-assistant';
import {
  answerResponse,
  baseOptions,
  controlledStream,
  DATA_STREAM_HEADERS,
  recordingFetch,
  sendResponse,
  serveHttp,
  textOf,
} from './helpers';

const PARTIAL = 'Long partial answer…';

const storedTexts = () => {
  const stored = JSON.parse(localStorage.getItem(threadStorageKey('acme')) ?? 'null') as StoredThread | null;
  return stored?.messages.map((message) => message.content);
};

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

describe('useDocsAssistant: a failed retry keeps the answer it was to replace', () => {
  it('over HTTP: a cut-off answer survives a retry that cannot connect, on screen, in storage and after a reload', async () => {
    const server = await serveHttp(async (request, response, index) => {
      if (index === 0) {
        // Part of an answer, then the connection drops (no end chunk, no finish part).
        response.writeHead(200, DATA_STREAM_HEADERS);
        response.write(formatDataStreamPart('start_step', { messageId: 'msg-partial' }));
        response.write(formatDataStreamPart('text', PARTIAL), () => request.socket.end());
        return;
      }
      if (index === 1) {
        // The retry gets no response at all.
        request.socket.destroy();
        return;
      }
      await sendResponse(response, answerResponse('The whole answer.'));
    });
    closeServer = server.close;
    const options = baseOptions({ baseUrl: server.baseUrl });

    const first = renderHook(() => useDocsAssistant(options));
    await act(() => first.result.current.send('Explain retries'));
    await waitFor(() => expect(first.result.current.error?.kind).toBe('stream'));
    expect(textOf(first.result.current.messages[1])).toBe(PARTIAL);

    await act(() => first.result.current.retry());
    expect(server.requests()).toBe(2);
    expect(first.result.current.error).toMatchObject({ kind: 'network', retryable: true });
    expect(first.result.current.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(textOf(first.result.current.messages[1])).toBe(PARTIAL);
    await waitFor(() => expect(storedTexts()).toEqual(['Explain retries', PARTIAL]));
    first.unmount();

    // The page is reloaded: the conversation comes back from storage with the partial answer.
    const second = renderHook(() => useDocsAssistant(options));
    expect(second.result.current.messages.map((m) => m.content)).toEqual(['Explain retries', PARTIAL]);

    // A retry that gets an answer replaces it.
    await act(() => second.result.current.retry());
    expect(second.result.current.error).toBeNull();
    expect(second.result.current.messages.map((m) => textOf(m))).toEqual([
      'Explain retries',
      'The whole answer.',
    ]);
    await waitFor(() => expect(storedTexts()).toEqual(['Explain retries', 'The whole answer.']));
  });

  it('keeps the old answer stored while the retry waits, and shows it again when the retry fails', async () => {
    let failRetry!: (error: Error) => void;
    const { fetch } = recordingFetch(
      () => answerResponse('A complete first answer.'),
      () =>
        new Promise<Response>((_resolve, reject) => {
          failRetry = reject;
        }),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('Regenerate me'));
    await waitFor(() => expect(storedTexts()).toEqual(['Regenerate me', 'A complete first answer.']));

    const retrying = startRetry(result);
    await waitFor(() => expect(result.current.status).toBe('submitted'));
    // The client has dropped the answer for now; storage has not.
    expect(storedTexts()).toEqual(['Regenerate me', 'A complete first answer.']);

    failRetry(new TypeError('Failed to fetch'));
    await act(() => retrying);
    expect(result.current.error).toMatchObject({ kind: 'network' });
    expect(result.current.messages.map((m) => textOf(m))).toEqual([
      'Regenerate me',
      'A complete first answer.',
    ]);
    expect(storedTexts()).toEqual(['Regenerate me', 'A complete first answer.']);
  });

  it('restores the old answer when the retry is stopped before anything new arrived', async () => {
    const { fetch } = recordingFetch(
      () => answerResponse('Keep this answer.'),
      (_call, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('Q'));
    const retrying = startRetry(result);
    await waitFor(() => expect(result.current.status).toBe('submitted'));
    act(() => result.current.stop());
    await act(() => retrying);
    expect(result.current.status).toBe('ready');
    expect(result.current.error).toBeNull();
    expect(result.current.messages.map((m) => textOf(m))).toEqual(['Q', 'Keep this answer.']);
    expect(storedTexts()).toEqual(['Q', 'Keep this answer.']);
  });

  it('restores the old answer when the retry breaks before any text (only a step start came)', async () => {
    const retryStream = controlledStream();
    const { fetch } = recordingFetch(() => answerResponse('Old answer.'), retryStream.response);
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('Q'));
    const retrying = startRetry(result);
    retryStream.write(formatDataStreamPart('start_step', { messageId: 'msg-new' }));
    retryStream.fail(new TypeError('network error'));
    await act(() => retrying);
    expect(result.current.error).toMatchObject({ kind: 'stream' });
    expect(result.current.messages.map((m) => textOf(m))).toEqual(['Q', 'Old answer.']);
    expect(storedTexts()).toEqual(['Q', 'Old answer.']);
  });

  it('keeps the new partial answer, not the old one, once the retry delivered text', async () => {
    const retryStream = controlledStream();
    const { fetch } = recordingFetch(() => answerResponse('Old answer.'), retryStream.response);
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('Q'));
    const retrying = startRetry(result);
    retryStream.write(formatDataStreamPart('text', 'New but '));
    await waitFor(() => expect(textOf(result.current.messages[1])).toBe('New but '));
    retryStream.fail(new TypeError('network error'));
    await act(() => retrying);
    expect(result.current.error).toMatchObject({ kind: 'stream' });
    expect(result.current.messages.map((m) => textOf(m))).toEqual(['Q', 'New but ']);
    await waitFor(() => expect(storedTexts()).toEqual(['Q', 'New but ']));
  });
});

function startRetry(result: { current: { retry: () => Promise<void> } }): Promise<void> {
  let retrying!: Promise<void>;
  act(() => {
    retrying = result.current.retry();
  });
  return retrying;
}
