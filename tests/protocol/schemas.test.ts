import { describe, expect, it } from 'vitest';
import {
  AssistantRequestSchema,
  keyKind,
  PartSchema,
  parseStreamLine,
  searchResultLinks,
  validateAssistantRequest,
} from '../../packages/docs-assistant/src/protocol';

const userMessage = { id: 'm1', role: 'user', content: 'How?', parts: [{ type: 'text', text: 'How?' }] };

describe('request body (spec §2.1)', () => {
  it('accepts the smallest valid body and the full one', () => {
    expect(AssistantRequestSchema.safeParse({ fp: 'anonymous', messages: [userMessage] }).success).toBe(true);
    const full = {
      fp: 'user-1',
      messages: [userMessage],
      threadId: 't1',
      retrievalPageSize: 5,
      filter: { version: 'v2', language: 'en' },
      context: [{ type: 'code', value: 'npm i', path: '/start', elementId: 'code-1' }],
      currentPath: '/docs/start',
    };
    expect(AssistantRequestSchema.safeParse(full).success).toBe(true);
  });

  it('names the path and reason of each problem', () => {
    const result = validateAssistantRequest({
      fp: '',
      messages: [{ ...userMessage, role: 'robot' }],
      currentPath: 'x'.repeat(201),
      retrievalPageSize: 0,
      context: [{ type: 'image', value: 'x' }],
    });
    expect(result.success).toBe(false);
    if (result.success) return;
    const paths = result.problems.map((p) => p.path);
    expect(paths).toEqual(
      expect.arrayContaining(['fp', 'messages.0.role', 'currentPath', 'retrievalPageSize', 'context.0.type']),
    );
    expect(result.problems.find((p) => p.path === 'currentPath')?.message).toMatch(/200/);
    expect(result.problems.find((p) => p.path === 'messages.0.role')?.message).toMatch(
      /system, assistant, data, user/,
    );
  });

  it('rejects an empty conversation and a missing fp', () => {
    const result = validateAssistantRequest({ messages: [] });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.problems.map((p) => p.path).sort()).toEqual(['fp', 'messages']);
  });

  it('keeps extra fields the v4 client sends on messages', () => {
    const parsed = AssistantRequestSchema.parse({
      fp: 'anonymous',
      messages: [{ ...userMessage, toolInvocations: [], createdAt: '2026-11-21T10:00:00.000Z' }],
    });
    expect(parsed.messages[0]).toHaveProperty('toolInvocations');
  });
});

describe('parts (spec §2.3)', () => {
  it.each([
    { type: 'text', text: 'hi' },
    {
      type: 'reasoning',
      reasoning: 'r',
      details: [
        { type: 'text', text: 'r' },
        { type: 'redacted', data: 'x' },
      ],
    },
    { type: 'step-start' },
    { type: 'source', source: { sourceType: 'url', id: 's', url: 'https://x.dev', title: 'X' } },
    {
      type: 'tool-invocation',
      toolInvocation: { state: 'partial-call', toolCallId: 'c', toolName: 'search', args: {} },
    },
    {
      type: 'tool-invocation',
      toolInvocation: { state: 'call', step: 0, toolCallId: 'c', toolName: 'search', args: {} },
    },
    {
      type: 'tool-invocation',
      toolInvocation: { state: 'result', toolCallId: 'c', toolName: 'search', args: {}, result: [] },
    },
  ])('accepts $type', (part) => {
    expect(PartSchema.safeParse(part).success).toBe(true);
  });

  it('rejects a source that is not a url and a reasoning without details', () => {
    expect(
      PartSchema.safeParse({ type: 'source', source: { sourceType: 'doc', id: 's', url: 'x' } }).success,
    ).toBe(false);
    expect(PartSchema.safeParse({ type: 'reasoning', reasoning: 'r' }).success).toBe(false);
  });
});

describe('keys (spec §5)', () => {
  it.each([
    ['svc_dsc_abc', 'assistant'],
    ['svc_abc', 'admin'],
    ['svc_dsc_', 'invalid'],
    ['svc_', 'invalid'],
    ['sk-abc', 'invalid'],
    [undefined, 'invalid'],
  ])('%s is %s', (key, kind) => {
    expect(keyKind(key)).toBe(kind);
  });
});

describe('stream lines', () => {
  it('parses known codes and reports bad ones', () => {
    expect(parseStreamLine('0:"hi"')).toEqual({ ok: true, name: 'text', code: '0', value: 'hi' });
    expect(parseStreamLine('d:{"finishReason":"stop","threadId":"t"}')).toMatchObject({
      ok: true,
      name: 'finishMessage',
      value: { threadId: 't' },
    });
    expect(parseStreamLine('z:1')).toMatchObject({ ok: false });
    expect(parseStreamLine('0:{oops')).toMatchObject({ ok: false });
    expect(parseStreamLine('garbage')).toMatchObject({ ok: false });
  });
});

describe('search tool results', () => {
  it('reads both shapes and skips unreadable items', () => {
    expect(searchResultLinks([{ url: 'https://a.dev/x', title: 'A' }, { path: '/b' }, 42])).toEqual([
      { href: 'https://a.dev/x', title: 'A' },
      { href: '/b', title: '/b' },
    ]);
    expect(searchResultLinks({ results: [{ path: '/c', metadata: { title: 'C' } }] })).toEqual([
      { href: '/c', title: 'C' },
    ]);
    expect(searchResultLinks('nope')).toEqual([]);
  });
});
