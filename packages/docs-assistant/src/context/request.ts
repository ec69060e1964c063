/**
 * The context items as a request sends them: the chat controller's, apart from the store so the
 * launcher, which creates the store, does not carry it.
 */
import type { Context } from '../protocol/index.js';
import type { ContextItem } from './types.js';

/** The items as the request's `context` field (spec §2.4): ids and UI flags dropped. */
export function toRequestContext(items: readonly ContextItem[]): Context[] {
  return items.map(({ type, value, path, elementId }) => ({
    type,
    value,
    ...(path ? { path } : {}),
    ...(elementId ? { elementId } : {}),
  }));
}
