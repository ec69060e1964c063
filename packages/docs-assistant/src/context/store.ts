import type { Context } from '../protocol/index.js';
import type { ContextItem, ContextStore } from './types.js';

/** Longest context value sent (in characters); longer ones are cut and marked `truncated`. */
export const CONTEXT_VALUE_MAX_LENGTH = 4_000;

/** Most context items kept at once; adding more drops the oldest. */
export const CONTEXT_ITEMS_MAX = 8;

let nextId = 0;

/** Creates the observable list of context items shared by the collectors, the hook and the UI. */
export function createContextStore(initial: readonly Context[] = []): ContextStore {
  let items: readonly ContextItem[] = [];
  const listeners = new Set<() => void>();
  const emit = () => {
    for (const listener of listeners) listener();
  };

  const store: ContextStore = {
    getSnapshot: () => items,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    add(item) {
      const truncated = item.value.length > CONTEXT_VALUE_MAX_LENGTH;
      const value = truncated ? item.value.slice(0, CONTEXT_VALUE_MAX_LENGTH) : item.value;
      const existing = items.find((i) => i.type === item.type && i.value === value);
      if (existing) return existing.id;
      nextId += 1;
      const added: ContextItem = { ...item, value, id: `ctx-${nextId}`, ...(truncated ? { truncated } : {}) };
      items = [...items, added].slice(-CONTEXT_ITEMS_MAX);
      emit();
      return added.id;
    },
    remove(id) {
      const next = items.filter((i) => i.id !== id);
      if (next.length === items.length) return;
      items = next;
      emit();
    },
    clear() {
      if (items.length === 0) return;
      items = [];
      emit();
    },
  };
  for (const item of initial) store.add(item);
  return store;
}
