/**
 * The collectors as `<DocsAssistant>` runs them: out of the launcher. Until the reader does
 * something they could be for, only this trigger runs: passive listeners on `document` (never on
 * the page's elements, which it never touches either) that load `collector-chunk.ts` on the first
 * pointer over a code block, focus moving into the page, Tab, or text selected in the page, then
 * start the collectors and hand them what happened meanwhile: the block under the pointer, the
 * focus (the code block collector reads it when it starts), the selection (the selection collector
 * offers the one it finds), the last Tab.
 *
 * Why a keyboard reader still meets every block's virtual tab stop: the code block collector acts
 * only on a Tab pressed while focus is on a page element (from the document itself, the browser's
 * Tab is already right). Focus reaches a page element only through a `focusin` (the reader's first
 * Tab, a click, a script), and that starts the load; the first Tab's keydown, with focus still on
 * the document, starts it even before focus moves. So the load is under way at least one keystroke
 * before the first Tab the collector has a say in, which is the earliest focus can be on the last
 * focusable thing before a block's end, and the small chunk from the site's own origin normally
 * arrives within that keystroke. When it does not (a slow network, keys sent by a script), the
 * last Tab pressed meanwhile is recorded (where from, where focus landed) and replayed when the
 * collector starts: if it went past a block's stop and focus is still where it landed, focus moves
 * to the button over that block, where that Tab would have put it. A reader who has tabbed on
 * further is not pulled back. (The selection collector's "first Tab goes to the button" applies
 * from the first Tab after it started.)
 *
 * A failed load is logged once per page and leaves the page and the rest of the widget as they
 * are; a later mount tries again. Once loaded, collectors start at once (a new label, a remount).
 */
import type { Context } from '../protocol/index.js';
import type { ResolvedCollectors } from './collector-options.js';
import type { Collector } from './selection-collector.js';
import type { WidgetRef } from './use-selection-collector.js';

type Chunk = typeof import('./collector-chunk.js');

let chunk: Promise<Chunk> | undefined;
let loaded: Chunk | undefined;
let reported = false;

function loadChunk(): Promise<Chunk> {
  chunk ??= import('./collector-chunk.js').then(
    (module) => (loaded = module),
    (error: unknown) => {
      chunk = undefined;
      throw error;
    },
  );
  return chunk;
}

export interface LazyCollectorsOptions extends ResolvedCollectors {
  /** The widget's root: the widget's own focus, selections and code blocks start nothing. */
  widgetRef: WidgetRef;
  /** Receives the context item. May change between renders without restarting. */
  onAsk: (context: Context) => void;
  /** The buttons' text, e.g. `labels.askAi`. */
  label: string;
  /** The code blocks' button's accessible name. @default `${label} about this code` */
  accessibleLabel?: string;
}

const LISTENING = { capture: true, passive: true } as const;

/** Starts the trigger (or the collectors, once loaded); returns what stops everything. */
export function startLazyCollectors(doc: Document, options: LazyCollectorsOptions): () => void {
  const { selection, codeBlocks, widgetRef, label, accessibleLabel } = options;
  const isInsideWidget = (node: Node) => widgetRef.current?.contains(node) ?? false;
  const running: Collector[] = [];
  let stopped = false;
  let requested = false;
  let pointerDown = false;
  let hovered: Element | null = null;
  let tabbed: { from: Element; to?: EventTarget | null; backwards: boolean } | undefined;

  const elementOf = (target: EventTarget | Node | null | undefined): Element | null => {
    const node = target as Node | null | undefined;
    if (!node || typeof node.nodeType !== 'number') return null;
    return node.nodeType === 1 ? (node as Element) : node.parentElement;
  };
  const inPage = (target: EventTarget | Node | null | undefined): Element | null => {
    const el = elementOf(target);
    return el && !isInsideWidget(el) && !el.closest('[data-docs-assistant]') ? el : null;
  };
  const blockAt = (target: EventTarget | null): Element | null => {
    const el = inPage(target);
    try {
      return codeBlocks && el?.closest(codeBlocks) ? el : null;
    } catch {
      return null;
    }
  };

  const hasSelection = () => {
    const selected = doc.getSelection();
    return selection && !!selected && !selected.isCollapsed && !!inPage(selected.anchorNode);
  };

  const startSelection = () => {
    doc.removeEventListener('mouseup', startSelection, true);
    if (!stopped && loaded) attempt(() => running.push(loaded!.createSelectionCollector(shared)));
  };
  const shared = {
    isInsideWidget,
    container: () => widgetRef.current,
    onAsk: (context: Context) => options.onAsk(context),
    label,
  };

  const start = (module: Chunk) => {
    if (stopped) return;
    listen(false);
    if (codeBlocks) {
      attempt(() => {
        const collector = module.createCodeBlockCollector({
          ...shared,
          selector: codeBlocks,
          ...(accessibleLabel ? { accessibleLabel } : {}),
        });
        running.push(collector);
        if (hovered) collector.hover(hovered);
        if (tabbed?.to && tabbed.to === doc.activeElement) collector.retab(tabbed.from, tabbed.backwards);
      });
    }
    // Mid-drag, the selection collector starts when the drag ends, as it would have waited for.
    if (selection && pointerDown) doc.addEventListener('mouseup', startSelection, LISTENING);
    else if (selection) startSelection();
  };

  const request = () => {
    if (requested) return;
    requested = true;
    loadChunk().then(start, (error: unknown) => {
      listen(false);
      if (reported || stopped) return;
      reported = true;
      console.error('docs-assistant: the "Ask AI" buttons could not be loaded.', error);
    });
  };

  const listeners: [string, (event: Event) => void][] = [
    [
      'mouseover',
      (event) => {
        hovered = blockAt(event.target);
        if (hovered) request();
      },
    ],
    [
      'focusin',
      (event) => {
        if (tabbed && tabbed.to === undefined) tabbed.to = event.target;
        if (codeBlocks && inPage(event.target)) request();
      },
    ],
    [
      'keydown',
      (event) => {
        const { key, altKey, ctrlKey, metaKey, shiftKey } = event as KeyboardEvent;
        if (!codeBlocks || key !== 'Tab' || altKey || ctrlKey || metaKey) return;
        const active = doc.activeElement;
        // Tab in the widget is the widget's business.
        if (active && !inPage(active)) return;
        tabbed = active && active !== doc.body ? { from: active, backwards: shiftKey } : undefined;
        request();
      },
    ],
    [
      'selectionchange',
      () => {
        if (hasSelection()) request();
      },
    ],
    [
      'mousedown',
      () => {
        pointerDown = true;
        tabbed = undefined;
      },
    ],
    [
      'mouseup',
      () => {
        pointerDown = false;
      },
    ],
  ];
  const listen = (on: boolean) => {
    for (const [type, listener] of listeners) {
      if (on) doc.addEventListener(type, listener, LISTENING);
      else doc.removeEventListener(type, listener, true);
    }
  };

  if (selection || codeBlocks) {
    if (loaded) start(loaded);
    else {
      listen(true);
      try {
        if (codeBlocks) doc.createDocumentFragment().querySelector(codeBlocks);
        // Focus in a block or a selection made before the widget started (before hydration, say)
        // is offered at once, as the collectors always have.
        if (blockAt(doc.activeElement) || hasSelection()) request();
      } catch {
        // A bad selector is reported by the collector, at mount as before.
        request();
      }
    }
  }

  return () => {
    stopped = true;
    listen(false);
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
