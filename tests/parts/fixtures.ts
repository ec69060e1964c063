import type { UIMessage } from '@ai-sdk/ui-utils';

export type UIPart = UIMessage['parts'][number];

export function assistantMessage(parts: UIPart[], id = 'm1'): UIMessage {
  const content = parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return { id, role: 'assistant', content, parts };
}

export const searchCall = (state: 'partial-call' | 'call', args: unknown, toolCallId = 'call-1'): UIPart => ({
  type: 'tool-invocation',
  toolInvocation: { state, toolCallId, toolName: 'search', args },
});

export const searchResult = (query: string, result: unknown, toolCallId = 'call-1'): UIPart => ({
  type: 'tool-invocation',
  toolInvocation: { state: 'result', toolCallId, toolName: 'search', args: { query }, result },
});
