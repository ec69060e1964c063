export * from './errors';
export * from './issues';
export * from './keys';
export * from './limits';
export * from './paths';
export * from './schemas';
export * from './search-results';
export * from './stream';
