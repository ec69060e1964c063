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
  listenAll,
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

/** The viewport's size. */
function viewport(doc: Document): { width: number; height: number } {
  const win = doc.defaultView;
  return {
    width: win?.innerWidth || doc.documentElement.clientWidth,
    height: win?.innerHeight || doc.documentElement.clientHeight,
  };
}

/**
 * What a selection offers: its text, the nearest id around it and its boxes; `null` when it is
 * not the page's text to ask about (the widget's own, only blanks, scrolled out of view: the button
 * would point at nothing).
 */
function offerOf(doc: Document, selection: Selection, insideWidget: (node: Node) => boolean) {
  const range = selection.getRangeAt(0);
  if (
    isWidgetNode(selection.anchorNode, insideWidget) ||
    isWidgetNode(selection.focusNode, insideWidget) ||
    isWidgetNode(range.commonAncestorContainer, insideWidget)
  ) {
    return null;
  }
  const value = selection.toString().trim();
  if (!value) return null;
  const rects = selectionBox(range);
  if (rects) {
    const { box } = rects;
    const { width, height } = viewport(doc);
    if (box.bottom < 0 || box.top > height || box.right < 0 || box.left > width) return null;
  }
  return { value, elementId: nearestElementId(range.commonAncestorContainer), rects };
}

/** The floating button; pressing it must not collapse the selection it is about to send. */
function createSelectionButton(doc: Document, label: string, onClick: () => void): HTMLButtonElement {
  const b = doc.createElement('button');
  b.type = 'button';
  b.setAttribute(WIDGET_ATTRIBUTE, 'ask-selection');
  b.textContent = label;
  b.style.position = 'fixed';
  b.style.zIndex = Z_INDEX;
  b.addEventListener('mousedown', (event) => event.preventDefault());
  b.addEventListener('click', onClick);
  return b;
}

/** Below the selection where it fits, else above it; always inside the viewport. */
function placeNearSelection(b: HTMLButtonElement, rects: ReturnType<typeof selectionBox>): void {
  if (!rects) {
    b.style.top = `${MARGIN}px`;
    b.style.left = `${MARGIN}px`;
    return;
  }
  const { width, height } = viewport(b.ownerDocument);
  const { box, end } = rects;
  const w = b.offsetWidth;
  const h = b.offsetHeight;
  let top = box.bottom + GAP;
  if (top + h > height - MARGIN) top = box.top - GAP - h;
  top = Math.max(MARGIN, Math.min(top, height - h - MARGIN));
  const left = Math.max(MARGIN, Math.min(end.right - w / 2, width - w - MARGIN));
  b.style.top = `${Math.round(top)}px`;
  b.style.left = `${Math.round(left)}px`;
}

/** A plain Tab, from outside a text field, that the button may take once per offer. */
const isPlainTab = (event: KeyboardEvent) =>
  event.key === 'Tab' && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey;

/** What the collector's parts share. */
interface OfferState {
  button: HTMLButtonElement | null;
  offered: { value: string; elementId: string | undefined } | null;
  /** The selection the reader dismissed (Escape) or already asked about; not offered again. */
  settled: SelectionPoint | null;
  pointerDown: boolean;
  tabTaken: boolean;
  returnFocus: HTMLElement | null;
  destroyed: boolean;
}

/**
 * The offer's behaviour: `update` offers the selection (or hides the button), `ask` sends it,
 * `hide` takes the button away and gives focus back. `cancelUpdate` cancels a pending update.
 */
function offerView(
  state: OfferState,
  doc: Document,
  options: SelectionCollectorOptions,
  cancelUpdate: () => void,
) {
  const insideWidget = options.isInsideWidget ?? (() => false);
  const hide = () => {
    const { button, returnFocus } = state;
    if (!button) return;
    const hadFocus = hasFocus(button);
    button.remove();
    state.button = null;
    state.offered = null;
    if (hadFocus && returnFocus?.isConnected) returnFocus.focus();
    state.returnFocus = null;
  };
  const ask = () => {
    // The selection may have changed since the button was placed (Shift+arrows, then a quick Tab
    // and Enter, before the next frame or even the selectionchange event): send what is selected now.
    cancelUpdate();
    update();
    if (!state.offered) return;
    const { value, elementId } = state.offered;
    const selection = doc.getSelection();
    if (selection) state.settled = pointOf(selection);
    // Hide (and give focus back) first, so the widget can move focus into its panel in onAsk.
    hide();
    const path = pagePath(doc);
    options.onAsk({
      type: 'textSelection',
      value,
      ...(path ? { path } : {}),
      ...(elementId ? { elementId } : {}),
    });
  };
  const update = () => {
    if (state.destroyed || state.pointerDown) return;
    const selection = doc.getSelection();
    if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return hide();
    // Text chosen in the host's own form fields (a search box) is input, not docs to ask about.
    const active = doc.activeElement;
    if (active?.tagName === 'INPUT' || active?.tagName === 'TEXTAREA') return hide();
    const point = pointOf(selection);
    if (state.settled && samePoint(state.settled, point)) return hide();
    state.settled = null;
    const offer = offerOf(doc, selection, insideWidget);
    if (!offer) return hide();
    state.offered = { value: offer.value, elementId: offer.elementId };
    if (!state.button) {
      state.button = createSelectionButton(doc, options.label, ask);
      state.tabTaken = false;
      (options.container?.() ?? doc.body ?? doc.documentElement).append(state.button);
    }
    placeNearSelection(state.button, offer.rects);
  };
  return { hide, ask, update };
}

/**
 * The page's pointer and keys: a press starts a new offer once released; Escape dismisses the
 * selection; the first plain Tab (outside a text field) takes the reader to the button.
 */
function offerHandlers(
  state: OfferState,
  view: ReturnType<typeof offerView>,
  doc: Document,
  requestUpdate: () => void,
) {
  return {
    onMouseDown(event: MouseEvent) {
      if (isOwnButton(state.button, event.target, event)) return;
      // A new click or drag starts: drop the old offer and wait for the drag to end. Selecting the
      // same words again is a fresh request, even if they were dismissed before.
      state.pointerDown = true;
      state.settled = null;
      view.hide();
    },
    onMouseUp() {
      state.pointerDown = false;
      requestUpdate();
    },
    onKeyDown(event: KeyboardEvent) {
      // A mouseup outside the window is never seen; a key press means no drag is going on.
      state.pointerDown = false;
      const { button } = state;
      if (!button) return;
      if (event.key === 'Escape') {
        const selection = doc.getSelection();
        if (selection) state.settled = pointOf(selection);
        view.hide();
        return;
      }
      if (isPlainTab(event) && !state.tabTaken && !hasFocus(button) && !isTextField(doc.activeElement)) {
        state.tabTaken = true;
        event.preventDefault();
        const active = doc.activeElement;
        state.returnFocus = active && active !== doc.body ? (active as HTMLElement) : null;
        button.focus();
      }
    },
  };
}

/** Watches the page's selection and shows the floating "Ask AI" button for it. */
export function createSelectionCollector(options: SelectionCollectorOptions): Collector {
  checkOptions('createSelectionCollector', options);
  const doc = resolveDocument(options.root, 'createSelectionCollector');
  const state: OfferState = {
    button: null,
    offered: null,
    settled: null,
    pointerDown: false,
    tabTaken: false,
    returnFocus: null,
    destroyed: false,
  };
  const view = offerView(state, doc, options, () => scheduler.cancel());
  const scheduler = createScheduler(doc, view.update);
  const on = offerHandlers(state, view, doc, scheduler.request);
  const stopListening = listenAll([
    [doc, 'selectionchange', scheduler.request, false],
    [doc, 'mousedown', on.onMouseDown as EventListener, true],
    [doc, 'mouseup', on.onMouseUp, true],
    [doc, 'keydown', on.onKeyDown as EventListener, true],
    [doc, 'scroll', scheduler.request, { capture: true, passive: true }],
    [doc.defaultView, 'resize', scheduler.request, false],
  ]);
  // A selection made before the collector started (e.g. before hydration) is offered as well.
  scheduler.request();

  return {
    destroy() {
      if (state.destroyed) return;
      state.destroyed = true;
      scheduler.cancel();
      stopListening();
      view.hide();
    },
  };
}
