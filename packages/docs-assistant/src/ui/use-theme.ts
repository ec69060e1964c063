import { useSyncExternalStore } from 'react';
import type { Theme } from './types.js';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribe(onChange: () => void): () => void {
  if (typeof window === 'undefined' || !window.matchMedia) return () => {};
  const query = window.matchMedia(DARK_QUERY);
  query.addEventListener?.('change', onChange);
  return () => query.removeEventListener?.('change', onChange);
}

const prefersDark = () => typeof window !== 'undefined' && !!window.matchMedia?.(DARK_QUERY).matches;

/**
 * The theme to render: `system` follows `prefers-color-scheme`, live. The server (and hydration)
 * render `light`, then the client switches, so markup always matches during hydration.
 */
export function useResolvedTheme(theme: Theme): 'light' | 'dark' {
  const systemDark = useSyncExternalStore(
    theme === 'system' ? subscribe : noopSubscribe,
    prefersDark,
    () => false,
  );
  if (theme === 'system') return systemDark ? 'dark' : 'light';
  return theme;
}

const noopSubscribe = () => () => {};

const subscribeNothing = () => () => {};

/** False on the server and during hydration, true once mounted in a browser. */
export function useIsClient(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );
}
