/**
 * Context collection on the host page: the shared store and the collectors that feed it. Loaded
 * with the launcher, so it stays plain DOM code plus two small hooks (no markdown, SDK or zod).
 */

export type { CodeBlockCollectorOptions } from './code-block-collector';
export { createCodeBlockCollector, DEFAULT_CODE_BLOCK_SELECTOR } from './code-block-collector';
export type { CollectorsProp, ResolvedCollectors } from './collector-options';
export { resolveCollectors } from './collector-options';
export type { Collector, SelectionCollectorOptions } from './selection-collector';
export { createSelectionCollector } from './selection-collector';
export { CONTEXT_ITEMS_MAX, CONTEXT_VALUE_MAX_LENGTH, createContextStore, toRequestContext } from './store';
export type { ContextItem, ContextStore } from './types';
export type { UseCodeBlockCollectorOptions } from './use-code-block-collector';
export { useCodeBlockCollector } from './use-code-block-collector';
export type { UseSelectionCollectorOptions, WidgetRef } from './use-selection-collector';
export { useSelectionCollector } from './use-selection-collector';
