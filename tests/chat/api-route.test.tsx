// @vitest-environment jsdom
/**
 * The `api` option: the widget talks to a route of the host's own server that holds the key
 * (`createAssistantProxy`), here mounted on 127.0.0.1 in front of the reference service. The hook
 * and `<DocsAssistant>` send the same body as with `apiKey` + `baseUrl`, no `Authorization`, and
 * keep the thread from the route's answers.
 */
import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createAssistantProxy } from 'docs-assistant/proxy';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UseDocsAssistantOptions } from '../../packages/docs-assistant/src/chat/types';
import { useDocsAssistant } from '../../packages/docs-assistant/src/chat/use-docs-assistant';
import { DocsAssistant, defaultLabels } from '../../packages/docs-assistant/src/index';
import { ASSISTANT_KEY, DOMAIN, type RunningService, startService } from '../server/helpers';
import { listen } from '../static-export/helpers';
import { answerResponse, memoryThreadStorage, recordingFetch, textOf } from './helpers';

let reference: RunningService;
let host: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  reference = await startService();
  host = await listen(
    createAssistantProxy({ baseUrl: reference.url, domain: DOMAIN, apiKey: ASSISTANT_KEY }),
  );
});
afterAll(async () => {
  await host.close();
  await reference.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

interface SentRequest {
  url: string;
  headers: Headers;
  body: Record<string, unknown>;
}

/**
 * The page's `fetch`: records what the hook sends, and resolves a path against the host's origin
 * as a browser does against the page's.
 */
function pageFetch() {
  const sent: SentRequest[] = [];
  const responses: Response[] = [];
  const fetchOnPage: typeof fetch = async (input, init) => {
    const url = String(input);
    sent.push({
      url,
      headers: new Headers(init?.headers),
      body: JSON.parse(String(init?.body)) as Record<string, unknown>,
    });
    const response = await globalThis.fetch(new URL(url, host.url), init);
    responses.push(response.clone());
    return response;
  };
  return { fetch: fetchOnPage, sent, responses };
}

const apiOptions = (overrides: Partial<UseDocsAssistantOptions> = {}): UseDocsAssistantOptions => ({
  domain: 'acme-docs',
  api: '/api/assistant',
  storage: memoryThreadStorage(null).storage,
  currentPath: '/guide/install',
  ...overrides,
});

describe('useDocsAssistant with api', () => {
  it('keeps the thread over two turns through the route, and sends no key from the page', async () => {
    const page = pageFetch();
    const { result } = renderHook(() => useDocsAssistant(apiOptions({ fetch: page.fetch })));
    expect(result.current.configError).toBeNull();

    await act(() => result.current.send('How do I install acme-widgets?'));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.error).toBeNull();
    const firstThread = page.responses[0]?.headers.get('x-thread-id');
    const firstKey = page.responses[0]?.headers.get('x-thread-key');
    expect(firstThread).toBeTruthy();
    expect(firstKey).toBeTruthy();
    expect(result.current.threadId).toBe(firstThread);

    await act(() => result.current.send('And how do I configure it?'));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.error).toBeNull();
    expect(page.responses.map((response) => response.status)).toEqual([200, 200]);
    expect(result.current.threadId).toBe(firstThread);
    expect(result.current.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(textOf(result.current.messages[3]).length).toBeGreaterThan(0);

    // The follow-up names the thread with the key the route passed back.
    expect(page.sent[1]?.body).toMatchObject({ threadId: firstThread, threadKey: firstKey });
    for (const request of page.sent) {
      expect(request.url).toBe('/api/assistant');
      expect(request.headers.has('authorization')).toBe(false);
      expect(JSON.stringify(request.body)).not.toContain('svc_');
      expect(Object.keys(request.body).sort()).toEqual(
        expect.arrayContaining(['currentPath', 'fp', 'messages', 'retrievalPageSize']),
      );
      expect(request.body).toMatchObject({
        fp: 'anonymous',
        retrievalPageSize: 5,
        currentPath: '/guide/install',
      });
    }
  });

  it("sends the host's own Authorization to its route when given in headers", async () => {
    const { fetch, calls } = recordingFetch(() => answerResponse('Hi.'));
    const { result } = renderHook(() =>
      useDocsAssistant(apiOptions({ fetch, headers: { Authorization: 'Bearer session-123' } })),
    );
    expect(result.current.configError).toBeNull();
    await act(() => result.current.send('Hello?'));
    expect(calls[0]?.url).toBe('/api/assistant');
    expect(calls[0]?.headers.authorization).toBe('Bearer session-123');
  });

  it.each([
    ['api with apiKey', { apiKey: 'svc_dsc_public' }, /api and apiKey are both set: pass one or the other/],
    ['api with baseUrl', { baseUrl: 'https://api.example.com' }, /api and baseUrl are both set/],
    [
      'api with both',
      { apiKey: 'svc_dsc_public', baseUrl: 'https://api.example.com' },
      /api and apiKey and baseUrl are both set.*remove apiKey and baseUrl/,
    ],
    ['neither', { api: undefined }, /neither api nor apiKey and baseUrl is set: pass api/],
    [
      'an api without a scheme',
      { api: 'api.example.com/assistant' },
      /api "api\.example\.com\/assistant" is not a path/,
    ],
    ['a protocol-relative api', { api: '//evil.example/assistant' }, /is not a path on this site/],
    ['a javascript: api', { api: 'javascript:alert(1)' }, /is not a path on this site/],
    ['an empty api', { api: '' }, /api "" is not a path/],
    ['an admin key beside api', { apiKey: 'svc_admin_secret' }, /admin key.*server-side secret/],
  ])('reports %s as a config error and sends nothing', async (_name, overrides, detail) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { fetch, mock } = recordingFetch(() => answerResponse('never'));
    const { result } = renderHook(() => useDocsAssistant(apiOptions({ fetch, ...overrides })));
    expect(result.current.configError?.kind).toBe('config');
    expect(result.current.configError?.detail).toMatch(detail);
    await act(() => result.current.send('Q'));
    expect(mock).not.toHaveBeenCalled();
  });

  it('accepts an absolute http(s) URL as api', () => {
    const { result } = renderHook(() =>
      useDocsAssistant(apiOptions({ api: 'https://docs.example.com/api/assistant' })),
    );
    expect(result.current.configError).toBeNull();
  });
});

describe('<DocsAssistant api>', () => {
  it('answers through the route and puts no api attribute on the page', async () => {
    const page = pageFetch();
    const { container } = render(
      <DocsAssistant
        domain="acme-docs-ui"
        api="/api/assistant"
        fetch={page.fetch}
        storage="memory"
        defaultOpen
      />,
    );
    const root = container.querySelector('[data-docs-assistant="root"]');
    expect(root).not.toHaveAttribute('api');
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    await userEvent.setup().type(input, 'How do I install acme-widgets?{Enter}');
    await waitFor(() => expect(root).toHaveAttribute('data-status', 'ready'), { timeout: 10_000 });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(page.sent).toHaveLength(1);
    expect(page.sent[0]?.url).toBe('/api/assistant');
    expect(page.sent[0]?.headers.has('authorization')).toBe(false);
    expect(container.querySelectorAll('[data-docs-assistant="message"][data-role="assistant"]')).toHaveLength(
      1,
    );
  });
});
