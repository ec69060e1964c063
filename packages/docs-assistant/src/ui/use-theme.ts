import { useMemo, useSyncExternalStore } from 'react';
import type { HostTheme, Theme } from './types.js';

const DARK_QUERY = '(prefers-color-scheme: dark)';

// One query for the page: `matchMedia` makes and evaluates a new one on every call, and the theme
// is read on every render of the shell.
let darkQuery: MediaQueryList | null | undefined;
const systemDark = () => (darkQuery ??= window.matchMedia?.(DARK_QUERY) ?? null);
const prefersDark = () => !!systemDark()?.matches;

/**
 * What the theme depends on, as a store: with `followHost` the class or attribute on `<html>` (a
 * MutationObserver sees the host's switch flip it), and the system setting where that decides.
 * Read in the browser only.
 */
function themeStore(theme: Theme | { followHost: HostTheme }) {
  const host = typeof theme === 'object' ? theme?.followHost : undefined;
  const fallback = host ? (host.fallback ?? 'light') : theme;
  const read = (): 'light' | 'dark' => {
    const html = document.documentElement;
    if (host?.className && html.classList.contains(host.className)) return 'dark';
    const value = host?.attribute ? html.getAttribute(host.attribute) : null;
    if (value !== null) return value === (host?.dark ?? 'dark') ? 'dark' : 'light';
    return fallback === 'dark' || (fallback === 'system' && prefersDark()) ? 'dark' : 'light';
  };
  const subscribe = (onChange: () => void): (() => void) => {
    const query = fallback === 'system' ? systemDark() : undefined;
    query?.addEventListener?.('change', onChange);
    const observer = host ? new MutationObserver(onChange) : undefined;
    observer?.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['class', host?.attribute ?? 'class'],
    });
    return () => {
      query?.removeEventListener?.('change', onChange);
      observer?.disconnect();
    };
  };
  // The server (and hydration) cannot see the page: a fixed theme, else light.
  const server = (): 'light' | 'dark' => (fallback === 'dark' ? 'dark' : 'light');
  return { read, subscribe, server };
}

/**
 * The theme to render: `system` follows `prefers-color-scheme`, `{ followHost }` the host's own
 * switch on `<html>`, both live. The server (and hydration) render `dark` or `light` as given, else
 * `light`, then the client switches, so markup always matches during hydration.
 */
export function useResolvedTheme(theme: Theme | { followHost: HostTheme }): 'light' | 'dark' {
  // Keyed on the contents: hosts pass the object inline.
  const key = typeof theme === 'object' ? JSON.stringify(theme?.followHost) : theme;
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the theme's contents
  const store = useMemo(() => themeStore(theme), [key]);
  return useSyncExternalStore(store.subscribe, store.read, store.server);
}

const subscribeNothing = () => () => {};

/** False on the server and during hydration, true once mounted in a browser. */
export function useIsClient(): boolean {
  return useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );
}
