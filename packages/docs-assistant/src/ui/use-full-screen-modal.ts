import { type RefObject, useEffect, useState } from 'react';

/**
 * The viewport in which the default stylesheet makes the floating and side panels take the whole
 * screen (its `@media` rule; a test holds the two to the same text). Also matches 200% zoom of a
 * 1280 px wide window.
 */
export const FULL_SCREEN_MEDIA = '(max-width: 640px)';

function tabStops(container: HTMLElement): HTMLElement[] {
  return Array.from(
    container.querySelectorAll<HTMLElement>('a[href],button,textarea,input,select,summary,[tabindex]'),
  ).filter((el) => el.tabIndex >= 0 && !el.matches(':disabled') && el.getClientRects().length > 0);
}

/**
 * While the floating dialog covers the whole viewport (small screens, high zoom), nothing of the page
 * behind it can be seen, so it behaves as a modal dialog: `aria-modal="true"`, and Tab and Shift+Tab
 * cycle inside it. Elsewhere it stays non-modal, so readers keep using the docs beside it. Only the
 * widget's own panel is changed; the host page is left alone.
 */
export function useFullScreenModal(
  panelRef: RefObject<HTMLElement | null>,
  active: boolean,
  /** Where focus goes back to when it leaves the dialog some other way than Tab. */
  fallbackRef: RefObject<HTMLElement | null>,
  /** Modal at every size (the `modal` variant), not only where it covers the viewport. */
  always = false,
): void {
  const [fullScreen, setFullScreen] = useState(false);
  useEffect(() => {
    // Where there is no matchMedia (tests, old engines) the dialog stays as it was.
    if (!active || typeof matchMedia !== 'function') return setFullScreen(false);
    const query = matchMedia(FULL_SCREEN_MEDIA);
    const update = () => setFullScreen(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, [active]);
  const modal = active && (always || fullScreen);

  useEffect(() => {
    const panel = panelRef.current;
    if (!panel || !modal) return;
    panel.setAttribute('aria-modal', 'true');

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Tab' || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey)
        return;
      const stops = tabStops(panel);
      const first = stops[0];
      const last = stops[stops.length - 1];
      if (!first || !last) return;
      const current = document.activeElement;
      if (event.shiftKey && (current === first || current === panel)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && current === last) {
        event.preventDefault();
        first.focus();
      }
    };
    // Focus that leaves some other way (a script, a tab stop this did not know) comes back.
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget;
      if (next instanceof Node && !panel.contains(next)) {
        (fallbackRef.current ?? panel).focus();
      }
    };
    panel.addEventListener('keydown', onKeyDown);
    panel.addEventListener('focusout', onFocusOut);
    return () => {
      panel.removeAttribute('aria-modal');
      panel.removeEventListener('keydown', onKeyDown);
      panel.removeEventListener('focusout', onFocusOut);
    };
  }, [modal, panelRef, fallbackRef]);
}
