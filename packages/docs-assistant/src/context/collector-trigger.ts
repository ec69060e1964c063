/**
 * The collectors as `<DocsAssistant>` runs them: out of the launcher. Until the reader does
 * something they could be for, only this trigger runs: passive listeners on `document` (never on
 * the page's elements, which it never touches either) that load `collector-chunk.ts` on the first
 * pointer over a code block, focus moving into the page, or text selected in the page, then start
 * the collectors and hand them what happened meanwhile: the block under the pointer, the focus
 * (the code block collector reads it when it starts), the selection (the selection collector
 * offers the one it finds).
 *
 * A keyboard reader loses nothing while the chunk loads: the code block collector adds no Tab
 * stop, and the first focus in the page (which a Tab or a click into a block gives) starts the
 * load, ahead of the shortcut pressed there.
 *
 * A failed load is logged once per page and leaves the page and the rest of the widget as they
 * are; a later mount tries again. Once loaded, collectors start at once (a new label, a remount).
 */
import type { Context } from '../protocol/index.js';
import type { ResolvedCollectors } from './collector-options.js';

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

/** The widget's root, whose own selections and code blocks the collectors leave alone. */
export interface WidgetRef {
  readonly current: Element | null;
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
  /**
   * The widget's shortcut as `aria-keyshortcuts` spells it (`Control+I`), read when used: on a code
   * block holding the focus it asks about the block.
   */
  shortcut?: () => string | undefined;
}

const LISTENING = { capture: true, passive: true } as const;

/** The element of the page (not of a widget) that an event's target or a node is, or is in. */
function pageElement(
  target: EventTarget | Node | null | undefined,
  isInsideWidget: (node: Node) => boolean,
): Element | null {
  const node = target as Node | null | undefined;
  if (!node || typeof node.nodeType !== 'number') return null;
  const el = node.nodeType === 1 ? (node as Element) : node.parentElement;
  return el && !isInsideWidget(el) && !el.closest('[data-docs-assistant]') ? el : null;
}

/**
 * Starts the trigger (or the collectors, once loaded); returns what stops everything. Once loaded,
 * the chunk starts the collectors (`startCollectors`), so that code stays out of the launcher. Focus
 * in a block or a selection made before the widget started (before hydration, say) is offered at
 * once, as the collectors always have; a bad selector loads the chunk at once too, and the collector
 * reports it at mount, as before.
 */
export function startLazyCollectors(doc: Document, options: LazyCollectorsOptions): () => void {
  const { selection, codeBlocks, widgetRef } = options;
  const isInsideWidget = (node: Node) => widgetRef.current?.contains(node) ?? false;
  let stopped = false;
  let requested = false;
  let pointerDown = false;
  let hovered: Element | null = null;

  const inPage = (target: EventTarget | Node | null | undefined) => pageElement(target, isInsideWidget);
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

  let stopCollectors: (() => void) | undefined;
  const start = (module: Chunk) => {
    if (stopped) return;
    listen(false);
    stopCollectors = module.startCollectors(doc, options, { isInsideWidget, hovered, pointerDown });
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

  const hover = (event: Event) => {
    hovered = blockAt(event.target);
    if (hovered) request();
  };
  // Each listener's result is unused: `&&` chains the condition to what it starts.
  const listeners: [string, (event: Event) => unknown][] = [
    ['mouseover', hover],
    ['focusin', (event) => codeBlocks && inPage(event.target) && request()],
    ['selectionchange', () => hasSelection() && request()],
    ['mousedown', () => (pointerDown = true)],
    ['mouseup', () => (pointerDown = false)],
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
        if (blockAt(doc.activeElement) || hasSelection()) request();
      } catch {
        request();
      }
    }
  }

  return () => {
    stopped = true;
    listen(false);
    stopCollectors?.();
  };
}
