// @vitest-environment jsdom
/**
 * A 2xx response is only a success when it is a whole data stream: one that ends before its finish
 * part (`d:`) was cut off, and one that is not a data stream at all (an HTML page, JSON) means
 * `baseUrl` points at the wrong server.
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import { formatDataStreamPart } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { threadStorageKey } from '../../packages/docs-assistant/src/chat/storage';
import type { StoredThread } from '../../packages/docs-assistant/src/chat/types';
import { useDocsAssistant } from '../../packages/docs-assistant/src/chat/use-docs-assistant';
import { createContextStore } from '../../packages/docs-assistant/src/context/store';
import {
  answerResponse,
  baseOptions,
  DATA_STREAM_HEADERS,
  ENDPOINT,
  recordingFetch,
  serveHttp,
  textOf,
} from './helpers';

const storedTexts = () => {
  const stored = JSON.parse(localStorage.getItem(threadStorageKey('acme')) ?? 'null') as StoredThread | null;
  return stored?.messages.map((message) => message.content);
};

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

async function server(handle: Parameters<typeof serveHttp>[0]) {
  const started = await serveHttp(handle);
  closeServer = started.close;
  return started;
}

describe('useDocsAssistant: a stream that ends without its finish part', () => {
  it('over HTTP: an answer cut off at a line boundary is a stream error and keeps the partial answer', async () => {
    const { baseUrl } = await server((_request, response) => {
      response.writeHead(200, DATA_STREAM_HEADERS);
      // A whole line, then a clean end of the response: no `d:` part.
      response.end(formatDataStreamPart('text', 'Partial answer. '));
    });
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ baseUrl })));
    await act(() => result.current.send('Explain streams'));
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(result.current.error).toMatchObject({ kind: 'stream', retryable: true });
    expect(result.current.error?.detail).toMatch(/ended before its finish part \(d:\)/);
    expect(textOf(result.current.messages[1])).toBe('Partial answer. ');
    await waitFor(() => expect(storedTexts()).toEqual(['Explain streams', 'Partial answer. ']));
  });

  it('over HTTP: an empty 200 response is a stream error and keeps the question', async () => {
    const { baseUrl } = await server((_request, response) => {
      response.writeHead(200, DATA_STREAM_HEADERS);
      response.end();
    });
    const onError = vi.fn();
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ baseUrl, onError })));
    await act(() => result.current.send('Anyone there?'));
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(result.current.error).toMatchObject({ kind: 'stream', retryable: true });
    expect(result.current.error?.detail).toMatch(/HTTP 200\) was empty/);
    expect(onError).toHaveBeenCalledWith(result.current.error);
    expect(result.current.messages.map((m) => m.content)).toEqual(['Anyone there?']);
  });

  it('an error part may end the stream without a finish part: the server’s error is reported', async () => {
    const { fetch } = recordingFetch(
      () =>
        new Response(formatDataStreamPart('error', 'The model provider failed'), {
          headers: DATA_STREAM_HEADERS,
        }),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('Q'));
    expect(result.current.error?.kind).toBe('stream');
    expect(result.current.error?.detail).toContain('The model provider failed');
  });
});

describe('useDocsAssistant: a response that is not a data stream', () => {
  const DOCS_PAGE = '<!doctype html>\n<html><head><title>Acme docs</title></head><body>Welcome</body></html>';

  it('over HTTP: baseUrl at the docs site (HTML for every path) is a config error that names baseUrl', async () => {
    const docsSite = await server((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(DOCS_PAGE);
    });
    const contextStore = createContextStore();
    const onError = vi.fn();
    const { result } = renderHook(() =>
      useDocsAssistant(baseOptions({ baseUrl: docsSite.baseUrl, contextStore, onError })),
    );
    act(() => {
      contextStore.add({ type: 'textSelection', value: 'selected' });
    });
    await act(() => result.current.send('What is Acme?'));
    await waitFor(() => expect(result.current.status).toBe('error'));
    const error = result.current.error;
    expect(error).toMatchObject({ kind: 'config', status: 200, retryable: false });
    expect(error?.detail).toContain(`${docsSite.baseUrl}/discovery/v1/assistant/acme/message`);
    expect(error?.detail).toContain('Content-Type text/html');
    expect(error?.detail).toContain('starting "<!doctype html>');
    expect(error?.detail).toMatch(/not with the assistant's data stream\. Check baseUrl/);
    expect(error?.detail).not.toMatch(/retry/i);
    expect(onError).toHaveBeenCalledWith(error);
    // Nothing was answered: the question and its context are kept.
    expect(result.current.messages.map((m) => m.content)).toEqual(['What is Acme?']);
    expect(result.current.context.items).toHaveLength(1);
  });

  it('over HTTP: a 200 JSON response is a config error too', async () => {
    const { baseUrl } = await server((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ status: 'ok', service: 'docs' }));
    });
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ baseUrl })));
    await act(() => result.current.send('Q'));
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(result.current.error).toMatchObject({ kind: 'config', retryable: false });
    expect(result.current.error?.detail).toContain('Content-Type application/json');
    expect(result.current.error?.detail).toContain('starting "{"status":"ok"');
  });

  it('a body without a Content-Type is judged by its first line', async () => {
    const encoder = new TextEncoder();
    const { fetch } = recordingFetch(
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(encoder.encode(DOCS_PAGE));
              controller.close();
            },
          }),
        ),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('Q'));
    expect(result.current.error).toMatchObject({ kind: 'config', retryable: false });
    expect(result.current.error?.detail).toContain(`${ENDPOINT} answered HTTP 200 with no Content-Type`);
    expect(result.current.error?.detail).toContain('starting "<!doctype html>"');
    expect(result.current.messages).toHaveLength(1);
  });

  it('a data stream sent with the data stream header is read whatever its Content-Type says', async () => {
    const { fetch } = recordingFetch(() => {
      const response = answerResponse('Fine.');
      return new Response(response.body, {
        headers: { 'Content-Type': 'application/json', 'X-Vercel-AI-Data-Stream': 'v1' },
      });
    });
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('Q'));
    expect(result.current.error).toBeNull();
    expect(textOf(result.current.messages[1])).toBe('Fine.');
  });
});
