import { useEffect, useRef } from 'react';
import type { Context } from '../protocol/index.js';
import { createCodeBlockCollector, DEFAULT_CODE_BLOCK_SELECTOR } from './code-block-collector.js';
import type { WidgetRef } from './use-selection-collector.js';

export interface UseCodeBlockCollectorOptions {
  /** Offer the button at all. @default true */
  enabled?: boolean;
  /** CSS selector of the code blocks. @default 'pre' */
  selector?: string;
  /** The widget's root element: its code blocks are not offered, and the button lives in it. */
  widgetRef?: WidgetRef;
  /** Receives the `code` context item. May change between renders without restarting. */
  onAsk: (context: Context) => void;
  /** The button's text, e.g. `labels.askAi`. */
  label: string;
  /** The button's accessible name, e.g. `labels.askAiAboutCode`. @default `${label} about this code` */
  accessibleLabel?: string;
}

/**
 * Offers "Ask AI" on the page's code blocks outside the widget, now and as they appear (see
 * `createCodeBlockCollector`): one button in the widget's root, never anything in the blocks.
 * Starts in an effect; removes its button and listeners on unmount.
 */
export function useCodeBlockCollector({
  enabled = true,
  selector = DEFAULT_CODE_BLOCK_SELECTOR,
  widgetRef,
  onAsk,
  label,
  accessibleLabel,
}: UseCodeBlockCollectorOptions): void {
  const onAskRef = useRef(onAsk);
  useEffect(() => {
    onAskRef.current = onAsk;
  });

  useEffect(() => {
    if (!enabled) return;
    let collector: { destroy(): void };
    try {
      collector = createCodeBlockCollector({
        selector,
        isInsideWidget: (node) => widgetRef?.current?.contains(node) ?? false,
        container: () => widgetRef?.current,
        onAsk: (context) => onAskRef.current(context),
        label,
        ...(accessibleLabel ? { accessibleLabel } : {}),
      });
    } catch (error) {
      // A bad selector is reported, not thrown: it must not take the host page down with it.
      console.error(error);
      return;
    }
    return () => collector.destroy();
  }, [enabled, selector, label, accessibleLabel, widgetRef]);
}
