/**
 * Content comparisons for `memo`. The v4 client `structuredClone`s the message on every stream
 * update, so every part is a new object each time: identity says nothing, content does.
 */
import { isDeepEqualData } from '@ai-sdk/ui-utils';
import type { FilePart, ReasoningPart, TextPart, ToolInvocation } from '../protocol/index.js';
import type { SourceLink } from '../protocol/search-results.js';
import type { PartRenderContext, PartStatus } from './types.js';

export function sameTextPart(a: TextPart, b: TextPart): boolean {
  return a.text === b.text;
}

export function sameReasoningPart(a: ReasoningPart, b: ReasoningPart): boolean {
  // Parts straight from the stream: a detail may be anything, and comparing must not throw.
  const aDetails = Array.isArray(a.details) ? a.details : [];
  const bDetails = Array.isArray(b.details) ? b.details : [];
  if (a.reasoning !== b.reasoning || aDetails.length !== bDetails.length) return false;
  return aDetails.every((detail, index) => {
    const other = bDetails[index];
    if (detail === other) return true;
    if (!detail || !other || detail.type !== other.type) return false;
    return detail.type === 'text'
      ? other.type === 'text' && detail.text === other.text && detail.signature === other.signature
      : other.type === 'redacted' && detail.data === other.data;
  });
}

export function sameToolInvocation(a: ToolInvocation, b: ToolInvocation): boolean {
  if (a.state !== b.state || a.toolCallId !== b.toolCallId || a.toolName !== b.toolName) return false;
  if (a.step !== b.step || !isDeepEqualData(a.args, b.args)) return false;
  return a.state === 'result' && b.state === 'result' ? isDeepEqualData(a.result, b.result) : true;
}

export function sameFilePart(a: FilePart, b: FilePart): boolean {
  return a.mimeType === b.mimeType && a.data === b.data;
}

export function sameSources(a: SourceLink[], b: SourceLink[]): boolean {
  return a.length === b.length && a.every((s, i) => s.href === b[i]!.href && s.title === b[i]!.title);
}

/**
 * The render context without the message object: renderers re-render when their own part, the
 * streaming flag or the callbacks change, not when a later part of the same message grows.
 */
export function sameContext(a: PartRenderContext, b: PartRenderContext): boolean {
  return (
    a.isStreaming === b.isStreaming &&
    samePartStatus(a.status, b.status) &&
    a.resolveHref === b.resolveHref &&
    a.onAsk === b.onAsk &&
    a.message.id === b.message.id
  );
}

export const samePartStatus = (a: PartStatus | undefined, b: PartStatus | undefined): boolean =>
  a?.type === b?.type &&
  (a?.type !== 'incomplete' || a.reason === (b as Extract<PartStatus, { type: 'incomplete' }>).reason);
