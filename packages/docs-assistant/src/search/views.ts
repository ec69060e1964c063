/**
 * The one module the panel imports lazily for the docs search and the page preview. Both are read
 * from it, so every bundler makes one chunk of them and the search client they share (`core.ts`),
 * which webpack and Rspack would otherwise copy into two chunks.
 */
export { default as PagePreview } from './page-preview.js';
export { default as SearchResults } from './search-results.js';
