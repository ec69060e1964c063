/**
 * The defaults of every string but the shell's (`shell.ts`): what the panel and the part renderers
 * show (English). Plain data, no React. Apart from the shell's so that the panel's code imports
 * none of the launcher's modules (the shell hands the panel its own labels, `ShellFrame`), and
 * `defaultLabels` (`defaults.ts`) is both.
 */
import type { CoreLabels, ShellLabels } from './types.js';

/** Every default but the shell's. */
export type PanelDefaults = Omit<CoreLabels, keyof ShellLabels>;

export const panelLabels: PanelDefaults = {
  inputPlaceholder: 'Ask a question about the docs…',
  inputLabel: 'Your question',
  send: 'Send',
  stop: 'Stop',
  retry: 'Retry',
  copy: 'Copy answer',
  copied: 'Copied',
  copyCode: 'Copy code',
  newConversation: 'New conversation',
  starterQuestionsHeading: 'Try asking',
  removeContext: (value) => `Remove context: ${value.length > 40 ? `${value.slice(0, 40)}…` : value}`,
  contextTruncated: 'cut to fit',
  sourcesHeading: 'Sources',
  suggestionsHeading: 'Related pages',
  reasoning: 'Reasoning',
  reasoningStreaming: 'Thinking…',
  searchingDocs: (query) => `Searching the docs for “${query}”…`,
  searchedDocs: (query) => `Searched the docs for “${query}”`,
  toolCalling: (name) => `Calling ${name}…`,
  toolCalled: (name) => `Called ${name}`,
  thinking: 'Thinking…',
  answerReady: 'Answer ready',
  errorAuth: 'The assistant key was rejected. Check the key configured for this site.',
  errorRateLimit: (seconds) =>
    seconds
      ? `Too many requests. Try again in ${seconds} seconds.`
      : 'Too many requests. Try again in a moment.',
  errorNetwork: 'Couldn’t reach the assistant. Check your connection and retry.',
  errorStream: 'The answer was cut off. Retry to get the rest.',
  errorRequest: 'The assistant couldn’t take this request.',
  errorConfig: 'The assistant is not set up correctly on this site.',
  you: 'You',
  assistant: 'Assistant',
  redacted: '[redacted]',
  searchResultCount: (count) => (count === 1 ? '1 result' : `${count} results`),
  imageAlt: (mimeType) => `Image from the assistant (${mimeType})`,
  downloadFile: (mimeType) => `Download file (${mimeType})`,
  copyFailed: 'Code selected: press Ctrl+C (⌘C on a Mac) to copy',
  codeBlock: 'Code',
  panelCrashed: 'Something went wrong in the assistant.',
  codeBlockAnnounced: '(code block)',
  externalImage: (alt) => (alt ? `${alt} (external image)` : 'External image'),
  markdownLimit: (reason) =>
    reason === 'depth'
      ? 'The rest of this answer is nested too deeply to format; it is shown as plain text.'
      : 'The rest of this answer is too long to format; it is shown as plain text.',
  searchView: 'Search the docs',
  history: 'History',
  copyConversation: 'Copy conversation',
  conversationCopied: 'Conversation copied',
  share: 'Share',
  contactSupport: 'Contact support',
  moreActions: 'More actions',
  stopped: 'Stopped',
  withdrawConsent: 'Withdraw consent',
  sentContext: 'Sent with the question',
  attachFiles: 'Attach files',
  showEarlierMessages: 'Show earlier messages',
  earlierMessagesShown: (count) =>
    count === 1 ? '1 earlier message shown' : `${count} earlier messages shown`,
};
