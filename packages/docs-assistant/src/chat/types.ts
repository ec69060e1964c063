/**
 * Public types of the headless hook. The hook (`use-docs-assistant.ts`) implements them; the UI
 * and the docs rely on these names.
 */
import type { UIMessage } from '@ai-sdk/ui-utils';
import type { ContextItem, ContextStore } from '../context/types.js';
import type { Attachment, Context, Filter } from '../protocol/index.js';

export type { ContextItem };

/** A message as the v4 client holds it (`parts` included). */
export type AssistantMessage = UIMessage;

/** Where the docs are deployed (spec §1): the assistant is unavailable when air-gapped. */
export type Deployment = 'cloud' | 'client-hosted' | 'air-gapped';

/** What went wrong, in terms a reader (and a UI) can act on. */
export type AssistantErrorKind =
  /**
   * The widget is set up wrongly (admin key, no domain, bad baseUrl or api, both or neither of
   * api and apiKey + baseUrl, a value a header cannot carry):
   * no request is made. Also when `baseUrl` answered with something that is not the assistant's
   * data stream (an HTML page, JSON): `detail` says so and to check `baseUrl`.
   */
  | 'config'
  /** 401/403: the assistant key was rejected. */
  | 'auth'
  /** 429: too many requests; `retryAfter` holds the wait in seconds when the server gave one. */
  | 'rate-limit'
  /** 5xx, a refused connection, a timeout: couldn't reach the assistant. */
  | 'network'
  /**
   * An error part or a malformed line in the stream, a stream that broke or ended without its
   * finish part, or an empty response: the partial answer is kept.
   */
  | 'stream'
  /** 4xx other than the above (a bad request): the server's message is shown. */
  | 'request'
  /**
   * `deployment="air-gapped"`: the assistant is unavailable and nothing is ever sent. Also the
   * widget failing to render (`origin: 'render'`): it shows a message and Retry.
   */
  | 'unavailable';

export interface AssistantError {
  kind: AssistantErrorKind;
  /**
   * What happened, for developers and logs (English; the server's words where it gave some). A UI
   * words `kind` for the reader with its own labels: the widget shows `labels.errorAuth`,
   * `errorNetwork`, … by kind, never this text.
   */
  message: string;
  /** For developers: what to change (config errors) or what the server said. */
  detail?: string;
  /** HTTP status when there was a response. */
  status?: number;
  /** Seconds to wait before retrying (`Retry-After`), for `rate-limit`. */
  retryAfter?: number;
  /** Whether `retry()` can help. */
  retryable: boolean;
  /**
   * Set when the widget itself failed rather than a request: `load` (the panel's code could
   * not be loaded, kind `network`; the launcher offers a retry) or `render` (an exception thrown
   * in the widget's render or effects, kind `unavailable`; the widget offers a retry). The host page is
   * never affected. Absent for request errors.
   */
  origin?: 'load' | 'render';
}

/** What the hook keeps per domain: in local storage by default. */
export interface StoredThread {
  threadId?: string;
  threadKey?: string;
  messages: AssistantMessage[];
}

/** A kept conversation as the history lists it (`conversations` of the hook), newest first. */
export interface ConversationSummary {
  /** Its local id, for `openConversation` and `deleteConversation` (not the service's thread). */
  id: string;
  /** The first question, on one line. */
  title: string;
  /** When it was saved last (absent for data that never said). */
  updatedAt?: Date;
  threadId?: string;
  messages: AssistantMessage[];
}

/**
 * Where the conversations are kept. `load` and `save` carry one value holding the conversation
 * saved last and, in its `others` field, the other kept ones: a storage of your own keeps the
 * whole value as it is given (JSON) and so keeps the history too.
 */
export interface ThreadStorage {
  load(): StoredThread | null;
  save(thread: StoredThread): void;
  clear(): void;
  /** Called when another tab changes the stored thread; returns an unsubscribe function. */
  subscribe?(listener: (thread: StoredThread | null) => void): () => void;
}

export interface UseDocsAssistantOptions {
  /**
   * The domain identifier of the deployment (spec §4.1 path parameter). With `api`, the route
   * decides the service's domain and this one only names where the conversation is kept.
   */
  domain: string;
  /**
   * The assistant API key, `svc_dsc_…`, with `baseUrl`. An admin key (`svc_…`) is refused and
   * nothing is sent. Leave it out with `api` (the key stays on your server).
   */
  apiKey?: string;
  /** Base URL of the service, e.g. `https://api.example.com`, with `apiKey`. Leave it out with `api`. */
  baseUrl?: string;
  /**
   * A route of your own server that forwards to the service with the key (`createAssistantProxy`
   * from `docs-assistant/proxy`), e.g. `/api/assistant`: a path on the page's origin or an absolute
   * http(s) URL. The widget posts the same body there, sends no `Authorization`, and reads the
   * answer and the thread headers from the route's response. Instead of `apiKey` and `baseUrl`.
   */
  api?: string;
  /** Fingerprint of the reader (spec §2.1). @default 'anonymous' */
  fp?: string;
  /** Search results used per answer (spec §2.1). @default 5 */
  retrievalPageSize?: number;
  /** Search filter (spec §2.1). */
  filter?: Filter;
  /**
   * Path of the page the reader is on, sent as `currentPath` (cut to 200 characters).
   * @default the page's `location.pathname` at send time
   */
  currentPath?: string | (() => string);
  /** Where the conversation is kept. `'local'` = localStorage per domain. @default 'local' */
  storage?: 'local' | 'memory' | ThreadStorage;
  /** Deployment type (spec §1). `'air-gapped'` makes the assistant unavailable. @default 'cloud' */
  deployment?: Deployment;
  /** A context store shared with collectors; the hook makes its own when not given. */
  contextStore?: ContextStore;
  /** A `fetch` to use instead of the global one (tests, Storybook, proxies). */
  fetch?: typeof fetch;
  /**
   * Extra headers for every request. Not `Authorization` (the hook sends `apiKey` in it; with `api`
   * it may carry your own session token for the route), and never an admin key: either is a config
   * error and nothing is sent.
   */
  headers?: Record<string, string>;
  /** Called when an answer finishes, with the message and the thread. */
  onFinish?: (message: AssistantMessage, thread: { threadId?: string }) => void;
  /** Called on every error, after it is mapped. */
  onError?: (error: AssistantError) => void;
}

export type AssistantStatus = 'submitted' | 'streaming' | 'ready' | 'error';

export interface DocsAssistantState {
  messages: AssistantMessage[];
  status: AssistantStatus;
  error: AssistantError | null;
  /** A config or availability problem found before any request; when set, `send` does nothing. */
  configError: AssistantError | null;
  threadId: string | undefined;
  /**
   * The thread's key (the service hands it out with a new thread), for calls that must prove they
   * hold the thread, such as feedback on an answer.
   */
  threadKey?: string;
  /**
   * Sends a question with the current context items; the items are cleared once sent.
   * `attachments` (spec §2.2 `experimental_attachments`, data URLs) go with the user message.
   */
  send: (question: string, options?: { attachments?: Attachment[] }) => Promise<void>;
  stop: () => void;
  /** Sends the last question again (after an error or to regenerate). */
  retry: () => Promise<void>;
  /**
   * Starts a new conversation without a thread; the one shown stays kept (see `conversations`).
   * With `seed`, the new conversation opens with these messages (e.g. a shared transcript continued
   * as a copy); its first question starts a new thread.
   */
  newConversation: (seed?: AssistantMessage[]) => void;
  /** The local id of the conversation shown (among `conversations` once it is kept). */
  conversationId?: string;
  /**
   * This site's kept conversations (the one shown included, once it has a message), the one saved
   * last first. "New conversation" keeps the one shown here.
   */
  conversations: ConversationSummary[];
  /** Shows a kept conversation: the next question continues its thread (with its key). */
  openConversation: (id: string) => void;
  /** Deletes a kept conversation; deleting the one shown starts a new one. */
  deleteConversation: (id: string) => void;
  /** Deletes every kept conversation of this site and starts a new one. */
  deleteAllConversations: () => void;
  context: {
    items: ContextItem[];
    add: (item: Context) => string;
    remove: (id: string) => void;
    clear: () => void;
  };
}
