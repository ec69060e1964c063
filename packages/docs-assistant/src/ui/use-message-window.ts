/**
 * Which messages of a conversation are rendered: the latest `MESSAGE_WINDOW` when a conversation
 * opens, and `MESSAGE_WINDOW` more each time the reader asks for earlier ones. A stored conversation
 * may hold thousands of messages, and each answer is a Markdown tree: rendering them all froze the
 * page for seconds on mount, so opening costs the same for 20 messages as for 20,000.
 *
 * The window starts at an index, so messages added at the end (a new question, its answer) always
 * show. Another conversation (another first message) opens with the latest ones again. Showing
 * earlier messages keeps what the reader sees where it was: the distance from the list's bottom is
 * restored once they are in the DOM, before the paint.
 */
import { type RefObject, useCallback, useLayoutEffect, useRef, useState } from 'react';

/** Messages rendered when a conversation opens, and added by each "Show earlier messages". */
export const MESSAGE_WINDOW = 40;

export interface MessageWindow<T> {
  /** The messages to render, oldest first. */
  visible: readonly T[];
  /** Earlier messages not rendered yet. */
  hidden: number;
  /** Messages the last "Show earlier messages" added (0 until then, and in another conversation). */
  added: number;
  /** Renders up to `MESSAGE_WINDOW` more of the earlier messages. */
  showEarlier: () => void;
}

export function useMessageWindow<T extends { id: string }>(
  messages: readonly T[],
  listRef: RefObject<HTMLElement | null>,
  size: number = MESSAGE_WINDOW,
): MessageWindow<T> {
  const first = messages[0]?.id;
  const [range, setRange] = useState(() => ({
    first,
    start: Math.max(0, messages.length - size),
    added: 0,
  }));
  let start = range.start;
  if (range.first !== first) {
    // Another conversation: its latest messages. Set while rendering (React re-renders at once,
    // before any child), so the long list is never rendered whole, not even once.
    start = Math.max(0, messages.length - size);
    setRange({ first, start, added: 0 });
  }
  start = Math.min(start, messages.length);

  // Distance from the list's bottom to its scroll position before earlier messages were added.
  const anchor = useRef<number | null>(null);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (anchor.current === null || !list) return;
    list.scrollTop = list.scrollHeight - anchor.current;
    anchor.current = null;
  });

  const showEarlier = useCallback(() => {
    const added = Math.min(size, start);
    if (added === 0) return;
    const list = listRef.current;
    if (list) anchor.current = list.scrollHeight - list.scrollTop;
    setRange({ first, start: start - added, added });
  }, [first, start, size, listRef]);

  return {
    visible: start === 0 ? messages : messages.slice(start),
    hidden: start,
    added: range.first === first ? range.added : 0,
    showEarlier,
  };
}
