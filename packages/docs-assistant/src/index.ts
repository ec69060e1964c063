/**
 * The public barrel of `docs-assistant`: components, hooks and types; nothing else.
 * The styles ship separately as `docs-assistant/styles.css`. `docs-assistant/widget` has the widget
 * alone (re-exported here too), for bundlers that would load the rest up front.
 *
 * Two `export *` and types, nothing else. The modules re-exported are the client boundaries (each
 * starts with "use client"); this one has no directive, since Next.js refuses `export *` in a
 * "use client" module. And `export *` is what keeps the launcher small under esbuild: its code
 * splitting follows every import of a module whose exports an app uses by name, so naming
 * `DocsAssistant` here would load the hook and the part renderers (the chat client, the Markdown
 * stack) with the launcher (see `headless.ts`).
 */

export type { DocsAssistantState, UseDocsAssistantOptions } from './chat/types.js';
export * from './headless.js';
export type { MessagePartsProps } from './parts/message-parts.js';
export type { AssistantRequest, Attachment, Context, Filter, Message, Part } from './protocol/schemas.js';
export type { SearchGroup, SearchHit } from './search/client.js';
export type { DocsSearchState, DocsSearchStatus, UseDocsSearchOptions } from './search/use-docs-search.js';
export * from './widget.js';
