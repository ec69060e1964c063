/**
 * Keeps what the reader types in the widget away from the host page's keyboard shortcuts.
 *
 * Docs sites listen for keys on `window` or `document` (DocSearch and VitePress: Ctrl/⌘+K and `/`;
 * Material for MkDocs: `s`, `f`, `n`, `p`, `.`, `,`) and skip a key typed into a text field by
 * looking at the event's target or `document.activeElement`. Neither check holds for the widget:
 * in a shadow root (the script build) both name the host element, which is not a field, and
 * Ctrl/⌘+K is taken even from a field. So no key event leaves the widget: the root's own handlers
 * stop them once every handler of the widget has run.
 *
 * Why React handlers on the root and not a DOM listener: React dispatches its handlers from the
 * element it renders into (the app's root, or `document` under `hydrateRoot(document)`), above
 * the widget's root, so a DOM listener on the widget's root stopping the event would starve the
 * widget's own handlers. A handler on the root runs in that dispatch, after the widget's, and its
 * `stopPropagation` stops the DOM event where React is: nothing above sees it (listeners on that
 * same node added after React's are stopped too). Preact (the script build) attaches handlers to
 * the elements themselves, where the root's handler is the last of the widget's to run.
 *
 * The widget's own shortcut goes on to the document, where its listener is (`use-shortcut.ts`).
 * Listeners the page adds in the capture phase run before any of this and cannot be kept out.
 */
import { type HTMLAttributes, type KeyboardEvent, useMemo, useRef } from 'react';
import { isMacPlatform, matchesShortcut, type ParsedShortcut } from './use-shortcut.js';

type KeyHandlers = Pick<HTMLAttributes<HTMLElement>, 'onKeyDown' | 'onKeyUp' | 'onKeyPress'>;
const NAMES = ['onKeyDown', 'onKeyUp', 'onKeyPress'] as const;

/**
 * The key handlers to spread on the widget's root, after the host's props: they call the host's
 * own (`rootProps.onKeyDown`, …) first, then keep the event from the page.
 */
export function useHostKeyIsolation(shortcut: ParsedShortcut | null, hostHandlers: KeyHandlers): KeyHandlers {
  const latest = useRef({ shortcut, hostHandlers });
  latest.current = { shortcut, hostHandlers };
  return useMemo(() => {
    const handlers: KeyHandlers = {};
    for (const name of NAMES) {
      handlers[name] = (event: KeyboardEvent<HTMLElement>) => {
        const { shortcut: own, hostHandlers: host } = latest.current;
        host[name]?.(event);
        if (own && matchesShortcut(event.nativeEvent, own, isMacPlatform())) return;
        event.stopPropagation();
        event.nativeEvent.stopImmediatePropagation();
      };
    }
    return handlers;
  }, []);
}
