import { useMemo, useSyncExternalStore } from 'react';
import type { HostTheme, Theme } from './types.js';

const DARK_QUERY = '(prefers-color-scheme: dark)';

const prefersDark = () => typeof window !== 'undefined' && !!window.matchMedia?.(DARK_QUERY).matches;

/**
 * What the theme depends on, as a store: the system setting, and with `followHost` the class or
 * attribute on `<html>` (a MutationObserver sees the host's switch flip it).
 */
function themeStore(theme: Theme | { followHost: HostTheme }) {
  const host = typeof theme === 'object' && theme ? theme.followHost : undefined;
  const { className, attribute, dark = 'dark', fallback = 'light' } = host ?? {};
  const watchesSystem = host ? fallback === 'system' : theme === 'system';
  const read = (): 'light' | 'dark' => {
    if (host) {
      const html = typeof document === 'undefined' ? null : document.documentElement;
      if (html && className && html.classList.contains(className)) return 'dark';
      const value = attribute ? html?.getAttribute(attribute) : null;
      if (value != null) return value === dark ? 'dark' : 'light';
      if (fallback !== 'system') return fallback;
    } else if (theme !== 'system') {
      return theme === 'dark' ? 'dark' : 'light';
    }
    return prefersDark() ? 'dark' : 'light';
  };
  const subscribe = (onChange: () => void): (() => void) => {
    if (typeof window === 'undefined') return () => {};
    const query = watchesSystem ? window.matchMedia?.(DARK_QUERY) : undefined;
    query?.addEventListener?.('change', onChange);
    const observer = host ? new MutationObserver(onChange) : undefined;
    const filter = [className && 'class', attribute].filter((name): name is string => !!name);
    if (observer && filter.length) {
      observer.observe(document.documentElement, { attributes: true, attributeFilter: filter });
    }
    return () => {
      query?.removeEventListener?.('change', onChange);
      observer?.disconnect();
    };
  };
  return { read, subscribe };
}

/**
 * The theme to render: `system` follows `prefers-color-scheme`, `{ followHost }` the host's own
 * switch on `<html>`, both live. The server (and hydration) render `light`, then the client switches,
 * so markup always matches during hydration.
 */
export function useResolvedTheme(theme: Theme | { followHost: HostTheme }): 'light' | 'dark' {
  // Keyed on the contents: hosts pass the object inline.
  const key = typeof theme === 'object' && theme ? JSON.stringify(theme.followHost) : theme;
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the theme's contents
  const store = useMemo(() => themeStore(theme), [key]);
  return useSyncExternalStore(store.subscribe, store.read, () => 'light');
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
