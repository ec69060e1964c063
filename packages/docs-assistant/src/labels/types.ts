/**
 * Every user-facing string (`Labels`): the shape hosts override through `labels` and language
 * packs fill (`docs-assistant/labels/de`, `…/ar`). Types only: the defaults are in `panel.ts` (the
 * panel's) and `shell.ts` (the launcher's), both in `defaults.ts`. The words of each lazily loaded
 * view are written once, with their meaning, as its defaults in `views/` (which only that view
 * imports at run time, so they load with it), and `Labels` takes their types from there.
 */
import type { AttachmentDefaults } from './views/attachments.js';
import type { FeedbackDefaults } from './views/feedback.js';
import type { HistoryDefaults } from './views/history.js';
import type { SearchDefaults } from './views/search.js';
import type { ShareDefaults } from './views/share.js';

/**
 * Every user-facing string. Functions take the values they show. The words of the lazily loaded
 * views (past conversations, sharing and support, feedback, the docs search and page preview,
 * attachments) are optional, for compatibility; their meanings are in `labels/views/`.
 */
export interface Labels
  extends Partial<HistoryDefaults>,
    Partial<ShareDefaults>,
    Partial<FeedbackDefaults>,
    Partial<SearchDefaults>,
    Partial<AttachmentDefaults> {
  /** The launcher button's text. */
  launcher: string;
  /** The panel's title, in its header. */
  title: string;
  /** The header's Close button (its name; the share sheet's close button's too). */
  close: string;
  /** Placeholder of the question box. */
  inputPlaceholder: string;
  /** Accessible name of the question box. */
  inputLabel: string;
  /** Accessible name of the send button. */
  send: string;
  /** Accessible name of the button that stops an answer being written. */
  stop: string;
  /** The Retry buttons: the error banner's, a stopped answer's, a panel's that failed to render. */
  retry: string;
  /** An answer's copy button. */
  copy: string;
  /** Said by a copy button once it copied. */
  copied: string;
  /** A code block's copy button in an answer. */
  copyCode: string;
  /** The header's button that starts a new conversation. */
  newConversation: string;
  /** Heading above the starter questions of an empty conversation. */
  starterQuestionsHeading: string;
  /** Text of the "Ask AI" button the widget adds to the page's selections and code blocks. */
  askAi: string;
  /** Accessible name and title of a context chip's remove button, given the chip's text. */
  removeContext: (value: string) => string;
  /** Beside a context chip whose text was cut to fit. */
  contextTruncated: string;
  /** Heading of an answer's sources (and of them in a copied conversation). */
  sourcesHeading: string;
  /** Heading of the related pages under an answer. */
  suggestionsHeading: string;
  /** Name of an answer's reasoning, once written. */
  reasoning: string;
  /** Name of an answer's reasoning while it is being written. */
  reasoningStreaming: string;
  /** An answer's step while the assistant searches the docs, given the query. */
  searchingDocs: (query: string) => string;
  /** An answer's step once the assistant searched the docs, given the query. */
  searchedDocs: (query: string) => string;
  /** An answer's step while the assistant calls a tool, given its name. */
  toolCalling: (name: string) => string;
  /** An answer's step once the assistant called a tool, given its name. */
  toolCalled: (name: string) => string;
  /** Shown, and announced, while the answer has not started. */
  thinking: string;
  /** Announced when an answer is finished (before its first words). */
  answerReady: string;
  /** Error banner: the service refused the assistant key. */
  errorAuth: string;
  /** Error banner: too many requests, given the seconds to wait when the service said. */
  errorRateLimit: (retryAfterSeconds?: number) => string;
  /** Error banner: the service could not be reached. */
  errorNetwork: string;
  /** Error banner: the answer was cut off. */
  errorStream: string;
  /** Error banner: the service refused the request. */
  errorRequest: string;
  /** Error banner: the widget is set up wrongly on this site. */
  errorConfig: string;
  /** In the panel (and as an error) where the assistant is not available on this deployment. */
  unavailable: string;
  /** Names the reader's messages (for screen readers, in a shared or copied conversation). */
  you: string;
  /** Names the assistant's messages (for screen readers, in a shared or copied conversation). */
  assistant: string;
  /** Shown in place of a redacted reasoning detail. Optional for compatibility. */
  redacted?: string;
  /** The number of results of a docs search. Optional for compatibility. */
  searchResultCount?: (count: number) => string;
  /** Alt text of an image the assistant sent. Optional for compatibility. */
  imageAlt?: (mimeType: string) => string;
  /** Text of the download link of a non-image file the assistant sent. Optional for compatibility. */
  downloadFile?: (mimeType: string) => string;
  /** Said when copying failed and the code was selected instead. Optional for compatibility. */
  copyFailed?: string;
  /** Said while the panel's code loads on first open. Optional for compatibility. */
  loading?: string;
  /** Accessible name of the "Ask AI" button on the page's code blocks. Optional for compatibility. */
  askAiAboutCode?: string;
  /** Accessible name of an answer's code block that names no language. Optional for compatibility. */
  codeBlock?: string;
  /**
   * Said in place of a code block when a finished answer is announced ("(code block)" when not
   * given; the default lives in the lazily loaded panel). Optional for compatibility.
   */
  codeBlockAnnounced?: string;
  /**
   * The launcher's text (and, inline, the panel's message) when the panel's code failed to load,
   * e.g. offline or after a redeploy; pressing it tries again. Optional for compatibility.
   */
  panelUnavailable?: string;
  /** Shown in the panel when it failed to render; its Retry button renders it again. Optional for compatibility. */
  panelCrashed?: string;
  /** The action that contacts support (in "More", and under an answer that did not help). Optional for compatibility. */
  contactSupport?: string;
  /** The action in "More" that shares the conversation, and the name of the share sheet. Optional for compatibility. */
  share?: string;
  /** The header's action that opens the past conversations. Optional for compatibility. */
  history?: string;
  /** The action in "More" that copies the conversation. */
  copyConversation?: string;
  /** Said once the conversation was copied. */
  conversationCopied?: string;
  /**
   * Text of the link that stands for an image from an origin not in `allowedImageOrigins`, given
   * its alt text ("<alt> (external image)" when not given; the default lives in the lazily loaded
   * panel). Optional for compatibility.
   */
  externalImage?: (alt: string) => string;
  /**
   * Said before the part of an answer shown as plain text because it is nested too deeply
   * (`'depth'`) or too long (`'size'`) to format (the default lives in the lazily loaded panel).
   * Optional for compatibility.
   */
  markdownLimit?: (reason: 'size' | 'depth') => string;
  /** The panel header's button that turns typing into a docs search (default in the panel). Optional for compatibility. */
  searchView?: string;
  /** The question box's button that attaches files (the `attachments` prop). Optional for compatibility. */
  attachFiles?: string;
  /** The button above a long conversation's latest messages that shows earlier ones. Optional for compatibility. */
  showEarlierMessages?: string;
  /** Announced once earlier messages show, given how many. Optional for compatibility. */
  earlierMessagesShown?: (count: number) => string;
  /** The header's "More" button and its menu's name. Optional for compatibility. */
  moreActions?: string;
  /** Beside a question or answer the reader stopped. Optional for compatibility. */
  stopped?: string;
  /** The action in "More" that withdraws consent (the `consent` prop). Optional for compatibility. */
  withdrawConsent?: string;
  /** Name of the context chips on a sent question. Optional for compatibility. */
  sentContext?: string;
}

/** The strings the panel and the part renderers show, which the panel's defaults all fill. */
type CoreKey =
  | 'redacted'
  | 'searchResultCount'
  | 'imageAlt'
  | 'downloadFile'
  | 'copyFailed'
  | 'loading'
  | 'askAiAboutCode'
  | 'codeBlock'
  | 'codeBlockAnnounced'
  | 'panelUnavailable'
  | 'panelCrashed'
  | 'externalImage'
  | 'markdownLimit'
  | 'searchView'
  | 'history'
  | 'copyConversation'
  | 'conversationCopied'
  | 'share'
  | 'contactSupport'
  | 'moreActions'
  | 'stopped'
  | 'withdrawConsent'
  | 'sentContext'
  | 'attachFiles'
  | 'showEarlierMessages'
  | 'earlierMessagesShown';

/** The labels in effect in the panel: every string it shows is there (no fallback where it is read). */
export type CoreLabels = Labels & Required<Pick<Labels, CoreKey>>;

/** The strings the shell shows before the panel loads (launcher, title bar, loading, failure). */
export type ShellLabels = Pick<Labels, 'launcher' | 'title' | 'close' | 'askAi' | 'unavailable'> &
  Required<Pick<Labels, 'loading' | 'askAiAboutCode' | 'panelUnavailable'>>;
