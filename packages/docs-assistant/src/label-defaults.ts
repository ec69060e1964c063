/**
 * Every user-facing string's English default (`defaultLabels`): plain data, no React, so a server
 * component may import it from `docs-assistant/widget` (whose own module has no "use client").
 * `labels.tsx` carries them to the shell and the part renderers; `labels` on `<DocsAssistant>`
 * overrides any of them.
 */
import type { Labels } from './labels.js';
import { shellLabels } from './shell-labels.js';

export const defaultLabels: Labels = {
  // The shell's own (launcher, title bar…), kept in labels-context.ts so the launcher needs no more.
  ...shellLabels,
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
  showEarlierMessages: 'Show earlier messages',
  earlierMessagesShown: (count) =>
    count === 1 ? '1 earlier message shown' : `${count} earlier messages shown`,
};
