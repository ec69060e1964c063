/**
 * The conversation controller: owns one conversation, without React. It holds the states an answer
 * goes through (idle → submitted → streaming → done | error | stopped) as explicit transitions with
 * a typed event log, the request it sends (body, context, thread), the thread id and key, what is
 * saved to storage and when, the error mapping, and the lost-thread retry. The transition table,
 * who triggers each event, and where the widget and the script-tag build plug in are in
 * `docs/architecture.md` ("The chat controller").
 *
 * The network goes through a `ChatTransport`: the v4 `useChat` in the React binding
 * (`use-chat-transport.ts`), or anything with the same four calls. The transport is given the
 * controller's `fetch`, `prepareBody`, `finished` and `failed`, and reports its messages and status
 * back with `sync`.
 */
import type { JSONValue, Message } from '@ai-sdk/ui-utils';
import { toRequestContext } from '../context/request.js';
import type { ContextStore } from '../context/types.js';
import type { Attachment, Context } from '../protocol/index.js';
import { buildRequestBody } from './config.js';
import { isThreadLost, toAssistantError } from './errors.js';
import { noteOf, withNote, withoutUnansweredTurn } from './message-notes.js';
import { type HeldAnswer, openSession, type Place, type Session, saveShown, withHeld } from './session.js';
import {
  followStored,
  listConversations,
  openingConversation,
  removeFromStorage,
  storedConversations,
} from './storage.js';
import { createTappedFetch } from './stream-tap.js';
import { createRequestTrace, type RequestTrace, resolveThread } from './trace.js';
import type {
  AssistantError,
  AssistantMessage,
  AssistantStatus,
  ConversationSummary,
  ThreadStorage,
  UseDocsAssistantOptions,
} from './types.js';

/** Where one conversation stands; see the transition table in `docs/architecture.md`. */
export type ChatPhase = 'idle' | 'submitted' | 'streaming' | 'done' | 'error' | 'stopped';

/** What moves the conversation from one phase to another. */
export type ChatEvent =
  | 'send'
  | 'retry'
  | 'answer'
  | 'finish'
  | 'fail'
  | 'stop'
  | 'thread-lost'
  | 'resend'
  | 'reset'
  | 'follow'
  | 'open'
  | 'resume';

export interface ChatLogEntry {
  event: ChatEvent;
  from: ChatPhase;
  to: ChatPhase;
}

/** Most entries the event log keeps (the oldest go first). */
const LOG_LIMIT = 64;

export interface ChatSnapshot {
  phase: ChatPhase;
  /**
   * The server answered 404 to the thread and the question is being sent again as a new thread:
   * the error the transport reported meanwhile is not the reader's.
   */
  recovering: boolean;
  session: Session;
}

/** What the controller needs of the network client (the v4 `useChat` has these four). */
export interface ChatTransport {
  append(
    message: {
      role: 'user';
      content: string;
      parts: [{ type: 'text'; text: string }];
      /** The widget's note (`message-notes.ts`): the context sent with it. */
      annotations?: JSONValue[];
    },
    options: { body: { context: Context[] }; experimental_attachments?: Attachment[] },
  ): Promise<unknown>;
  /** Sends the conversation again without its last answer. */
  reload(options: { body: { context: Context[] } }): Promise<unknown>;
  stop(): void;
  setMessages(update: (messages: AssistantMessage[]) => AssistantMessage[]): void;
}

/** A request as the controller tracks it, so `retry()` can resend its context. */
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
  stopped?: boolean;
  error?: AssistantError;
}

export interface ChatControllerInput {
  /** The options as they are now (read at each request). */
  options: () => UseDocsAssistantOptions;
  contextStore: () => ContextStore;
  place: Place;
}

export class ChatController {
  private snapshot: ChatSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly mapped = new WeakMap<Error, AssistantError>();
  private transport: ChatTransport | undefined;
  private configError: AssistantError | null = null;
  /** The request in flight (the conversation is busy): set from `submitted` until the phase after `streaming`. */
  private request: PendingRequest | null = null;
  /** The request sent last, for `retry()` and for a thread that arrives after an error. */
  private last: PendingRequest | null = null;
  private held: HeldAnswer | null = null;
  /** The messages the transport reported last for the session shown (`sync`). */
  private messages: AssistantMessage[] = [];
  /** The kept conversations as read last; undefined once a save or another tab may have changed them. */
  private conversations: ConversationSummary[] | undefined;
  readonly fetch: typeof fetch;

  constructor(private readonly input: ChatControllerInput) {
    this.snapshot = { phase: 'idle', recovering: false, session: openStored(input.place) };
    this.fetch = createTappedFetch({
      getFetch: () => input.options().fetch ?? ((url, init) => fetch(url, init)),
      getTrace: () => this.request?.trace ?? createRequestTrace(),
      onAccepted: (trace) => {
        const request = this.request;
        if (request?.trace !== trace) return;
        for (const id of request.contextIds) input.contextStore().remove(id);
      },
      onAnswerStarted: (trace) => {
        if (this.request?.trace !== trace) return;
        // The new answer replaces the held one from here on.
        this.held = null;
        if (this.snapshot.phase === 'submitted') this.transition('answer', 'streaming');
      },
    });
  }

  // --- The store the bindings read ---------------------------------------------------------------

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): ChatSnapshot => this.snapshot;

  /** The place's kept conversations, the one saved last first (read again only after a change). */
  readonly getConversations = (): ConversationSummary[] =>
    (this.conversations ??= listConversations(this.snapshot.session.storage.load()));

  /** The kept conversations changed (a save, another tab, a deletion): read them again. */
  private changedList(): void {
    this.conversations = undefined;
    for (const listener of this.listeners) listener();
  }

  /** The transitions so far, oldest first (the last `LOG_LIMIT`). */
  readonly log: readonly ChatLogEntry[] = [];

  /** Moves to `to`, logged under `event`; notifies unless `emit` is false. */
  private transition(event: ChatEvent, to: ChatPhase, patch: Partial<ChatSnapshot> = {}, emit = true): void {
    const log = this.log as ChatLogEntry[];
    log.push({ event, from: this.snapshot.phase, to });
    if (log.length > LOG_LIMIT) log.shift();
    this.update({ ...patch, phase: to }, emit);
  }

  private update(patch: Partial<ChatSnapshot>, emit = true): void {
    // Another storage holds other conversations.
    if (patch.session?.storage !== undefined && patch.session.storage !== this.snapshot.session.storage) {
      this.conversations = undefined;
    }
    this.snapshot = { ...this.snapshot, ...patch };
    if (emit) for (const listener of this.listeners) listener();
  }

  // --- What the binding tells it ------------------------------------------------------------------

  /** The transport to send through; the binding hands over its latest functions on every render. */
  attach(transport: ChatTransport): void {
    this.transport = transport;
  }

  /**
   * Takes the options' place and config error. Another storage or endpoint is another conversation:
   * it is opened from its storage (`open`), and a request still running in the old one is left to
   * end unseen. Does not notify: the caller reads the snapshot next (the React binding calls this
   * while rendering).
   */
  configure(place: Place, configError: AssistantError | null): void {
    this.configError = configError;
    const { session } = this.snapshot;
    if (session.storage === place.storage && session.endpoint === place.endpoint) return;
    this.request = null;
    this.last = null;
    this.held = null;
    this.transition('open', 'idle', { recovering: false, session: openStored(place) }, false);
  }

  /**
   * The transport's messages and status as shown with `session`, after every change of any of them.
   * Saves at every pause of the conversation (sent, finished, failed, stopped), never per token;
   * while a retry waits for its answer, the answer it replaces is what is stored. A report for a
   * session no longer shown is late (the next one follows) and is ignored.
   */
  sync(messages: AssistantMessage[], status: AssistantStatus, session: Session): void {
    if (session !== this.snapshot.session) return;
    this.messages = messages;
    // Nothing to keep yet (a new conversation is cleared explicitly).
    if (status === 'streaming' || messages.length === 0) return;
    const { revision } = session.conversation;
    saveShown(session, withHeld(messages, this.heldIn(session)));
    if (session.conversation.revision !== revision) this.changedList();
  }

  /**
   * Follows what other tabs save (the rule in `storage.ts`); gives the function that stops. An idle
   * tab shows what another tab did to its conversation; a tab in the middle of an answer keeps its
   * own (its save at the end keeps both).
   */
  connect(storage: ThreadStorage): () => void {
    return (
      storage.subscribe?.((value) => {
        const { session } = this.snapshot;
        if (session.storage !== storage) return;
        this.changedList();
        if (this.request) return;
        // A conversation the reader started afresh stays theirs: it does not take up another tab's.
        const empty = this.messages.length === 0 && !session.conversation.fresh;
        const next = followStored(value, { ...session.conversation, empty });
        if (next === undefined) return;
        this.last = null;
        session.tab?.set(next?.id ?? null);
        this.transition('follow', 'idle', { session: openSession(session, next) });
      }) ?? (() => {})
    );
  }

  /** The host leaves (unmount): a running request is stopped and what has arrived is kept. */
  leave(): void {
    if (!this.request) return;
    this.transport?.stop();
    const { session } = this.snapshot;
    saveShown(session, withHeld(this.messages, this.heldIn(session)));
  }

  /** The mapped error for an error the transport holds. */
  errorOf(error: Error | undefined): AssistantError | null {
    return error ? (this.mapped.get(error) ?? toAssistantError(error, undefined)) : null;
  }

  private heldIn(session: Session): HeldAnswer | null {
    return this.held?.sessionId === session.id ? this.held : null;
  }

  // --- The transport's callbacks -----------------------------------------------------------------

  /** The request body of spec §2.1 for the messages the transport is about to send. */
  readonly prepareBody = ({
    messages,
    requestBody,
  }: {
    messages: AssistantMessage[];
    requestBody?: object;
  }) => {
    const body = buildRequestBody({
      options: this.input.options(),
      messages,
      thread: this.snapshot.session,
      context: (requestBody as { context?: Context[] } | undefined)?.context ?? [],
    });
    // A 404 to a request that named a thread means the thread is gone (see `isThreadLost`).
    const trace = this.request?.trace;
    if (trace) trace.sentThread = { threadId: body.threadId, threadKey: body.threadKey };
    return body;
  };

  /** The answer is complete (before the transport's request ends). */
  readonly finished = (message: Message): void => {
    const request = this.request;
    if (!request || request.sessionId !== this.snapshot.session.id) return;
    const thread = this.commitThread(request);
    // The v4 client fills `parts` on every message it builds from a data stream.
    this.input.options().onFinish?.(message as AssistantMessage, { threadId: thread.threadId });
  };

  /** The transport failed (before its request ends): mapped, or turned into the lost-thread retry. */
  readonly failed = (error: Error): void => {
    const request = this.request;
    const mapped = toAssistantError(error, request?.trace);
    this.mapped.set(error, mapped);
    const { session } = this.snapshot;
    if (request && !request.isRecovery && request.sessionId === session.id && isThreadLost(request.trace)) {
      request.threadLost = true;
      this.transition('thread-lost', 'submitted', { recovering: true });
      return;
    }
    if (request) {
      request.error = mapped;
      this.commitThread(request);
      // After an error part the thread arrives later, in the finish part the server still sends.
      void request.trace.afterError?.then(() => {
        if (this.last === request) this.commitThread(request);
      });
    }
    this.input.options().onError?.(mapped);
  };

  /** Takes the thread a request reported (if any) as the conversation's thread. */
  private commitThread(request: PendingRequest): Session {
    const found = resolveThread(request.trace);
    const before = this.snapshot.session;
    if (request.sessionId !== before.id || (!found.threadId && !found.threadKey)) return before;
    // A key belongs to its thread: a new thread without a key drops the old key.
    const newThread = found.threadId !== undefined && found.threadId !== before.threadId;
    const threadId = found.threadId ?? before.threadId;
    const threadKey = found.threadKey ?? (newThread ? undefined : before.threadKey);
    if (threadId === before.threadId && threadKey === before.threadKey) return before;
    this.update({ session: { ...before, threadId, threadKey } });
    return this.snapshot.session;
  }

  // --- What the reader does -----------------------------------------------------------------------

  /**
   * Sends a question with the context items (and `attachments`, data URLs, on the user message);
   * ignored while a request runs or the options are wrong.
   */
  readonly send = async (question: string, options?: { attachments?: Attachment[] }): Promise<void> => {
    const text = question.trim();
    const transport = this.transport;
    if (!text || this.configError || this.request || !transport) return;
    const items = this.input.contextStore().getSnapshot();
    const context = toRequestContext(items);
    const request = this.newRequest(
      context,
      items.map((item) => item.id),
    );
    // A question stopped or failed before any answer goes: this one takes its place.
    const { phase } = this.snapshot;
    const kept = withoutUnansweredTurn(this.messages, phase === 'stopped' || phase === 'error');
    if (kept !== this.messages) transport.setMessages(() => kept);
    const note = context.length ? { annotations: [{ docsAssistant: { context } } as JSONValue] } : {};
    await this.run(request, 'send', () =>
      transport.append(
        { role: 'user', content: text, parts: [{ type: 'text', text }], ...note },
        options?.attachments?.length
          ? { body: { context }, experimental_attachments: options.attachments }
          : { body: { context } },
      ),
    );
  };

  /** Sends the last question again with its context; the answer it replaces is held until a new one arrives. */
  readonly retry = async (): Promise<void> => {
    const transport = this.transport;
    if (this.configError || this.request || !transport || this.messages.length === 0) return;
    const previous = this.last;
    const request = this.newRequest(previous?.context ?? [], previous?.contextIds ?? []);
    // The transport's reload drops the last answer before it sends: hold it until a new one arrives.
    const last = this.messages.at(-1);
    this.held = last?.role === 'assistant' ? { sessionId: request.sessionId, message: last } : null;
    // A question stopped before any answer is asked again: no longer stopped.
    if (last?.role === 'user' && noteOf(last).stopped) {
      transport.setMessages((shown) => [...shown.slice(0, -1), withNote(last, { stopped: undefined })]);
    }
    await this.run(request, 'retry', () => transport.reload({ body: { context: request.context } }));
  };

  readonly stop = (): void => {
    const request = this.request;
    this.transport?.stop();
    if (!request) return;
    // Between a lost thread and its resend: the resend is not sent.
    request.stopped = true;
    if (!request.threadLost) this.commitThread(request);
  };

  /**
   * Starts a new conversation without a thread; the one shown stays kept for the history.
   * `seed` opens the new one with these messages (a shared transcript continued): its first question
   * starts a new thread, sending them as the conversation so far.
   */
  readonly newConversation = (seed?: AssistantMessage[]): void => {
    this.drop();
    const { session } = this.snapshot;
    session.tab?.set(null);
    const next = openSession(session, null);
    next.conversation.fresh = true;
    if (seed) next.initialMessages = seed;
    this.transition('reset', 'idle', { recovering: false, session: next });
  };

  /** Shows a kept conversation (from the history); its next question continues its thread with its key. */
  readonly openConversation = (id: string): void => {
    const { session } = this.snapshot;
    if (id === session.conversation.id && session.conversation.stored) return;
    const thread = storedConversations(session.storage.load()).find((item) => item.id === id);
    if (!thread) return;
    this.drop();
    session.tab?.set(id);
    this.transition('resume', 'idle', { recovering: false, session: openSession(session, thread) });
  };

  /** Deletes a kept conversation; the one shown is replaced by a new conversation. */
  readonly deleteConversation = (id: string): void => {
    const { session } = this.snapshot;
    removeFromStorage(session.storage, id);
    if (id === session.conversation.id) this.newConversation();
    this.changedList();
  };

  /** Deletes every kept conversation of the place and starts a new one. */
  readonly deleteAllConversations = (): void => {
    this.snapshot.session.storage.clear();
    this.newConversation();
    this.changedList();
  };

  /** Leaves the conversation shown: a request in flight is stopped and nothing more of it lands. */
  private drop(): void {
    this.transport?.stop();
    this.last?.trace.stopAfterError?.();
    this.request = null;
    this.last = null;
    this.held = null;
  }

  private newRequest(context: Context[], contextIds: string[]): PendingRequest {
    return { sessionId: this.snapshot.session.id, trace: createRequestTrace(), context, contextIds };
  }

  /** Runs one request through the transport, from `submitted` to the phase it ends in. */
  private async run(request: PendingRequest, event: ChatEvent, start: () => Promise<unknown>): Promise<void> {
    // A stream still read for the thread after its error part: this request decides the thread now.
    this.last?.trace.stopAfterError?.();
    this.request = request;
    this.last = request;
    this.transition(event, 'submitted');
    try {
      await start();
    } finally {
      // Replaced meanwhile (a new conversation, another tab's, other options): nothing more to do.
      if (this.request === request && !request.threadLost) this.settle(request);
    }
    if (this.request === request) await this.recover(request);
  }

  /**
   * The server does not know the thread: forget it and its key (the next save stores the
   * conversation without them), unless another thread took its place meanwhile, and send the same
   * question, with the conversation so far, as a new thread. Once: a 404 to that request names no
   * thread, so it is an error the reader sees.
   */
  private async recover(request: PendingRequest): Promise<void> {
    const { session } = this.snapshot;
    if (session.threadId === request.trace.sentThread?.threadId) {
      this.update({ session: { ...session, threadId: undefined, threadKey: undefined } });
    }
    const transport = this.transport;
    // Stopped meanwhile: the reader asked for nothing more.
    if (request.stopped || !transport) return this.settle(request);
    const again: PendingRequest = {
      ...this.newRequest(request.context, request.contextIds),
      isRecovery: true,
    };
    await this.run(again, 'resend', () => transport.reload({ body: { context: request.context } }));
  }

  /** The request ended: `done`, `error` or `stopped`; a held answer no new one replaced is shown again. */
  private settle(request: PendingRequest): void {
    this.request = null;
    const held = this.held;
    this.held = null;
    if (request.error) this.transition('fail', 'error', { recovering: false });
    else if (request.stopped) this.transition('stop', 'stopped', { recovering: false });
    else this.transition('finish', 'done', { recovering: false });
    if (held && held.sessionId === this.snapshot.session.id) {
      this.transport?.setMessages((messages) => withHeld(messages, held));
    } else if (request.stopped && request.sessionId === this.snapshot.session.id) {
      // What was shown stays, marked: an answer cut short is never taken for a complete one.
      this.transport?.setMessages(markLastStopped);
    }
  }
}

/** A place's conversation as the tab opens it: the one it showed before (if still stored), else the one saved last. */
const openStored = (place: Place): Session =>
  openSession(place, openingConversation(place.storage.load(), place.tab?.get() ?? null));

/** The conversation with its last message (the answer cut short, or the question) noted as stopped. */
function markLastStopped(messages: AssistantMessage[]): AssistantMessage[] {
  const last = messages.at(-1);
  return last ? [...messages.slice(0, -1), withNote(last, { stopped: true })] : messages;
}
