/**
 * The English defaults of the docs search's and the page preview's words. Plain data that only
 * the lazily loaded search and preview import at run time, so they load with them; `Labels` takes
 * their types, so each field's meaning and default are written here once. (The count of results
 * is the panel's: its header shows it too.)
 */

export const searchDefaults = {
  /** Said when a docs search found nothing, given the query. */
  searchNoResults: (query: string) => `No results for “${query}”`,
  /** Said before the error of a failed docs search. */
  searchFailed: 'The docs search failed.',
  /** Accessible name of the list of search results. */
  searchResultsLabel: 'Search results',
  /** The row under the search results that asks the query as a question, given the query. */
  askAiAbout: (query: string) => `Ask AI: “${query}”`,
  /** The page preview's button back to the panel. */
  previewBack: 'Back',
  /** The page preview's link to the page itself. */
  previewOpen: 'Open the page',
  /** Said while the page preview loads. */
  previewLoading: 'Loading the page…',
  /** Said when the previewed page is not in the docs. */
  previewNotFound: 'This page is not in the docs the assistant knows.',
};

export type SearchDefaults = typeof searchDefaults;
