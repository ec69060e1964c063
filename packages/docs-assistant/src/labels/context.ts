/**
 * The host's `labels` overrides, carried by a React context from the shell to everything below.
 * Defaults are merged by whoever reads: the launcher with its few (`shell.ts`), the panel with all
 * of its own (`useLabels`).
 */
import { createContext } from 'react';
import type { Labels } from './types.js';

export const LabelOverrides = createContext<Partial<Labels> | undefined>(undefined);
