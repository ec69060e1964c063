/** The history view's words: the panel's labels (the host's overrides merged in) over its defaults. */
import type { Labels } from '../../labels/types.js';
import { type HistoryDefaults, historyDefaults } from '../../labels/views/history.js';

export type HistoryLabels = HistoryDefaults;

/** The panel's labels (the host's overrides merged in, none `undefined`) over the defaults. */
export const historyLabels = (labels: Partial<Labels>): HistoryLabels =>
  ({ ...historyDefaults, ...labels }) as HistoryLabels;
