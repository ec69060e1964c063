import type { Context } from '../protocol/index.js';

/**
 * A tiny observable list of context items. It lives outside React so the collectors (loaded with
 * the launcher) and the chat hook (loaded with the panel) share it, and so host pages can add to
 * it before the panel ever opens. `useSyncExternalStore`-friendly.
 */
export interface ContextStore {
  getSnapshot(): readonly ContextItem[];
  subscribe(listener: () => void): () => void;
  /** Adds an item (its value cut to the limit, marked `truncated`); returns its id. Same type+value twice is added once. */
  add(item: Context): string;
  remove(id: string): void;
  clear(): void;
}

/** A context item (spec §2.4) with an id for the UI; `truncated` when its value was cut. */
export interface ContextItem extends Context {
  id: string;
  truncated?: boolean;
}
