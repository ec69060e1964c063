// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkConfig } from '../../packages/docs-assistant/src/chat/config';
import { useDocsAssistant } from '../../packages/docs-assistant/src/chat/use-docs-assistant';
import { answerResponse, baseOptions, recordingFetch } from './helpers';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('useDocsAssistant: configuration errors', () => {
  it('refuses an admin key: configError, console.error, and nothing is ever sent', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { fetch, mock } = recordingFetch(() => answerResponse('never'));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch, apiKey: 'svc_admin_secret' })));
    expect(result.current.configError).toMatchObject({ kind: 'config', retryable: false });
    expect(result.current.configError?.detail).toMatch(/admin key.*server-side secret.*svc_dsc_/);
    expect(result.current.configError?.message).toMatch(/admin key.*server-side secret.*svc_dsc_/);
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/admin key.*server-side secret/));
    await act(() => result.current.send('Hello?'));
    await act(() => result.current.retry());
    expect(mock).not.toHaveBeenCalled();
    expect(result.current.messages).toEqual([]);
    expect(result.current.status).toBe('ready');
  });

  it.each([
    ['a missing key', { apiKey: '' }, /apiKey is missing or not an assistant key/],
    ['a key of no known kind', { apiKey: 'sk-123' }, /svc_dsc_/],
    ['a bare prefix', { apiKey: 'svc_dsc_' }, /apiKey is missing/],
    ['a missing domain', { domain: ' ' }, /domain is missing/],
    ['a relative baseUrl', { baseUrl: '/api' }, /baseUrl "\/api" is not an absolute http\(s\) URL/],
    ['a non-http baseUrl', { baseUrl: 'ftp://example.com' }, /not an absolute http\(s\) URL/],
  ])('reports %s as a config error and sends nothing', async (_name, overrides, detail) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { fetch, mock } = recordingFetch(() => answerResponse('never'));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch, ...overrides })));
    expect(result.current.configError?.kind).toBe('config');
    expect(result.current.configError?.detail).toMatch(detail);
    await act(() => result.current.send('Q'));
    expect(mock).not.toHaveBeenCalled();
  });

  it.each([
    [
      'a CR LF in apiKey',
      { apiKey: 'svc_dsc_pub\r\nX: 1' },
      /^apiKey contains a carriage return \(U\+000D\) at position 11, which cannot be sent in an HTTP header/,
    ],
    [
      'a NUL in apiKey',
      { apiKey: 'svc_dsc_pub\u0000' },
      /^apiKey contains a NUL character \(U\+0000\) at position 11/,
    ],
    [
      'a non-Latin-1 character in apiKey',
      { apiKey: 'svc_dsc_pub€' },
      /^apiKey contains the character "€" \(U\+20AC\) at position 11/,
    ],
    [
      'a line feed in a header value',
      { headers: { 'X-Trace': 'abc\ndef' } },
      /^headers\["X-Trace"\] contains a line feed \(U\+000A\) at position 3, which cannot be sent in an HTTP header: remove it from the value/,
    ],
    [
      'a header value beyond Latin-1',
      { headers: { 'X-Name': 'Zoë 😀' } },
      /^headers\["X-Name"\] contains the character "😀" \(U\+1F600\) at position 4/,
    ],
    [
      'a header name with a space',
      { headers: { 'X Trace': 'abc' } },
      /^"X Trace" in headers is not a valid header name/,
    ],
    [
      'a header value that is not a string',
      { headers: { 'X-Count': 3 as unknown as string } },
      /^headers\["X-Count"\] is number: header values must be strings/,
    ],
    [
      'an Authorization header of its own',
      { headers: { authorization: 'Bearer svc_dsc_other' } },
      /^headers\["authorization"\] is not allowed: the widget sends apiKey as "Authorization: Bearer …" itself/,
    ],
  ])(
    'reports %s as a config error that names the value, and sends nothing',
    async (_name, overrides, detail) => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      const { fetch, mock } = recordingFetch(() => answerResponse('never'));
      const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch, ...overrides })));
      expect(result.current.configError).toMatchObject({ kind: 'config', retryable: false });
      expect(result.current.configError?.detail).toMatch(detail);
      expect(logged).toHaveBeenCalledWith(expect.stringMatching(detail.source.replace('^', '')));
      await act(() => result.current.send('Q'));
      await act(() => result.current.retry());
      expect(mock).not.toHaveBeenCalled();
      expect(result.current.error).toBeNull();
    },
  );

  it.each([
    ['Authorization', { authorization: 'Bearer svc_live_admin123' }, 'authorization'],
    ['X-API-Key', { 'X-API-Key': 'svc_live_admin123' }, 'X-API-Key'],
    ['a key inside a longer value', { Cookie: 'session=1; key=svc_live_admin123' }, 'Cookie'],
  ])('refuses an admin key passed in headers (%s) like an admin apiKey', async (_name, headers, name) => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { fetch, mock } = recordingFetch(() => answerResponse('never'));
    const { result } = renderHook(() =>
      useDocsAssistant(baseOptions({ fetch, apiKey: 'svc_dsc_pub', headers })),
    );
    expect(result.current.configError).toMatchObject({ kind: 'config', retryable: false });
    expect(result.current.configError?.detail).toContain(
      `headers[${JSON.stringify(name)}] holds an admin key (svc_…)`,
    );
    expect(result.current.configError?.detail).toMatch(/server-side secret.*revoke it/);
    expect(result.current.configError?.message).toMatch(/admin key.*server-side secret/);
    expect(logged).toHaveBeenCalledWith(expect.stringMatching(/admin key/));
    await act(() => result.current.send('Q'));
    expect(mock).not.toHaveBeenCalled();
  });

  it('refuses exactly the header names and values that fetch cannot send', () => {
    const headers: Array<[string, string]> = [
      ['X-Test', 'plain'],
      ['X-Test', 'Zoë, naïve'],
      ['X-Test', 'tab\there'],
      ['X-Test', ' padded '],
      ['X-Test', 'a\rb'],
      ['X-Test', 'a\nb'],
      ['X-Test', 'a\u0000b'],
      ['X-Test', 'snow ☃'],
      ['X Test', 'v'],
      ['X-Tëst', 'v'],
      ['', 'v'],
    ];
    for (const [name, value] of headers) {
      let fetchRefuses = false;
      try {
        new Request('https://api.example.com', { headers: { [name]: value } });
      } catch {
        fetchRefuses = true;
      }
      const refused = checkConfig(baseOptions({ headers: { [name]: value } })) !== null;
      expect({ name, value, refused }).toEqual({ name, value, refused: fetchRefuses });
    }
  });

  it('checks inline headers once, not on every render, and sends valid ones', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { fetch, calls } = recordingFetch(() => answerResponse('ok'));
    const bad = renderHook(() => useDocsAssistant(baseOptions({ fetch, headers: { 'X-Trace': 'a\r\n' } })));
    bad.rerender();
    bad.rerender();
    expect(logged).toHaveBeenCalledTimes(1);

    const good = renderHook(() =>
      useDocsAssistant(baseOptions({ fetch, headers: { 'X-Trace': 'abc', 'X-Api-Key': 'svc_dsc_other' } })),
    );
    expect(good.result.current.configError).toBeNull();
    await act(() => good.result.current.send('Q'));
    expect(calls[0]?.headers).toMatchObject({
      'x-trace': 'abc',
      'x-api-key': 'svc_dsc_other',
      authorization: 'Bearer svc_dsc_public_test_key',
    });
  });

  it('is unavailable when air-gapped: no request ever', async () => {
    const { fetch, mock } = recordingFetch(() => answerResponse('never'));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch, deployment: 'air-gapped' })));
    expect(result.current.configError).toMatchObject({ kind: 'unavailable', retryable: false });
    await act(() => result.current.send('Q'));
    await act(() => result.current.retry());
    expect(mock).not.toHaveBeenCalled();
  });

  it('accepts an assistant key with an http(s) baseUrl, with or without a path', () => {
    expect(checkConfig(baseOptions())).toBeNull();
    expect(checkConfig(baseOptions({ baseUrl: 'http://127.0.0.1:8787/prefix/' }))).toBeNull();
    expect(checkConfig(baseOptions({ deployment: 'client-hosted' }))).toBeNull();
  });
});
