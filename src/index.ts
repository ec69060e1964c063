'use client';
/**
 * The public barrel of `docs-assistant`: components, hooks and types; nothing else.
 * The styles ship separately as `docs-assistant/styles.css`.
 */

export type {
  AssistantError,
  AssistantErrorKind,
  AssistantMessage,
  AssistantStatus,
  ContextItem,
  Deployment,
  DocsAssistantState,
  StoredThread,
  ThreadStorage,
  UseDocsAssistantOptions,
} from './chat/types';
export { useDocsAssistant } from './chat/use-docs-assistant';
export { createContextStore } from './context/store';
export type { ContextStore } from './context/types';
export { defaultLabels, type Labels } from './labels';
export { FilePart } from './parts/file-part';
export { MessageParts, type MessagePartsProps } from './parts/message-parts';
export { ReasoningPart } from './parts/reasoning-part';
export { SourcesList } from './parts/sources';
export { TextPart } from './parts/text-part';
export { ToolInvocationPart } from './parts/tool-invocation-part';
export type {
  FilePartProps,
  PartComponents,
  PartRenderContext,
  ReasoningPartProps,
  SourcesProps,
  TextPartProps,
  ToolInvocationProps,
} from './parts/types';
export type { AssistantRequest, Context, Filter, Message, Part } from './protocol/schemas';
export { DocsAssistant } from './ui/docs-assistant';
export type {
  ClassNames,
  CollectorOptions,
  DocsAssistantHandle,
  DocsAssistantProps,
  Theme,
  Variant,
} from './ui/types';
