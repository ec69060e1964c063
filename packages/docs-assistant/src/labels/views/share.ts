/**
 * The English defaults of the words of sharing a conversation and of the way to a human
 * (`support`). Plain data that only the lazily loaded share and support views import at run time,
 * so they load with them; `Labels` takes their types, so each field's meaning and default are
 * written here once.
 */

export const shareDefaults = {
  /** Label of the share sheet's link. */
  shareLink: 'Link to this conversation (read-only)',
  /** Said in the share sheet once the link was copied. */
  shareCopied: 'Link copied',
  /** The share sheet's button that copies the link. */
  shareCopy: 'Copy link',
  /** The share sheet's button that revokes the link. */
  stopSharing: 'Stop sharing',
  /** Said in the share sheet once the link was revoked. */
  shareStopped: 'Sharing stopped: the link no longer opens this conversation.',
  /** Said in the share sheet when sharing or revoking failed. */
  shareFailed: 'Sharing failed.',
  /** Heading of a shared conversation a reader opened. */
  sharedTitle: 'Shared conversation',
  /** Notice above a shared conversation (it is read-only). */
  sharedNotice: 'Read-only. Continuing starts a new conversation of your own.',
  /** A shared conversation's button that continues it as the reader's own. */
  sharedContinue: 'Continue as a new conversation',
  /** A shared conversation's close button. */
  sharedClose: 'Close',
  /** Said when a shared conversation is no longer available. */
  sharedNotFound: 'This shared conversation is no longer available.',
  /** Said while a shared conversation loads. */
  sharedLoading: 'Loading the shared conversation…',
  /** Subject of the mail to support. */
  supportSubject: 'Question about the docs',
  /** Prompt under an answer that found nothing in the docs. */
  supportNoAnswer: 'The docs may not cover this. A person can help.',
  /** Prompt under an answer the reader voted down. */
  supportAfterVote: 'Sorry this did not help. A person can take it from here.',
};

export type ShareDefaults = typeof shareDefaults;
