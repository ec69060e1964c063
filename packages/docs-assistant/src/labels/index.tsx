/**
 * The labels module: every user-facing string's type (`types.ts`), the defaults (`defaults.ts`,
 * `shell.ts`, `panel.ts`), the context that carries the labels in effect (`context.ts`), and the
 * hook the panel and the part renderers read them with. Language packs: `de.ts`, `ar.ts`.
 *
 * Nothing here imports the launcher's modules (`shell.ts`, `merge.ts`): the panel's root merges the
 * host's overrides with the merge and the shell's labels the shell hands it (`ShellFrame`), so
 * esbuild has no module shared by the launcher and the panel to split into a file of its own.
 */
import { type ReactNode, useContext } from 'react';
import { LabelsInEffect } from './context.js';
import { panelLabels } from './panel.js';
import type { CoreLabels, Labels } from './types.js';

export type { CoreLabels, Labels };

/** Provides the labels in effect (the defaults with the host's overrides, merged) to everything below. */
export function LabelsProvider({ labels, children }: { labels: CoreLabels; children: ReactNode }) {
  return <LabelsInEffect.Provider value={labels}>{children}</LabelsInEffect.Provider>;
}

/**
 * The labels in effect: the provider's; outside one (a part renderer in a UI of the host's own),
 * the defaults. There the shell's few (launcher, title, close…, `shell.ts`) are not among them: no
 * part renderer reads them, and they are the launcher's, which the panel's code does not import.
 */
export function useLabels(): CoreLabels {
  return useContext(LabelsInEffect) ?? (panelLabels as CoreLabels);
}
