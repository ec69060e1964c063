export * from './evaluate.js';
export { type LoadDocsOptions, loadDocs } from './load.js';
export * from './markdown.js';
export * from './search-index.js';
