/**
 * Every user-facing string (`Labels`): the shape hosts override through `labels` and language
 * packs fill (`docs-assistant/labels/de`, `…/ar`). Types only: the defaults are in `panel.ts` (the
 * panel's) and `shell.ts` (the launcher's), both in `defaults.ts`; each lazily loaded view keeps
 * the defaults of its own words beside it, so they load with it.
 */

/** Every user-facing string. Functions take the values they show. */
export interface Labels {
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
  // Feedback on an answer (defaults in the lazily loaded feedback view). Optional for compatibility.
  /** Name of the group of votes under an answer. */
  feedbackPrompt?: string;
  /** The helpful vote (its name). */
  feedbackUp?: string;
  /** The unhelpful vote (its name). */
  feedbackDown?: string;
  /** Label of the comment box that opens after a vote. */
  feedbackComment?: string;
  /** The comment box's send button. */
  feedbackSend?: string;
  /** The comment box's button that closes it without a comment. */
  feedbackSkip?: string;
  /** Announced once the feedback was sent. */
  feedbackThanks?: string;
  /** Announced when the feedback could not be sent. */
  feedbackFailed?: string;
  // A way to a human (`support`; defaults in the lazily loaded support view). Optional for compatibility.
  /** The action that contacts support (in "More", and under an answer that did not help). */
  contactSupport?: string;
  /** Subject of the mail to support. */
  supportSubject?: string;
  /** Prompt under an answer that found nothing in the docs. */
  supportNoAnswer?: string;
  /** Prompt under an answer the reader voted down. */
  supportAfterVote?: string;
  // Sharing a conversation (defaults in the lazily loaded share view). Optional for compatibility.
  /** The action in "More" that shares the conversation, and the name of the share sheet. */
  share?: string;
  /** Label of the share sheet's link. */
  shareLink?: string;
  /** Said in the share sheet once the link was copied. */
  shareCopied?: string;
  /** The share sheet's button that copies the link. */
  shareCopy?: string;
  /** The share sheet's button that revokes the link. */
  stopSharing?: string;
  /** Said in the share sheet once the link was revoked. */
  shareStopped?: string;
  /** Said in the share sheet when sharing or revoking failed. */
  shareFailed?: string;
  /** Heading of a shared conversation a reader opened. */
  sharedTitle?: string;
  /** Notice above a shared conversation (it is read-only). */
  sharedNotice?: string;
  /** A shared conversation's button that continues it as the reader's own. */
  sharedContinue?: string;
  /** A shared conversation's close button. */
  sharedClose?: string;
  /** Said when a shared conversation is no longer available. */
  sharedNotFound?: string;
  /** Said while a shared conversation loads. */
  sharedLoading?: string;
  // Past conversations and copying one (defaults in the lazily loaded history view). Optional for compatibility.
  /** The header's action that opens the past conversations. */
  history?: string;
  /** Heading of the past conversations. */
  historyHeading?: string;
  /** Placeholder and name of the box that searches the past conversations. */
  historySearch?: string;
  /** Said when there are no past conversations. */
  historyEmpty?: string;
  /** Said when no past conversation matches the search, given the query. */
  historyNoMatch?: (query: string) => string;
  /** How many past conversations show, given the count. */
  historyCount?: (count: number) => string;
  /** A past conversation's count of messages, given the count. */
  historyMessages?: (count: number) => string;
  /** Title of a past conversation that has none. */
  historyUntitled?: string;
  /** Beside the past conversation the panel shows now. */
  historyCurrent?: string;
  /** Accessible name and title of a past conversation's delete button, given its title. */
  historyDelete?: (title: string) => string;
  /** The button that deletes every past conversation. */
  historyDeleteAll?: string;
  /** Asked before deleting every past conversation, given how many. */
  historyConfirmDeleteAll?: (count: number) => string;
  /** The button that cancels deleting them all. */
  historyCancel?: string;
  /** Said, before the count, once a conversation was deleted. */
  historyDeleted?: string;
  /** The button from the past conversations back to the conversation. */
  historyBack?: string;
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
  /** Said when a docs search found nothing (default in the lazily loaded search). Optional for compatibility. */
  searchNoResults?: (query: string) => string;
  /** Said before the error of a failed docs search (default in the lazily loaded search). Optional for compatibility. */
  searchFailed?: string;
  /** Accessible name of the list of search results (default in the lazily loaded search). Optional for compatibility. */
  searchResultsLabel?: string;
  /** The row under the search results that asks the query as a question (default in the lazily loaded search). Optional for compatibility. */
  askAiAbout?: (query: string) => string;
  /** The panel header's button that turns typing into a docs search (default in the panel). Optional for compatibility. */
  searchView?: string;
  /** The page preview's button back to the panel (default in the lazily loaded preview). Optional for compatibility. */
  previewBack?: string;
  /** The page preview's link to the page itself (default in the lazily loaded preview). Optional for compatibility. */
  previewOpen?: string;
  /** Said while the page preview loads (default in the lazily loaded preview). Optional for compatibility. */
  previewLoading?: string;
  /** Said when the previewed page is not in the docs (default in the lazily loaded preview). Optional for compatibility. */
  previewNotFound?: string;
  // Attachments (`attachments` prop; defaults in the composer and the lazily loaded attachments
  // view). Optional for compatibility.
  /** The question box's button that attaches files. */
  attachFiles?: string;
  /** Accessible name of the list of attached files. */
  attachmentsLabel?: string;
  /** Accessible name and title of an attached file's remove button, given its name. */
  removeAttachment?: (name: string) => string;
  /** Announced for a file refused as too large, given its name and the limit. */
  attachmentTooLarge?: (name: string, limit: string) => string;
  /** Announced for a file refused as one too many, given its name and the limit. */
  attachmentTooMany?: (name: string, limit: number) => string;
  /** Announced for a file refused for its type, given its name. */
  attachmentBadType?: (name: string) => string;
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
