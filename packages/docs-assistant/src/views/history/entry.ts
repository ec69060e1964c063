/**
 * The one module the panel imports lazily for history: the header's actions and the list of past
 * conversations. Both are read from this module, so every bundler makes one chunk of them and
 * their shared texts (`labels.ts`), which webpack and Rspack would otherwise copy into two chunks.
 */
export { default as HistoryActions } from './actions.js';
export { default as HistoryView } from './history.js';
