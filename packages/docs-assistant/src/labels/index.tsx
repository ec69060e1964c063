/**
 * The labels module: every user-facing string's type (`types.ts`), the defaults (`defaults.ts`,
 * `shell.ts`), the context that carries a host's overrides (`context.ts`), and the hook the panel
 * and the part renderers read them with. Language packs: `de.ts`, `ar.ts`.
 */
import { type ReactNode, useContext } from 'react';
import { LabelOverrides } from './context.js';
import { defaultLabels } from './defaults.js';
import { withLabels } from './merge.js';
import type { CoreLabels, Labels } from './types.js';

export type { CoreLabels, Labels };
export { defaultLabels, withLabels };

/** Provides labels (overrides of the defaults) to everything below. */
export function LabelsProvider({ labels, children }: { labels?: Partial<Labels>; children: ReactNode }) {
  return <LabelOverrides.Provider value={labels}>{children}</LabelOverrides.Provider>;
}

// One merged object per overrides object, shared by every reader.
const merged = new WeakMap<Partial<Labels>, CoreLabels>();

/** The labels in effect: the defaults with the provider's overrides (the defaults outside one). */
export function useLabels(): CoreLabels {
  const labels = useContext(LabelOverrides);
  if (!labels) return defaultLabels;
  let all = merged.get(labels);
  if (!all) {
    all = withLabels(defaultLabels, labels);
    merged.set(labels, all);
  }
  return all;
}
