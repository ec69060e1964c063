/**
 * The host's `labels` overrides, carried by a React context from the panel's root (`LabelsProvider`
 * in `panel.tsx`) to everything in it; `useLabels` merges them with the defaults. The shell reads no
 * context: it merges its few (`shell.ts`) itself and hands the header its labels by props.
 */
import { createContext } from 'react';
import type { Labels } from './types.js';

export const LabelOverrides = createContext<Partial<Labels> | undefined>(undefined);
