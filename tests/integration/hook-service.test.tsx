// @vitest-environment jsdom
/**
 * The widget's own hook against the reference service over real HTTP: `useDocsAssistant` with
 * Node's `fetch`, talking to `@hono/node-server` on 127.0.0.1 running `createAssistantService`
 * over this repository's `docs/`. Nothing in between is mocked.
 */
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { AssistantMessage } from '../../packages/docs-assistant/src/chat/types';
import { useDocsAssistant } from '../../packages/docs-assistant/src/chat/use-docs-assistant';
import { keepSafeHref } from '../../packages/docs-assistant/src/parts/href';
import { collectSources } from '../../packages/docs-assistant/src/parts/sources';
import {
  type AssistantService,
  createAssistantService,
} from '../../packages/docs-assistant-server/src/service';
import { memoryThreadStorage } from '../chat/helpers';

// A string, not `new URL`: under jsdom, `URL` is jsdom's, which `fileURLToPath` does not take.
const DOCS = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs');
const DOMAIN = 'docs-assistant';
const KEY = 'svc_dsc_integration_test';

let service: AssistantService;
let server: ReturnType<typeof serve>;
let baseUrl: string;

beforeAll(async () => {
  service = createAssistantService({ docs: DOCS, domain: DOMAIN, assistantKey: KEY, warn: () => {} });
  await service.ready();
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: service.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(info.port),
    );
  });
  baseUrl = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => {
    if ('closeAllConnections' in server) server.closeAllConnections();
    server.close(() => resolve());
  });
  await service.close();
});

/** Node's own `fetch`, watched: the request bodies the hook sends are kept for the assertions. */
function watchedFetch() {
  const bodies: Record<string, unknown>[] = [];
  const statuses: number[] = [];
  const realFetch = globalThis.fetch;
  const watched: typeof fetch = async (input, init) => {
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    const response = await realFetch(input, init);
    statuses.push(response.status);
    return response;
  };
  return { fetch: watched, bodies, statuses };
}

const textOf = (message: AssistantMessage | undefined): string =>
  (message?.parts ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');

function searchResults(
  message: AssistantMessage | undefined,
): { url: string; title: string; path: string }[] {
  for (const part of message?.parts ?? []) {
    if (
      part.type === 'tool-invocation' &&
      part.toolInvocation.toolName === 'search' &&
      part.toolInvocation.state === 'result'
    ) {
      // An array of items, as the real service sends it.
      return part.toolInvocation.result as { url: string; title: string; path: string }[];
    }
  }
  return [];
}

describe('useDocsAssistant against the reference service over HTTP', () => {
  it('streams an answer with sources, then continues the same thread with a follow-up', async () => {
    const watched = watchedFetch();
    const { result } = renderHook(() =>
      useDocsAssistant({ domain: DOMAIN, apiKey: KEY, baseUrl, fetch: watched.fetch, storage: 'memory' }),
    );

    await act(() => result.current.send('How do I switch the widget to dark mode?'));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.error).toBeNull();
    expect(watched.statuses).toEqual([200]);
    expect(watched.bodies[0]).toMatchObject({ fp: 'anonymous', retrievalPageSize: 5 });
    expect(watched.bodies[0]).not.toHaveProperty('threadId');

    const answer = result.current.messages[1];
    expect(answer?.role).toBe('assistant');
    const results = searchResults(answer);
    expect(results.length).toBeGreaterThan(0);
    expect(results.map((r) => r.path)).toContain('/theming');
    expect(textOf(answer)).toMatch(/dark/i);
    expect(textOf(answer)).toMatch(/\[1\]/);
    const sourceParts = (answer?.parts ?? []).flatMap((part) =>
      part.type === 'source' ? [part.source] : [],
    );
    expect(sourceParts.length).toBeGreaterThan(0);
    // The widget's list: the search results, each once; the source parts fold into them.
    const listed = collectSources(answer!, keepSafeHref);
    expect(listed.map((source) => source.href)).toEqual(results.map((r) => r.url));
    for (const source of sourceParts)
      expect(listed).toContainEqual({ href: source.url, title: source.title });

    const threadId = result.current.threadId;
    expect(threadId).toMatch(/^thr_/);

    await act(() => result.current.send('And how do I make it follow the system setting?'));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.error).toBeNull();
    expect(watched.statuses).toEqual([200, 200]);
    // The follow-up carries the thread from the first answer's finish part…
    expect(watched.bodies[1]).toMatchObject({ threadId });
    expect(watched.bodies[1]).toHaveProperty('messages.length', 3);
    // …and the service continued that thread rather than starting another.
    expect(result.current.threadId).toBe(threadId);
    // The key came with the thread's first response; the hook sent it back with the follow-up.
    const threadKey = watched.bodies[1]?.threadKey;
    expect(threadKey).toMatch(/^thk_/);
    const stored = await service.threads.find(threadId!, {
      domain: DOMAIN,
      fp: 'anonymous',
      key: threadKey as string,
    });
    expect(stored.ok && stored.thread.turns.map((turn) => turn.question)).toEqual([
      'How do I switch the widget to dark mode?',
      'And how do I make it follow the system setting?',
    ]);
    const followUp = result.current.messages[3];
    expect(followUp?.role).toBe('assistant');
    expect(searchResults(followUp).map((r) => r.path)).toContain('/theming');
    expect(textOf(followUp)).toMatch(/system/i);
  });

  it('recovers from a thread the service does not know (a restart without a data folder)', async () => {
    const watched = watchedFetch();
    // What a reader's browser kept from before the service restarted.
    const { storage, saved } = memoryThreadStorage({
      threadId: 'thr_from_before_the_restart',
      messages: [
        {
          id: 'u0',
          role: 'user',
          content: 'How do I turn on dark mode?',
          parts: [{ type: 'text', text: 'How do I turn on dark mode?' }],
        },
        {
          id: 'a0',
          role: 'assistant',
          content: 'Set theme="dark".',
          parts: [{ type: 'text', text: 'Set theme="dark".' }],
        },
      ],
    });
    const { result } = renderHook(() =>
      useDocsAssistant({ domain: DOMAIN, apiKey: KEY, baseUrl, fetch: watched.fetch, storage }),
    );
    await waitFor(() => expect(result.current.messages).toHaveLength(2));

    await act(() => result.current.send('Which CSS variable sets the accent colour?'));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    // The service answered the stale thread with 404 thread_not_found; the hook sent the question
    // again without it, and the new answer's thread replaced the old one.
    expect(watched.statuses).toEqual([404, 200]);
    expect(watched.bodies[0]).toMatchObject({ threadId: 'thr_from_before_the_restart' });
    expect(watched.bodies[1]).not.toHaveProperty('threadId');
    expect(result.current.error).toBeNull();
    expect(result.current.threadId).toMatch(/^thr_/);
    expect(result.current.threadId).not.toBe('thr_from_before_the_restart');
    const answer = result.current.messages.at(-1);
    expect(answer?.role).toBe('assistant');
    expect(searchResults(answer).map((r) => r.path)).toContain('/theming');
    await waitFor(() => expect(saved()?.threadId).toBe(result.current.threadId));
  });
});
