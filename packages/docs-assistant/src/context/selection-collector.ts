/**
 * Offers "Ask AI" on text the reader selects in the page (outside the widget): a small floating
 * button near the selection that adds it as a `textSelection` context item.
 *
 * Keyboard: once the button shows, the first Tab (with focus outside a text field) moves focus to
 * it, so a selection made with Shift+arrows (caret browsing, screen readers) can be sent with
 * Tab, Enter. Escape hides it and gives focus back. After that first Tab, Tab behaves as usual.
 */
import type { Context } from '../protocol/index.js';
import {
  checkOptions,
  createScheduler,
  hasFocus,
  isOwnButton,
  isWidgetNode,
  nearestElementId,
  pagePath,
  resolveDocument,
  WIDGET_ATTRIBUTE,
} from './dom.js';

export interface SelectionCollectorOptions {
  /** The document to watch. @default the global `document` */
  root?: Document;
  /**
   * Whether a node belongs to the widget; selections there are not offered. Elements marked
   * `data-docs-assistant` always count as the widget's.
   * @default () => false
   */
  isInsideWidget?: (node: Node) => boolean;
  /** Receives the `textSelection` context item when the reader clicks the button. */
  onAsk: (context: Context) => void;
  /** The button's text, e.g. `labels.askAi`. */
  label: string;
  /**
   * The element the button is put in while shown: the widget's own root, so nothing is added to
   * the page's server-rendered markup. @default the document's `body`
   */
  container?: () => Element | null | undefined;
}

/** A running collector; `destroy` removes its listeners and anything it added to the page. */
export interface Collector {
  destroy(): void;
}

/** Space between the selection and the button (in px). */
const GAP = 8;
/** Smallest distance kept between the button and the viewport's edges (in px). */
const MARGIN = 8;
/** Above page content and most site chrome, below the widget's own dialog if it goes higher. */
const Z_INDEX = '2147483000';

interface SelectionPoint {
  anchorNode: Node | null;
  anchorOffset: number;
  focusNode: Node | null;
  focusOffset: number;
}

const pointOf = (s: Selection): SelectionPoint => ({
  anchorNode: s.anchorNode,
  anchorOffset: s.anchorOffset,
  focusNode: s.focusNode,
  focusOffset: s.focusOffset,
});

const samePoint = (a: SelectionPoint, b: SelectionPoint) =>
  a.anchorNode === b.anchorNode &&
  a.anchorOffset === b.anchorOffset &&
  a.focusNode === b.focusNode &&
  a.focusOffset === b.focusOffset;

/** Where the selection is on screen, or null where there is no layout (jsdom, old engines). */
function selectionBox(range: Range): { box: DOMRect; end: DOMRect } | null {
  if (typeof range.getBoundingClientRect !== 'function' || typeof range.getClientRects !== 'function') {
    return null;
  }
  const box = range.getBoundingClientRect();
  // The last non-empty line box is where the reader's eye (and pointer) ends up; an empty one
  // appears when a triple-click selection ends at the start of the next block.
  const lines = Array.from(range.getClientRects()).filter((r) => r.width > 0);
  return { box, end: lines[lines.length - 1] ?? box };
}

function isTextField(element: Element | null): boolean {
  if (!element) return false;
  const html = element as HTMLElement;
  return element.tagName === 'INPUT' || element.tagName === 'TEXTAREA' || html.isContentEditable === true;
}

/** Watches the page's selection and shows the floating "Ask AI" button for it. */
export function createSelectionCollector(options: SelectionCollectorOptions): Collector {
  checkOptions('createSelectionCollector', options);
  const doc = resolveDocument(options.root, 'createSelectionCollector');
  const win = doc.defaultView;
  const { onAsk, label } = options;
  const insideWidget = options.isInsideWidget ?? (() => false);

  let button: HTMLButtonElement | null = null;
  let offered: { value: string; elementId: string | undefined } | null = null;
  // The selection the reader dismissed (Escape) or already asked about; not offered again.
  let settled: SelectionPoint | null = null;
  let pointerDown = false;
  let tabTaken = false;
  let returnFocus: HTMLElement | null = null;
  let destroyed = false;

  const hide = () => {
    if (!button) return;
    const hadFocus = hasFocus(button);
    button.remove();
    button = null;
    offered = null;
    if (hadFocus && returnFocus?.isConnected) returnFocus.focus();
    returnFocus = null;
  };

  const ask = () => {
    // The selection may have changed since the button was placed (Shift+arrows, then a quick Tab
    // and Enter, before the next frame or even the selectionchange event): send what is selected now.
    scheduler.cancel();
    update();
    if (!offered) return;
    const { value, elementId } = offered;
    const selection = doc.getSelection();
    if (selection) settled = pointOf(selection);
    // Hide (and give focus back) first, so the widget can move focus into its panel in onAsk.
    hide();
    const path = pagePath(doc);
    onAsk({ type: 'textSelection', value, ...(path ? { path } : {}), ...(elementId ? { elementId } : {}) });
  };

  const createButton = () => {
    const b = doc.createElement('button');
    b.type = 'button';
    b.setAttribute(WIDGET_ATTRIBUTE, 'ask-selection');
    b.textContent = label;
    b.style.position = 'fixed';
    b.style.zIndex = Z_INDEX;
    // Pressing the button must not collapse the selection it is about to send.
    b.addEventListener('mousedown', (event) => event.preventDefault());
    b.addEventListener('click', ask);
    return b;
  };

  const place = (b: HTMLButtonElement, rects: ReturnType<typeof selectionBox>) => {
    const width = win?.innerWidth || doc.documentElement.clientWidth;
    const height = win?.innerHeight || doc.documentElement.clientHeight;
    if (!rects) {
      b.style.top = `${MARGIN}px`;
      b.style.left = `${MARGIN}px`;
      return;
    }
    const { box, end } = rects;
    const w = b.offsetWidth;
    const h = b.offsetHeight;
    // Below the selection where it fits, else above it; always inside the viewport.
    let top = box.bottom + GAP;
    if (top + h > height - MARGIN) top = box.top - GAP - h;
    top = Math.max(MARGIN, Math.min(top, height - h - MARGIN));
    const left = Math.max(MARGIN, Math.min(end.right - w / 2, width - w - MARGIN));
    b.style.top = `${Math.round(top)}px`;
    b.style.left = `${Math.round(left)}px`;
  };

  const update = () => {
    if (destroyed || pointerDown) return;
    const selection = doc.getSelection();
    if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return hide();
    // Text chosen in the host's own form fields (a search box) is input, not docs to ask about.
    const active = doc.activeElement;
    if (active?.tagName === 'INPUT' || active?.tagName === 'TEXTAREA') return hide();
    const point = pointOf(selection);
    if (settled && samePoint(settled, point)) return hide();
    settled = null;
    const range = selection.getRangeAt(0);
    if (
      isWidgetNode(selection.anchorNode, insideWidget) ||
      isWidgetNode(selection.focusNode, insideWidget) ||
      isWidgetNode(range.commonAncestorContainer, insideWidget)
    ) {
      return hide();
    }
    const value = selection.toString().trim();
    if (!value) return hide();
    const rects = selectionBox(range);
    if (rects) {
      const { box } = rects;
      const width = win?.innerWidth || doc.documentElement.clientWidth;
      const height = win?.innerHeight || doc.documentElement.clientHeight;
      // Scrolled out of view: the button would point at nothing.
      if (box.bottom < 0 || box.top > height || box.right < 0 || box.left > width) return hide();
    }
    offered = { value, elementId: nearestElementId(range.commonAncestorContainer) };
    if (!button) {
      button = createButton();
      tabTaken = false;
      (options.container?.() ?? doc.body ?? doc.documentElement).append(button);
    }
    place(button, rects);
  };

  const scheduler = createScheduler(doc, update);

  const onMouseDown = (event: MouseEvent) => {
    if (isOwnButton(button, event.target, event)) return;
    // A new click or drag starts: drop the old offer and wait for the drag to end. Selecting the
    // same words again is a fresh request, even if they were dismissed before.
    pointerDown = true;
    settled = null;
    hide();
  };
  const onMouseUp = () => {
    pointerDown = false;
    scheduler.request();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    // A mouseup outside the window is never seen; a key press means no drag is going on.
    pointerDown = false;
    if (!button) return;
    if (event.key === 'Escape') {
      const selection = doc.getSelection();
      if (selection) settled = pointOf(selection);
      hide();
      return;
    }
    if (
      event.key === 'Tab' &&
      !event.shiftKey &&
      !event.altKey &&
      !event.ctrlKey &&
      !event.metaKey &&
      !tabTaken &&
      !hasFocus(button) &&
      !isTextField(doc.activeElement)
    ) {
      tabTaken = true;
      event.preventDefault();
      const active = doc.activeElement;
      returnFocus = active && active !== doc.body ? (active as HTMLElement) : null;
      button.focus();
    }
  };

  doc.addEventListener('selectionchange', scheduler.request);
  doc.addEventListener('mousedown', onMouseDown, true);
  doc.addEventListener('mouseup', onMouseUp, true);
  doc.addEventListener('keydown', onKeyDown, true);
  doc.addEventListener('scroll', scheduler.request, { capture: true, passive: true });
  win?.addEventListener('resize', scheduler.request);
  // A selection made before the collector started (e.g. before hydration) is offered as well.
  scheduler.request();

  return {
    destroy() {
      if (destroyed) return;
      destroyed = true;
      scheduler.cancel();
      doc.removeEventListener('selectionchange', scheduler.request);
      doc.removeEventListener('mousedown', onMouseDown, true);
      doc.removeEventListener('mouseup', onMouseUp, true);
      doc.removeEventListener('keydown', onKeyDown, true);
      doc.removeEventListener('scroll', scheduler.request, { capture: true });
      win?.removeEventListener('resize', scheduler.request);
      hide();
    },
  };
}
