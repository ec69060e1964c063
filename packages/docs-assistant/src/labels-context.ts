/**
 * What the shell needs of the labels before the panel loads: the host's overrides, carried by a
 * React context, and the defaults of the few strings the shell shows (launcher, title bar, "Ask
 * AI", the unavailable, loading and failed states). Every other default lives in `label-defaults.ts`,
 * which only the panel and its parts import: the launcher does not carry them. `useLabels()` merges
 * the overrides with all the defaults.
 */
import { createContext } from 'react';
import type { Labels } from './labels.js';

/** The `labels` overrides in effect (the provider's value); defaults are merged by whoever reads. */
export const LabelOverrides = createContext<Partial<Labels> | undefined>(undefined);

export { shellLabels } from './shell-labels.js';
