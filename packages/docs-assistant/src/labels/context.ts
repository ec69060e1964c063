/**
 * The labels in effect in the panel (the defaults with the host's `labels` overrides, merged once
 * by the panel's root, `panel.tsx`), carried by a React context to everything in it; `useLabels`
 * reads them. The shell reads no context: it merges its few (`shell.ts`) itself and hands the
 * header its labels by props.
 */
import { createContext } from 'react';
import type { CoreLabels } from './types.js';

export const LabelsInEffect = createContext<CoreLabels | undefined>(undefined);
