'use client';
/**
 * The public barrel of `docs-assistant`: components, hooks and types; nothing else.
 * The styles ship separately as `docs-assistant/styles.css`. `docs-assistant/widget` has the widget
 * alone (re-exported here too), for bundlers that would load the rest up front.
 */

export type { DocsAssistantState, UseDocsAssistantOptions } from './chat/types';
export { useDocsAssistant } from './chat/use-docs-assistant';
export { FilePart } from './parts/file-part';
export { MessageParts, type MessagePartsProps } from './parts/message-parts';
export { ReasoningPart } from './parts/reasoning-part';
export { SourcesList } from './parts/sources';
export { TextPart } from './parts/text-part';
export { ToolInvocationPart } from './parts/tool-invocation-part';
export type { AssistantRequest, Context, Filter, Message, Part } from './protocol/schemas';
export * from './widget';
