import type { Labels } from './types.js';

/**
 * The overrides over `defaults`; an override that is `undefined` leaves the default (a host's
 * `{ title: undefined }` must not blank the title). Plain code, the launcher's: the panel merges with
 * the one the shell hands it (`ShellFrame`).
 */
export function withLabels<T extends object>(defaults: T, overrides: Partial<Labels> | undefined): T {
  const all = { ...defaults } as Record<string, unknown>;
  for (const [key, value] of Object.entries(overrides ?? {})) if (value !== undefined) all[key] = value;
  return all as T;
}
