/**
 * What `<DocsAssistant>` loads on the reader's first interaction with the page (see
 * `collector-trigger.ts`): both collectors, in one chunk, kept out of the launcher.
 */
export { createCodeBlockCollector } from './code-block-collector.js';
export { createSelectionCollector } from './selection-collector.js';
