/**
 * The English defaults of the docs search's and the page preview's words, kept in their lazily
 * loaded chunk; the panel's labels (the host's overrides merged in) go over them.
 */
import type { Labels } from '../labels/types.js';

type SearchKey =
  | 'searchResultCount'
  | 'searchNoResults'
  | 'searchFailed'
  | 'searchResultsLabel'
  | 'askAiAbout'
  | 'previewBack'
  | 'previewOpen'
  | 'previewLoading'
  | 'previewNotFound';

export type SearchLabels = Labels & Required<Pick<Labels, SearchKey>>;

const defaults: Required<Pick<Labels, SearchKey>> = {
  searchResultCount: (count) => (count === 1 ? '1 result' : `${count} results`),
  searchNoResults: (query) => `No results for “${query}”`,
  searchFailed: 'The docs search failed.',
  searchResultsLabel: 'Search results',
  askAiAbout: (query) => `Ask AI: “${query}”`,
  previewBack: 'Back',
  previewOpen: 'Open the page',
  previewLoading: 'Loading the page…',
  previewNotFound: 'This page is not in the docs the assistant knows.',
};

export const searchLabels = (labels: Labels): SearchLabels => ({ ...defaults, ...labels }) as SearchLabels;
