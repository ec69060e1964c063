/**
 * Every user-facing string (`Labels`): the shape hosts override through `labels` and language
 * packs fill (`docs-assistant/labels/de`, `…/ar`). Types only: the defaults are in `panel.ts` (the
 * panel's) and `shell.ts` (the launcher's), both in `defaults.ts`; each lazily loaded view keeps
 * the defaults of its own words beside it, so they load with it.
 */

/** Every user-facing string. Functions take the values they show. */
export interface Labels {
  launcher: string;
  title: string;
  close: string;
  inputPlaceholder: string;
  inputLabel: string;
  send: string;
  stop: string;
  retry: string;
  copy: string;
  copied: string;
  copyCode: string;
  newConversation: string;
  starterQuestionsHeading: string;
  askAi: string;
  removeContext: (value: string) => string;
  contextTruncated: string;
  sourcesHeading: string;
  suggestionsHeading: string;
  reasoning: string;
  reasoningStreaming: string;
  searchingDocs: (query: string) => string;
  searchedDocs: (query: string) => string;
  toolCalling: (name: string) => string;
  toolCalled: (name: string) => string;
  thinking: string;
  answerReady: string;
  errorAuth: string;
  errorRateLimit: (retryAfterSeconds?: number) => string;
  errorNetwork: string;
  errorStream: string;
  errorRequest: string;
  errorConfig: string;
  unavailable: string;
  you: string;
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
  /**
   * Feedback on an answer (defaults in the lazily loaded feedback view): the group's name, the two
   * votes, the comment box and its buttons, and what is announced after a vote. Optional for compatibility.
   */
  feedbackPrompt?: string;
  feedbackUp?: string;
  feedbackDown?: string;
  feedbackComment?: string;
  feedbackSend?: string;
  feedbackSkip?: string;
  feedbackThanks?: string;
  feedbackFailed?: string;
  /**
   * A way to a human (`support`; defaults in the lazily loaded support view): the action, the mail
   * subject, and the prompt under an answer that found nothing or was voted down. Optional for compatibility.
   */
  contactSupport?: string;
  supportSubject?: string;
  supportNoAnswer?: string;
  supportAfterVote?: string;
  /**
   * Sharing a conversation (defaults in the lazily loaded share view): the action, the link and
   * its copy state, revoking, and the shared transcript's title, notice, actions and errors.
   * Optional for compatibility.
   */
  share?: string;
  shareLink?: string;
  shareCopied?: string;
  shareCopy?: string;
  stopSharing?: string;
  shareStopped?: string;
  shareFailed?: string;
  sharedTitle?: string;
  sharedNotice?: string;
  sharedContinue?: string;
  sharedClose?: string;
  sharedNotFound?: string;
  sharedLoading?: string;
  /**
   * Past conversations and copying one (defaults in the lazily loaded history view): the header's
   * actions, the view's heading, search box, counts, empty and no-match texts, delete and its
   * confirmation, and the way back. Optional for compatibility.
   */
  history?: string;
  historyHeading?: string;
  historySearch?: string;
  historyEmpty?: string;
  historyNoMatch?: (query: string) => string;
  historyCount?: (count: number) => string;
  historyMessages?: (count: number) => string;
  historyUntitled?: string;
  historyCurrent?: string;
  historyDelete?: (title: string) => string;
  historyDeleteAll?: string;
  historyConfirmDeleteAll?: (count: number) => string;
  historyCancel?: string;
  historyDeleted?: string;
  historyBack?: string;
  copyConversation?: string;
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
  /**
   * Attachments (`attachments` prop; defaults in the composer and the lazily loaded attachments
   * view): the attach button, the list of attached files, a file's remove button, and the messages
   * for a file refused as too large, one too many, or of a type that cannot be attached (given the
   * file's name and the limit). Optional for compatibility.
   */
  attachFiles?: string;
  attachmentsLabel?: string;
  removeAttachment?: (name: string) => string;
  attachmentTooLarge?: (name: string, limit: string) => string;
  attachmentTooMany?: (name: string, limit: number) => string;
  attachmentBadType?: (name: string) => string;
  /**
   * A long conversation shows its latest messages first: the button above them that shows earlier
   * ones, and what is announced after it did (given how many). Optional for compatibility.
   */
  showEarlierMessages?: string;
  earlierMessagesShown?: (count: number) => string;
  /**
   * The header's "More" button (and its menu's name), the question or answer the reader stopped
   * ("Stopped"), the menu's way to withdraw consent (the `consent` prop), and the name of the
   * context chips on a sent question. Optional for compatibility.
   */
  moreActions?: string;
  stopped?: string;
  withdrawConsent?: string;
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
