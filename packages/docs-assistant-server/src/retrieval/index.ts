export * from './evaluate.js';
export {
  formatSiteReport,
  type LoadDocsOptions,
  loadDocs,
  loadSite,
  type SiteOptions,
  type SiteReport,
} from './load.js';
export * from './markdown.js';
export * from './search-index.js';
