/**
 * A `ChatTransport` without React, for the controller's tests: the v4 client's own `callChatApi`
 * (the function `useChat` runs for each request), with messages and status kept in a plain object.
 * It is the shape a host without React (the script-tag build of issue 13) would give the controller.
 */
import { callChatApi, fillMessageParts, generateId } from '@ai-sdk/ui-utils';
import type { ChatController, ChatTransport } from '../../packages/docs-assistant/src/chat/controller';
import type { AssistantMessage, AssistantStatus } from '../../packages/docs-assistant/src/chat/types';

export interface FetchTransport extends ChatTransport {
  readonly messages: AssistantMessage[];
  readonly status: AssistantStatus;
  readonly error: Error | undefined;
  /** Resolves once `check()` holds, looked at after every change of the transport or the controller. */
  until(check: () => boolean): Promise<void>;
}

export function createFetchTransport(controller: ChatController): FetchTransport {
  let session = controller.getSnapshot().session;
  let messages = fillMessageParts(session.initialMessages) as AssistantMessage[];
  let status: AssistantStatus = 'ready';
  let error: Error | undefined;
  let abort: AbortController | null = null;
  const waiting = new Set<() => void>();
  const changed = () => {
    controller.sync(messages, status, controller.getSnapshot().session);
    for (const wake of [...waiting]) wake();
  };
  // Another conversation shown: its messages, as `useChat` shows another id's.
  controller.subscribe(() => {
    const next = controller.getSnapshot().session;
    if (next.id !== session.id) {
      session = next;
      messages = fillMessageParts(next.initialMessages) as AssistantMessage[];
      status = 'ready';
      error = undefined;
    }
    changed();
  });

  async function trigger(chatMessages: AssistantMessage[], requestBody: object): Promise<void> {
    const shown = session.id;
    messages = chatMessages;
    status = 'submitted';
    error = undefined;
    changed();
    const controllerOfRequest = new AbortController();
    abort = controllerOfRequest;
    try {
      await callChatApi({
        api: session.endpoint ?? '',
        body: controller.prepareBody({ messages: chatMessages, requestBody }),
        streamProtocol: 'data',
        credentials: undefined,
        headers: undefined,
        abortController: () => abort,
        restoreMessagesOnFailure() {},
        onResponse: undefined,
        onUpdate({ message, replaceLastMessage }) {
          if (session.id !== shown) return;
          const base = replaceLastMessage ? chatMessages.slice(0, -1) : chatMessages;
          messages = [...base, message];
          status = 'streaming';
          changed();
        },
        onFinish: (message) => controller.finished(message),
        onToolCall: undefined,
        generateId,
        fetch: controller.fetch,
        lastMessage: chatMessages.at(-1),
      });
      status = 'ready';
    } catch (thrown) {
      const failure = thrown as Error;
      if (failure.name === 'AbortError') status = 'ready';
      else {
        controller.failed(failure);
        error = failure;
        status = 'error';
      }
    }
    if (abort === controllerOfRequest) abort = null;
    changed();
  }

  const transport: FetchTransport = {
    get messages() {
      return messages;
    },
    get status() {
      return status;
    },
    get error() {
      return error;
    },
    append: (message, { body }) =>
      trigger([...messages, { ...message, id: generateId(), createdAt: new Date() }], body),
    async reload({ body }) {
      if (messages.length === 0) return;
      await trigger(messages.at(-1)?.role === 'assistant' ? messages.slice(0, -1) : messages, body);
    },
    stop() {
      abort?.abort();
      abort = null;
    },
    setMessages(update) {
      messages = update(messages);
      changed();
    },
    until: (check) =>
      new Promise<void>((resolve) => {
        const wake = () => {
          if (!check()) return;
          waiting.delete(wake);
          resolve();
        };
        waiting.add(wake);
        wake();
      }),
  };
  controller.attach(transport);
  return transport;
}
