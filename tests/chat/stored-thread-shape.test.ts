/**
 * Stored threads are checked by hand in the browser (no zod there, for size). The check must accept
 * and refuse exactly what the protocol's `MessageSchema` does.
 */
import { z } from 'zod/v4-mini';
import { resilientThreadStorage } from '../../packages/docs-assistant/src/chat/storage';
import type { StoredThread } from '../../packages/docs-assistant/src/chat/types';
import { MessageSchema } from '../../packages/docs-assistant/src/protocol';

const ThreadSchema = z.object({
  threadId: z.optional(z.string()),
  threadKey: z.optional(z.string()),
  messages: z.array(MessageSchema),
});

const user = { id: 'u1', role: 'user', content: 'Hi', parts: [{ type: 'text', text: 'Hi' }] };
const assistant = {
  id: 'a1',
  role: 'assistant',
  content: 'Hello',
  createdAt: '2026-11-21T10:00:00.000Z',
  annotations: [{ threadId: 't' }],
  toolInvocations: [],
  parts: [
    { type: 'step-start' },
    {
      type: 'reasoning',
      reasoning: 'r',
      details: [
        { type: 'text', text: 'r', signature: 's' },
        { type: 'redacted', data: 'x' },
      ],
    },
    {
      type: 'tool-invocation',
      toolInvocation: { state: 'call', toolCallId: 'c', toolName: 'search', args: {} },
    },
    {
      type: 'tool-invocation',
      toolInvocation: { state: 'result', step: 1, toolCallId: 'c', toolName: 'search', args: {}, result: [] },
    },
    { type: 'source', source: { sourceType: 'url', id: 's', url: '/a', title: 'A' } },
    { type: 'file', mimeType: 'image/png', data: 'AAAA' },
    { type: 'text', text: 'Hello' },
  ],
  experimental_attachments: [{ url: 'https://x/y.png', name: 'y', contentType: 'image/png' }],
};

const withPart = (part: unknown) => ({ messages: [{ ...user, parts: [part] }] });
const withMessage = (patch: Record<string, unknown>) => ({ messages: [{ ...user, ...patch }] });

const CASES: [string, unknown][] = [
  ['a full conversation', { threadId: 't1', threadKey: 'k', messages: [user, assistant] }],
  ['no messages', { messages: [] }],
  ['messages missing', { threadId: 't' }],
  ['messages not an array', { messages: {} }],
  ['a null thread id', { threadId: null, messages: [] }],
  ['a numeric thread key', { threadKey: 1, messages: [] }],
  ['an empty id', withMessage({ id: '' })],
  ['a numeric id', withMessage({ id: 1 })],
  ['an unknown role', withMessage({ role: 'robot' })],
  ['a prototype role', withMessage({ role: 'constructor' })],
  ['content missing', withMessage({ content: undefined })],
  ['parts missing', withMessage({ parts: undefined })],
  ['createdAt not a date', withMessage({ createdAt: 'yesterday' })],
  ['createdAt with an offset', withMessage({ createdAt: '2026-11-21T10:00:00+01:00' })],
  ['createdAt without an offset', withMessage({ createdAt: '2026-11-21T10:00:00' })],
  ['createdAt null', withMessage({ createdAt: null })],
  ['annotations not an array', withMessage({ annotations: {} })],
  ['an attachment without url', withMessage({ experimental_attachments: [{ name: 'x' }] })],
  ['a message that is an array', { messages: [[]] }],
  ['an unknown part type', withPart({ type: 'video', url: 'x' })],
  ['a prototype part type', withPart({ type: 'constructor' })],
  ['a text part without text', withPart({ type: 'text' })],
  [
    'a reasoning detail of another type',
    withPart({ type: 'reasoning', reasoning: 'r', details: [{ type: 'x' }] }),
  ],
  [
    'a redacted detail without data',
    withPart({ type: 'reasoning', reasoning: 'r', details: [{ type: 'redacted' }] }),
  ],
  [
    'a tool call in an unknown state',
    withPart({ type: 'tool-invocation', toolInvocation: { state: 'done', toolCallId: 'c', toolName: 't' } }),
  ],
  [
    'a tool call with a string step',
    withPart({
      type: 'tool-invocation',
      toolInvocation: { state: 'call', step: '1', toolCallId: 'c', toolName: 't' },
    }),
  ],
  [
    'a tool call without args',
    withPart({ type: 'tool-invocation', toolInvocation: { state: 'call', toolCallId: 'c', toolName: 't' } }),
  ],
  [
    'a source of another type',
    withPart({ type: 'source', source: { sourceType: 'doc', id: 's', url: '/a' } }),
  ],
  ['a file without data', withPart({ type: 'file', mimeType: 'image/png' })],
];

function loadThrough(thread: unknown): StoredThread | null {
  const storage = resilientThreadStorage(
    { load: () => thread as StoredThread, save: () => {}, clear: () => {} },
    'test storage',
  );
  return storage.load();
}

describe('stored thread shape', () => {
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });

  it.each(CASES)('agrees with MessageSchema on %s', (_name, thread) => {
    const expected = ThreadSchema.safeParse(thread).success;
    expect(loadThrough(thread) !== null).toBe(expected);
  });

  it('accepts and refuses some of the cases (the table tests both sides)', () => {
    const results = CASES.map(([, thread]) => ThreadSchema.safeParse(thread).success);
    expect(results).toContain(true);
    expect(results).toContain(false);
  });

  it('hands back the conversation with dates revived', () => {
    const loaded = loadThrough({ threadId: 't1', messages: [user, assistant] });
    expect(loaded?.threadId).toBe('t1');
    expect(loaded?.messages[1]?.createdAt).toEqual(new Date('2026-11-21T10:00:00.000Z'));
    expect(loaded?.messages[1]?.parts).toHaveLength(7);
  });
});
