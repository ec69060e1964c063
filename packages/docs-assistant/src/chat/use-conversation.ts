/**
 * The headless hook's work (`useDocsAssistant`, `use-docs-assistant.ts`): a thin React binding of
 * the conversation controller (`controller.ts`). It checks the options, picks the storage and
 * endpoint they name, reads the controller's state with `useSyncExternalStore`, runs the v4
 * `useChat` as its transport (`use-chat-transport.ts`) and hands the context items of the given
 * store to the UI. The panel calls it with the shell's store; the public hook makes one when none
 * is given (`createContextStore`, a module of the launcher's the panel's code does not import).
 */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { ContextStore } from '../context/types.js';
import type { Context } from '../protocol/index.js';
import { assistantEndpoint, checkConfig } from './config.js';
import { ChatController } from './controller.js';
import type { Place } from './session.js';
import { createTabConversation, resolveThreadStorage } from './storage.js';
import type { AssistantError, DocsAssistantState, UseDocsAssistantOptions } from './types.js';
import { useChatTransport } from './use-chat-transport.js';

/** A string that changes when the `headers` option's names or values do. */
function headersSignature(headers: unknown): string {
  if (typeof headers !== 'object' || headers === null) return String(headers);
  // A value that is not a string is refused by `checkConfig` whatever it is: its type is enough.
  return JSON.stringify(
    Object.entries(headers).map(([name, value]) => [name, typeof value === 'string' ? value : typeof value]),
  );
}

/** The options' problem, checked when they change (an inline `headers` object is compared by content). */
function useConfigError(options: UseDocsAssistantOptions): AssistantError | null {
  const { domain, apiKey, baseUrl, api, deployment, headers } = options;
  const headersRef = useRef(headers);
  headersRef.current = headers;
  const headersKey = headersSignature(headers);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `headersKey` stands for `headers`.
  const configError = useMemo(
    () => checkConfig({ domain, apiKey, baseUrl, api, deployment, headers: headersRef.current }),
    [domain, apiKey, baseUrl, api, deployment, headersKey],
  );
  useEffect(() => {
    if (configError?.kind === 'config') console.error(`[docs-assistant] ${configError.detail}`);
  }, [configError]);
  return configError;
}

/** Where the conversation is kept and sent for these options. */
function usePlace(options: UseDocsAssistantOptions, configError: AssistantError | null): Place {
  const { domain, api, baseUrl } = options;
  // A custom storage is taken as given on the first render for a domain, so an inline object does
  // not reopen the conversation on every render.
  const storageKind = typeof options.storage === 'object' ? 'custom' : (options.storage ?? 'local');
  const customStorage = useRef(options.storage);
  customStorage.current = options.storage;
  const storage = useMemo(
    () => resolveThreadStorage(storageKind === 'custom' ? customStorage.current : storageKind, domain),
    [storageKind, domain],
  );
  const tab = useMemo(
    () => (storageKind === 'local' ? createTabConversation(domain) : null),
    [storageKind, domain],
  );
  // With `api` the host's route adds the key and knows the service's domain.
  const endpoint = useMemo(
    () => (configError ? undefined : (api ?? assistantEndpoint(baseUrl ?? '', domain))),
    [configError, api, baseUrl, domain],
  );
  return useMemo(() => ({ storage, tab, endpoint }), [storage, tab, endpoint]);
}

/** The hook's options with the context store it reads and adds to. */
export type ConversationOptions = UseDocsAssistantOptions & { contextStore: ContextStore };

/** `useDocsAssistant` with its context store given. */
export function useConversation(options: ConversationOptions): DocsAssistantState {
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const configError = useConfigError(options);
  const place = usePlace(options, configError);
  const { contextStore } = options;
  const [controller] = useState(
    () =>
      new ChatController({
        options: () => optionsRef.current,
        contextStore: () => optionsRef.current.contextStore,
        place,
      }),
  );
  controller.configure(place, configError);
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot, controller.getSnapshot);
  const conversations = useSyncExternalStore(
    controller.subscribe,
    controller.getConversations,
    controller.getConversations,
  );

  // Through `api` no key leaves the page: the route sends it.
  const { headers: extra, apiKey, api } = options;
  const headers = useMemo(
    () => (api !== undefined ? { ...extra } : { ...extra, Authorization: `Bearer ${apiKey}` }),
    [extra, apiKey, api],
  );
  const chat = useChatTransport(controller, snapshot.session, headers);
  const error = useMemo(() => controller.errorOf(chat.error), [controller, chat.error]);

  const contextItems = useSyncExternalStore(
    contextStore.subscribe,
    contextStore.getSnapshot,
    contextStore.getSnapshot,
  );
  const context = useMemo(
    () => ({
      items: contextItems as DocsAssistantState['context']['items'],
      add: (item: Context) => contextStore.add(item),
      remove: (id: string) => contextStore.remove(id),
      clear: () => contextStore.clear(),
    }),
    [contextItems, contextStore],
  );

  const { recovering } = snapshot;
  return {
    messages: chat.messages,
    status: recovering && chat.status === 'error' ? 'submitted' : chat.status,
    error: recovering ? null : error,
    configError,
    threadId: snapshot.session.threadId,
    threadKey: snapshot.session.threadKey,
    send: controller.send,
    stop: controller.stop,
    retry: controller.retry,
    newConversation: controller.newConversation,
    conversationId: snapshot.session.conversation.id,
    conversations,
    openConversation: controller.openConversation,
    deleteConversation: controller.deleteConversation,
    deleteAllConversations: controller.deleteAllConversations,
    context,
  };
}
