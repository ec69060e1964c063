export {
  formatSiteReport,
  type LoadDocsOptions,
  loadDocs,
  loadSite,
  type SiteOptions,
  type SiteReport,
} from '../docs/load.js';
export * from '../docs/parse.js';
export * from './evaluate.js';
export * from './search-index.js';
