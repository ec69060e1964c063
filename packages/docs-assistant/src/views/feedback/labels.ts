/**
 * The English defaults of the feedback buttons' and comment form's words, kept in their lazily
 * loaded chunk; the panel's labels (the host's overrides merged in) go over them.
 */
import type { Labels } from '../../labels/types.js';

type FeedbackKey =
  | 'feedbackPrompt'
  | 'feedbackUp'
  | 'feedbackDown'
  | 'feedbackComment'
  | 'feedbackSend'
  | 'feedbackSkip'
  | 'feedbackThanks'
  | 'feedbackFailed';

export type FeedbackLabels = Required<Pick<Labels, FeedbackKey>>;

const defaults: FeedbackLabels = {
  feedbackPrompt: 'Was this answer helpful?',
  feedbackUp: 'Helpful',
  feedbackDown: 'Not helpful',
  feedbackComment: 'Tell us more (optional)',
  feedbackSend: 'Send feedback',
  feedbackSkip: 'Skip',
  feedbackThanks: 'Thanks for your feedback.',
  feedbackFailed: 'Your feedback could not be sent.',
};

export const feedbackLabels = (labels: Partial<Labels>): FeedbackLabels =>
  ({ ...defaults, ...labels }) as FeedbackLabels;
