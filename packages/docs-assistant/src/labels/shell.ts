/**
 * The defaults of the few strings the shell shows before the panel loads (launcher, title bar,
 * "Ask AI", the unavailable, loading and failed states): plain data, no React, so the launcher
 * carries only these and a server component may import them. `panel.ts` has the rest, and
 * `defaults.ts` both.
 */
import type { ShellLabels } from './types.js';

export const shellLabels: ShellLabels = {
  launcher: 'Ask AI',
  title: 'Ask the docs',
  close: 'Close',
  askAi: 'Ask AI',
  unavailable: 'The AI assistant is not available on this deployment.',
  loading: 'Loading the assistant…',
  askAiAboutCode: 'Ask AI about this code',
  panelUnavailable: 'Assistant unavailable, retry',
};
