// @vitest-environment jsdom
/**
 * The v2 endpoint's documented client, for real: `useChat` from `@ai-sdk/react` v2 (alias
 * `ai-react-v5`) with `DefaultChatTransport` from AI SDK 5 (alias `ai-v5`), pointed at the service
 * over HTTP on 127.0.0.1. Two questions, the second a follow-up that only the thread explains.
 */
import { act, renderHook, waitFor } from '@testing-library/react';
import { useChat } from 'ai-react-v5';
import { DefaultChatTransport, type UIMessage } from 'ai-v5';
import { ASSISTANT_KEY, type RunningService, startService } from './helpers';

type Message = UIMessage<{ threadId: string; threadKey?: string }>;

let running: RunningService;
beforeAll(async () => {
  running = await startService({ siteUrl: 'https://docs.acme.test' });
});
afterAll(async () => {
  await running.close();
});

/** The pages the search found, from the sources it came as. */
const searchedPaths = (message: Message | undefined): string[] =>
  (message?.parts ?? []).flatMap((part) => (part.type === 'source-url' ? [new URL(part.url).pathname] : []));

it('useChat + DefaultChatTransport hold a two-turn conversation on the v2 endpoint, with sources and one thread', async () => {
  const transport = new DefaultChatTransport<Message>({
    api: `${running.url}/discovery/v2/assistant/acme/message`,
    headers: { Authorization: `Bearer ${ASSISTANT_KEY}` },
    body: { fp: 'reader-42', retrievalPageSize: 3, context: [] },
  });
  const { result } = renderHook(() => useChat<Message>({ transport }));

  await act(() => result.current.sendMessage({ text: 'How do I enable dark mode?' }));
  await waitFor(() => expect(result.current.status).toBe('ready'));
  expect(result.current.error).toBeUndefined();
  const first = result.current.messages[1];
  expect(first?.role).toBe('assistant');
  expect(
    first?.parts.some((part) => part.type === 'source-url' && part.url.includes('/guides/theming#')),
  ).toBe(true);
  expect(first?.parts.some((part) => part.type === 'text' && part.text.includes('theme="dark"'))).toBe(true);
  const threadId = first?.metadata?.threadId;
  expect(threadId).toMatch(/\S/);

  // A follow-up with no word of its own: only the thread (named by the first answer's metadata,
  // which useChat sends back with the messages) makes it a question about dark mode.
  await act(() => result.current.sendMessage({ text: 'And how do I undo that?' }));
  await waitFor(() => expect(result.current.status).toBe('ready'));
  expect(result.current.error).toBeUndefined();
  expect(result.current.messages).toHaveLength(4);
  const second = result.current.messages[3];
  expect(second?.metadata?.threadId).toBe(threadId);
  expect(searchedPaths(second)).toContain('/guides/theming');
});
