// @vitest-environment jsdom
/**
 * The store keeps its bounds on every path, not only on a save: a value of the single-conversation
 * days with 20,000 messages (3.5 M characters) is read within `MAX_STORED_CHARS`, written back so,
 * and keeps its id; a tab that shows more of a conversation than the store keeps is still the same
 * conversation (it replaces it, it does not fork).
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type KeptConversation,
  MAX_STORED_CHARS,
  MAX_STORED_CONVERSATIONS,
  resolveThreadStorage,
  saveConversation,
  storedConversations,
  storedValue,
  threadStorageKey,
} from '../../packages/docs-assistant/src/chat/storage';
import type { AssistantMessage } from '../../packages/docs-assistant/src/chat/types';
import { useDocsAssistant } from '../../packages/docs-assistant/src/chat/use-docs-assistant';
import { answerResponse, baseOptions, recordingFetch } from './helpers';

const KEY = threadStorageKey('acme');

/** `count` messages, questions and answers in turn, about 175 characters of JSON each. */
function messages(count: number, prefix = 'm'): AssistantMessage[] {
  return Array.from({ length: count }, (_, i) => {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    const content = `${role === 'user' ? 'Question' : 'Answer'} number ${i} of a very long conversation`;
    return {
      id: `${prefix}${i}`,
      role,
      content,
      parts: [{ type: 'text', text: content }],
    } as AssistantMessage;
  });
}

/** The stored value as the widget of the single-conversation days wrote it. */
const legacyValue = (count: number) =>
  JSON.stringify({ version: 1, threadId: 'thr_old', threadKey: 'key_old', messages: messages(count) });

afterEach(() => vi.restoreAllMocks());

describe('a stored value beyond the bounds', () => {
  it('20,000 messages of the single-conversation days are read within the bounds, written back once, and keep their id', () => {
    const raw = legacyValue(20_000);
    expect(raw.length).toBeGreaterThan(3_000_000);
    localStorage.setItem(KEY, raw);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});

    const storage = resolveThreadStorage('local', 'acme');
    const list = storedConversations(storage.load());
    expect(list).toHaveLength(1);
    const [conversation] = list;
    // The id it had as a value of the single-conversation days: every tab still agrees on it.
    expect(conversation!.id).toBe('v1:m0');
    expect(conversation!.threadId).toBe('thr_old');
    expect(conversation!.messages.at(-1)!.id).toBe('m19999');
    expect(conversation!.messages[0]!.role).toBe('user');
    expect(conversation!.messages.length).toBeLessThan(20_000);

    const written = localStorage.getItem(KEY)!;
    expect(written.length).toBeLessThanOrEqual(MAX_STORED_CHARS + 20);
    expect(JSON.parse(written)).toMatchObject({ version: 1, id: 'v1:m0', threadKey: 'key_old' });
    expect(warn.mock.calls.flat().join('\n')).toMatch(/kept the newest within 1000000 characters/);

    // Read again: nothing more to trim, nothing written.
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    expect(storedConversations(resolveThreadStorage('local', 'acme').load())[0]!.messages).toHaveLength(
      conversation!.messages.length,
    );
    expect(setItem).not.toHaveBeenCalled();
  });

  it(`more than ${MAX_STORED_CONVERSATIONS} conversations written by another program are cut to the bound`, () => {
    const others = Array.from({ length: MAX_STORED_CONVERSATIONS + 10 }, (_, i) => ({
      id: `c${i}`,
      revision: 1,
      messages: messages(2, `c${i}-`),
    }));
    localStorage.setItem(
      KEY,
      JSON.stringify({ version: 1, id: 'top', revision: 1, messages: messages(2), others }),
    );
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const list = storedConversations(resolveThreadStorage('local', 'acme').load());
    expect(list).toHaveLength(MAX_STORED_CONVERSATIONS);
    expect(storedConversations(JSON.parse(localStorage.getItem(KEY)!))).toHaveLength(
      MAX_STORED_CONVERSATIONS,
    );
  });

  it('the hook opens the bounded conversation, and its next question saves within the bounds', async () => {
    localStorage.setItem(KEY, legacyValue(20_000));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { fetch, calls } = recordingFetch(() => answerResponse('An answer.', { threadId: 'thr_old' }));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch })));
    const opened = result.current.messages.length;
    expect(opened).toBeLessThan(20_000);
    expect(result.current.messages.at(-1)!.id).toBe('m19999');
    await act(() => result.current.send('One more question'));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(calls[0]!.body.threadId).toBe('thr_old');
    const stored = JSON.parse(localStorage.getItem(KEY)!);
    expect(JSON.stringify(stored).length).toBeLessThanOrEqual(MAX_STORED_CHARS + 20);
    // The same conversation, not a fork beside it.
    expect(stored.id).toBe('v1:m0');
    expect(stored.others).toBeUndefined();
    expect(stored.messages.at(-1).content).toBe('An answer.');
  });
});

describe('a tab that shows more than the store keeps', () => {
  const now = new Date('2026-12-06T00:00:00.000Z');
  const full = (count: number): KeptConversation => ({ id: 'c', revision: 1, messages: messages(count) });

  it('continues the stored conversation after another tab saved it (replaces it, never forks)', () => {
    // Stored by another tab at revision 2, cut to the bounds; this tab knows revision 1 and holds
    // every message and one more question.
    const stored = storedConversations(storedValue([{ ...full(8_000), revision: 2 }]));
    expect(stored[0]!.messages[0]!.id).not.toBe('m0');
    const mine = { messages: [...messages(8_000), ...messages(1, 'next')] };
    const saved = saveConversation(stored, { id: 'c', revision: 1 }, mine, now);
    expect(saved.outcome).toBe('written');
    expect(saved.list.map((item) => item.id)).toEqual(['c']);
  });

  it('writes nothing when the stored one, cut to the bounds, holds all this tab has and more', () => {
    const stored = storedConversations(storedValue([{ ...full(8_002), revision: 3 }]));
    const saved = saveConversation(stored, { id: 'c', revision: 1 }, { messages: messages(8_000) }, now);
    expect(saved.outcome).toBe('unchanged');
  });

  it('still forks two tabs that asked different questions', () => {
    const stored = storedConversations(
      storedValue([{ id: 'c', revision: 2, messages: [...messages(8_000), ...messages(2, 'theirs')] }]),
    );
    const mine = { messages: [...messages(8_000), ...messages(2, 'mine')] };
    const saved = saveConversation(stored, { id: 'c', revision: 1 }, mine, now);
    expect(saved.outcome).toBe('forked');
  });
});
