/**
 * The English defaults of the words of sharing and support, kept in their lazily loaded chunk (so
 * the panel does not carry them); the host's `labels` go over them.
 */
import type { Labels } from '../../labels/types.js';

type ShareKey =
  | 'shareLink'
  | 'shareCopied'
  | 'shareCopy'
  | 'stopSharing'
  | 'shareStopped'
  | 'shareFailed'
  | 'sharedTitle'
  | 'sharedNotice'
  | 'sharedContinue'
  | 'sharedClose'
  | 'sharedNotFound'
  | 'sharedLoading'
  | 'supportSubject'
  | 'supportNoAnswer'
  | 'supportAfterVote';

export type ShareLabels = Labels & Required<Pick<Labels, ShareKey | 'contactSupport' | 'close'>>;

const defaults: Required<Pick<Labels, ShareKey>> = {
  shareLink: 'Link to this conversation (read-only)',
  shareCopied: 'Link copied',
  shareCopy: 'Copy link',
  stopSharing: 'Stop sharing',
  shareStopped: 'Sharing stopped: the link no longer opens this conversation.',
  shareFailed: 'Sharing failed.',
  sharedTitle: 'Shared conversation',
  sharedNotice: 'Read-only. Continuing starts a new conversation of your own.',
  sharedContinue: 'Continue as a new conversation',
  sharedClose: 'Close',
  sharedNotFound: 'This shared conversation is no longer available.',
  sharedLoading: 'Loading the shared conversation…',
  supportSubject: 'Question about the docs',
  supportNoAnswer: 'The docs may not cover this. A person can help.',
  supportAfterVote: 'Sorry this did not help. A person can take it from here.',
};

/** What the panel hands over: its labels, the host's overrides merged in. */
export type PanelLabels = Labels & Pick<ShareLabels, 'contactSupport' | 'close'>;

/** The panel's labels over these defaults. */
export const shareLabels = (labels: PanelLabels): ShareLabels => ({ ...defaults, ...labels });
