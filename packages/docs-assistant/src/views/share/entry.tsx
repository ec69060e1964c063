/**
 * The one chunk the panel loads for sharing and support: the share sheet, a shared transcript,
 * the support prompt, and what the header's menu needs to offer "Share" and "Contact support".
 * One lazy import in the panel rather than several, so bundlers that copy shared modules into each
 * lazy chunk (webpack, rspack) copy nothing here.
 */

export { default as SupportPrompt, pageUrl } from '../support/support.js';
export { supportHref, supportLinkKind, supportTranscript } from '../support/transcript.js';
export { sharingSupported } from './client.js';
export { shareLabels } from './labels.js';
export { default as ShareSheet } from './share-sheet.js';
export { default as SharedTranscript } from './shared-transcript.js';
