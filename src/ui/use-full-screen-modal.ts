import { type RefObject, useEffect, useState } from 'react';

/**
 * The viewport in which the default stylesheet makes the floating and side panels take the whole
 * screen (its `@media` rule; a test holds the two to the same text). Also matches 200% zoom of a
 * 1280 px wide window.
 */
export const FULL_SCREEN_MEDIA = '(max-width: 640px)';

/** Whether `query` matches now, following changes (always `false` where `matchMedia` is missing). */
function useMediaQuery(query: string, enabled: boolean): boolean {
  const [matches, setMatches] = useState(false);
  useEffect(() => {
    if (!enabled || typeof window === 'undefined' || typeof window.matchMedia !== 'function') {
      setMatches(false);
      return;
    }
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener('change', update);
    return () => list.removeEventListener('change', update);
  }, [query, enabled]);
  return matches;
}

const TABBABLE =
  'a[href], button:not(:disabled), textarea:not(:disabled), input:not(:disabled):not([type="hidden"]), select:not(:disabled), summary, [tabindex]:not([tabindex="-1"])';

function tabbables(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(TABBABLE)).filter(
    (el) => el.tabIndex >= 0 && !el.closest('[hidden], [inert]') && el.getClientRects().length > 0,
  );
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
): boolean {
  const fullScreen = useMediaQuery(FULL_SCREEN_MEDIA, active);
  const modal = active && fullScreen;

  useEffect(() => {
    const panel = panelRef.current;
    if (!panel || !modal) return;
    panel.setAttribute('aria-modal', 'true');

    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Tab' || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey)
        return;
      const stops = tabbables(panel);
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

  return modal;
}
