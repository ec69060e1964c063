'use client';
/**
 * The headless half of `docs-assistant` (the hook, the part renderers, the link policy), re-exported
 * by `index.ts` with `export *`. A module of its own so that the barrel never imports these files
 * itself: esbuild's code splitting follows every import of a module whose exports an app uses by
 * name, so an app rendering only `DocsAssistant` would load the chat client and the Markdown stack
 * with the launcher. Through this module, which such an app never uses, they stay in the panel.
 */

export { useDocsAssistant } from './chat/use-docs-assistant.js';
export { FilePart } from './parts/file-part.js';
// The widget's link policy (http(s), mailto, relative to the docs site; anything else refused), for
// `MessageParts`' `resolveHref` in a UI of your own.
export { createHrefResolver } from './parts/href.js';
export { SourcesList } from './parts/sources.js';
export { ToolInvocationPart } from './parts/tool-invocation-part.js';
export { MessageParts, ReasoningPart, TextPart } from './parts/with-parser.js';
// Instant docs search for a UI of your own (the widget's search uses it too).
export { useDocsSearch } from './search/use-docs-search.js';
