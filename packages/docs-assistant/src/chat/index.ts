/** The chat module's public face (pinned by `tests/chat/exports.test.ts`): the hook, its storages and its types. */
export { createLocalThreadStorage, createMemoryThreadStorage, threadStorageKey } from './storage.js';
export type * from './types.js';
export { useDocsAssistant } from './use-docs-assistant.js';
