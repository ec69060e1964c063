/**
 * What the shell needs of the labels before the panel loads: the host's overrides, carried by a
 * React context, and the defaults of the few strings the shell shows (launcher, title bar, "Ask
 * AI", the unavailable, loading and failed states). Every other default lives in `labels.tsx`,
 * which only the panel and its parts import: the launcher does not carry them. `useLabels()` merges
 * the overrides with all the defaults.
 */
import { createContext } from 'react';
import type { Labels } from './labels.js';

/** The `labels` overrides in effect (the provider's value); defaults are merged by whoever reads. */
export const LabelOverrides = createContext<Partial<Labels> | undefined>(undefined);

/** The defaults of the labels the shell shows; `defaultLabels` includes them. */
export const shellLabels: Pick<Labels, 'launcher' | 'title' | 'close' | 'askAi' | 'unavailable'> &
  Required<Pick<Labels, 'loading' | 'askAiAboutCode' | 'panelUnavailable'>> = {
  launcher: 'Ask AI',
  title: 'Ask the docs',
  close: 'Close',
  askAi: 'Ask AI',
  unavailable: 'The AI assistant is not available on this deployment.',
  loading: 'Loading the assistant…',
  askAiAboutCode: 'Ask AI about this code',
  panelUnavailable: 'Assistant unavailable, retry',
};
