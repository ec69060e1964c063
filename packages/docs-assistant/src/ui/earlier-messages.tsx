import { type RefObject, useLayoutEffect, useRef } from 'react';
import { useLabels } from '../labels/index.js';
import { panelLabels } from '../labels/panel.js';
import { useShellFrame } from './shell-frame.js';

export interface EarlierMessagesProps {
  /** Earlier messages not rendered yet. */
  hidden: number;
  /** Messages the last press added (0 before any). */
  added: number;
  onShow: () => void;
  /** The conversation: it takes the focus when the button goes (nothing earlier is left). */
  listRef: RefObject<HTMLElement | null>;
}

/**
 * "Show earlier messages" above a long conversation's latest messages (`useMessageWindow`): a
 * button, so it is reached with Tab and pressed with Enter or Space, and a polite status that says
 * how many messages it added (the list itself is `aria-live="off"`).
 */
export function EarlierMessages({ hidden, added, onShow, listRef }: EarlierMessagesProps) {
  const labels = useLabels();
  const { visuallyHidden } = useShellFrame();
  const showLabel = labels.showEarlierMessages ?? panelLabels.showEarlierMessages!;
  const shownLabel = labels.earlierMessagesShown ?? panelLabels.earlierMessagesShown!;
  // The button had the focus when it went: the focus moves to the list rather than to the page.
  const refocus = useRef(false);
  useLayoutEffect(() => {
    if (hidden > 0 || !refocus.current) return;
    refocus.current = false;
    listRef.current?.focus({ preventScroll: true });
  }, [hidden, listRef]);
  return (
    <div data-docs-assistant="earlier">
      {hidden > 0 ? (
        <button
          type="button"
          data-action="show-earlier"
          onClick={(event) => {
            refocus.current = event.currentTarget.ownerDocument.activeElement === event.currentTarget;
            onShow();
          }}
        >
          {showLabel}
        </button>
      ) : null}
      <span role="status" style={visuallyHidden}>
        {added > 0 ? shownLabel(added) : ''}
      </span>
    </div>
  );
}
