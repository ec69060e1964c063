/**
 * The history view's texts: the host's `labels` where given, else these English defaults (kept
 * here, in the lazily loaded view, not in the widget's core).
 */
import type { Labels } from '../../labels/types.js';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

type HistoryKey =
  | 'history'
  | 'historyHeading'
  | 'historySearch'
  | 'historyEmpty'
  | 'historyNoMatch'
  | 'historyCount'
  | 'historyMessages'
  | 'historyUntitled'
  | 'historyCurrent'
  | 'historyDelete'
  | 'historyDeleteAll'
  | 'historyConfirmDeleteAll'
  | 'historyCancel'
  | 'historyDeleted'
  | 'historyBack';

export type HistoryLabels = Required<Pick<Labels, HistoryKey>>;

export const historyDefaults: HistoryLabels = {
  history: 'History',
  historyHeading: 'Past conversations',
  historySearch: 'Search past conversations',
  historyEmpty: 'No past conversations yet. Questions you ask are kept here, on this device.',
  historyNoMatch: (query: string) => `No conversation mentions “${query}”.`,
  historyCount: (count: number) => plural(count, 'conversation', 'conversations'),
  historyMessages: (count: number) => plural(count, 'message', 'messages'),
  historyUntitled: 'Untitled conversation',
  historyCurrent: 'shown now',
  historyDelete: (title: string) => `Delete “${title}”`,
  historyDeleteAll: 'Delete all',
  historyConfirmDeleteAll: (count: number) =>
    `Delete all ${plural(count, 'conversation', 'conversations')} from this device? This cannot be undone.`,
  historyCancel: 'Cancel',
  historyDeleted: 'Deleted.',
  historyBack: 'Back to the conversation',
};

/** The panel's labels (the host's overrides merged in, none `undefined`) over the defaults. */
export const historyLabels = (labels: Partial<Labels>): HistoryLabels =>
  ({ ...historyDefaults, ...labels }) as HistoryLabels;
