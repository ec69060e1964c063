import { useEffect, useRef } from 'react';
import type { Context } from '../protocol/index.js';
import { createSelectionCollector } from './selection-collector.js';

/** The widget's root, whose own selections and code blocks the collectors leave alone. */
export interface WidgetRef {
  readonly current: Element | null;
}

export interface UseSelectionCollectorOptions {
  /** Watch the selection at all. @default true */
  enabled?: boolean;
  /** The widget's root element: selections inside it are not offered, and the button lives in it. */
  widgetRef?: WidgetRef;
  /** Receives the `textSelection` context item. May change between renders without restarting. */
  onAsk: (context: Context) => void;
  /** The button's text, e.g. `labels.askAi`. */
  label: string;
}

/**
 * Offers "Ask AI" on text selected in the page outside the widget (see `createSelectionCollector`).
 * Starts in an effect, so it renders the same on the server and does nothing there.
 */
export function useSelectionCollector({
  enabled = true,
  widgetRef,
  onAsk,
  label,
}: UseSelectionCollectorOptions): void {
  const onAskRef = useRef(onAsk);
  useEffect(() => {
    onAskRef.current = onAsk;
  });

  useEffect(() => {
    if (!enabled) return;
    let collector: { destroy(): void };
    try {
      collector = createSelectionCollector({
        isInsideWidget: (node) => widgetRef?.current?.contains(node) ?? false,
        container: () => widgetRef?.current,
        onAsk: (context) => onAskRef.current(context),
        label,
      });
    } catch (error) {
      // A misconfigured collector must not take the host page down with it.
      console.error(error);
      return;
    }
    return () => collector.destroy();
  }, [enabled, label, widgetRef]);
}
