/**
 * Offers "Ask AI" on the page's code blocks (outside the widget), including blocks that appear
 * later (client-side navigation): one button, owned by the collector and shown for the block the
 * pointer is on or that holds the focus, that adds the block's code as a `code` context item.
 *
 * The page's blocks are never touched: no attribute, style, child or listener on them, only
 * listeners on `document`. Server-rendered pages hydrate after the widget's effects may have run
 * (the widget sits in a root layout, the page's `pre` elements in a later Suspense boundary), and
 * anything written into them then is a hydration mismatch (React #418).
 *
 * Where the button goes, by one rule: in the block's bottom inline-end corner (bottom right, bottom
 * left in right-to-left text), inside the block and above its horizontal scrollbar. Docusaurus,
 * VitePress, Starlight (Expressive Code), Material for MkDocs and Mintlify all put their copy
 * button (and word-wrap, select, language label) at the top inline-end corner and nothing at the
 * bottom. Where a control of the site's still reaches that corner (a one-line block, where a 40 px
 * copy button at the top reaches the bottom), the button moves toward the inline start until it
 * sits beside it. It is never drawn over the widget itself: a spot under the launcher or the open
 * panel is left the same way, and a block with no free spot gets no button, whatever the stacking
 * contexts of the page would have put on top.
 *
 * Keyboard: the button is never a Tab stop, so the page keeps exactly its own tab order (each
 * block used to add a stop of ours). A block holds the focus when the focus is in it (a focusable
 * `pre`, a link in it) or on a control of its frame (the site's copy button beside the `pre`,
 * VitePress's one stop per block); the button shows over it and the widget's shortcut (`shortcut`,
 * Ctrl+I or ⌘I by default) asks about that block. The first time focus enters each block, a
 * polite status in the widget says so ("Ask AI about this code: Control+I"); the button carries
 * it as `aria-keyshortcuts` and in its tooltip.
 *
 * `<DocsAssistant>` loads this module on the reader's first interaction (`collector-trigger.ts`)
 * and hands over a hover that came before it ran (`hover`).
 */
import type { Context } from '../protocol/index.js';
import { DEFAULT_CODE_BLOCK_SELECTOR } from './collector-options.js';
import {
  checkOptions,
  createScheduler,
  elementOf,
  hasFocus,
  isOwnButton,
  isWidgetNode,
  listenAll,
  matchesKeyShortcut,
  nearestElementId,
  pagePath,
  resolveDocument,
  WIDGET_ATTRIBUTE,
} from './dom.js';
import type { Collector } from './selection-collector.js';

// Defined with the options, so the launcher can resolve them without loading this module.
export { DEFAULT_CODE_BLOCK_SELECTOR };

/** Above page content and most site chrome, like the selection collector's button. */
const Z_INDEX = '2147483000';
/** Distance of the button from the block's edges: a CSS length, themable, resolved by the browser. */
const INSET = 'var(--da-ask-code-inset, 0.5em)';
/** The inset where the browser resolves no length (no layout, as in jsdom) (in px). */
const INSET_FALLBACK = 8;
/** Room left between the button and a control it moves beside (in px). */
const GAP = 6;
/** How often the button may move aside before the block counts as having no free spot. */
const MOVES = 6;
/**
 * How far a block's frame may reach beyond the block (in px): a title bar above it (Docusaurus,
 * Expressive Code, Mintlify: 36-48 px) is the frame's; a section around it is not.
 */
const FRAME_REACH_BLOCK = 80;
const FRAME_REACH_INLINE = 24;
/** Ancestors of a focused or hovered element searched for the one block whose frame it is in. */
const FRAME_DEPTH = 4;
/** The page's sections: never one block's frame. */
const SECTIONS = new Set(['HTML', 'BODY', 'MAIN', 'ARTICLE', 'SECTION', 'ASIDE', 'NAV', 'HEADER', 'FOOTER']);
/** What a site puts on its code blocks (copy, wrap, select, open in a playground). */
const CONTROLS = 'button, a[href], [role="button"], input, select, textarea, summary';
/** The widget's own boxes, which the button is never drawn over. */
const WIDGET_BOXES = '[data-docs-assistant="launcher"], [data-docs-assistant="panel"]:not([hidden])';
/** The widget is modal: nothing on the page is offered. */
const MODAL = '[data-docs-assistant="panel"][aria-modal="true"]:not([hidden])';

export interface CodeBlockCollectorOptions {
  /** The document to watch. @default the global `document` */
  root?: Document;
  /** CSS selector of the code blocks. A match inside another match is left to the outer one. @default 'pre' */
  selector?: string;
  /**
   * Whether a node belongs to the widget; its code blocks (answers contain `pre`) are not offered.
   * Elements marked `data-docs-assistant` always count as the widget's.
   * @default () => false
   */
  isInsideWidget?: (node: Node) => boolean;
  /** Receives the `code` context item when the reader presses the button. */
  onAsk: (context: Context) => void;
  /** The button's text, e.g. `labels.askAi`. */
  label: string;
  /** The button's accessible name, e.g. `labels.askAiAboutCode`. @default `${label} about this code` */
  accessibleLabel?: string;
  /**
   * The element the one button is put in while shown: the widget's own root. Never a code block.
   * Its launcher and open panel (`data-docs-assistant="launcher|panel"`) are never covered.
   * @default the document's `body`
   */
  container?: () => Element | null | undefined;
  /**
   * The widget's shortcut as `aria-keyshortcuts` spells it (`Control+I`), read when used: pressed
   * while a block holds the focus, it asks about that block. None: the button is for pointers.
   */
  shortcut?: () => string | undefined;
}

/** The block's code, without the text of anything of the widget's the host may have put in it. */
function codeText(block: Element): string {
  const doc = block.ownerDocument;
  // 4 = NodeFilter.SHOW_TEXT; the global NodeFilter is missing in some server DOMs.
  const walker = doc.createTreeWalker(block, 4);
  let text = '';
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement?.closest(`[${WIDGET_ATTRIBUTE}]`)) text += node.nodeValue ?? '';
  }
  // Leading blank lines and trailing whitespace are markup artefacts; indentation is code.
  return text.replace(/^(?:[ \t]*\n)+/, '').trimEnd();
}

function assertSelector(doc: Document, selector: unknown): string {
  if (typeof selector !== 'string' || selector.trim() === '') {
    throw new TypeError(
      'createCodeBlockCollector: `selector` must be a non-empty CSS selector such as "pre" or ".docs pre".',
    );
  }
  try {
    doc.createDocumentFragment().querySelector(selector);
  } catch (error) {
    throw new SyntaxError(
      `createCodeBlockCollector: "${selector}" is not a valid CSS selector (${(error as Error).message}); pass one such as "pre" or ".docs pre".`,
    );
  }
  return selector;
}

/** Rendered, where the engine can tell (jsdom has no layout: everything not `hidden` counts). */
function isRendered(el: Element): boolean {
  const check = (el as Element & { checkVisibility?: (o?: object) => boolean }).checkVisibility;
  return typeof check === 'function' ? check.call(el, { visibilityProperty: true }) : !el.closest('[hidden]');
}

/** A running code block collector, with what the launcher hands over when it starts it late. */
export interface CodeBlockCollector extends Collector {
  /** The pointer is over `target` (a `mouseover` that came before the collector). */
  hover(target: EventTarget | null): void;
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const overlaps = (a: Box, b: Box) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const hasArea = (box: Box) => box.right > box.left && box.bottom > box.top;

/** Where the page's blocks are: the one a node is in or whose frame it is in, and a block's frame. */
interface BlockFinder {
  blockAt(target: EventTarget | null): Element | null;
  frameOf(block: Element): Element;
}

/** Finds the page's blocks by `selector`, never the widget's (`insideWidget`, `widgetRoot`). */
function blockFinder(
  selector: string,
  insideWidget: (node: Node) => boolean,
  widgetRoot: () => Element | null | undefined,
): BlockFinder {
  /** The outermost code block around a node, unless it is the widget's. */
  const blockOf = (node: EventTarget | Node | null): Element | null => {
    if (!node || typeof (node as Node).nodeType !== 'number') return null;
    let block = elementOf(node as Node)?.closest(selector) ?? null;
    for (
      let outer = block?.parentElement?.closest(selector);
      outer;
      outer = outer.parentElement?.closest(selector)
    ) {
      block = outer;
    }
    return block && !isWidgetNode(block, insideWidget) ? block : null;
  };

  /** The blocks under `el` (each outermost match once; the widget's count as others). */
  const blocksIn = (el: Element): Set<Element | null> =>
    new Set(Array.from(el.querySelectorAll(selector), (match) => blockOf(match)));

  /**
   * The block's frame: its ancestors that hold no other block and reach at most a title bar
   * beyond it (VitePress's `div.language-*`, Docusaurus's `.theme-code-block`), where sites put
   * the block's controls.
   */
  const frameOf = (block: Element): Element => {
    const box = block.getBoundingClientRect();
    const laidOut = hasArea(box);
    const root = widgetRoot();
    let frame = block;
    for (let el = block.parentElement; el && !SECTIONS.has(el.tagName); el = el.parentElement) {
      if (isWidgetNode(el, insideWidget) || (root && el.contains(root))) break;
      const blocks = blocksIn(el);
      if (blocks.size !== 1 || !blocks.has(block)) break;
      const r = el.getBoundingClientRect();
      if (
        laidOut &&
        (r.height - box.height > FRAME_REACH_BLOCK || r.width - box.width > FRAME_REACH_INLINE)
      ) {
        break;
      }
      frame = el;
    }
    return frame;
  };

  /** The block a node is in, or whose frame it is in (the site's copy button, a title bar). */
  const blockAt = (target: EventTarget | null): Element | null => {
    const el = elementOf((target as Node | null)?.nodeType ? (target as Node) : null);
    if (!el || isWidgetNode(el, insideWidget)) return null;
    const inside = blockOf(el);
    if (inside) return inside;
    let depth = 0;
    for (
      let a: Element | null = el;
      a && depth < FRAME_DEPTH && !SECTIONS.has(a.tagName);
      a = a.parentElement
    ) {
      depth += 1;
      const blocks = blocksIn(a);
      if (blocks.size === 0) continue;
      const [only] = blocks;
      return blocks.size === 1 && only && frameOf(only).contains(el) ? only : null;
    }
    return null;
  };
  return { blockAt, frameOf };
}

/** The collector's one button: never a Tab stop, fixed, its inset read back from CSS. */
function createAskButton(doc: Document, label: string, accessibleLabel: string, onClick: () => void) {
  const b = doc.createElement('button');
  b.type = 'button';
  b.tabIndex = -1;
  b.setAttribute(WIDGET_ATTRIBUTE, 'ask-code');
  b.setAttribute('aria-label', accessibleLabel);
  b.textContent = label;
  b.style.position = 'fixed';
  b.style.zIndex = Z_INDEX;
  // Read back resolved (an `em` of the button's font), to place the button by numbers.
  b.style.scrollMarginBlockEnd = INSET;
  b.addEventListener('click', onClick);
  return b;
}

/**
 * A polite status saying the shortcut, in the widget, the first time focus enters each block. Made
 * on first use (it is no status of the page's until then) and spoken a frame later, once it
 * exists: a live region inserted with its text already in is not announced by every screen reader.
 */
function createAnnouncer(doc: Document, accessibleLabel: string, container: () => Element) {
  const announced = new WeakSet<Element>();
  let status: HTMLElement | null = null;
  let said = '';
  const speaker = createScheduler(doc, () => {
    if (status) status.textContent = said;
  });
  return {
    announce(block: Element, keys: string | undefined) {
      if (!keys || announced.has(block)) return;
      announced.add(block);
      if (!status) {
        status = doc.createElement('span');
        status.setAttribute(WIDGET_ATTRIBUTE, 'ask-code-status');
        status.setAttribute('role', 'status');
        status.style.cssText =
          'position:fixed;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip-path:inset(50%);white-space:nowrap;border:0';
      }
      if (!status.isConnected) container().append(status);
      // Emptied first, so the same words for the next block are a change a screen reader speaks.
      status.textContent = '';
      said = `${accessibleLabel}: ${keys}`;
      speaker.request();
    },
    destroy() {
      speaker.cancel();
      status?.remove();
    },
  };
}

/** The boxes the button keeps clear of: the site's controls on the block, the widget's own. */
function obstacles(
  frame: Element,
  block: Element,
  insideWidget: (node: Node) => boolean,
  widgetRoot: Element | null | undefined,
): Box[] {
  const controls = Array.from(frame.querySelectorAll(CONTROLS)).filter(
    (el) => !(block.contains(el) && el.closest('code')) && !isWidgetNode(el, insideWidget) && isRendered(el),
  );
  const widget = Array.from(widgetRoot?.querySelectorAll(WIDGET_BOXES) ?? []);
  return [...controls, ...widget].map((el) => el.getBoundingClientRect()).filter(hasArea);
}

/**
 * Puts the button in the block's bottom inline-end corner, or beside what is there; hides it where
 * nothing is free, where the block is off screen, and while the widget is modal.
 */
function placeButton(
  button: HTMLElement,
  block: Element,
  finder: BlockFinder,
  insideWidget: (node: Node) => boolean,
  widgetRoot: Element | null | undefined,
): void {
  const rect = block.getBoundingClientRect();
  // Without layout (jsdom) there is nowhere to compute: the button stays where it is, shown.
  if (!hasArea(rect)) return;
  const doc = block.ownerDocument;
  const win = doc.defaultView;
  const modal = !!widgetRoot?.querySelector(MODAL);
  const width = doc.documentElement.clientWidth || win?.innerWidth || 0;
  const height = win?.innerHeight || doc.documentElement.clientHeight;
  const rtl = win?.getComputedStyle(block).direction === 'rtl';
  const inset = Number.parseFloat(win?.getComputedStyle(button).scrollMarginBlockEnd ?? '') || INSET_FALLBACK;
  // The block's visible inside: its padding box without scrollbars, cut to the viewport.
  const inner: Box = {
    left: Math.max(rect.left + block.clientLeft, 0) + inset,
    right: Math.min(rect.left + block.clientLeft + block.clientWidth, width) - inset,
    top: Math.max(rect.top + block.clientTop, 0) + inset,
    bottom: Math.min(rect.top + block.clientTop + block.clientHeight, height) - inset,
  };
  const w = button.offsetWidth;
  const h = button.offsetHeight;
  // A block lower than the button (an unstyled one-line `pre`) gets it across its middle.
  const top = inner.bottom - inner.top >= h ? inner.bottom - h : (inner.top + inner.bottom - h) / 2;
  const spot: Box = { left: rtl ? inner.left : inner.right - w, top, right: 0, bottom: top + h };
  spot.right = spot.left + w;
  const boxes = obstacles(finder.frameOf(block), block, insideWidget, widgetRoot);
  let blocked = boxes.find((box) => overlaps(box, spot));
  for (let moves = 0; blocked && moves < MOVES; moves++) {
    spot.left = rtl ? blocked.right + GAP : blocked.left - GAP - w;
    spot.right = spot.left + w;
    blocked = boxes.find((box) => overlaps(box, spot));
  }
  const onScreen = rect.bottom > 0 && rect.top < height;
  const fits = onScreen && spot.left >= inner.left - 0.5 && spot.right <= inner.right + 0.5;
  button.style.visibility = modal || blocked || !fits ? 'hidden' : '';
  button.style.top = `${Math.round(spot.top)}px`;
  button.style.left = `${Math.round(spot.left)}px`;
}

/** What the collector's parts share: the one button, the block it is shown for, what holds the reader. */
interface ButtonState {
  button: HTMLButtonElement | null;
  /** The block the button is shown for. */
  current: Element | null;
  hovered: Element | null;
  focused: Element | null;
  destroyed: boolean;
}

/** What the collector knows from its options. */
interface Setup {
  doc: Document;
  label: string;
  accessibleLabel: string;
  insideWidget: (node: Node) => boolean;
  shortcut: () => string | undefined;
  /** Where the button goes. */
  container: () => Element;
  /** The widget's own root, if the options name it. */
  widgetRoot: () => Element | null | undefined;
  finder: BlockFinder;
  onAsk: (context: Context) => void;
}

/**
 * The button's behaviour: `ask` about a block, `show` the button for one, `place` it, and
 * `refresh`: show it for the block that is hovered, else the one holding focus; else hide it.
 */
function buttonView(state: ButtonState, setup: Setup) {
  const { doc, label, accessibleLabel, shortcut, container, finder, insideWidget } = setup;
  const ask = (block = state.current) => {
    if (!block?.isConnected) return;
    const value = codeText(block);
    if (!value.trim()) return;
    const path = pagePath(doc);
    const elementId = nearestElementId(block);
    setup.onAsk({ type: 'code', value, ...(path ? { path } : {}), ...(elementId ? { elementId } : {}) });
  };
  const place = (): void => {
    const { button, current } = state;
    if (!button || !current) return;
    if (!current.isConnected) {
      state.current = null;
      refresh();
      return;
    }
    placeButton(button, current, finder, insideWidget, setup.widgetRoot());
  };
  const show = (block: Element) => {
    state.current = block;
    state.button ??= createAskButton(doc, label, accessibleLabel, () => ask());
    const { button } = state;
    // The shortcut is known once the widget has mounted, and may change.
    const keys = shortcut();
    if (keys) {
      button.setAttribute('aria-keyshortcuts', keys);
      button.title = `${accessibleLabel} (${keys})`;
    } else {
      button.removeAttribute('aria-keyshortcuts');
      button.removeAttribute('title');
    }
    if (!button.isConnected) container().append(button);
    place();
  };
  function refresh(): void {
    if (state.destroyed) return;
    const { button, current } = state;
    const target =
      button && hasFocus(button) && current?.isConnected ? current : (state.hovered ?? state.focused);
    if (target?.isConnected) show(target);
    else {
      state.current = null;
      button?.remove();
    }
  }
  return { ask, place, show, refresh };
}

/** The page's keyboard, pointer and focus, as they move the button and ask about a block. */
function pageHandlers(
  state: ButtonState,
  view: ReturnType<typeof buttonView>,
  setup: Setup,
  announcer: ReturnType<typeof createAnnouncer>,
) {
  const { blockAt } = setup.finder;
  return {
    // The widget's shortcut on the block holding the focus.
    onKeyDown(event: KeyboardEvent) {
      const keys = setup.shortcut();
      if (!keys || event.defaultPrevented || event.repeat || event.isComposing) return;
      if (!matchesKeyShortcut(event, keys)) return;
      const block = blockAt(event.composedPath?.()[0] ?? event.target);
      if (!block) return;
      // Taken here, before the widget's own listener (which opens the assistant without the code).
      event.preventDefault();
      view.ask(block);
    },
    // Over the button (which covers part of the block) the block stays hovered. Pointer leaving the
    // window is not tracked: the button stays until the pointer is back over something else.
    onMouseOver(event: MouseEvent) {
      if (isOwnButton(state.button, event.target, event)) return;
      const block = blockAt(event.target);
      const moved = block !== state.hovered;
      state.hovered = block;
      // Pointing at another block moves the button there even while it has focus (after a click);
      // a pointer resting somewhere does not take it from a keyboard user.
      if (moved && block && state.button && hasFocus(state.button)) view.show(block);
      else view.refresh();
    },
    onFocusIn(event: FocusEvent) {
      if (isOwnButton(state.button, event.target, event)) return;
      const focused = blockAt(event.target);
      state.focused = focused;
      // The latest move wins: focus entering a block shows the button there, wherever the pointer rests.
      if (focused) {
        view.show(focused);
        announcer.announce(focused, setup.shortcut());
      } else view.refresh();
    },
    // Focus leaving for somewhere that is not a block (the page's background) fires no focusin.
    onFocusOut(event: FocusEvent) {
      if (isOwnButton(state.button, event.relatedTarget)) return;
      state.focused = blockAt(event.relatedTarget);
      view.refresh();
    },
  };
}

/** Offers "Ask AI" on the page's code blocks through one button of its own. */
export function createCodeBlockCollector(options: CodeBlockCollectorOptions): CodeBlockCollector {
  checkOptions('createCodeBlockCollector', options);
  const doc = resolveDocument(options.root, 'createCodeBlockCollector');
  const selector = assertSelector(doc, options.selector ?? DEFAULT_CODE_BLOCK_SELECTOR);
  const { label } = options;
  const insideWidget = options.isInsideWidget ?? (() => false);
  const widgetRoot = () => options.container?.();
  const setup: Setup = {
    doc,
    label,
    accessibleLabel: options.accessibleLabel || `${label} about this code`,
    insideWidget,
    shortcut: () => options.shortcut?.() || undefined,
    container: () => options.container?.() ?? doc.body ?? doc.documentElement,
    widgetRoot,
    finder: blockFinder(selector, insideWidget, widgetRoot),
    onAsk: options.onAsk,
  };
  const state: ButtonState = { button: null, current: null, hovered: null, focused: null, destroyed: false };
  const announcer = createAnnouncer(doc, setup.accessibleLabel, setup.container);
  const view = buttonView(state, setup);
  const { blockAt } = setup.finder;
  const scheduler = createScheduler(doc, view.place);
  const replace = () => {
    if (state.button?.isConnected) scheduler.request();
  };
  const on = pageHandlers(state, view, setup, announcer);

  // The launcher and the panel move (open, close, the panel's opening animation): place again.
  const watched = widgetRoot();
  const observer =
    watched && typeof MutationObserver === 'function' ? new MutationObserver(replace) : undefined;
  observer?.observe(watched!, { subtree: true, attributes: true, attributeFilter: ['hidden', 'data-state'] });
  const stopListening = listenAll([
    [watched, 'animationend', replace, false],
    [watched, 'transitionend', replace, false],
    [doc, 'mouseover', on.onMouseOver as EventListener, true],
    [doc, 'focusin', on.onFocusIn as EventListener, true],
    [doc, 'focusout', on.onFocusOut as EventListener, true],
    [doc, 'keydown', on.onKeyDown as EventListener, true],
    [doc, 'scroll', scheduler.request, { capture: true, passive: true }],
    [doc.defaultView, 'resize', scheduler.request, false],
  ]);
  // Focus already in a block when the collector starts (e.g. before hydration) is offered too.
  state.focused = blockAt(doc.activeElement);
  view.refresh();
  if (state.focused) announcer.announce(state.focused, setup.shortcut());

  return {
    hover(target) {
      if (state.destroyed || isOwnButton(state.button, target)) return;
      state.hovered = blockAt(target);
      view.refresh();
    },
    destroy() {
      if (state.destroyed) return;
      state.destroyed = true;
      scheduler.cancel();
      announcer.destroy();
      observer?.disconnect();
      stopListening();
      state.button?.remove();
      state.button = null;
      state.current = null;
    },
  };
}
