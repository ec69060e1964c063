/**
 * `<DocsAssistant>`'s collectors as a hook over `startLazyCollectors`: the trigger starts in an
 * effect and stops on unmount; `onAsk` and `shortcut` may change between renders without
 * restarting it.
 */
import { useEffect, useRef } from 'react';
import { type LazyCollectorsOptions, startLazyCollectors } from './collector-trigger.js';

export interface UseLazyCollectorsOptions extends Omit<LazyCollectorsOptions, 'shortcut'> {
  /** The widget's shortcut as `aria-keyshortcuts` spells it (`Control+I`); known after mount. */
  shortcut?: string | undefined;
}

/**
 * Runs the collectors `<DocsAssistant>` asks for, loading their code on first use
 * (see `collector-trigger.ts`).
 * Starts in an effect, so it renders the same on the server and does nothing there.
 */
export function useLazyCollectors(options: UseLazyCollectorsOptions): void {
  const { selection, codeBlocks, widgetRef, label, accessibleLabel } = options;
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  useEffect(
    () =>
      startLazyCollectors(document, {
        selection,
        codeBlocks,
        widgetRef,
        label,
        accessibleLabel,
        onAsk: (context) => latest.current.onAsk(context),
        shortcut: () => latest.current.shortcut,
      }),
    [selection, codeBlocks, widgetRef, label, accessibleLabel],
  );
}
