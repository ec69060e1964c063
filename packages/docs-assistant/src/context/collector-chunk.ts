/**
 * What `<DocsAssistant>` loads on the reader's first interaction with the page (see
 * `collector-trigger.ts`): both collectors, in one chunk, kept out of the launcher, with the code
 * that starts them and hands them what happened while the chunk loaded.
 */
import type { Context } from '../protocol/index.js';
import { createCodeBlockCollector } from './code-block-collector.js';
import type { LazyCollectorsOptions } from './collector-trigger.js';
import { type Collector, createSelectionCollector } from './selection-collector.js';

/** What the trigger saw before the chunk was there. */
export interface TriggerState {
  isInsideWidget: (node: Node) => boolean;
  /** The code block under the pointer, offered at once. */
  hovered: Element | null;
  /** Mid-drag, the selection collector starts when the drag ends, as it would have waited for. */
  pointerDown: boolean;
}

/** Starts the collectors the options turn on (the trigger has loaded them); returns what stops them. */
export function startCollectors(
  doc: Document,
  options: LazyCollectorsOptions,
  state: TriggerState,
): () => void {
  const { selection, codeBlocks, widgetRef, label, accessibleLabel, shortcut } = options;
  const running: Collector[] = [];
  let stopped = false;
  const shared = {
    isInsideWidget: state.isInsideWidget,
    container: () => widgetRef.current,
    onAsk: (context: Context) => options.onAsk(context),
    label,
  };
  const startSelection = () => {
    doc.removeEventListener('mouseup', startSelection, true);
    if (!stopped) attempt(() => running.push(createSelectionCollector(shared)));
  };
  if (codeBlocks) {
    attempt(() => {
      const collector = createCodeBlockCollector({
        ...shared,
        selector: codeBlocks,
        ...(accessibleLabel ? { accessibleLabel } : {}),
        ...(shortcut ? { shortcut } : {}),
      });
      running.push(collector);
      if (state.hovered) collector.hover(state.hovered);
    });
  }
  if (selection && state.pointerDown)
    doc.addEventListener('mouseup', startSelection, { capture: true, passive: true });
  else if (selection) startSelection();
  return () => {
    stopped = true;
    doc.removeEventListener('mouseup', startSelection, true);
    for (const collector of running) collector.destroy();
  };
}

/** A collector that cannot start (a bad selector) is reported, never thrown into the host page. */
function attempt(run: () => void): void {
  try {
    run();
  } catch (error) {
    console.error(error);
  }
}
