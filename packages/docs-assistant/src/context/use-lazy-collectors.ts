/**
 * `<DocsAssistant>`'s collectors as a hook over `startLazyCollectors`: the trigger starts in an
 * effect and stops on unmount; `onAsk` may change between renders without restarting it.
 */
import { useEffect, useRef } from 'react';
import { type LazyCollectorsOptions, startLazyCollectors } from './collector-trigger.js';

/**
 * Runs the collectors `<DocsAssistant>` asks for, loading their code on first use
 * (see `collector-trigger.ts`).
 * Starts in an effect, so it renders the same on the server and does nothing there.
 */
export function useLazyCollectors(options: LazyCollectorsOptions): void {
  const { selection, codeBlocks, widgetRef, label, accessibleLabel } = options;
  const onAskRef = useRef(options.onAsk);
  useEffect(() => {
    onAskRef.current = options.onAsk;
  });
  useEffect(
    () =>
      startLazyCollectors(document, {
        selection,
        codeBlocks,
        widgetRef,
        label,
        ...(accessibleLabel ? { accessibleLabel } : {}),
        onAsk: (context) => onAskRef.current(context),
      }),
    [selection, codeBlocks, widgetRef, label, accessibleLabel],
  );
}
