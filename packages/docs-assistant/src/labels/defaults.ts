/**
 * Every default string the panel and the part renderers show (`defaultLabels`, English): plain
 * data, no React, so a server component may import it from `docs-assistant/widget` (whose own
 * module has no "use client"). The launcher's few are in `shell.ts`, the rest in `panel.ts`; each
 * lazily loaded view's are in `views/`, which only that view imports. `labels` on `<DocsAssistant>`
 * overrides any of them.
 */
import { panelLabels } from './panel.js';
import { shellLabels } from './shell.js';
import type { CoreLabels } from './types.js';

// The shell's own (launcher, title bar…) first, kept apart so the launcher needs no more.
export const defaultLabels: CoreLabels = { ...shellLabels, ...panelLabels };
