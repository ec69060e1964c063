export * from './errors.js';
export * from './issues.js';
export * from './keys.js';
export * from './limits.js';
export * from './paths.js';
export * from './schemas.js';
export * from './search-results.js';
export * from './stream.js';
