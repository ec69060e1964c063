/**
 * The v4 `useChat` as the controller's transport (`useChatTransport`): one `useChat` per controller,
 * keyed by the conversation shown, given the controller's tapped `fetch`, request body and callbacks,
 * and reporting its messages and status back to the controller. `useChat` stays the network client
 * (the data stream protocol and its message assembly); the controller decides everything else.
 */
import { useChat } from '@ai-sdk/react';
import { useEffect, useLayoutEffect } from 'react';
import type { ChatController } from './controller.js';
import type { Session } from './session.js';
import type { AssistantMessage } from './types.js';

// `useChat` adopts a changed `initialMessages` one render late (and shows the old ones for the new
// id meanwhile), so it always gets this and each conversation's messages are put in before paint.
const NO_MESSAGES: AssistantMessage[] = [];

const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

export function useChatTransport(
  controller: ChatController,
  session: Session,
  headers: Record<string, string>,
) {
  const chat = useChat({
    id: session.id,
    api: session.endpoint,
    initialMessages: NO_MESSAGES,
    streamProtocol: 'data',
    sendExtraMessageFields: true,
    headers,
    fetch: controller.fetch,
    experimental_prepareRequestBody: controller.prepareBody,
    onFinish: controller.finished,
    onError: controller.failed,
  });
  const { status, append, reload, stop, setMessages } = chat;
  // The client fills `parts` on every message it builds from a data stream.
  const messages = chat.messages as AssistantMessage[];
  // The functions of the latest render: they send to the conversation shown.
  controller.attach({
    append,
    reload,
    stop,
    setMessages: (update) => setMessages((shown) => update(shown as AssistantMessage[])),
  });

  const { initialMessages } = session;
  useIsomorphicLayoutEffect(() => {
    if (initialMessages.length > 0) setMessages(initialMessages);
  }, [initialMessages, setMessages]);
  // `session` too: a new thread or conversation is saved even when the messages did not change.
  useEffect(() => controller.sync(messages, status, session), [controller, messages, status, session]);
  const { storage } = session;
  useEffect(() => controller.connect(storage), [controller, storage]);
  useEffect(() => () => controller.leave(), [controller]);
  return { messages, status, error: chat.error };
}
