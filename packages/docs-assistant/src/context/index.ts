/**
 * Context collection on the host page: the shared store and the collectors that feed it, plain DOM
 * code (no markdown, SDK or zod). `<DocsAssistant>` does not load this: its launcher has only the
 * trigger (`collector-trigger.ts`), which loads the collectors on first use.
 */

export type { CodeBlockCollectorOptions } from './code-block-collector.js';
export { createCodeBlockCollector, DEFAULT_CODE_BLOCK_SELECTOR } from './code-block-collector.js';
export type { CollectorsProp, ResolvedCollectors } from './collector-options.js';
export { resolveCollectors } from './collector-options.js';
export { toRequestContext } from './request.js';
export type { Collector, SelectionCollectorOptions } from './selection-collector.js';
export { createSelectionCollector } from './selection-collector.js';
export {
  CONTEXT_ITEMS_MAX,
  CONTEXT_VALUE_MAX_LENGTH,
  createContextStore,
} from './store.js';
export type { ContextItem, ContextStore } from './types.js';
