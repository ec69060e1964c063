'use client';
/**
 * The public barrel of `docs-assistant`: components, hooks and types; nothing else.
 * The styles ship separately as `docs-assistant/styles.css`. `docs-assistant/widget` has the widget
 * alone (re-exported here too), for bundlers that would load the rest up front.
 */

export type { DocsAssistantState, UseDocsAssistantOptions } from './chat/types.js';
export { useDocsAssistant } from './chat/use-docs-assistant.js';
export { FilePart } from './parts/file-part.js';
// The widget's link policy (http(s), mailto, relative to the docs site; anything else refused), for
// `MessageParts`' `resolveHref` in a UI of your own.
export { createHrefResolver } from './parts/href.js';
export { MessageParts, type MessagePartsProps } from './parts/message-parts.js';
export { ReasoningPart } from './parts/reasoning-part.js';
export { SourcesList } from './parts/sources.js';
export { TextPart } from './parts/text-part.js';
export { ToolInvocationPart } from './parts/tool-invocation-part.js';
export type { AssistantRequest, Context, Filter, Message, Part } from './protocol/schemas.js';
export * from './widget.js';
