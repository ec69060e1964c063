/**
 * The static export panel's stylesheet, rendered by the panel itself (`unstyled` leaves it out) on
 * the dashboard panels' card (`admin/card.ts`), as the insights panel's is: neither the widget's
 * `styles.css` nor a reader's page carries a byte of it. Tokens are the widget's `--da-*`
 * variables, each with a fallback; dark by `data-theme="dark"` on the panel or an ancestor.
 */
import { cardRule } from '../admin/card.js';

const ROOT = '[data-docs-assistant="static-export"]';

export const STATIC_EXPORT_CSS = `
${cardRule(ROOT, 'var(--da-space-3, 0.75rem)')}
${ROOT} h2 { margin: 0; font-size: var(--da-font-size-lg, 1.1rem); }
${ROOT} [data-static-export="status"] { margin: 0; color: var(--da-muted, #59636e); }
${ROOT} [data-static-export="progress"] {
  display: grid; grid-template-columns: 1fr auto; gap: var(--da-space-1, 0.25rem) var(--da-space-3, 0.75rem);
  align-items: center;
}
${ROOT} [data-static-export="progress"] label { grid-column: 1 / -1; font-size: 0.9em; }
${ROOT} progress { width: 100%; accent-color: var(--da-accent, #0969da); }
${ROOT} [data-static-export="pages"] { grid-column: 1 / -1; color: var(--da-muted, #59636e); font-size: 0.9em; }
${ROOT} [role="alert"] { margin: 0; color: var(--da-danger, #cf222e); }
${ROOT} [data-static-export="actions"] { display: flex; flex-wrap: wrap; gap: var(--da-space-2, 0.5rem); }
${ROOT} button {
  font: inherit; padding: 0.4rem 0.9rem; border-radius: var(--da-radius-sm, 6px); border: 1px solid var(--da-border, #d1d9e0);
  background: var(--da-button-bg, #f6f8fa); color: inherit; cursor: pointer;
}
${ROOT} button:disabled { opacity: 0.6; cursor: progress; }
${ROOT} button:focus-visible, ${ROOT} a:focus-visible { outline: 2px solid var(--da-focus, #0969da); outline-offset: 2px; }
${ROOT} a { color: var(--da-accent, #0969da); }
${ROOT} [data-static-export="expiry"] { margin: var(--da-space-1, 0.25rem) 0 0; color: var(--da-muted, #59636e); font-size: 0.9em; }
[data-theme="dark"] ${ROOT}, ${ROOT}[data-theme="dark"] {
  --da-surface: var(--da-surface-dark, #0d1117);
  --da-fg: var(--da-fg-dark, #e6edf3);
  --da-border: var(--da-border-dark, #3d444d);
  --da-muted: var(--da-muted-dark, #9198a1);
}
`;
