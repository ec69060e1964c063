import { type RefObject, useEffect, useMemo, useRef } from 'react';

export interface ParsedShortcut {
  key: string;
  /** Cmd on macOS, Ctrl elsewhere. */
  mod: boolean;
  ctrl: boolean;
  meta: boolean;
  alt: boolean;
  shift: boolean;
}

const MODIFIERS = new Set(['mod', 'ctrl', 'control', 'meta', 'cmd', 'command', 'alt', 'option', 'shift']);

/**
 * Parses `'mod+i'`, `'ctrl+k'`, `'shift+alt+/'`: modifiers joined by `+`, then exactly one key.
 * Throws an error that says what a valid shortcut looks like.
 */
export function parseShortcut(shortcut: string): ParsedShortcut {
  const tokens = shortcut
    .toLowerCase()
    .split('+')
    .map((t) => t.trim());
  const keys = tokens.filter((t) => !MODIFIERS.has(t));
  if (keys.length !== 1 || keys[0] === '') {
    throw new Error(
      `docs-assistant: shortcut "${shortcut}" is not valid. Use modifiers and one key joined by "+", ` +
        `e.g. "mod+i" (Cmd on macOS, Ctrl elsewhere), "ctrl+k" or "shift+alt+a"; or false to turn it off.`,
    );
  }
  const has = (...names: string[]) => names.some((n) => tokens.includes(n));
  return {
    key: keys[0] as string,
    mod: has('mod'),
    ctrl: has('ctrl', 'control'),
    meta: has('meta', 'cmd', 'command'),
    alt: has('alt', 'option'),
    shift: has('shift'),
  };
}

export function isMacPlatform(): boolean {
  if (typeof navigator === 'undefined') return false;
  const platform =
    (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ??
    navigator.platform ??
    '';
  return /mac|iphone|ipad|ipod/i.test(platform);
}

export function matchesShortcut(event: KeyboardEvent, shortcut: ParsedShortcut, isMac: boolean): boolean {
  const wantCtrl = shortcut.ctrl || (shortcut.mod && !isMac);
  const wantMeta = shortcut.meta || (shortcut.mod && isMac);
  if (event.ctrlKey !== wantCtrl || event.metaKey !== wantMeta) return false;
  if (event.altKey !== shortcut.alt || event.shiftKey !== shortcut.shift) return false;
  const key = shortcut.key;
  if (event.key?.toLowerCase() === key) return true;
  // With Alt (Option on macOS) held, `key` is a different character; the physical key still matches.
  if (/^[a-z]$/.test(key)) return event.code === `Key${key.toUpperCase()}`;
  if (/^[0-9]$/.test(key)) return event.code === `Digit${key}`;
  return false;
}

/** Text fields of the host page: a shortcut typed there is the reader's text, not a command. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const el = target as HTMLElement;
  if (el.isContentEditable) return true;
  if (el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  if (el.tagName === 'INPUT') {
    const type = (el as HTMLInputElement).type;
    return !['button', 'submit', 'reset', 'checkbox', 'radio', 'range', 'color', 'file', 'image'].includes(
      type,
    );
  }
  return false;
}

/** The shortcut as `aria-keyshortcuts` spells it (`Control+I`, `Meta+I`). */
export function ariaKeyShortcuts(shortcut: ParsedShortcut, isMac: boolean): string {
  const parts: string[] = [];
  if (shortcut.ctrl || (shortcut.mod && !isMac)) parts.push('Control');
  if (shortcut.meta || (shortcut.mod && isMac)) parts.push('Meta');
  if (shortcut.alt) parts.push('Alt');
  if (shortcut.shift) parts.push('Shift');
  parts.push(shortcut.key.length === 1 ? shortcut.key.toUpperCase() : shortcut.key);
  return parts.join('+');
}

/** Parses once per string; a bad one is reported and turned off rather than breaking the host page. */
export function useParsedShortcut(shortcut: string | false): ParsedShortcut | null {
  return useMemo(() => {
    try {
      return shortcut === false ? null : parseShortcut(shortcut);
    } catch (error) {
      console.error(error);
      return null;
    }
  }, [shortcut]);
}

/**
 * Calls `onTrigger` on the shortcut anywhere in the page, except while the reader types in one of the
 * host page's fields (inside the widget it still works, so it can refocus the question box).
 */
export function useShortcut(
  shortcut: ParsedShortcut | null,
  widgetRef: RefObject<HTMLElement | null>,
  onTrigger: () => void,
): void {
  const onTriggerRef = useRef(onTrigger);
  onTriggerRef.current = onTrigger;
  useEffect(() => {
    if (!shortcut) return;
    const isMac = isMacPlatform();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing || event.repeat) return;
      if (!matchesShortcut(event, shortcut, isMac)) return;
      const inWidget = event.target instanceof Node && !!widgetRef.current?.contains(event.target);
      if (isTypingTarget(event.target) && !inWidget) return;
      event.preventDefault();
      onTriggerRef.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [shortcut, widgetRef]);
}
