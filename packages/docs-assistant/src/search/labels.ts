/** The docs search's and page preview's words: the panel's labels (the host's overrides merged in) over their defaults. */
import type { CoreLabels } from '../labels/types.js';
import { type SearchDefaults, searchDefaults } from '../labels/views/search.js';

export type SearchLabels = CoreLabels & SearchDefaults;

export const searchLabels = (labels: CoreLabels): SearchLabels =>
  ({ ...searchDefaults, ...labels }) as SearchLabels;
