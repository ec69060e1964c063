/**
 * The headless conversation: the v4 `useChat` set up for the spec's v1 endpoint, with the thread
 * read from the raw stream, the conversation kept per domain, errors mapped to kinds a UI can act
 * on and the context items of the shared store sent with each question.
 */
import { useChat } from '@ai-sdk/react';
import { generateId, type Message } from '@ai-sdk/ui-utils';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { createContextStore, toRequestContext } from '../context/store.js';
import type { Context } from '../protocol/index.js';
import { assistantEndpoint, buildRequestBody, checkConfig, STREAM_RENDER_THROTTLE_MS } from './config.js';
import { isThreadLost, toAssistantError } from './errors.js';
import {
  type ConversationRef,
  createTabConversation,
  followStored,
  type KeptConversation,
  openingConversation,
  removeFromStorage,
  resolveThreadStorage,
  saveToStorage,
  type TabConversation,
} from './storage.js';
import { createRequestTrace, createTappedFetch, type RequestTrace, resolveThread } from './stream-tap.js';
import type {
  AssistantError,
  AssistantMessage,
  DocsAssistantState,
  StoredThread,
  ThreadStorage,
  UseDocsAssistantOptions,
} from './types.js';

/**
 * One conversation as `useChat` sees it: a fresh `id` per conversation gives the client an empty
 * message list for it. (The id alone would not keep a late update of the previous request out: the
 * client's state setters write to whatever id it shows when they run. The hook leaves no update
 * pending after a request instead; see `batchLines`.)
 */
interface Session {
  id: string;
  storage: ThreadStorage;
  endpoint: string | undefined;
  initialMessages: AssistantMessage[];
  threadId?: string;
  threadKey?: string;
  /**
   * Which stored conversation this is and the revision the tab last loaded or saved (see the rule
   * in `storage.ts`). Updated in place by each save: copies of the session share it.
   */
  conversation: ShownConversation;
}

interface ShownConversation extends ConversationRef {
  /** Loaded from or saved to the storage (a removal there empties the tab). */
  stored: boolean;
}

function openSession(
  storage: ThreadStorage,
  endpoint: string | undefined,
  thread: KeptConversation | null,
): Session {
  return {
    id: generateId(),
    storage,
    endpoint,
    conversation: thread
      ? { id: thread.id, revision: thread.revision, stored: true }
      : { id: generateId(), revision: 0, stored: false },
    initialMessages: thread?.messages ?? [],
    ...(thread?.threadId ? { threadId: thread.threadId } : {}),
    ...(thread?.threadKey ? { threadKey: thread.threadKey } : {}),
  };
}

/** Saves the conversation a session shows without dropping what other tabs saved (the rule in `storage.ts`). */
function saveShown(
  storage: ThreadStorage,
  tab: TabConversation | null,
  conversation: ShownConversation,
  thread: StoredThread,
) {
  const ref = saveToStorage(storage, conversation, thread);
  conversation.id = ref.id;
  conversation.revision = ref.revision;
  conversation.stored = true;
  tab?.set(ref.id);
}

/** A request as the hook tracks it, so `retry()` can resend its context. */
interface PendingRequest {
  sessionId: string;
  trace: RequestTrace;
  context: Context[];
  /** Items of the context store sent with it: removed once the server accepts the request. */
  contextIds: string[];
  /** The server answered 404 to the thread this request named: it is sent again as a new thread. */
  threadLost?: boolean;
  /** This request is that second attempt; it is not repeated again. */
  isRecovery?: boolean;
}

/**
 * The answer a `retry()` replaces. The client drops it from the conversation as the retry is sent;
 * the hook keeps it in storage meanwhile and shows it again if nothing of a new answer arrived.
 */
interface HeldAnswer {
  sessionId: string;
  message: AssistantMessage;
}

/** The messages with the held answer in place of whatever the retry has shown so far (nothing or an empty answer). */
function withHeld(messages: AssistantMessage[], held: HeldAnswer | null): AssistantMessage[] {
  if (!held) return messages;
  const base = messages.at(-1)?.role === 'assistant' ? messages.slice(0, -1) : messages;
  return [...base, held.message];
}

/** The held answer if it belongs to the conversation shown. */
const heldIn = (held: HeldAnswer | null, sessionId: string): HeldAnswer | null =>
  held?.sessionId === sessionId ? held : null;

// The chat client hands back the Error it threw; the mapped error is looked up by it.
const mappedErrors = new WeakMap<Error, AssistantError>();

// `useChat` adopts a changed `initialMessages` one render late (and shows the old ones for the new
// id meanwhile), so it always gets this and each conversation's messages are put in before paint.
const NO_MESSAGES: AssistantMessage[] = [];

/** A string that changes when the `headers` option's names or values do. */
function headersSignature(headers: unknown): string {
  if (typeof headers !== 'object' || headers === null) return String(headers);
  // A value that is not a string is refused by `checkConfig` whatever it is: its type is enough.
  return JSON.stringify(
    Object.entries(headers).map(([name, value]) => [name, typeof value === 'string' ? value : typeof value]),
  );
}

const useIsomorphicLayoutEffect = typeof window === 'undefined' ? useEffect : useLayoutEffect;

export function useDocsAssistant(options: UseDocsAssistantOptions): DocsAssistantState {
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const { domain, apiKey, baseUrl, api, deployment } = options;
  // Keyed on the content: an inline `headers` object must not re-check (and re-log) every render.
  const headersKey = headersSignature(options.headers);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `headersKey` stands for `options.headers`.
  const configError = useMemo(
    () => checkConfig({ domain, apiKey, baseUrl, api, deployment, headers: optionsRef.current.headers }),
    [domain, apiKey, baseUrl, api, deployment, headersKey],
  );
  const configErrorRef = useRef(configError);
  configErrorRef.current = configError;
  useEffect(() => {
    if (configError?.kind === 'config') console.error(`[docs-assistant] ${configError.detail}`);
  }, [configError]);

  // A custom storage is taken as given on the first render for a domain, so an inline object does
  // not reopen the conversation on every render.
  const storageKind = typeof options.storage === 'object' ? 'custom' : (options.storage ?? 'local');
  const customStorage = useRef(options.storage);
  customStorage.current = options.storage;
  const storage = useMemo(
    () => resolveThreadStorage(storageKind === 'custom' ? customStorage.current : storageKind, domain),
    [storageKind, domain],
  );
  // Per tab, which of the domain's localStorage conversations it shows (reopened on reload).
  const tab = useMemo(
    () => (storageKind === 'local' ? createTabConversation(domain) : null),
    [storageKind, domain],
  );

  // With `api` the host's route adds the key and knows the service's domain.
  const endpoint = configError ? undefined : (api ?? assistantEndpoint(baseUrl ?? '', domain));
  const [session, setSession] = useState(() =>
    openSession(storage, endpoint, openingConversation(storage.load(), tab?.get() ?? null)),
  );
  let current = session;
  // Another domain, storage or service is another conversation: take it from its storage.
  if (session.storage !== storage || session.endpoint !== endpoint) {
    current = openSession(storage, endpoint, openingConversation(storage.load(), tab?.get() ?? null));
    setSession(current);
  }
  const sessionRef = useRef(current);
  sessionRef.current = current;

  const requestRef = useRef<PendingRequest | null>(null);
  const heldRef = useRef<HeldAnswer | null>(null);
  const lastRequestRef = useRef<PendingRequest | null>(null);
  const busyRef = useRef(false);

  const [ownContextStore] = useState(() => createContextStore());
  const contextStore = options.contextStore ?? ownContextStore;
  const contextItems = useSyncExternalStore(
    contextStore.subscribe,
    contextStore.getSnapshot,
    contextStore.getSnapshot,
  );

  /** Takes the thread a request reported (if any) as the conversation's thread. */
  const commitThread = useCallback((request: PendingRequest) => {
    const found = resolveThread(request.trace);
    const before = sessionRef.current;
    if (request.sessionId !== before.id || (!found.threadId && !found.threadKey)) return before;
    // A key belongs to its thread: a new thread without a key drops the old key.
    const newThread = found.threadId !== undefined && found.threadId !== before.threadId;
    const threadId = found.threadId ?? before.threadId;
    const threadKey = found.threadKey ?? (newThread ? undefined : before.threadKey);
    if (threadId === before.threadId && threadKey === before.threadKey) return before;
    const next = { ...before, threadId, threadKey };
    sessionRef.current = next;
    setSession((s) => (s.id === next.id ? { ...s, threadId, threadKey } : s));
    return next;
  }, []);

  const tappedFetch = useMemo(
    () =>
      createTappedFetch({
        getFetch: () => optionsRef.current.fetch ?? ((input, init) => fetch(input, init)),
        getTrace: () => requestRef.current?.trace ?? createRequestTrace(),
        // Throttles re-renders here rather than with `useChat`'s `experimental_throttle`, whose last
        // update lands on a timer after the request ended (after `ready`, and in a new conversation
        // when one was started meanwhile).
        batchIntervalMs: STREAM_RENDER_THROTTLE_MS,
        onAccepted: () => {
          const request = requestRef.current;
          if (!request) return;
          const store = optionsRef.current.contextStore ?? ownContextStore;
          for (const id of request.contextIds) store.remove(id);
        },
        // The new answer replaces the held one from here on.
        onAnswerStarted: () => {
          heldRef.current = null;
        },
      }),
    [ownContextStore],
  );

  const prepareRequestBody = useCallback(
    ({ messages, requestBody }: { messages: AssistantMessage[]; requestBody?: object }) => {
      const body = buildRequestBody({
        options: optionsRef.current,
        messages,
        thread: sessionRef.current,
        context: (requestBody as { context?: Context[] } | undefined)?.context ?? [],
      });
      // A 404 to a request that named a thread means the thread is gone (see `isThreadLost`).
      const request = requestRef.current;
      if (request) {
        request.trace.sentThread = {
          ...(body.threadId ? { threadId: body.threadId } : {}),
          ...(body.threadKey ? { threadKey: body.threadKey } : {}),
        };
      }
      return body;
    },
    [],
  );

  const handleFinish = useCallback(
    (message: Message) => {
      const request = requestRef.current;
      if (!request || request.sessionId !== sessionRef.current.id) return;
      const thread = commitThread(request);
      // The client fills `parts` on every message it builds from a data stream.
      optionsRef.current.onFinish?.(message as AssistantMessage, { threadId: thread.threadId });
    },
    [commitThread],
  );

  // Between a 404 to the thread and the resend as a new thread, the client reports an error the
  // reader must not see (the resend decides what is shown).
  const [recovering, setRecovering] = useState(false);

  const handleError = useCallback(
    (error: Error) => {
      const request = requestRef.current;
      const mapped = toAssistantError(error, request?.trace);
      mappedErrors.set(error, mapped);
      const session = sessionRef.current;
      if (request && !request.isRecovery && request.sessionId === session.id && isThreadLost(request.trace)) {
        request.threadLost = true;
        setRecovering(true);
        return;
      }
      if (request) {
        commitThread(request);
        // After an error part the thread arrives later, in the finish part the server still sends.
        void request.trace.afterError?.then(() => {
          if (lastRequestRef.current === request) commitThread(request);
        });
      }
      optionsRef.current.onError?.(mapped);
    },
    [commitThread],
  );

  // Through `api` no key leaves the page: the route sends it.
  const headers = useMemo(
    () =>
      api !== undefined ? { ...options.headers } : { ...options.headers, Authorization: `Bearer ${apiKey}` },
    [options.headers, apiKey, api],
  );

  const chat = useChat({
    id: current.id,
    api: endpoint,
    initialMessages: NO_MESSAGES,
    streamProtocol: 'data',
    sendExtraMessageFields: true,
    headers,
    fetch: tappedFetch,
    experimental_prepareRequestBody: prepareRequestBody,
    onFinish: handleFinish,
    onError: handleError,
  });
  const { messages, status, append, reload, stop: stopChat, setMessages } = chat;

  const { initialMessages } = current;
  useIsomorphicLayoutEffect(() => {
    if (initialMessages.length > 0) setMessages(initialMessages);
  }, [initialMessages, setMessages]);

  const error = useMemo(
    () => (chat.error ? (mappedErrors.get(chat.error) ?? toAssistantError(chat.error, undefined)) : null),
    [chat.error],
  );

  // Save at every pause of the conversation (sent, finished, failed, stopped), never per token.
  // While a retry waits for its answer, the answer it replaces is what is stored.
  const { threadId, threadKey } = current;
  useEffect(() => {
    // Nothing to keep yet (a new conversation is cleared explicitly).
    if (status === 'streaming' || messages.length === 0) return;
    saveShown(storage, tab, sessionRef.current.conversation, {
      ...(threadId ? { threadId } : {}),
      ...(threadKey ? { threadKey } : {}),
      messages: withHeld(messages, heldIn(heldRef.current, sessionRef.current.id)),
    });
  }, [storage, tab, status, messages, threadId, threadKey]);

  // Leaving mid-answer: stop the request and keep what has arrived.
  const latestRef = useRef({ storage, tab, messages, threadId, threadKey, stopChat });
  useEffect(() => {
    latestRef.current = { storage, tab, messages, threadId, threadKey, stopChat };
  });
  useEffect(
    () => () => {
      if (!busyRef.current) return;
      const latest = latestRef.current;
      latest.stopChat();
      const held = heldIn(heldRef.current, sessionRef.current.id);
      saveShown(latest.storage, latest.tab, sessionRef.current.conversation, {
        ...(latest.threadId ? { threadId: latest.threadId } : {}),
        ...(latest.threadKey ? { threadKey: latest.threadKey } : {}),
        messages: withHeld(latest.messages, held),
      });
    },
    [],
  );

  // Another tab saved: show what it did to this tab's conversation, unless this tab is in the
  // middle of an answer (its own save at the end keeps both then). Never another conversation
  // (two tabs answering at once each keep their own), except in a tab that shows nothing yet.
  useEffect(
    () =>
      storage.subscribe?.((value) => {
        if (busyRef.current) return;
        const next = followStored(value, {
          ...sessionRef.current.conversation,
          empty: latestRef.current.messages.length === 0,
        });
        if (next === undefined) return;
        lastRequestRef.current = null;
        tab?.set(next?.id ?? null);
        setSession(openSession(storage, endpoint, next));
      }),
    [storage, tab, endpoint],
  );

  const reloadRef = useRef(reload);
  reloadRef.current = reload;

  const run = useCallback(async (request: PendingRequest, start: () => Promise<unknown>): Promise<void> => {
    // A stream still read for the thread after its error part: this request decides the thread now.
    lastRequestRef.current?.trace.stopAfterError?.();
    busyRef.current = true;
    requestRef.current = request;
    lastRequestRef.current = request;
    try {
      await start();
    } finally {
      if (requestRef.current === request) busyRef.current = false;
    }
    if (!request.threadLost) return;
    // A new conversation started meanwhile: it has no thread to forget, nothing to resend.
    if (sessionRef.current.id !== request.sessionId) {
      setRecovering(false);
      return;
    }
    // The server does not know the thread: forget it and its key (the next save stores the
    // conversation without them), unless another thread took its place meanwhile.
    if (sessionRef.current.threadId === request.trace.sentThread?.threadId) {
      const forgotten = { ...sessionRef.current, threadId: undefined, threadKey: undefined };
      sessionRef.current = forgotten;
      setSession((s) => (s.id === forgotten.id ? { ...s, threadId: undefined, threadKey: undefined } : s));
    }
    // Stopped meanwhile: the reader asked for nothing more.
    if (requestRef.current !== request) {
      setRecovering(false);
      return;
    }
    // Send the same question, with the conversation so far, as a new thread. Once: a 404 to that
    // request names no thread, so it is an error the reader sees.
    const again: PendingRequest = {
      sessionId: request.sessionId,
      trace: createRequestTrace(),
      context: request.context,
      contextIds: request.contextIds,
      isRecovery: true,
    };
    try {
      await run(again, () => reloadRef.current({ body: { context: request.context } }));
    } finally {
      setRecovering(false);
    }
  }, []);

  const send = useCallback(
    async (question: string) => {
      const text = question.trim();
      if (!text || configErrorRef.current || busyRef.current) return;
      const items = contextStore.getSnapshot();
      const context = toRequestContext(items);
      const request: PendingRequest = {
        sessionId: sessionRef.current.id,
        trace: createRequestTrace(),
        context,
        contextIds: items.map((item) => item.id),
      };
      await run(request, () =>
        append({ role: 'user', content: text, parts: [{ type: 'text', text }] }, { body: { context } }),
      );
    },
    [contextStore, append, run],
  );

  const retry = useCallback(async () => {
    if (configErrorRef.current || busyRef.current) return;
    const previous = lastRequestRef.current;
    const context = previous?.context ?? [];
    const request: PendingRequest = {
      sessionId: sessionRef.current.id,
      trace: createRequestTrace(),
      context,
      contextIds: previous?.contextIds ?? [],
    };
    // The client's reload drops the last answer before it sends: hold it until a new one arrives.
    const last = latestRef.current.messages.at(-1);
    const held = last?.role === 'assistant' ? { sessionId: request.sessionId, message: last } : null;
    heldRef.current = held;
    try {
      await run(request, () => reload({ body: { context } }));
    } finally {
      // Still held: the retry failed (or was stopped) before any of a new answer came.
      if (held && heldRef.current === held) {
        heldRef.current = null;
        if (sessionRef.current.id === held.sessionId)
          setMessages((messages) => withHeld(messages as AssistantMessage[], held));
      }
    }
  }, [reload, run, setMessages]);

  const stop = useCallback(() => {
    stopChat();
    // A stop between a lost thread and its resend cancels the resend.
    if (requestRef.current?.threadLost) requestRef.current = null;
    if (requestRef.current) commitThread(requestRef.current);
  }, [stopChat, commitThread]);

  const newConversation = useCallback(() => {
    stopChat();
    lastRequestRef.current?.trace.stopAfterError?.();
    busyRef.current = false;
    requestRef.current = null;
    lastRequestRef.current = null;
    heldRef.current = null;
    setRecovering(false);
    // Only this tab's conversation goes: other tabs' stay stored.
    removeFromStorage(storage, sessionRef.current.conversation.id);
    tab?.set(null);
    setSession(openSession(storage, endpoint, null));
  }, [stopChat, storage, tab, endpoint]);

  const context = useMemo(
    () => ({
      items: contextItems as DocsAssistantState['context']['items'],
      add: (item: Context) => contextStore.add(item),
      remove: (id: string) => contextStore.remove(id),
      clear: () => contextStore.clear(),
    }),
    [contextItems, contextStore],
  );

  return {
    messages,
    status: recovering && status === 'error' ? 'submitted' : status,
    error: recovering ? null : error,
    configError,
    threadId,
    send,
    stop,
    retry,
    newConversation,
    context,
  };
}
