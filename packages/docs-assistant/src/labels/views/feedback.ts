/**
 * The English defaults of the words of feedback on an answer (its votes and comment form). Plain
 * data that only the lazily loaded feedback view imports at run time, so they load with it;
 * `Labels` takes their types, so each field's meaning and default are written here once.
 */

export const feedbackDefaults = {
  /** Name of the group of votes under an answer. */
  feedbackPrompt: 'Was this answer helpful?',
  /** The helpful vote (its name). */
  feedbackUp: 'Helpful',
  /** The unhelpful vote (its name). */
  feedbackDown: 'Not helpful',
  /** Label of the comment box that opens after a vote. */
  feedbackComment: 'Tell us more (optional)',
  /** The comment box's send button. */
  feedbackSend: 'Send feedback',
  /** The comment box's button that closes it without a comment. */
  feedbackSkip: 'Skip',
  /** Announced once the feedback was sent. */
  feedbackThanks: 'Thanks for your feedback.',
  /** Announced when the feedback could not be sent. */
  feedbackFailed: 'Your feedback could not be sent.',
};

export type FeedbackDefaults = typeof feedbackDefaults;
