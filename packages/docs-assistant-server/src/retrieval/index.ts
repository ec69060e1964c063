export * from './evaluate';
export { type LoadDocsOptions, loadDocs } from './load';
export * from './markdown';
export * from './search-index';
