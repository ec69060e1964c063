/**
 * Per-type renderers. Each default can be replaced through `components`; `null` hides a type.
 */
import type { ComponentType } from 'react';
import type { AssistantMessage } from '../chat/types.js';
import type { FilePart, ReasoningPart, TextPart, ToolInvocation } from '../protocol/index.js';
import type { SourceLink } from '../protocol/search-results.js';

/**
 * Where a part stands: still being written, complete, or cut short for good (`stopped`: the
 * reader stopped the answer; `error`: the stream broke), so a renderer can show a part that will
 * not be finished as such rather than as complete or as still coming.
 */
export type PartStatus =
  | { type: 'running' }
  | { type: 'complete' }
  | { type: 'incomplete'; reason: 'stopped' | 'error' };

/** What every part renderer receives besides its part. */
export interface PartRenderContext {
  message: AssistantMessage;
  /** This part is the last of a message that is still streaming (`status.type === 'running'`). */
  isStreaming: boolean;
  /** Where this part stands; always given by `MessageParts`. Optional for compatibility. */
  status?: PartStatus;
  /** Resolves a relative docs link (`/guides/x`) against the docs site; returns null for unsafe ones. */
  resolveHref: (href: string) => string | null;
  /** Sends a follow-up question (used by suggestions). */
  onAsk?: (question: string) => void;
}

export interface TextPartProps extends PartRenderContext {
  part: TextPart;
}

export interface ReasoningPartProps extends PartRenderContext {
  part: ReasoningPart;
}

export interface FilePartProps extends PartRenderContext {
  part: FilePart;
}

export interface ToolInvocationProps extends PartRenderContext {
  toolInvocation: ToolInvocation;
}

/** The de-duplicated, numbered sources of one message (from `source` parts and `search` results). */
export interface SourcesProps extends PartRenderContext {
  sources: SourceLink[];
}

export interface PartComponents {
  text?: ComponentType<TextPartProps> | null;
  reasoning?: ComponentType<ReasoningPartProps> | null;
  /** Renders the sources list of a message. */
  source?: ComponentType<SourcesProps> | null;
  file?: ComponentType<FilePartProps> | null;
  toolInvocation?: {
    /** Renderers by tool name, e.g. `{ search: MySearchView }`. */
    byName?: Record<string, ComponentType<ToolInvocationProps> | null>;
    /** Renderer for tools without their own; `null` hides them. */
    fallback?: ComponentType<ToolInvocationProps> | null;
  } | null;
}
