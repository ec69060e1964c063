import { type ComponentPropsWithoutRef, useEffect, useRef, useState } from 'react';
import type { ExtraProps } from './markdown-components.js';

/**
 * An answer's table inside a wrapper that scrolls sideways, so a wide table never squeezes its
 * words apart in a narrow panel. While it does scroll, the wrapper is a tab stop so keyboard readers
 * can scroll it too (WCAG 2.1.1); a table that fits adds no tab stop. The default
 * `table` element of the Markdown renderer (`markdown.tsx`).
 */
export function MarkdownTable({
  node: _node,
  children,
  ...props
}: ComponentPropsWithoutRef<'table'> & ExtraProps) {
  const wrapperRef = useRef<HTMLDivElement>(null);
  const scrolls = useScrollsSideways(wrapperRef);
  return (
    <div
      ref={wrapperRef}
      data-table-scroll=""
      data-scrolls={scrolls ? '' : undefined}
      // A region that scrolls must be reachable from the keyboard (WCAG 2.1.1).
      tabIndex={scrolls ? 0 : undefined}
    >
      <table {...props}>{children}</table>
    </div>
  );
}

/** Whether the element's content is wider than its box; kept up to date as either changes size. */
function useScrollsSideways(ref: { current: HTMLElement | null }): boolean {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    // Below a pixel is rounding, not overflow.
    const check = () => setScrolls(element.scrollWidth - element.clientWidth > 1);
    if (typeof ResizeObserver === 'undefined') {
      check();
      return;
    }
    // No check here: the observer reports every observed box once, after the browser's own layout.
    // Measuring now would force that layout inside the render's task (10-20 ms for the first
    // tables of a streamed answer).
    const observer = new ResizeObserver(check);
    observer.observe(element);
    // The table grows while its rows stream in; the wrapper's own box may stay the same.
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
}
