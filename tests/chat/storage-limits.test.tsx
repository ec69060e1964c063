// @vitest-environment jsdom
/**
 * Stored data nested deeper than any conversation is discarded on load: `JSON.stringify` (every
 * send, every save) would overflow the stack on it. A save never throws, whatever the thread holds.
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  MAX_STORED_DEPTH,
  resilientThreadStorage,
  STORED_THREAD_VERSION,
  threadStorageKey,
} from '../../packages/docs-assistant/src/chat/storage';
import type { StoredThread, ThreadStorage } from '../../packages/docs-assistant/src/chat/types';
import { useDocsAssistant } from '../../packages/docs-assistant/src/chat/use-docs-assistant';
import { answerResponse, baseOptions, recordingFetch, textOf } from './helpers';

/** Arrays nested `levels` deep, as JSON text (built without recursion). */
const nestedJson = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** Arrays nested `levels` deep (built without recursion). */
function nested(levels: number): unknown[] {
  const root: unknown[] = [];
  let inner = root;
  for (let i = 1; i < levels; i++) {
    const next: unknown[] = [];
    inner.push(next);
    inner = next;
  }
  return root;
}

const question = {
  id: 'u1',
  role: 'user',
  content: 'Stored question',
  parts: [{ type: 'text', text: 'Stored question' }],
};

/** A stored v1 thread whose answer carries `DEEP` where the test puts a deep value. */
function storedThreadJson(where: 'annotations' | 'tool result' | 'tool args', deepJson: string): string {
  const answer =
    where === 'annotations'
      ? {
          id: 'a1',
          role: 'assistant',
          content: 'Stored answer',
          parts: [{ type: 'text', text: 'Stored answer' }],
          annotations: ['DEEP'],
        }
      : {
          id: 'a1',
          role: 'assistant',
          content: '',
          parts: [
            {
              type: 'tool-invocation',
              toolInvocation: {
                state: 'result',
                toolCallId: 'call_1',
                toolName: 'search',
                args: where === 'tool args' ? 'DEEP' : { query: 'q' },
                result: where === 'tool result' ? 'DEEP' : { results: [] },
              },
            },
          ],
        };
  return JSON.stringify({ version: STORED_THREAD_VERSION, messages: [question, answer] }).replace(
    '"DEEP"',
    deepJson,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('useDocsAssistant: stored data nested too deep', () => {
  for (const where of ['annotations', 'tool result', 'tool args'] as const) {
    it(`discards a thread with ${where} nested 200,000 levels deep, warns, and sends normally`, async () => {
      const domain = `deep-${where.replace(' ', '-')}`;
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      localStorage.setItem(threadStorageKey(domain), storedThreadJson(where, nestedJson(200_000)));
      const { fetch, calls } = recordingFetch(() => answerResponse('Fresh answer.'));
      const { result } = renderHook(() => useDocsAssistant(baseOptions({ fetch, domain })));

      expect(result.current.messages).toEqual([]);
      expect(localStorage.getItem(threadStorageKey(domain))).toBeNull();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(
        new RegExp(
          `Discarded the stored conversation .* because it is nested more than ${MAX_STORED_DEPTH} levels deep`,
        ),
      );

      await act(() => result.current.send('New question'));
      expect(result.current.error).toBeNull();
      expect(calls[0]?.body.messages).toHaveLength(1);
      expect(textOf(result.current.messages[1])).toBe('Fresh answer.');
      await waitFor(() =>
        expect(
          (JSON.parse(localStorage.getItem(threadStorageKey(domain)) ?? 'null') as StoredThread).messages,
        ).toHaveLength(2),
      );
    });
  }

  it('keeps a thread nested as deep as real ones are (a tool result with nested data)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const domain = 'deep-enough';
    // Well below the limit: the result sits 7 levels down in the thread, so this is ~40 deep.
    localStorage.setItem(threadStorageKey(domain), storedThreadJson('tool result', nestedJson(32)));
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ domain })));
    expect(result.current.messages).toHaveLength(2);
    expect(warn).not.toHaveBeenCalled();
  });

  it('discards a deep thread handed over by a custom storage (no JSON in between)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const deep = JSON.parse(storedThreadJson('annotations', '0')) as StoredThread;
    (deep.messages[1] as { annotations: unknown[] }).annotations = [nested(100_000)];
    const cleared = vi.fn();
    const storage: ThreadStorage = { load: () => deep, save: () => {}, clear: cleared };
    const { result } = renderHook(() => useDocsAssistant(baseOptions({ storage, domain: 'deep-custom' })));
    expect(result.current.messages).toEqual([]);
    expect(cleared).toHaveBeenCalled();
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/nested more than/);
  });
});

describe('resilientThreadStorage: save never throws', () => {
  it('skips a thread JSON cannot write, warns once, and leaves the stored one as it was', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const saved: StoredThread[] = [];
    const inner: ThreadStorage = {
      load: () => null,
      save: (thread) => {
        saved.push(thread);
      },
      clear: () => {},
    };
    const storage = resilientThreadStorage(inner, 'test storage');
    const good = { messages: [question] } as StoredThread;
    storage.save(good);
    const deep = {
      messages: [{ ...question, annotations: [nested(200_000)] }],
    } as unknown as StoredThread;
    expect(() => storage.save(deep)).not.toThrow();
    expect(() => storage.save(deep)).not.toThrow();
    expect(saved).toEqual([good]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(
      /Could not save the conversation \(test storage\): RangeError.*stored one is left as it was/,
    );
    // It keeps working for the next thread that can be written.
    const next = { messages: [question, { ...question, id: 'u2' }] } as StoredThread;
    storage.save(next);
    expect(saved).toEqual([good, next]);
  });
});
