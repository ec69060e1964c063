// Helpers for driving the collectors in jsdom.
import { vi } from 'vitest';

/** Resolves after the next animation frame (the collectors batch their work into one). */
export const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

/**
 * Selects `node`'s contents (or a part of its text) the way a reader would, and waits until the
 * collector has seen it: jsdom fires `selectionchange` from a timer, and the collector then works
 * at the next frame.
 */
export async function select(node: Node, start?: number, end?: number): Promise<Selection> {
  const selection = document.getSelection();
  if (!selection) throw new Error('jsdom has no selection');
  const range = document.createRange();
  if (start === undefined) range.selectNodeContents(node);
  else {
    range.setStart(node, start);
    range.setEnd(node, end ?? start);
  }
  const changed = new Promise((resolve) =>
    document.addEventListener('selectionchange', resolve, { once: true }),
  );
  selection.removeAllRanges();
  selection.addRange(range);
  await changed;
  await nextFrame();
  return selection;
}

export async function collapseSelection(): Promise<void> {
  const changed = new Promise((resolve) =>
    document.addEventListener('selectionchange', resolve, { once: true }),
  );
  document.getSelection()?.removeAllRanges();
  await changed;
  await nextFrame();
}

export const selectionButton = () =>
  document.querySelector<HTMLButtonElement>('[data-docs-assistant="ask-selection"]');

export const codeButtons = () =>
  Array.from(document.querySelectorAll<HTMLButtonElement>('[data-docs-assistant="ask-code"]'));

export function setPath(path: string): void {
  window.history.pushState({}, '', path);
}

/** Stubs layout for Range (jsdom has none) so positioning can be checked. */
export function stubRangeRect(rect: { top: number; left: number; width: number; height: number }) {
  const domRect = {
    ...rect,
    x: rect.left,
    y: rect.top,
    right: rect.left + rect.width,
    bottom: rect.top + rect.height,
    toJSON: () => rect,
  } as DOMRect;
  const proto = Range.prototype as unknown as Record<string, unknown>;
  proto.getBoundingClientRect = vi.fn(() => domRect);
  proto.getClientRects = vi.fn(() => [domRect]);
  return () => {
    Reflect.deleteProperty(proto, 'getBoundingClientRect');
    Reflect.deleteProperty(proto, 'getClientRects');
  };
}
