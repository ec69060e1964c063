// @vitest-environment jsdom
import { act, renderHook, waitFor } from '@testing-library/react';
import { formatDataStreamPart } from 'ai';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { threadStorageKey } from '../../packages/docs-assistant/src/chat/storage';
import type { StoredThread, ThreadStorage } from '../../packages/docs-assistant/src/chat/types';
import { useDocsAssistant } from '../../packages/docs-assistant/src/chat/use-docs-assistant';
import {
  answerResponse,
  baseOptions,
  controlledStream,
  errorResponse,
  recordingFetch,
  startSend,
  textOf,
} from './helpers';

const KEY = threadStorageKey('acme');

const storedMessages = [
  {
    id: 'u1',
    role: 'user',
    content: 'Stored question',
    parts: [{ type: 'text', text: 'Stored question' }],
    createdAt: '2026-01-02T03:04:05.000Z',
  },
  { id: 'a1', role: 'assistant', content: 'Stored answer', parts: [{ type: 'text', text: 'Stored answer' }] },
];

const readStored = () =>
  JSON.parse(localStorage.getItem(KEY) ?? 'null') as (StoredThread & { version: number }) | null;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('useDocsAssistant: persistence', () => {
  it('keeps the conversation and thread across unmount and remount', async () => {
    const { fetch, calls } = recordingFetch(() => answerResponse('Saved answer.', { threadId: 'thread-9' }));
    const first = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => first.result.current.send('Remember me'));
    await waitFor(() => expect(textOf(first.result.current.messages[1])).toBe('Saved answer.'));
    await waitFor(() => expect(readStored()?.threadId).toBe('thread-9'));
    expect(readStored()).toMatchObject({
      version: 1,
      messages: [{ content: 'Remember me' }, { role: 'assistant' }],
    });
    first.unmount();

    const second = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    expect(second.result.current.messages.map((m) => m.content)).toEqual(['Remember me', 'Saved answer.']);
    expect(second.result.current.messages[0]?.createdAt).toBeInstanceOf(Date);
    expect(second.result.current.threadId).toBe('thread-9');
    await act(() => second.result.current.send('Next'));
    expect(calls[1]?.body.threadId).toBe('thread-9');
    expect(calls[1]?.body.messages).toHaveLength(3);
  });

  it('restores a conversation already in localStorage (a reload)', () => {
    localStorage.setItem(
      KEY,
      JSON.stringify({ version: 1, threadId: 'thread-old', threadKey: 'key-old', messages: storedMessages }),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions()));
    expect(result.current.messages.map((m) => m.content)).toEqual(['Stored question', 'Stored answer']);
    expect(result.current.threadId).toBe('thread-old');
  });

  it('keeps the question and the partial answer when the request errors', async () => {
    const stream = controlledStream();
    const { fetch } = recordingFetch(stream.response);
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    const sending = startSend(result, 'Partial please');
    // Saved as soon as it is sent.
    await waitFor(() => expect(readStored()?.messages.map((m) => m.content)).toEqual(['Partial please']));
    stream.write(formatDataStreamPart('text', 'Half an'));
    stream.write(formatDataStreamPart('error', 'cut'));
    await act(() => sending);
    await waitFor(() =>
      expect(readStored()?.messages.map((m) => m.content)).toEqual(['Partial please', 'Half an']),
    );
  });

  it('saves the question of a rejected request', async () => {
    const { fetch } = recordingFetch(() => errorResponse(500, 'internal', 'down'));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('Still here?'));
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(readStored()?.messages.map((m) => m.content)).toEqual(['Still here?']);
  });

  it('follows another tab through the storage event', async () => {
    const { result } = renderHook(() => useDocsAssistant(baseOptions()));
    expect(result.current.messages).toEqual([]);
    const newValue = JSON.stringify({ version: 1, threadId: 'thread-tab', messages: storedMessages });
    act(() => {
      localStorage.setItem(KEY, newValue);
      window.dispatchEvent(new StorageEvent('storage', { key: KEY, newValue, storageArea: localStorage }));
    });
    await waitFor(() => expect(result.current.messages).toHaveLength(2));
    expect(result.current.threadId).toBe('thread-tab');

    // Another domain's key is none of our business.
    act(() => {
      window.dispatchEvent(
        new StorageEvent('storage', {
          key: threadStorageKey('other'),
          newValue: null,
          storageArea: localStorage,
        }),
      );
    });
    expect(result.current.messages).toHaveLength(2);

    act(() => {
      localStorage.removeItem(KEY);
      window.dispatchEvent(
        new StorageEvent('storage', { key: KEY, newValue: null, storageArea: localStorage }),
      );
    });
    await waitFor(() => expect(result.current.messages).toEqual([]));
    expect(result.current.threadId).toBeUndefined();
  });

  it('newConversation() clears messages and thread, keeps the old one in the history and stops a running answer', async () => {
    const stream = controlledStream();
    const { fetch, calls } = recordingFetch(
      () => answerResponse('One.', { threadId: 'thread-1' }),
      stream.response,
      () => answerResponse('Fresh.'),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('First'));
    await waitFor(() => expect(result.current.threadId).toBe('thread-1'));
    const sending = startSend(result, 'Second');
    stream.write(formatDataStreamPart('text', 'Going on'));
    await waitFor(() => expect(result.current.status).toBe('streaming'));

    act(() => result.current.newConversation());
    await act(() => sending);
    expect(result.current.messages).toEqual([]);
    expect(result.current.threadId).toBeUndefined();
    expect(result.current.status).toBe('ready');
    // Kept as it was at the last pause (the second question sent), without the stopped answer.
    expect(result.current.conversations).toHaveLength(1);
    expect(result.current.conversations[0]?.threadId).toBe('thread-1');
    expect(result.current.conversations[0]?.messages.map((m) => m.content)).toEqual([
      'First',
      'One.',
      'Second',
    ]);

    await act(() => result.current.send('Fresh start'));
    expect(calls[2]?.body).not.toHaveProperty('threadId');
    expect(calls[2]?.body.messages).toHaveLength(1);
    await waitFor(() => expect(result.current.conversations).toHaveLength(2));
    expect(result.current.conversations.map((c) => c.title)).toEqual(['Fresh start', 'First']);
  });

  it("storage: 'memory' keeps nothing in localStorage but survives a remount", async () => {
    const { fetch } = recordingFetch(() => answerResponse('In memory.', { threadId: 't-mem' }));
    const options = baseOptions({ fetch, storage: 'memory', domain: 'memory-domain' });
    const first = renderHook(() => useDocsAssistant(options));
    await act(() => first.result.current.send('Q'));
    await waitFor(() => expect(textOf(first.result.current.messages[1])).toBe('In memory.'));
    first.unmount();
    expect(localStorage.length).toBe(0);
    const second = renderHook(() => useDocsAssistant(options));
    expect(second.result.current.messages).toHaveLength(2);
    expect(second.result.current.threadId).toBe('t-mem');
    act(() => second.result.current.newConversation());
  });

  it('uses a custom ThreadStorage', async () => {
    let saved: StoredThread | null = {
      threadId: 'custom-thread',
      messages: storedMessages as StoredThread['messages'],
    };
    const storage: ThreadStorage = {
      load: () => saved,
      save: vi.fn((thread: StoredThread) => {
        saved = thread;
      }),
      clear: vi.fn(() => {
        saved = null;
      }),
    };
    const { fetch, calls } = recordingFetch(() => answerResponse('Custom.', { threadId: 'custom-thread' }));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch, storage })));
    expect(result.current.messages).toHaveLength(2);
    await act(() => result.current.send('More'));
    expect(calls[0]?.body.threadId).toBe('custom-thread');
    await waitFor(() => expect(saved?.messages).toHaveLength(4));
    act(() => result.current.newConversation());
    // The history lives in the custom storage too, in the value it is given.
    expect(result.current.conversations.map((c) => c.threadId)).toEqual(['custom-thread']);
    act(() => result.current.deleteConversation(result.current.conversations[0]!.id));
    expect(storage.clear).toHaveBeenCalled();
    expect(saved).toBeNull();
    expect(result.current.conversations).toEqual([]);
    expect(localStorage.length).toBe(0);
  });
});

describe('useDocsAssistant: storage that fails never breaks the widget', () => {
  const cases: Array<{ name: string; raw: string; warning: RegExp }> = [
    { name: 'corrupt JSON', raw: '{"version":1,"messages":[', warning: /not valid JSON/ },
    {
      name: 'a wrong shape',
      raw: JSON.stringify({ version: 1, messages: [{ id: 'x', role: 'robot', content: 1 }] }),
      warning: /shape of a conversation/,
    },
    {
      name: 'an old format',
      raw: JSON.stringify({ messages: storedMessages }),
      warning: /format of version 1/,
    },
  ];
  for (const { name, raw, warning } of cases) {
    it(`discards ${name}, warns once and works`, async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      localStorage.setItem(threadStorageKey(`bad-${name}`), raw);
      const { fetch } = recordingFetch(() => answerResponse('Works.'));
      const options = baseOptions({ fetch, domain: `bad-${name}` });
      const first = renderHook(() => useDocsAssistant(options));
      expect(first.result.current.messages).toEqual([]);
      expect(localStorage.getItem(threadStorageKey(`bad-${name}`))).toBeNull();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(warning);
      await act(() => first.result.current.send('Q'));
      await waitFor(() => expect(textOf(first.result.current.messages[1])).toBe('Works.'));
      expect(warn).toHaveBeenCalledTimes(1);
    });
  }

  it('falls back to memory when localStorage throws on write (quota), warning once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    const { fetch } = recordingFetch(
      () => answerResponse('First.', { threadId: 'quota-thread' }),
      () => answerResponse('Second.'),
    );
    const options = baseOptions({ fetch, domain: 'quota' });
    const first = renderHook(() => useDocsAssistant(options));
    await act(() => first.result.current.send('One'));
    await waitFor(() => expect(textOf(first.result.current.messages[1])).toBe('First.'));
    await act(() => first.result.current.send('Two'));
    await waitFor(() => expect(textOf(first.result.current.messages[3])).toBe('Second.'));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/QuotaExceededError.*kept in memory/);
  });

  it('falls back to memory when localStorage cannot even be read (SecurityError)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const denied = () => {
      throw new DOMException('Access is denied for this document.', 'SecurityError');
    };
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(denied);
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(denied);
    vi.spyOn(Storage.prototype, 'removeItem').mockImplementation(denied);
    const { fetch } = recordingFetch(() => answerResponse('Still works.', { threadId: 'sec-thread' }));
    const options = baseOptions({ fetch, domain: 'denied' });
    const first = renderHook(() => useDocsAssistant(options));
    await act(() => first.result.current.send('Q'));
    await waitFor(() => expect(textOf(first.result.current.messages[1])).toBe('Still works.'));
    first.unmount();
    // The memory fallback keeps it for the page.
    const second = renderHook(() => useDocsAssistant(options));
    expect(second.result.current.messages).toHaveLength(2);
    expect(second.result.current.threadId).toBe('sec-thread');
    act(() => second.result.current.newConversation());
    expect(second.result.current.messages).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/SecurityError/);
  });

  it('survives a custom storage that throws', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const storage: ThreadStorage = {
      load: () => {
        throw new Error('backend down');
      },
      save: () => {
        throw new Error('backend down');
      },
      clear: () => {
        throw new Error('backend down');
      },
    };
    const { fetch } = recordingFetch(() => answerResponse('Fine.'));
    const { result } = renderHook(() =>
      useDocsAssistant(baseOptions({ fetch, storage, domain: 'custom-throws' })),
    );
    await act(() => result.current.send('Q'));
    await waitFor(() => expect(textOf(result.current.messages[1])).toBe('Fine.'));
    act(() => result.current.newConversation());
    expect(result.current.messages).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe('useDocsAssistant: a question asked as the hook mounts', () => {
  it('goes out with the restored conversation', async () => {
    localStorage.setItem(
      KEY,
      JSON.stringify({ version: 1, threadId: 'thread-old', messages: storedMessages }),
    );
    const { fetch, calls } = recordingFetch(() => answerResponse('With history.'));
    const { result } = renderHook(() => {
      const state = useDocsAssistant(baseOptions({ fetch }));
      const { send } = state;
      // Like the widget's panel carrying out an "Ask AI" that was made before it loaded.
      useEffect(() => {
        void send('Asked at mount');
      }, [send]);
      return state;
    });
    await waitFor(() => expect(textOf(result.current.messages[3])).toBe('With history.'));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body.messages).toEqual([
      expect.objectContaining({ content: 'Stored question' }),
      expect.objectContaining({ content: 'Stored answer' }),
      expect.objectContaining({ content: 'Asked at mount' }),
    ]);
    expect(calls[0]?.body.threadId).toBe('thread-old');
  });
});
