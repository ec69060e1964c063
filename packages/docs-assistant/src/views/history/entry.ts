/**
 * The one module the panel imports lazily for history: the list of past conversations (and its
 * search, which the stories use). Read from this module only, so every bundler makes one chunk.
 */
export { default as HistoryView } from './history.js';
