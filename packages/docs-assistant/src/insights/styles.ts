/**
 * The insights panel's stylesheet, rendered by the panel itself (`unstyled` leaves it out) on the
 * dashboard panels' card (`admin/card.ts`), so that neither the widget's `styles.css` nor a reader's
 * page carries a byte of it. Tokens are the widget's `--da-*` variables, each with a fallback; dark
 * by `data-theme="dark"` on the panel or an ancestor, or `theme="system"` with a dark colour scheme.
 */
import { cardRule } from '../admin/card.js';

const ROOT = '[data-docs-assistant="insights"]';

const DARK = `--da-surface: var(--da-surface-dark, #0d1117);
  --da-fg: var(--da-fg-dark, #e6edf3);
  --da-border: var(--da-border-dark, #3d444d);
  --da-muted: var(--da-muted-dark, #9198a1);
  --da-accent: var(--da-accent-dark, #4493f8);
  --da-button-bg: var(--da-button-bg-dark, #212830);
  --da-danger: var(--da-danger-dark, #f85149);
  color-scheme: dark;`;

export const INSIGHTS_CSS = `
${cardRule(ROOT, 'var(--da-space-4, 1rem)', '\n  font-size: 0.95rem;\n  line-height: 1.45;')}
${ROOT} h2, ${ROOT} h3 { margin: 0; }
${ROOT} h2 { font-size: var(--da-font-size-lg, 1.2rem); }
${ROOT} h3 { font-size: 1.05rem; }
${ROOT} section { display: grid; gap: var(--da-space-2, 0.5rem); min-width: 0; }
${ROOT} form, ${ROOT} fieldset { display: flex; flex-wrap: wrap; align-items: end; gap: var(--da-space-3, 0.75rem); }
${ROOT} fieldset { border: 0; padding: 0; margin: 0; align-items: center; }
${ROOT} legend { float: left; margin-right: var(--da-space-2, 0.5rem); color: var(--da-muted, #59636e); }
${ROOT} label { display: inline-flex; flex-direction: column; gap: 0.2rem; }
${ROOT} fieldset label { flex-direction: row; align-items: center; gap: 0.4rem; min-height: 24px; }
${ROOT} input[type="checkbox"] { width: 1.1rem; height: 1.1rem; margin: 0; accent-color: var(--da-accent, #0969da); }
${ROOT} input[type="date"] {
  font: inherit; min-height: 2rem; padding: 0.2rem 0.4rem; color: inherit;
  background: var(--da-surface, #fff); border: 1px solid var(--da-border, #d1d9e0); border-radius: var(--da-radius-sm, 6px);
}
${ROOT} button {
  font: inherit; min-height: 2rem; min-width: 2rem; padding: 0.25rem 0.8rem; cursor: pointer; color: inherit;
  border: 1px solid var(--da-border, #d1d9e0); border-radius: var(--da-radius-sm, 6px); background: var(--da-button-bg, #f6f8fa);
}
${ROOT} button:disabled { opacity: 0.6; cursor: progress; }
${ROOT} th button { text-align: start; font-weight: 600; padding: 0.2rem 0.5rem; max-width: 28rem; }
${ROOT} :focus-visible { outline: 2px solid var(--da-focus, var(--da-accent, #0969da)); outline-offset: 2px; }
${ROOT} [role="alert"] { color: var(--da-danger, #cf222e); }
${ROOT} [role="alert"] p, ${ROOT} [role="status"] { margin: 0; }
${ROOT} [data-insights="totals"] { display: flex; flex-wrap: wrap; gap: var(--da-space-3, 0.75rem); margin: 0; }
${ROOT} [data-insights="totals"] div {
  padding: 0.4rem 0.75rem; border: 1px solid var(--da-border, #d1d9e0); border-radius: var(--da-radius-sm, 6px);
}
${ROOT} dt { color: var(--da-muted, #59636e); font-size: 0.85em; }
${ROOT} dd { margin: 0; font-size: 1.2em; font-weight: 600; font-variant-numeric: tabular-nums; }
${ROOT} [data-insights="charts"] { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: var(--da-space-3, 0.75rem); }
${ROOT} figure { margin: 0; display: grid; gap: 0.25rem; }
${ROOT} figcaption { font-weight: 600; }
${ROOT} figure svg { width: 100%; height: 4.5rem; overflow: visible; }
${ROOT} figure polyline { fill: none; stroke: var(--da-accent, #0969da); stroke-width: 2; stroke-linejoin: round; }
${ROOT} figure circle { fill: var(--da-accent, #0969da); }
${ROOT} [data-insights="axis"] { stroke: var(--da-border, #d1d9e0); stroke-width: 1; vector-effect: non-scaling-stroke; }
${ROOT} [data-insights="chart-figures"] { margin: 0; color: var(--da-muted, #59636e); font-size: 0.85em; }
${ROOT} summary { cursor: pointer; min-height: 24px; padding: 0.2rem 0; }
${ROOT} [data-insights="tables"] { display: grid; grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr)); gap: var(--da-space-4, 1rem); }
${ROOT} table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
${ROOT} caption { text-align: start; color: var(--da-muted, #59636e); padding-bottom: 0.25rem; }
${ROOT} th, ${ROOT} td { text-align: start; vertical-align: top; padding: 0.3rem 0.4rem; border-bottom: 1px solid var(--da-border, #d1d9e0); }
${ROOT} thead th { font-size: 0.85em; color: var(--da-muted, #59636e); font-weight: 600; }
${ROOT} tbody th { font-weight: 600; }
${ROOT} code { font-size: 0.85em; overflow-wrap: anywhere; }
${ROOT} [data-insights="messages"] { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--da-space-3, 0.75rem); }
${ROOT} [data-insights="messages"] > li { padding: 0.5rem 0.75rem; border-inline-start: 3px solid var(--da-border, #d1d9e0); }
${ROOT} [data-insights="messages"] > li[data-role="user"] { border-inline-start-color: var(--da-accent, #0969da); }
${ROOT} [data-insights="speaker"] { margin: 0; font-weight: 600; }
${ROOT} [data-insights="mark"], ${ROOT} [data-insights="time"] { font-weight: 400; color: var(--da-muted, #59636e); }
${ROOT} [data-insights="text"] { margin: 0.25rem 0; white-space: pre-wrap; }
${ROOT}[data-theme="dark"], [data-theme="dark"] ${ROOT} { ${DARK} }
@media (prefers-color-scheme: dark) { ${ROOT}[data-theme="system"] { ${DARK} } }
`;
