/** The feedback view's words: the panel's labels (the host's overrides merged in) over their defaults. */
import type { Labels } from '../../labels/types.js';
import { type FeedbackDefaults, feedbackDefaults } from '../../labels/views/feedback.js';

export type FeedbackLabels = FeedbackDefaults;

export const feedbackLabels = (labels: Partial<Labels>): FeedbackLabels =>
  ({ ...feedbackDefaults, ...labels }) as FeedbackLabels;
