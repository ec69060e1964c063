// @vitest-environment jsdom
/**
 * Several tabs, one stored value per domain: the merge and fork rules of `storage.ts` on their own,
 * and two hooks sharing jsdom's real localStorage as two tabs of one site do (jsdom sends no
 * `storage` event to its own window: the tests send the one the other tab would get).
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createLocalThreadStorage,
  followStored,
  type KeptConversation,
  MAX_STORED_CONVERSATIONS,
  openingConversation,
  saveConversation,
  storedConversations,
  storedValue,
  threadStorageKey,
} from '../../packages/docs-assistant/src/chat/storage';
import type { AssistantMessage, StoredThread } from '../../packages/docs-assistant/src/chat/types';
import { useDocsAssistant } from '../../packages/docs-assistant/src/chat/use-docs-assistant';
import { answerResponse, baseOptions, recordingFetch } from './helpers';

const KEY = threadStorageKey('acme');
const NOW = new Date('2026-11-25T00:00:00.000Z');

const message = (id: string, role: 'user' | 'assistant' = 'user'): AssistantMessage => ({
  id,
  role,
  content: id,
  parts: [{ type: 'text', text: id }],
});
const thread = (...ids: string[]): StoredThread => ({
  threadId: 'thr_1',
  messages: ids.map((id, i) => message(id, i % 2 ? 'assistant' : 'user')),
});
const conversation = (id: string, revision: number, ...ids: string[]): KeptConversation => ({
  id,
  revision,
  ...thread(...ids),
});
const idsOf = (item: { messages: AssistantMessage[] } | undefined) => item?.messages.map((m) => m.id);

type StoredValue = StoredThread & { id?: string; revision?: number; others?: StoredValue[] };
const readStored = () => JSON.parse(localStorage.getItem(KEY) ?? 'null') as StoredValue | null;
/** Every conversation stored, as lists of message contents, the one saved last first. */
const storedContents = () => {
  const value = readStored();
  return value ? [value, ...(value.others ?? [])].map((item) => item.messages.map((m) => m.content)) : [];
};

/** What the browser does in every other tab of the site after a tab wrote `KEY`. */
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

afterEach(() => {
  vi.restoreAllMocks();
  sessionStorage.clear();
});

describe('saveConversation: the rule', () => {
  it('replaces the conversation when the tab saw its last revision', () => {
    const saved = saveConversation(
      [conversation('c', 2, 'q1', 'a1')],
      { id: 'c', revision: 2 },
      thread('q1', 'a1', 'q2'),
      NOW,
    );
    expect(saved.outcome).toBe('written');
    expect(saved.ref).toEqual({ id: 'c', revision: 3 });
    expect(saved.list.map(idsOf)).toEqual([['q1', 'a1', 'q2']]);
    expect(saved.list[0]?.updatedAt).toBe(NOW.toISOString());
  });

  it('merges by message id when another tab saved what this tab already holds', () => {
    // The other tab's revision 3 has q2; this tab (at 2) holds q2 and its answer too.
    const saved = saveConversation(
      [conversation('c', 3, 'q1', 'a1', 'q2')],
      { id: 'c', revision: 2 },
      thread('q1', 'a1', 'q2', 'a2'),
      NOW,
    );
    expect(saved.outcome).toBe('written');
    expect(saved.ref).toEqual({ id: 'c', revision: 4 });
    expect(saved.list.map(idsOf)).toEqual([['q1', 'a1', 'q2', 'a2']]);
  });

  it('writes nothing when the tab has nothing the stored conversation lacks', () => {
    const list = [conversation('c', 3, 'q1', 'a1', 'q2', 'a2')];
    const saved = saveConversation(list, { id: 'c', revision: 1 }, thread('q1', 'a1'), NOW);
    expect(saved.outcome).toBe('unchanged');
    expect(saved.list).toBe(list);
    // Still at its old revision: its next question is checked against the store again.
    expect(saved.ref).toEqual({ id: 'c', revision: 1 });
    const next = saveConversation(list, saved.ref, thread('q1', 'a1', 'mine'), NOW);
    expect(next.outcome).toBe('forked');
  });

  it('forks when both tabs asked their own question: both conversations are kept', () => {
    const theirs = conversation('c', 3, 'q1', 'a1', 'theirs');
    const older = conversation('old', 5, 'x');
    const saved = saveConversation(
      [theirs, older],
      { id: 'c', revision: 2 },
      thread('q1', 'a1', 'mine'),
      NOW,
    );
    expect(saved.outcome).toBe('forked');
    expect(saved.ref.id).not.toBe('c');
    expect(saved.ref.revision).toBe(1);
    expect(saved.list.map((item) => item.id)).toEqual([saved.ref.id, 'c', 'old']);
    expect(saved.list.map(idsOf)).toEqual([['q1', 'a1', 'mine'], ['q1', 'a1', 'theirs'], ['x']]);
    // The fork keeps the thread: its follow-ups send the messages it shows with it.
    expect(saved.list[0]?.threadId).toBe('thr_1');
  });

  it('adds a conversation the store does not have (new, or removed by another tab meanwhile)', () => {
    const saved = saveConversation(
      [conversation('other', 1, 'x')],
      { id: 'new', revision: 0 },
      thread('q'),
      NOW,
    );
    expect(saved.outcome).toBe('written');
    expect(saved.list.map((item) => item.id)).toEqual(['new', 'other']);
  });

  it(`keeps at most ${MAX_STORED_CONVERSATIONS} conversations, dropping the oldest`, () => {
    const list = Array.from({ length: MAX_STORED_CONVERSATIONS }, (_, i) =>
      conversation(`c${i}`, 1, `q${i}`),
    );
    const saved = saveConversation(list, { id: 'newest', revision: 0 }, thread('q'), NOW);
    const value = storedValue(saved.list) as StoredValue;
    const kept = storedConversations(value).map((item) => item.id);
    expect(kept).toHaveLength(MAX_STORED_CONVERSATIONS);
    expect(kept[0]).toBe('newest');
    expect(kept).not.toContain(`c${MAX_STORED_CONVERSATIONS - 1}`);
  });
});

describe('the stored value', () => {
  it('reads version 1 data written before ids: one conversation, the same id in every tab', () => {
    const legacy = { threadId: 't', messages: [message('u1'), message('a1', 'assistant')] };
    const [first] = storedConversations(legacy);
    expect(first).toMatchObject({ id: 'v1:u1', revision: 0, threadId: 't' });
    expect(storedConversations(structuredClone(legacy))[0]?.id).toBe(first?.id);
  });

  it('keeps the conversation saved last in the version 1 fields, the others in `others`', () => {
    const value = storedValue([conversation('b', 1, 'qb'), conversation('a', 4, 'qa')]) as StoredValue;
    expect(value).toMatchObject({ id: 'b', revision: 1, threadId: 'thr_1', messages: [{ id: 'qb' }] });
    expect(value.others).toEqual([conversation('a', 4, 'qa')]);
    expect(storedValue([])).toBeNull();
  });
});

describe('a full localStorage', () => {
  it('makes room by dropping the oldest other conversations, never the one saved', () => {
    const setItem = Storage.prototype.setItem;
    const limit = JSON.stringify({
      version: 1,
      ...storedValue([conversation('new', 1, 'q'), conversation('o1', 1, 'x')]),
    }).length;
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(function (
      this: Storage,
      key: string,
      value: string,
    ) {
      if (value.length > limit) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      setItem.call(this, key, value);
    });
    const storage = createLocalThreadStorage('acme');
    const value = storedValue([
      conversation('new', 1, 'q'),
      conversation('o1', 1, 'x'),
      conversation('o2', 1, 'y'),
      conversation('o3', 1, 'z'),
    ]);
    storage.save(value!);
    expect(storedConversations(readStored()).map((item) => item.id)).toEqual(['new', 'o1']);
    // Not even the saved one fits: the error goes to the caller (the widget keeps it in memory then).
    expect(() => storage.save(storedValue([conversation('big', 1, 'q'.repeat(limit))])!)).toThrow(
      DOMException,
    );
    expect(storedConversations(readStored()).map((item) => item.id)).toEqual(['new', 'o1']);
  });
});

describe('openingConversation: what a tab opens', () => {
  const value = storedValue([conversation('b', 2, 'qb'), conversation('a', 3, 'qa')]);
  it('the conversation it showed before a reload, else the one saved last', () => {
    expect(openingConversation(value, 'a')?.id).toBe('a');
    expect(openingConversation(value, 'gone')?.id).toBe('b');
    expect(openingConversation(value, null)?.id).toBe('b');
    expect(openingConversation(null, 'a')).toBeNull();
  });
});

describe('followStored: what an idle tab shows after another tab saved', () => {
  const value = storedValue([conversation('b', 2, 'qb'), conversation('a', 3, 'qa', 'aa')]);
  it('a newer revision of its own conversation', () => {
    expect(followStored(value, { id: 'a', revision: 2, empty: false, stored: true })?.id).toBe('a');
    expect(followStored(value, { id: 'a', revision: 3, empty: false, stored: true })).toBeUndefined();
    // An older one is a copy from before the tab's last save.
    expect(followStored(value, { id: 'a', revision: 4, empty: false, stored: true })).toBeUndefined();
  });
  it('never another conversation it did not show', () => {
    expect(followStored(value, { id: 'c', revision: 0, empty: false, stored: false })).toBeUndefined();
  });
  it('nothing when its conversation was removed, the latest when it shows nothing', () => {
    expect(followStored(value, { id: 'gone', revision: 4, empty: false, stored: true })).toBeNull();
    expect(followStored(null, { id: 'a', revision: 3, empty: false, stored: true })).toBeNull();
    expect(followStored(value, { id: 'fresh', revision: 0, empty: true, stored: false })?.id).toBe('b');
  });
});

describe('two tabs sharing localStorage', () => {
  const legacy = { version: 1, threadId: 'thr_1', messages: [message('u1'), message('a1', 'assistant')] };

  it('a follow-up in a stale tab keeps the other tab’s conversation (and each tab keeps its own)', async () => {
    localStorage.setItem(KEY, JSON.stringify(legacy));
    const one = renderHook(() =>
      useDocsAssistant(baseOptions({ fetch: recordingFetch(() => answerResponse('One’s answer.')).fetch })),
    );
    const two = renderHook(() =>
      useDocsAssistant(baseOptions({ fetch: recordingFetch(() => answerResponse('Two’s answer.')).fetch })),
    );
    await act(() => one.result.current.send('Asked in one'));
    await waitFor(() => expect(one.result.current.status).toBe('ready'));
    // Tab two was busy and missed the event; it asks its own follow-up from the old state.
    await act(() => two.result.current.send('Asked in two'));
    await waitFor(() => expect(two.result.current.status).toBe('ready'));
    await waitFor(() => expect(storedContents()).toHaveLength(2));
    expect(storedContents()).toEqual([
      ['u1', 'a1', 'Asked in two', 'Two’s answer.'],
      ['u1', 'a1', 'Asked in one', 'One’s answer.'],
    ]);
    // The event of tab two's save reaches tab one, idle: it keeps its own conversation.
    otherTabWrote();
    expect(one.result.current.messages.map((m) => m.content)).toEqual([
      'u1',
      'a1',
      'Asked in one',
      'One’s answer.',
    ]);

    // A tab's reload reopens its own conversation (remembered per tab in sessionStorage; both
    // hooks share jsdom's, so the one that saved last is remembered); a new tab the one saved last.
    const reloaded = renderHook(() => useDocsAssistant(baseOptions()));
    expect(reloaded.result.current.messages.at(-2)?.content).toBe('Asked in two');
    const oneId = (readStored()?.others ?? [])[0]?.id;
    sessionStorage.setItem(`${KEY}:tab`, oneId!);
    const reloadedOne = renderHook(() => useDocsAssistant(baseOptions()));
    expect(reloadedOne.result.current.messages.at(-2)?.content).toBe('Asked in one');
    sessionStorage.clear();
    const newTab = renderHook(() => useDocsAssistant(baseOptions()));
    expect(newTab.result.current.messages.at(-2)?.content).toBe('Asked in two');
  });

  it('an idle tab follows its own conversation when the other tab continues it', async () => {
    localStorage.setItem(KEY, JSON.stringify(legacy));
    const one = renderHook(() =>
      useDocsAssistant(baseOptions({ fetch: recordingFetch(() => answerResponse('More.')).fetch })),
    );
    const two = renderHook(() => useDocsAssistant(baseOptions()));
    await act(() => one.result.current.send('Go on'));
    await waitFor(() => expect(readStored()?.messages).toHaveLength(4));
    otherTabWrote();
    await waitFor(() => expect(two.result.current.messages).toHaveLength(4));
    expect(storedContents()).toHaveLength(1);
  });

  it('a tab that has just saved its answer keeps it when an event from before that save arrives late', async () => {
    let answer: (response: Response) => void = () => {};
    const held = new Promise<Response>((resolve) => {
      answer = resolve;
    });
    const two = renderHook(() => useDocsAssistant(baseOptions({ fetch: recordingFetch(() => held).fetch })));
    const before = localStorage.getItem(KEY);
    let asked: Promise<void> = Promise.resolve();
    act(() => {
      asked = two.result.current.send('Asked in two');
    });
    // What the other tab wrote while this tab's answer was coming: this tab's question only.
    await waitFor(() => expect(readStored()?.messages).toHaveLength(1));
    const whileAnswering = localStorage.getItem(KEY);
    answer(answerResponse('Two’s answer.'));
    await act(() => asked);
    await waitFor(() => expect(readStored()?.messages).toHaveLength(2));
    const shown = ['Asked in two', 'Two’s answer.'];
    expect(two.result.current.messages.map((m) => m.content)).toEqual(shown);
    // The browser hands the other tabs' writes over a while after they happened: these events
    // carry values from before this tab's last save (in the newest, the conversation is not there yet).
    for (const stale of [whileAnswering, before]) {
      act(() => {
        window.dispatchEvent(
          new StorageEvent('storage', { key: KEY, newValue: stale, storageArea: localStorage }),
        );
      });
      expect(two.result.current.messages.map((m) => m.content)).toEqual(shown);
    }
    expect(storedContents()).toEqual([shown]);
  });

  it('New conversation keeps every conversation; deleting one removes only that one', async () => {
    const one = renderHook(() =>
      useDocsAssistant(baseOptions({ fetch: recordingFetch(() => answerResponse('A.')).fetch })),
    );
    const two = renderHook(() =>
      useDocsAssistant(baseOptions({ fetch: recordingFetch(() => answerResponse('B.')).fetch })),
    );
    await act(() => one.result.current.send('First tab'));
    await act(() => two.result.current.send('Second tab'));
    await waitFor(() => expect(storedContents()).toHaveLength(2));
    act(() => two.result.current.newConversation());
    expect(storedContents()).toHaveLength(2);
    const second = two.result.current.conversations.find((c) => c.title === 'Second tab');
    act(() => two.result.current.deleteConversation(second!.id));
    expect(storedContents()).toEqual([['First tab', 'A.']]);
    // The first tab keeps showing its own.
    expect(one.result.current.messages.map((m) => m.content)).toEqual(['First tab', 'A.']);
    act(() => one.result.current.deleteConversation(one.result.current.conversations[0]!.id));
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(one.result.current.messages).toEqual([]);
  });

  it('discards a broken other conversation with a warning and keeps the rest', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    localStorage.setItem(
      KEY,
      JSON.stringify({
        ...legacy,
        id: 'main',
        revision: 2,
        others: [{ id: 'broken', messages: [{ id: 'x', role: 'robot' }] }, conversation('fine', 1, 'ok')],
      }),
    );
    const { result } = renderHook(() => useDocsAssistant(baseOptions()));
    expect(result.current.messages.map((m) => m.content)).toEqual(['u1', 'a1']);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Left out other stored conversations'));
    expect(storedConversations(JSON.parse(localStorage.getItem(KEY)!)).map((item) => item.id)).toContain(
      'fine',
    );
  });
});
