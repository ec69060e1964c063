/**
 * The card the dashboard panels (insights, static export) are drawn on, for the stylesheets each
 * renders itself (`unstyled` leaves it out), so that neither `styles.css` nor a reader's page
 * carries a byte of them. Tokens are the widget's `--da-*` variables, each with a fallback.
 */
export const cardRule = (root: string, gap: string, more = '') => `${root} {
  display: grid;
  gap: ${gap};
  padding: var(--da-space-4, 1rem);
  border: 1px solid var(--da-border, #d1d9e0);
  border-radius: var(--da-radius, 8px);
  background: var(--da-surface, #fff);
  color: var(--da-fg, #1f2328);
  font-family: var(--da-font, system-ui, sans-serif);${more}
}`;
