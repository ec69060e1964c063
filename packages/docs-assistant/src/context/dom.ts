/**
 * Small DOM helpers shared by the collectors. Everything takes the document explicitly, so nothing
 * here touches `window`/`document` at import time (the collectors are imported during SSR).
 */

/** Marks every element the widget (and the collectors) put in the page. */
export const WIDGET_ATTRIBUTE = 'data-docs-assistant';

/**
 * The document to work in: the one given, else the global one. Throws when there is none, which
 * means a collector was created during server rendering instead of in an effect.
 */
export function resolveDocument(root: Document | undefined, who: string): Document {
  if (root) return root;
  if (typeof document !== 'undefined') return document;
  throw new Error(
    `${who} needs a DOM document: create it in the browser (for example inside useEffect), or pass \`root\`.`,
  );
}

/** The element a node is or sits in (text nodes answer their parent). */
export function elementOf(node: Node | null): Element | null {
  if (!node) return null;
  return node.nodeType === 1 ? (node as Element) : node.parentElement;
}

/**
 * Whether a node belongs to the widget: the host's own check (the widget's root), or any element
 * marked `data-docs-assistant` — the floating panel may be portaled outside the root, and the
 * collectors' own buttons carry the attribute too.
 */
export function isWidgetNode(node: Node | null, isInsideWidget: (node: Node) => boolean): boolean {
  if (!node) return false;
  if (isInsideWidget(node)) return true;
  return elementOf(node)?.closest(`[${WIDGET_ATTRIBUTE}]`) != null;
}

/**
 * Whether `target` (an event's target, a `relatedTarget`) is `button` or in it. The collectors'
 * buttons may sit in a shadow root (the script build's widget, `docs-assistant/embed`): listeners
 * on the document then see the shadow root's host as the target. The event's composed path names
 * the real node (open shadow roots); the host itself counts as the button (closed ones).
 */
export function isOwnButton(button: Element | null, target: EventTarget | null, event?: Event): boolean {
  if (!button || !target) return false;
  const node = (event?.composedPath?.()[0] ?? target) as Node;
  if (node === button || button.contains(node)) return true;
  const root = button.getRootNode();
  return root !== button.ownerDocument && (root as ShadowRoot).host === node;
}

/** Whether `element` has focus, in a shadow root too (where `document.activeElement` is its host). */
export function hasFocus(element: Element | null): boolean {
  return !!element && (element.getRootNode() as Document | ShadowRoot).activeElement === element;
}

/** The id of the node's nearest element (itself included) that has one, e.g. its heading section. */
export function nearestElementId(node: Node | null): string | undefined {
  const element = elementOf(node)?.closest('[id]');
  return element?.id || undefined;
}

/** The page's path, as the context item's `path`. */
export function pagePath(doc: Document): string | undefined {
  return doc.defaultView?.location.pathname || undefined;
}

/**
 * Runs `task` once at the next frame however often it is asked for, so bursts of events
 * (selectionchange while dragging, mutations while a page renders) cost one pass.
 */
export function createScheduler(doc: Document, task: () => void): { request(): void; cancel(): void } {
  const win = doc.defaultView;
  let pending: number | ReturnType<typeof setTimeout> | undefined;
  let usedFrame = false;
  const run = () => {
    pending = undefined;
    task();
  };
  return {
    request() {
      if (pending !== undefined) return;
      usedFrame = typeof win?.requestAnimationFrame === 'function';
      pending = usedFrame ? win!.requestAnimationFrame(run) : setTimeout(run, 0);
    },
    cancel() {
      if (pending === undefined) return;
      if (usedFrame) win!.cancelAnimationFrame(pending as number);
      else clearTimeout(pending);
      pending = undefined;
    },
  };
}

/** Throws a clear error for a missing or wrong option (these cores are also used without React). */
export function checkOptions(
  who: string,
  options: { isInsideWidget?: unknown; onAsk?: unknown; label?: unknown } | undefined,
): void {
  if (!options || typeof options !== 'object') throw new TypeError(`${who}: pass an options object.`);
  if (typeof options.onAsk !== 'function')
    throw new TypeError(`${who}: \`onAsk\` must be a function that receives the context item.`);
  if (options.isInsideWidget !== undefined && typeof options.isInsideWidget !== 'function')
    throw new TypeError(`${who}: \`isInsideWidget\` must be a function (node) => boolean.`);
  if (typeof options.label !== 'string' || options.label.trim() === '')
    throw new TypeError(`${who}: \`label\` must be a non-empty string (the button's text, e.g. "Ask AI").`);
}

/**
 * Whether `event` is the key combination `shortcut`, written as `aria-keyshortcuts` spells it
 * (`Control+I`, `Meta+Shift+K`): the same modifiers exactly, and the key by its character or, with
 * Alt (Option on macOS) changing the character, by the physical key.
 */
export function matchesKeyShortcut(event: KeyboardEvent, shortcut: string): boolean {
  const tokens = shortcut.split('+');
  const key = (tokens.pop() ?? '').toLowerCase();
  const mods = new Set(tokens);
  if (event.ctrlKey !== mods.has('Control') || event.metaKey !== mods.has('Meta')) return false;
  if (event.altKey !== mods.has('Alt') || event.shiftKey !== mods.has('Shift')) return false;
  if (event.key?.toLowerCase() === key) return true;
  if (/^[a-z]$/.test(key)) return event.code === `Key${key.toUpperCase()}`;
  if (/^[0-9]$/.test(key)) return event.code === `Digit${key}`;
  return false;
}

/** A listener to add: on what, for which event, how (`true`: capture). */
export type Listening = [
  EventTarget | null | undefined,
  string,
  EventListener,
  AddEventListenerOptions | boolean,
];

/** Adds each listener; returns what removes them all (with the same `capture`). */
export function listenAll(listening: Listening[]): () => void {
  for (const [target, type, listener, how] of listening) target?.addEventListener(type, listener, how);
  return () => {
    for (const [target, type, listener, how] of listening) {
      target?.removeEventListener(type, listener, typeof how === 'object' ? { capture: how.capture } : how);
    }
  };
}
