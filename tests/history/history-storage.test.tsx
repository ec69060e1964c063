// @vitest-environment jsdom
/**
 * Many conversations per site (issue 20 item 1): the bounded list in `storage.ts` (count and
 * characters, the oldest evicted, never the one saved), the single-conversation value of earlier
 * versions read as a list of one, a corrupt store discarded with a warning, and the hook's history
 * API (`conversations`, `openConversation`, `deleteConversation`, `deleteAllConversations`,
 * `newConversation` keeping the old one) on jsdom's real localStorage, two hooks as two tabs.
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createLocalThreadStorage,
  type KeptConversation,
  listConversations,
  MAX_STORED_CHARS,
  MAX_STORED_CONVERSATIONS,
  storedConversations,
  storedValue,
  threadStorageKey,
} from '../../packages/docs-assistant/src/chat/storage';
import type {
  AssistantMessage,
  StoredThread,
  ThreadStorage,
} from '../../packages/docs-assistant/src/chat/types';
import { useDocsAssistant } from '../../packages/docs-assistant/src/chat/use-docs-assistant';
import { answerResponse, baseOptions, recordingFetch } from '../chat/helpers';

const KEY = threadStorageKey('acme');

const message = (
  id: string,
  role: 'user' | 'assistant',
  text = id,
  createdAt?: string,
): AssistantMessage => ({
  id,
  role,
  content: text,
  parts: [{ type: 'text', text }],
  ...(createdAt ? { createdAt: new Date(createdAt) } : {}),
});
const conversation = (id: string, text = id, size = 0): KeptConversation => ({
  id,
  revision: 1,
  updatedAt: '2026-11-25T00:00:00.000Z',
  threadId: `thr_${id}`,
  messages: [
    message(`${id}-q`, 'user', `Question ${text}`),
    message(`${id}-a`, 'assistant', 'x'.repeat(size)),
  ],
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the stored list of conversations', () => {
  it(`keeps at most ${MAX_STORED_CONVERSATIONS}, the oldest evicted`, () => {
    const list = Array.from({ length: MAX_STORED_CONVERSATIONS + 5 }, (_, i) => conversation(`c${i}`));
    const ids = storedConversations(storedValue(list)).map((item) => item.id);
    expect(ids).toEqual(list.slice(0, MAX_STORED_CONVERSATIONS).map((item) => item.id));
  });

  it(`keeps at most ${MAX_STORED_CHARS} characters of JSON, the oldest evicted, never the one saved`, () => {
    // Each about a quarter of the bound (its answer's text is in `content` and in `parts`): three
    // fit with the newest, the fifth and sixth do not.
    const quarter = Math.floor(MAX_STORED_CHARS / 8) - 500;
    const list = Array.from({ length: 6 }, (_, i) => conversation(`c${i}`, `c${i}`, quarter));
    const value = storedValue(list);
    const ids = storedConversations(value).map((item) => item.id);
    expect(ids).toEqual(['c0', 'c1', 'c2', 'c3']);
    expect(JSON.stringify(value).length).toBeLessThanOrEqual(MAX_STORED_CHARS);
    // One conversation bigger than the bound on its own is still saved (the quota decides).
    const huge = conversation('huge', 'huge', MAX_STORED_CHARS);
    expect(storedConversations(storedValue([huge, ...list])).map((item) => item.id)).toEqual(['huge']);
  });

  it('reads the single conversation of earlier versions as a list of one, without writing', () => {
    const legacy = {
      version: 1,
      threadId: 'thread-old',
      threadKey: 'key-old',
      messages: [
        message('u1', 'user', 'How do I  change\nthe colours?', '2026-11-20T10:00:00.000Z'),
        message('a1', 'assistant', 'With CSS variables.', '2026-11-20T10:00:05.000Z'),
      ],
    };
    localStorage.setItem(KEY, JSON.stringify(legacy));
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    const list = listConversations(createLocalThreadStorage('acme').load());
    expect(list).toEqual([
      {
        id: 'v1:u1',
        title: 'How do I change the colours?',
        updatedAt: new Date('2026-11-20T10:00:05.000Z'),
        threadId: 'thread-old',
        messages: expect.any(Array),
      },
    ]);
    expect(setItem).not.toHaveBeenCalled();
  });
});

describe('the hook’s history', () => {
  it('New conversation keeps the old one; both listed newest first, titled by their first question', async () => {
    const { fetch } = recordingFetch(
      () => answerResponse('Use CSS variables.', { threadId: 'thread-1', threadKey: 'key-1' }),
      () => answerResponse('Run the export command.', { threadId: 'thread-2', threadKey: 'key-2' }),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('How do I change the colours?'));
    await waitFor(() => expect(result.current.threadId).toBe('thread-1'));
    act(() => result.current.newConversation());
    expect(result.current.messages).toEqual([]);
    await act(() => result.current.send('What about the static export?'));
    await waitFor(() => expect(result.current.conversations).toHaveLength(2));
    expect(result.current.conversations.map((c) => [c.title, c.threadId, c.messages.length])).toEqual([
      ['What about the static export?', 'thread-2', 2],
      ['How do I change the colours?', 'thread-1', 2],
    ]);
    expect(result.current.conversations[0]?.updatedAt).toBeInstanceOf(Date);
  });

  it('openConversation resumes: the next question continues its thread with its key', async () => {
    const { fetch, calls } = recordingFetch(
      () => answerResponse('One.', { threadId: 'thread-1', threadKey: 'key-1' }),
      () => answerResponse('Two.', { threadId: 'thread-2', threadKey: 'key-2' }),
      () => answerResponse('One more.', { threadId: 'thread-1' }),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('First?'));
    await waitFor(() => expect(result.current.threadKey).toBe('key-1'));
    act(() => result.current.newConversation());
    await act(() => result.current.send('Second?'));
    await waitFor(() => expect(result.current.conversations).toHaveLength(2));

    const first = result.current.conversations.find((c) => c.title === 'First?');
    act(() => result.current.openConversation(first!.id));
    expect(result.current.messages.map((m) => m.content)).toEqual(['First?', 'One.']);
    expect(result.current.threadId).toBe('thread-1');
    await act(() => result.current.send('And then?'));
    expect(calls[2]?.body).toMatchObject({ threadId: 'thread-1', threadKey: 'key-1' });
    await waitFor(() => expect(result.current.conversations[0]?.messages).toHaveLength(4));
    // Resumed and continued, it is now the newest; the second stays as it was.
    expect(result.current.conversations.map((c) => c.title)).toEqual(['First?', 'Second?']);
    expect(result.current.conversations[1]?.messages).toHaveLength(2);
  });

  it('deleteConversation removes one from storage; deleting the one shown starts afresh', async () => {
    const { fetch } = recordingFetch(
      () => answerResponse('One.', { threadId: 'thread-1' }),
      () => answerResponse('Two.', { threadId: 'thread-2' }),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('First?'));
    await waitFor(() => expect(result.current.threadId).toBe('thread-1'));
    act(() => result.current.newConversation());
    await act(() => result.current.send('Second?'));
    await waitFor(() => expect(result.current.conversations).toHaveLength(2));
    const [second, first] = result.current.conversations;

    act(() => result.current.deleteConversation(first!.id));
    expect(result.current.conversations.map((c) => c.title)).toEqual(['Second?']);
    expect(localStorage.getItem(KEY)).not.toContain('First?');
    expect(result.current.messages.map((m) => m.content)).toEqual(['Second?', 'Two.']);

    act(() => result.current.deleteConversation(second!.id));
    expect(result.current.messages).toEqual([]);
    expect(result.current.threadId).toBeUndefined();
    expect(result.current.conversations).toEqual([]);
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it('deleteAllConversations empties the history and the storage', async () => {
    const { fetch } = recordingFetch(() => answerResponse('One.'));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    await act(() => result.current.send('First?'));
    act(() => result.current.newConversation());
    await act(() => result.current.send('Second?'));
    await waitFor(() => expect(result.current.conversations).toHaveLength(2));
    act(() => result.current.deleteAllConversations());
    expect(result.current.conversations).toEqual([]);
    expect(result.current.messages).toEqual([]);
    expect(localStorage.getItem(KEY)).toBeNull();
  });

  it('a corrupt store is discarded with one warning; the history starts empty and works', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    localStorage.setItem(KEY, '{"version":1,"messages":[{"id":');
    const { fetch } = recordingFetch(() => answerResponse('Fine.'));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    expect(result.current.conversations).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/Discarded the stored conversation.*not valid JSON/);
    await act(() => result.current.send('Still there?'));
    await waitFor(() => expect(result.current.conversations.map((c) => c.title)).toEqual(['Still there?']));
  });

  it('a full localStorage evicts the oldest conversations, never crashes', async () => {
    const old = Array.from({ length: 4 }, (_, i) => conversation(`old${i}`));
    localStorage.setItem(KEY, JSON.stringify({ version: 1, ...storedValue(old) }));
    const realSetItem = Storage.prototype.setItem;
    // A quota that holds the new conversation and two others at most.
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(function (this: Storage, key, value) {
      const others = (JSON.parse(value) as { others?: unknown[] }).others ?? [];
      if (key === KEY && others.length > 2) throw new DOMException('full', 'QuotaExceededError');
      realSetItem.call(this, key, value);
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { fetch } = recordingFetch(() => answerResponse('Fits.'));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    act(() => result.current.newConversation());
    await act(() => result.current.send('New one?'));
    await waitFor(() =>
      expect(result.current.conversations.map((c) => c.id).slice(1)).toEqual(['old0', 'old1']),
    );
    expect(result.current.conversations[0]?.title).toBe('New one?');
    expect(warn).not.toHaveBeenCalled();
  });

  it('a storage of the host keeps the history through the ThreadStorage interface', async () => {
    let kept: StoredThread | null = null;
    const storage: ThreadStorage = {
      load: () => (kept ? structuredClone(kept) : null),
      save: (thread) => {
        kept = JSON.parse(JSON.stringify(thread)) as StoredThread;
      },
      clear: () => {
        kept = null;
      },
    };
    const { fetch } = recordingFetch(() => answerResponse('Kept elsewhere.', { threadId: 'thread-h' }));
    const first = renderHook(() => useDocsAssistant(baseOptions({ fetch, storage, domain: 'host' })));
    await act(() => first.result.current.send('One?'));
    act(() => first.result.current.newConversation());
    await act(() => first.result.current.send('Two?'));
    await waitFor(() => expect(first.result.current.conversations).toHaveLength(2));
    first.unmount();
    const again = renderHook(() => useDocsAssistant(baseOptions({ fetch, storage, domain: 'host' })));
    expect(again.result.current.conversations.map((c) => c.title)).toEqual(['Two?', 'One?']);
    expect(localStorage.length).toBe(0);
  });
});

describe('two tabs', () => {
  function otherTabWrote() {
    act(() => {
      window.dispatchEvent(
        new StorageEvent('storage', {
          key: KEY,
          newValue: localStorage.getItem(KEY),
          storageArea: localStorage,
        }),
      );
    });
  }

  it('never overwrite each other’s conversations; each lists the other’s; a fresh one stays empty', async () => {
    const one = renderHook(() =>
      useDocsAssistant(baseOptions({ fetch: recordingFetch(() => answerResponse('A.')).fetch })),
    );
    const two = renderHook(() =>
      useDocsAssistant(baseOptions({ fetch: recordingFetch(() => answerResponse('B.')).fetch })),
    );
    await act(() => one.result.current.send('From tab one'));
    act(() => two.result.current.newConversation());
    await act(() => two.result.current.send('From tab two'));
    otherTabWrote();
    await waitFor(() => expect(one.result.current.conversations).toHaveLength(2));
    expect(one.result.current.messages.map((m) => m.content)).toEqual(['From tab one', 'A.']);
    expect(two.result.current.messages.map((m) => m.content)).toEqual(['From tab two', 'B.']);
    expect(two.result.current.conversations.map((c) => c.title).sort()).toEqual([
      'From tab one',
      'From tab two',
    ]);

    // Tab one starts afresh; tab two goes on: tab one stays empty rather than taking tab two's up.
    act(() => one.result.current.newConversation());
    await act(() => two.result.current.send('More from tab two'));
    otherTabWrote();
    await waitFor(() => expect(one.result.current.conversations[0]?.messages).toHaveLength(4));
    expect(one.result.current.messages).toEqual([]);

    // Deleted in tab two, gone from tab one's list too.
    const fromOne = two.result.current.conversations.find((c) => c.title === 'From tab one');
    act(() => two.result.current.deleteConversation(fromOne!.id));
    otherTabWrote();
    await waitFor(() =>
      expect(one.result.current.conversations.map((c) => c.title)).toEqual(['From tab two']),
    );
  });
});
