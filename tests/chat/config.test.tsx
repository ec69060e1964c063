// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkConfig } from '../../src/chat/config';
import { useDocsAssistant } from '../../src/chat/use-docs-assistant';
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
