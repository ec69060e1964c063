export { createLocalThreadStorage, createMemoryThreadStorage, threadStorageKey } from './storage.js';
export type * from './types.js';
export { useDocsAssistant } from './use-docs-assistant.js';
