// @vitest-environment jsdom
/**
 * `useDocsSearch` with a recording `fetch` and fake timers: one request per debounce, a superseded
 * request aborted and its late answer dropped, errors mapped like the assistant's, and nothing sent
 * at all where search is unavailable. Plus the pure pieces: availability, grouping, marking.
 */
import { act, renderHook } from '@testing-library/react';
import {
  groupByPage,
  type SearchHit,
  searchAvailable,
} from '../../packages/docs-assistant/src/search/client';
import { excerpt, highlight, queryWords } from '../../packages/docs-assistant/src/search/highlight';
import {
  type UseDocsSearchOptions,
  useDocsSearch,
} from '../../packages/docs-assistant/src/search/use-docs-search';

interface Call {
  url: string;
  body: { query: string; pageSize: number; filter?: unknown };
  headers: Record<string, string>;
  signal: AbortSignal;
  answer: (response: Response) => void;
}

/** A fetch whose answers the test gives, one call at a time. */
function recordingFetch() {
  const calls: Call[] = [];
  const fetch = ((url: string, init: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      calls.push({
        url,
        body: JSON.parse(String(init.body)),
        headers: init.headers as Record<string, string>,
        signal: init.signal!,
        answer: resolve,
      });
    })) as unknown as typeof globalThis.fetch;
  return { calls, fetch };
}

const item = (path: string, title: string, heading: string, content = `About ${heading}.`) => ({
  content,
  path,
  metadata: {
    title: `${title} › ${heading}`,
    pageTitle: title,
    heading,
    anchor: heading.toLowerCase(),
    url: `https://docs.test${path}#${heading.toLowerCase()}`,
    score: 0.9,
  },
});
const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
    ...init,
  });

const base = { domain: 'acme', apiKey: 'svc_dsc_x', baseUrl: 'https://api.test/' };

function setup(options: Partial<UseDocsSearchOptions> = {}) {
  const recorder = recordingFetch();
  const onError = vi.fn();
  const hook = renderHook(() => useDocsSearch({ ...base, fetch: recorder.fetch, onError, ...options }));
  return { ...recorder, onError, hook };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('useDocsSearch', () => {
  it('sends one request per pause in typing, to the search endpoint with the key', async () => {
    const { calls, hook } = setup({ filter: { version: '2' } });
    act(() => hook.result.current.search('d'));
    act(() => hook.result.current.search('da'));
    act(() => hook.result.current.search('dark'));
    expect(hook.result.current.status).toBe('loading');
    await act(() => vi.advanceTimersByTimeAsync(149));
    expect(calls).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('https://api.test/discovery/v1/search/acme');
    expect(calls[0]!.body).toEqual({ query: 'dark', pageSize: 8, filter: { version: '2' } });
    expect(calls[0]!.headers).toMatchObject({
      Authorization: 'Bearer svc_dsc_x',
      'Content-Type': 'application/json',
    });
    await act(async () => {
      calls[0]!.answer(
        json([
          item('/theming', 'Theming', 'Dark mode'),
          item('/theming', 'Theming', 'Accent'),
          item('/a', 'A', 'Dark'),
        ]),
      );
    });
    const state = hook.result.current;
    expect(state.status).toBe('ready');
    expect(state.results.map((hit) => hit.heading)).toEqual(['Dark mode', 'Accent', 'Dark']);
    expect(state.groups.map((group) => [group.title, group.hits.length])).toEqual([
      ['Theming', 2],
      ['A', 1],
    ]);
  });

  it('aborts a request a newer search supersedes, and drops its late answer', async () => {
    const { calls, hook } = setup({ debounceMs: 10 });
    act(() => hook.result.current.search('theme'));
    await act(() => vi.advanceTimersByTimeAsync(10));
    act(() => hook.result.current.search('theme dark'));
    expect(calls[0]!.signal.aborted).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(calls.map((call) => call.body.query)).toEqual(['theme', 'theme dark']);
    await act(async () => {
      calls[1]!.answer(json([item('/theming', 'Theming', 'Dark mode')]));
      calls[0]!.answer(json([item('/old', 'Old', 'Stale')]));
    });
    expect(hook.result.current.results.map((hit) => hit.path)).toEqual(['/theming']);
    expect(hook.result.current.query).toBe('theme dark');
  });

  it('clears on an empty query without a request', async () => {
    const { calls, hook } = setup();
    act(() => hook.result.current.search('   '));
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(calls).toHaveLength(0);
    expect(hook.result.current.status).toBe('idle');
  });

  it.each([
    [429, { 'Retry-After': '7' }, 'rate-limit'],
    [401, {}, 'auth'],
    [403, {}, 'auth'],
    [400, {}, 'request'],
    [503, {}, 'network'],
  ] as const)('maps HTTP %i to a %s error, as the assistant does', async (status, headers, kind) => {
    const { calls, hook, onError } = setup();
    act(() => hook.result.current.search('dark'));
    await act(() => vi.advanceTimersByTimeAsync(150));
    await act(async () => {
      calls[0]!.answer(json({ error: 'nope', code: 'x' }, { status, headers }));
    });
    expect(hook.result.current.status).toBe('error');
    expect(hook.result.current.error).toMatchObject({ kind, status });
    if (status === 429) expect(hook.result.current.error?.retryAfter).toBe(7);
    expect(onError).toHaveBeenCalledWith(hook.result.current.error);
  });

  it('a 200 that is not the search array is a config error naming baseUrl', async () => {
    const { calls, hook } = setup();
    act(() => hook.result.current.search('dark'));
    await act(() => vi.advanceTimersByTimeAsync(150));
    await act(async () => {
      calls[0]!.answer(
        new Response('<!doctype html>', { status: 200, headers: { 'Content-Type': 'text/html' } }),
      );
    });
    expect(hook.result.current.error).toMatchObject({ kind: 'config' });
    expect(hook.result.current.error?.detail).toMatch(/baseUrl/);
  });

  it('an admin key is a config error and nothing is sent', async () => {
    const { calls, hook } = setup({ apiKey: 'svc_admin_secret' });
    act(() => hook.result.current.search('dark'));
    await act(() => vi.advanceTimersByTimeAsync(150));
    expect(calls).toHaveLength(0);
    expect(hook.result.current.error).toMatchObject({ kind: 'config' });
  });

  it.each([
    ['air-gapped, even with features.search', { deployment: 'air-gapped', features: { search: true } }],
    ['client-hosted without features.search', { deployment: 'client-hosted' }],
    ['cloud with features.search false', { features: { search: false } }],
  ] as const)('sends nothing where search is unavailable: %s', async (_name, options) => {
    const { calls, hook } = setup(options as Partial<UseDocsSearchOptions>);
    expect(hook.result.current.available).toBe(false);
    act(() => hook.result.current.search('dark mode'));
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(calls).toHaveLength(0);
    expect(hook.result.current.status).toBe('idle');
  });
});

describe('availability', () => {
  it('follows the deployment table: cloud on, client-hosted configurable, air-gapped never', () => {
    expect(searchAvailable({})).toBe(true);
    expect(searchAvailable({ deployment: 'cloud' })).toBe(true);
    expect(searchAvailable({ deployment: 'cloud', features: { search: false } })).toBe(false);
    expect(searchAvailable({ deployment: 'client-hosted' })).toBe(false);
    expect(searchAvailable({ deployment: 'client-hosted', features: { search: true } })).toBe(true);
    expect(searchAvailable({ deployment: 'air-gapped', features: { search: true } })).toBe(false);
    // A route of the host forwards the assistant only.
    expect(searchAvailable({ api: '/api/assistant' })).toBe(false);
  });
});

describe('marking the query in results', () => {
  it('marks the start of words, case-insensitively, as text segments', () => {
    const words = queryWords('Dark MODE d');
    expect(words).toEqual(['dark', 'mode']);
    expect(highlight('Darkness <b>mode</b> undark', words)).toEqual([
      { text: 'Dark', match: true },
      { text: 'ness <b>', match: false },
      { text: 'mode', match: true },
      { text: '</b> undark', match: false },
    ]);
    expect(highlight('plain', [])).toEqual([{ text: 'plain', match: false }]);
    // Regular-expression characters in the query are only text.
    expect(highlight('a (bb) [cc]', queryWords('(bb) [cc'))).toEqual([
      { text: 'a (', match: false },
      { text: 'bb', match: true },
      { text: ') [', match: false },
      { text: 'cc', match: true },
      { text: ']', match: false },
    ]);
    expect(highlight('a.*b', queryWords('.*'))).toEqual([{ text: 'a.*b', match: false }]);
  });

  it('cuts a long text around the first match', () => {
    const text = `${'intro words '.repeat(30)}the dark mode section ${'tail words '.repeat(30)}`;
    const cut = excerpt(text, ['dark']);
    expect(cut.startsWith('…')).toBe(true);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut).toContain('dark mode');
    expect(cut.length).toBeLessThanOrEqual(162);
    expect(excerpt('```ts\nconst a = 1;\n```', [])).toBe('const a = 1;');
    // Sections keep inline code as Markdown since issue 37; the excerpt is plain text.
    expect(excerpt('Set `data-theme="dark"` or ``a`b``.', [])).toBe('Set data-theme="dark" or ab.');
  });

  it('groups hits by page in the order of each page best hit', () => {
    const hit = (path: string, title: string): SearchHit => ({
      title,
      pageTitle: title,
      path,
      url: path,
      content: '',
      score: 1,
    });
    expect(
      groupByPage([hit('/b', 'B'), hit('/a', 'A'), hit('/b', 'B')]).map((group) => [
        group.path,
        group.hits.length,
      ]),
    ).toEqual([
      ['/b', 2],
      ['/a', 1],
    ]);
  });
});
