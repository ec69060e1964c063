/**
 * Events for site owners: what the widget reports through `onEvent` (analytics, logging, your own
 * feedback store). Types only; `emit.ts` delivers them. An event never carries what the reader
 * typed (questions, feedback comments) unless the owner opts in with `eventsIncludeText`. An
 * optional field without a value may be present as `undefined` (absent once serialised as JSON).
 */
import type { AssistantErrorKind } from '../chat/types.js';

/** How the panel was opened. */
export type OpenSource =
  /** The launcher button. */
  | 'launcher'
  /** The keyboard shortcut (`shortcut`, mod+i by default). */
  | 'shortcut'
  /** "Ask AI" on text selected in the page. */
  | 'selection'
  /** "Ask AI" on a code block of the page. */
  | 'code-block'
  /** The host page: the `ref` handle, or the script build's browser API. */
  | 'api'
  /** The page's address (the script build's `?assistant`). */
  | 'url';

/** Where a question came from. */
export type AskSource =
  /** Typed in the question box. */
  | 'composer'
  /** Typed in the question box with text selected in the page as its context. */
  | 'selection'
  /** Typed in the question box with a code block of the page as its context. */
  | 'code-block'
  /** One of the `starterQuestions`. */
  | 'starter-question'
  /** A follow-up question under an answer (a custom part renderer's `onAsk`). */
  | 'suggestion'
  /** "Ask AI" under the docs search results. */
  | 'search'
  /** Retry after an error. */
  | 'retry'
  /** The host page: the `ref` handle's `ask`, or the script build's browser API. */
  | 'api'
  /** The page's address (the script build's `?assistant=<question>`). */
  | 'url';

/** A reader's vote on an answer. */
export type FeedbackRating = 'up' | 'down';

export interface PanelOpenEvent {
  type: 'open';
  source: OpenSource;
}

export interface PanelCloseEvent {
  type: 'close';
}

export interface AskEvent {
  type: 'ask';
  source: AskSource;
  /** The thread the question continues; absent for the first question of a conversation. */
  threadId?: string;
  /** Context items sent with it (selected text, code), by count. */
  contextItems: number;
  /** The question, only with `eventsIncludeText`. */
  question?: string;
}

export interface AnswerEvent {
  type: 'answer';
  /** Id of the answer's message (as the service named it). */
  messageId: string;
  threadId?: string;
  /** From the question going out to the first text of the answer, in ms (`performance.now`). */
  timeToFirstTokenMs?: number;
  /** From the question going out to the answer's finish part, in ms. */
  totalMs: number;
  /** Sources the answer cited. */
  sources: number;
}

export interface SourceClickEvent {
  type: 'source-click';
  /** The link the reader opened. */
  url: string;
  /** The answer it belongs to. */
  messageId?: string;
}

export interface SuggestionClickEvent {
  type: 'suggestion-click';
  /** A starter question, or a follow-up suggested under an answer (a link to a page, or a question). */
  kind: 'starter' | 'follow-up';
  /** The page a follow-up link opens. */
  url?: string;
  /** The answer a follow-up belongs to. */
  messageId?: string;
  /** The question asked, only with `eventsIncludeText`. */
  question?: string;
}

export interface CopyEvent {
  type: 'copy';
  /** The whole answer (its copy button) or one of its code blocks. */
  target: 'answer' | 'code';
  messageId?: string;
}

export interface FeedbackEvent {
  type: 'feedback';
  messageId: string;
  threadId?: string;
  rating: FeedbackRating;
  /** Whether the reader wrote a comment. */
  hasComment: boolean;
  /** The comment, only with `eventsIncludeText`. */
  comment?: string;
}

export interface AssistantErrorEvent {
  type: 'error';
  kind: AssistantErrorKind;
  /** HTTP status when there was a response. */
  status?: number;
  retryable: boolean;
  /** `load` or `render` when the widget itself failed rather than a request. */
  origin?: 'load' | 'render';
}

export interface NewConversationEvent {
  type: 'new-conversation';
  /** The thread the reader left. */
  threadId?: string;
}

/** Everything `onEvent` receives; switch on `type`. */
export type DocsAssistantEvent =
  | PanelOpenEvent
  | PanelCloseEvent
  | AskEvent
  | AnswerEvent
  | SourceClickEvent
  | SuggestionClickEvent
  | CopyEvent
  | FeedbackEvent
  | AssistantErrorEvent
  | NewConversationEvent;

export type DocsAssistantEventType = DocsAssistantEvent['type'];

/** The `onEvent` prop. */
export type EventHandler = (event: DocsAssistantEvent) => void;

/** Where feedback votes go (the `feedback` prop). */
export interface FeedbackOptions {
  /**
   * Where votes are posted. By default, with `apiKey` and `baseUrl`, the service's
   * `POST {baseUrl}/discovery/v1/assistant/{domain}/feedback` when its `GET /health` lists the
   * `feedback` capability (the reference service's does; asked once per base URL); a
   * URL of your own route instead (the same JSON body, no `Authorization`, your `headers`); `false`
   * reports votes through `onEvent` only. With `api` (your proxy route) nothing is posted unless
   * an endpoint is given.
   */
  endpoint?: string | false;
  /** Offer a short comment after a vote. @default true */
  comment?: boolean;
}
