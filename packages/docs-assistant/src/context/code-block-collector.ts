/**
 * Offers "Ask AI" on the page's code blocks (outside the widget), including blocks that appear
 * later (client-side navigation): one button, owned by the collector and placed over the block the
 * pointer is on or that holds the focus, that adds the block's code as a `code` context item.
 *
 * The page's blocks are never touched: no attribute, style, child or listener on them, only
 * listeners on `document`. Server-rendered pages hydrate after the widget's effects may have run
 * (the widget sits in a root layout, the page's `pre` elements in a later Suspense boundary), and
 * anything written into them then is a hydration mismatch (React #418).
 *
 * Keyboard: the button is a virtual tab stop at the end of each block, where a button inside the
 * block would be. Tab from the last focusable thing before a block's end (or from inside the
 * block) moves focus to the button, shown over that block; Tab from the button goes on to what
 * follows the block, Shift+Tab goes back the same way. Focus entering a block (a focusable `pre`,
 * a link in it) shows the button too. Nothing is taken from the page's own tab order.
 *
 * `<DocsAssistant>` loads this module on the reader's first interaction (`collector-trigger.ts`)
 * and hands over a hover and a Tab that came before it ran (`hover`, `retab`).
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
/** Distance of the button from the block's corner (a CSS length, themable). */
const INSET = 'var(--da-ask-code-inset, 0.5em)';
/** What the browser's Tab may stop at; filtered further by `isTabbable`. */
const TABBABLE = 'a[href],button,input,select,textarea,iframe,summary,[tabindex],[contenteditable]';

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
   * @default the document's `body`
   */
  container?: () => Element | null | undefined;
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

/** A scroll container: browsers let the keyboard focus it even without a tabindex. */
function isScrollable(el: Element): boolean {
  if (el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight) return false;
  const style = el.ownerDocument.defaultView?.getComputedStyle(el);
  return !!style && /auto|scroll/.test(`${style.overflowX} ${style.overflowY}`);
}

/** A running code block collector, with what the launcher hands over when it starts it late. */
export interface CodeBlockCollector extends Collector {
  /** The pointer is over `target` (a `mouseover` that came before the collector). */
  hover(target: EventTarget | null): void;
  /**
   * Tab left `from` before the collector ran, for where focus is now: when the move skipped a
   * block's virtual stop, focus goes to it (the button over that block) as that Tab would have.
   */
  retab(from: Element, backwards: boolean): void;
}

/** Offers "Ask AI" on the page's code blocks through one button of its own. */
export function createCodeBlockCollector(options: CodeBlockCollectorOptions): CodeBlockCollector {
  checkOptions('createCodeBlockCollector', options);
  const doc = resolveDocument(options.root, 'createCodeBlockCollector');
  const selector = assertSelector(doc, options.selector ?? DEFAULT_CODE_BLOCK_SELECTOR);
  const { onAsk, label } = options;
  const accessibleLabel = options.accessibleLabel || `${label} about this code`;
  const insideWidget = options.isInsideWidget ?? (() => false);
  const win = doc.defaultView;

  let button: HTMLButtonElement | null = null;
  /** The block the button is shown for. */
  let current: Element | null = null;
  let hovered: Element | null = null;
  let focused: Element | null = null;
  let destroyed = false;

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

  const ask = () => {
    const block = current;
    if (!block?.isConnected) return;
    const value = codeText(block);
    if (!value.trim()) return;
    const path = pagePath(doc);
    const elementId = nearestElementId(block);
    onAsk({ type: 'code', value, ...(path ? { path } : {}), ...(elementId ? { elementId } : {}) });
  };

  const createButton = () => {
    const b = doc.createElement('button');
    b.type = 'button';
    b.setAttribute(WIDGET_ATTRIBUTE, 'ask-code');
    b.setAttribute('aria-label', accessibleLabel);
    b.textContent = label;
    b.style.position = 'fixed';
    b.style.zIndex = Z_INDEX;
    b.addEventListener('click', ask);
    return b;
  };

  /** Over the block's top corner at the end of its lines: the right, or the left in right-to-left text. */
  const place = (): void => {
    if (!button || !current) return;
    if (!current.isConnected) {
      current = null;
      refresh();
      return;
    }
    const rect = current.getBoundingClientRect();
    const height = win?.innerHeight || doc.documentElement.clientHeight;
    // A block taller than the window keeps the button in view while the block is.
    const top = Math.max(rect.top, 0);
    // Scrolled out of view (a block without a box means no layout, as in jsdom: left visible).
    const laidOut = rect.width > 0 || rect.height > 0;
    button.style.visibility = laidOut && (rect.bottom <= 0 || rect.top >= height) ? 'hidden' : '';
    button.style.top = `calc(${Math.round(top)}px + ${INSET})`;
    if (win?.getComputedStyle(current).direction === 'rtl') {
      button.style.left = `calc(${Math.round(rect.left)}px + ${INSET})`;
      button.style.transform = '';
    } else {
      button.style.left = `calc(${Math.round(rect.right)}px - ${INSET})`;
      button.style.transform = 'translateX(-100%)';
    }
  };

  const show = (block: Element) => {
    current = block;
    button ??= createButton();
    if (!button.isConnected) (options.container?.() ?? doc.body ?? doc.documentElement).append(button);
    place();
  };

  /** Shows the button for the block that is hovered, else the one holding focus; else hides it. */
  function refresh(): void {
    if (destroyed) return;
    const target = button && hasFocus(button) && current?.isConnected ? current : (hovered ?? focused);
    if (target?.isConnected) show(target);
    else {
      current = null;
      button?.remove();
    }
  }

  const scheduler = createScheduler(doc, place);

  // --- Tab: the button as a stop at the end of each block ---------------------------------------

  type Stop = { el: HTMLElement } | { block: Element };

  const isTabbable = (el: HTMLElement) =>
    el !== button &&
    el.tabIndex >= 0 &&
    !(el as HTMLButtonElement).disabled &&
    !el.closest('[inert]') &&
    isRendered(el);

  /** The page's tab stops in document order, with each block's virtual stop after its contents. */
  const tabStops = (): Stop[] | null => {
    const natural = Array.from(doc.querySelectorAll<HTMLElement>(TABBABLE)).filter(isTabbable);
    // A positive tabindex reorders Tab in ways not worth copying: leave Tab to the browser there.
    if (natural.some((el) => el.tabIndex > 0)) return null;
    const blocks: Element[] = [];
    for (const el of doc.querySelectorAll(selector)) {
      if (blockOf(el) !== el || !isRendered(el) || el.closest('[inert]')) continue;
      blocks.push(el);
      // A scrollable block is a stop of its own in browsers; keep it in the sequence.
      if (!natural.includes(el as HTMLElement) && isScrollable(el)) natural.push(el as HTMLElement);
    }
    natural.sort((a, b) => (a.compareDocumentPosition(b) & 4 ? -1 : 1));
    const stops: Stop[] = [];
    let b = 0;
    for (const el of natural) {
      // A block's stop comes before the first element after the block (not inside it).
      while (b < blocks.length && !blocks[b]!.contains(el) && blocks[b]!.compareDocumentPosition(el) & 4) {
        stops.push({ block: blocks[b++]! });
      }
      stops.push({ el });
    }
    while (b < blocks.length) stops.push({ block: blocks[b++]! });
    return stops;
  };

  /**
   * Where Tab from `from` goes when the next stop is a block's (or `from` is the button): focuses
   * it and answers true. False leaves the move to the browser: a page element comes next.
   */
  const tab = (from: Element | null, backwards: boolean): boolean => {
    const onButton = !!button && from === button && !!current;
    // From the widget (its dialog may keep Tab inside itself) or from nowhere: the browser's Tab.
    if (!onButton && (!from || from === doc.body || isWidgetNode(from, insideWidget))) return false;
    const stops = tabStops();
    if (!stops) return false;
    const index = stops.findIndex((stop) =>
      'el' in stop ? stop.el === from : onButton && stop.block === current,
    );
    if (index < 0) return false;
    const next = stops[index + (backwards ? -1 : 1)];
    if (!next) return false;
    if ('block' in next) {
      show(next.block);
      button!.focus();
      return true;
    }
    if (!onButton) return false;
    next.el.focus();
    return true;
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    if (tab(doc.activeElement, event.shiftKey)) event.preventDefault();
  };

  // --- pointer and focus ---------------------------------------------------------------------------

  // Over the button (which covers the block's corner) the block stays hovered. Pointer leaving the
  // window is not tracked: the button stays until the pointer is back over something else.
  const onMouseOver = (event: MouseEvent) => {
    if (isOwnButton(button, event.target, event)) return;
    const block = blockOf(event.target);
    const moved = block !== hovered;
    hovered = block;
    // Pointing at another block moves the button there even while it has focus (after a click);
    // a pointer resting somewhere does not take it from a keyboard user.
    if (moved && block && button && hasFocus(button)) show(block);
    else refresh();
  };
  const onFocusIn = (event: FocusEvent) => {
    if (isOwnButton(button, event.target, event)) return;
    focused = blockOf(event.target);
    // The latest move wins: focus entering a block shows the button there, wherever the pointer rests.
    if (focused) show(focused);
    else refresh();
  };
  // Focus leaving for somewhere that is not a block (the page's background) fires no focusin.
  const onFocusOut = (event: FocusEvent) => {
    if (isOwnButton(button, event.relatedTarget)) return;
    focused = blockOf(event.relatedTarget);
    refresh();
  };

  doc.addEventListener('mouseover', onMouseOver, true);
  doc.addEventListener('focusin', onFocusIn, true);
  doc.addEventListener('focusout', onFocusOut, true);
  doc.addEventListener('keydown', onKeyDown, true);
  doc.addEventListener('scroll', scheduler.request, { capture: true, passive: true });
  win?.addEventListener('resize', scheduler.request);
  // Focus already in a block when the collector starts (e.g. before hydration) is offered too.
  focused = blockOf(doc.activeElement);
  refresh();

  return {
    hover(target) {
      if (destroyed || isOwnButton(button, target)) return;
      hovered = blockOf(target);
      refresh();
    },
    retab(from, backwards) {
      if (!destroyed) tab(from, backwards);
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      scheduler.cancel();
      doc.removeEventListener('mouseover', onMouseOver, true);
      doc.removeEventListener('focusin', onFocusIn, true);
      doc.removeEventListener('focusout', onFocusOut, true);
      doc.removeEventListener('keydown', onKeyDown, true);
      doc.removeEventListener('scroll', scheduler.request, { capture: true });
      win?.removeEventListener('resize', scheduler.request);
      button?.remove();
      button = null;
      current = null;
    },
  };
}
