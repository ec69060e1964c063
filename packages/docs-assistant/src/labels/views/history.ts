/**
 * The English defaults of the past conversations' words (the history view). Plain data that only
 * the lazily loaded view imports at run time, so they load with it; `Labels` takes their types, so
 * each field's meaning and default are written here once.
 */

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export const historyDefaults = {
  /** Heading of the past conversations. */
  historyHeading: 'Past conversations',
  /** Placeholder and name of the box that searches the past conversations. */
  historySearch: 'Search past conversations',
  /** Said when there are no past conversations. */
  historyEmpty: 'No past conversations yet. Questions you ask are kept here, on this device.',
  /** Said when no past conversation matches the search, given the query. */
  historyNoMatch: (query: string) => `No conversation mentions “${query}”.`,
  /** How many past conversations show, given the count. */
  historyCount: (count: number) => plural(count, 'conversation', 'conversations'),
  /** A past conversation's count of messages, given the count. */
  historyMessages: (count: number) => plural(count, 'message', 'messages'),
  /** Title of a past conversation that has none. */
  historyUntitled: 'Untitled conversation',
  /** Beside the past conversation the panel shows now. */
  historyCurrent: 'shown now',
  /** Accessible name and title of a past conversation's delete button, given its title. */
  historyDelete: (title: string) => `Delete “${title}”`,
  /** The button that deletes every past conversation. */
  historyDeleteAll: 'Delete all',
  /** Asked before deleting every past conversation, given how many. */
  historyConfirmDeleteAll: (count: number) =>
    `Delete all ${plural(count, 'conversation', 'conversations')} from this device? This cannot be undone.`,
  /** The button that cancels deleting them all. */
  historyCancel: 'Cancel',
  /** Said, before the count, once a conversation was deleted. */
  historyDeleted: 'Deleted.',
  /** The button from the past conversations back to the conversation. */
  historyBack: 'Back to the conversation',
};

export type HistoryDefaults = typeof historyDefaults;
