// @vitest-environment jsdom
import { act, renderHook, waitFor } from '@testing-library/react';
import { formatDataStreamPart } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import type { AssistantError } from '../../packages/docs-assistant/src/chat/types';
import { useDocsAssistant } from '../../packages/docs-assistant/src/chat/use-docs-assistant';
import { createContextStore } from '../../packages/docs-assistant/src/context/store';
import {
  answerResponse,
  baseOptions,
  controlledStream,
  errorResponse,
  finishLine,
  recordingFetch,
  startSend,
  textOf,
} from './helpers';

type Result = { current: ReturnType<typeof useDocsAssistant> };

/** After a failed request: the question is kept, then `retry()` gets a full answer. */
async function expectRetryRecovers(result: Result, question: string) {
  expect(result.current.messages[0]).toMatchObject({ role: 'user', content: question });
  await act(() => result.current.retry());
  // The whole answer is in by the time the request is over (no render is left pending).
  expect(textOf(result.current.messages[1])).toBe('Recovered answer.');
  expect(result.current.status).toBe('ready');
  expect(result.current.error).toBeNull();
  expect(result.current.messages).toHaveLength(2);
  expect(result.current.messages[0]).toMatchObject({ role: 'user', content: question });
}

describe('useDocsAssistant: HTTP and network errors', () => {
  const cases: Array<{
    name: string;
    response: () => Response;
    expected: Partial<AssistantError>;
  }> = [
    {
      name: '401',
      response: () => errorResponse(401, 'unauthorized', 'Unknown key'),
      expected: { kind: 'auth', status: 401, retryable: false },
    },
    {
      name: '403',
      response: () => errorResponse(403, 'forbidden', 'Key not valid for this domain'),
      expected: { kind: 'auth', status: 403, retryable: false },
    },
    {
      name: '429 with Retry-After seconds',
      response: () => errorResponse(429, 'rate_limited', 'Slow down', { 'Retry-After': '30' }),
      expected: { kind: 'rate-limit', status: 429, retryAfter: 30, retryable: true },
    },
    {
      name: '500',
      response: () => errorResponse(500, 'internal', 'Boom'),
      expected: { kind: 'network', status: 500, retryable: true },
    },
    {
      name: '400 with the server message',
      response: () =>
        errorResponse(400, 'invalid_request', 'messages.0.role: must be one of system, assistant'),
      expected: { kind: 'request', status: 400, retryable: false },
    },
  ];

  for (const { name, response, expected } of cases) {
    it(`maps ${name} and keeps the question for retry()`, async () => {
      const onError = vi.fn();
      const contextStore = createContextStore();
      const { fetch, calls } = recordingFetch(response, () => answerResponse('Recovered answer.'));
      const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch, onError, contextStore })));
      act(() => {
        result.current.context.add({ type: 'textSelection', value: 'the selected text' });
      });

      await act(() => result.current.send('What is this?'));
      await waitFor(() => expect(result.current.status).toBe('error'));
      expect(result.current.error).toMatchObject(expected);
      expect(result.current.error?.message).toEqual(expect.any(String));
      expect(onError).toHaveBeenCalledWith(result.current.error);
      expect(result.current.messages).toHaveLength(1);
      // Not accepted: the context stays for the next try.
      expect(result.current.context.items).toHaveLength(1);

      await expectRetryRecovers(result, 'What is this?');
      // retry() sends the same context as the failed request, then it is cleared.
      expect(calls[1]?.body.context).toEqual([{ type: 'textSelection', value: 'the selected text' }]);
      expect(calls[1]?.body.messages).toHaveLength(1);
      expect(result.current.context.items).toEqual([]);
    });
  }

  it('puts the server message in detail and reads Retry-After as an HTTP date', async () => {
    const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
    const { fetch } = recordingFetch(
      () => errorResponse(400, 'invalid_request', 'filter.version: expected string'),
      () => errorResponse(429, 'rate_limited', 'Slow down', { 'Retry-After': inTwoMinutes }),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('Q'));
    await waitFor(() => expect(result.current.error?.kind).toBe('request'));
    expect(result.current.error?.detail).toContain('invalid_request: filter.version: expected string');

    await act(() => result.current.retry());
    await waitFor(() => expect(result.current.error?.kind).toBe('rate-limit'));
    expect(result.current.error?.retryAfter).toBeGreaterThan(100);
    expect(result.current.error?.retryAfter).toBeLessThanOrEqual(120);
  });

  it('maps a failed fetch (TypeError) to network', async () => {
    const { fetch } = recordingFetch(
      () => {
        throw new TypeError('Failed to fetch');
      },
      () => answerResponse('Recovered answer.'),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('Are you there?'));
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(result.current.error).toMatchObject({ kind: 'network', retryable: true });
    expect(result.current.error?.detail).toContain('Failed to fetch');
    await expectRetryRecovers(result, 'Are you there?');
  });
});

describe('useDocsAssistant: broken streams keep the partial answer', () => {
  it('maps an error part (3:) mid-answer to stream', async () => {
    const stream = controlledStream();
    const { fetch } = recordingFetch(stream.response, () => answerResponse('Recovered answer.'));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    const sending = startSend(result, 'Explain threads');
    stream.write(formatDataStreamPart('text', 'Threads keep '));
    await waitFor(() => expect(textOf(result.current.messages[1])).toBe('Threads keep '));
    expect(result.current.status).toBe('streaming');
    stream.write(formatDataStreamPart('error', 'The model provider failed'));
    await act(() => sending);

    expect(result.current.status).toBe('error');
    expect(result.current.error).toMatchObject({ kind: 'stream', retryable: true });
    expect(result.current.error?.detail).toContain('The model provider failed');
    expect(textOf(result.current.messages[1])).toBe('Threads keep ');
    await expectRetryRecovers(result, 'Explain threads');
  });

  it('drops a malformed line, ends the answer there and keeps what came before', async () => {
    const stream = controlledStream();
    const { fetch } = recordingFetch(stream.response, () => answerResponse('Recovered answer.'));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    const sending = startSend(result, 'Explain storage');
    stream.write(formatDataStreamPart('text', 'Storage is '));
    await waitFor(() => expect(textOf(result.current.messages[1])).toBe('Storage is '));
    // One chunk: a good line, a broken one, then more that must not be shown.
    stream.write(
      `${formatDataStreamPart('text', 'per domain')}0:"unterminated\n${formatDataStreamPart('text', '!!')}`,
    );
    await act(() => sending);

    expect(result.current.status).toBe('error');
    expect(result.current.error).toMatchObject({ kind: 'stream', retryable: true });
    expect(result.current.error?.detail).toContain('does not hold valid JSON');
    await waitFor(() => expect(textOf(result.current.messages[1])).toBe('Storage is per domain'));
    await expectRetryRecovers(result, 'Explain storage');
  });

  it('treats an unknown part code as malformed', async () => {
    const { fetch } = recordingFetch(
      () =>
        new Response(`${formatDataStreamPart('text', 'Partial')}z:"what"\n${finishLine({ threadId: 't' })}`, {
          headers: { 'Content-Type': 'text/plain' },
        }),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('Q'));
    expect(result.current.error).toMatchObject({ kind: 'stream' });
    expect(result.current.error?.detail).toContain('unknown part code "z"');
    await waitFor(() => expect(textOf(result.current.messages[1])).toBe('Partial'));
    // The finish part after the broken line was never read.
    expect(result.current.threadId).toBeUndefined();
  });

  it('stop() ends the answer, keeps the partial text and is not an error', async () => {
    const stream = controlledStream();
    const { fetch } = recordingFetch(stream.response);
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    const sending = startSend(result, 'Long question');
    stream.write(formatDataStreamPart('text', 'A long '));
    await waitFor(() => expect(textOf(result.current.messages[1])).toBe('A long '));
    act(() => result.current.stop());
    await act(() => sending);
    expect(result.current.status).toBe('ready');
    expect(result.current.error).toBeNull();
    expect(textOf(result.current.messages[1])).toBe('A long ');
  });
});
