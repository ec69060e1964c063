export { createLocalThreadStorage, createMemoryThreadStorage, threadStorageKey } from './storage';
export type * from './types';
export { useDocsAssistant } from './use-docs-assistant';
