/**
 * The copy of the conversation that goes on the wire: exactly the message fields of spec §2.2 and
 * the part variants of §2.3, each with only its listed fields. The chat client's messages carry
 * more (its own `revisionId`, `toolInvocations`, `reasoning`; `file` parts; a tool call Stop left
 * without `args`), which a strict service refuses. The conversation the reader sees, and the one
 * stored, keep everything: only this copy is cleaned.
 *
 * Hand-written rather than with the protocol's zod schemas, which would bring zod's runtime into
 * the widget's bundle.
 */
import type { Attachment, Message, Part } from '../protocol/index.js';
import { isRecord } from '../protocol/search-results.js';
import { isNoteAnnotation } from './message-notes.js';
import type { AssistantMessage } from './types.js';

/** A part the spec lists (§2.3): a `file` part is not one. */
export type WirePart = Exclude<Part, { type: 'file' }>;

/** A message with the fields of spec §2.2 only. */
export type WireMessage = Pick<Message, 'id' | 'role' | 'content'> & {
  parts: WirePart[];
  createdAt?: string;
  annotations?: unknown[];
  experimental_attachments?: Attachment[];
};

const optionalString = <K extends string>(key: K, value: unknown): { [P in K]?: string } =>
  (typeof value === 'string' ? { [key]: value } : {}) as { [P in K]?: string };

/**
 * One part as spec §2.3 lists it, or `null` for what it does not: a `file` part, a part of an
 * unknown type, a source that is not a URL, a tool invocation without its result.
 *
 * A tool invocation without a result (`partial-call`, or `call`, as Stop leaves one) goes too: its
 * `args` may be missing or cut off, and it cannot be replayed to a model (the AI SDK's
 * `convertToCoreMessages`, which services built on it run on every request, throws "ToolInvocation
 * must have a result" for it). The reader still sees it; the model never saw its result either.
 */
function wirePart(part: AssistantMessage['parts'][number]): WirePart | null {
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string' ? { type: 'text', text: part.text } : null;
    case 'reasoning': {
      if (typeof part.reasoning !== 'string') return null;
      const details: Extract<WirePart, { type: 'reasoning' }>['details'] = [];
      for (const detail of Array.isArray(part.details) ? part.details : []) {
        if (detail.type === 'text' && typeof detail.text === 'string') {
          details.push({ type: 'text', text: detail.text, ...optionalString('signature', detail.signature) });
        } else if (detail.type === 'redacted' && typeof detail.data === 'string') {
          details.push({ type: 'redacted', data: detail.data });
        }
      }
      return { type: 'reasoning', reasoning: part.reasoning, details };
    }
    case 'step-start':
      return { type: 'step-start' };
    case 'source': {
      const { source } = part;
      if (!isRecord(source) || source.sourceType !== 'url') return null;
      if (typeof source.id !== 'string' || typeof source.url !== 'string') return null;
      return {
        type: 'source',
        source: {
          sourceType: 'url',
          id: source.id,
          url: source.url,
          ...optionalString('title', source.title),
        },
      };
    }
    case 'tool-invocation': {
      const invocation = part.toolInvocation;
      if (!isRecord(invocation) || invocation.state !== 'result' || !('result' in invocation)) return null;
      if (typeof invocation.toolCallId !== 'string' || typeof invocation.toolName !== 'string') return null;
      return {
        type: 'tool-invocation',
        toolInvocation: {
          state: 'result',
          ...(typeof invocation.step === 'number' ? { step: invocation.step } : {}),
          toolCallId: invocation.toolCallId,
          toolName: invocation.toolName,
          // `args` is required; a result without it (never from the client) gets an empty object.
          args: invocation.args ?? {},
          result: invocation.result,
        },
      };
    }
    default:
      return null;
  }
}

/** `createdAt` as an ISO 8601 date-time, or `undefined` when it is not a date (stored messages hold strings). */
function wireDate(value: unknown): string | undefined {
  if (!(value instanceof Date) && typeof value !== 'string') return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function wireAttachments(value: unknown): Attachment[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const attachments: Attachment[] = [];
  for (const item of value) {
    if (!isRecord(item) || typeof item.url !== 'string') continue;
    attachments.push({
      ...optionalString('name', item.name),
      ...optionalString('contentType', item.contentType),
      url: item.url,
    });
  }
  return attachments;
}

/** A message's annotations without the widget's own note (`message-notes.ts`), which stays on the page. */
function wireAnnotations(value: unknown): { annotations?: unknown[] } {
  if (!Array.isArray(value)) return {};
  const annotations = value.filter((annotation) => !isNoteAnnotation(annotation));
  return annotations.length || !value.length ? { annotations } : {};
}

/** One message as spec §2.2 lists it (see the file's comment). */
export function toWireMessage(message: AssistantMessage): WireMessage {
  const parts: WirePart[] = [];
  for (const part of Array.isArray(message.parts) ? message.parts : []) {
    const wire = isRecord(part) ? wirePart(part) : null;
    if (wire) parts.push(wire);
  }
  const createdAt = wireDate(message.createdAt);
  const attachments = wireAttachments(message.experimental_attachments);
  return {
    id: message.id,
    role: message.role,
    content: typeof message.content === 'string' ? message.content : '',
    parts,
    ...(createdAt ? { createdAt } : {}),
    ...wireAnnotations(message.annotations),
    ...(attachments ? { experimental_attachments: attachments } : {}),
  };
}

/**
 * The conversation as it goes on the wire. Attachments go with the latest message only: earlier
 * ones were read with their question, and sending megabytes of them again on every turn would soon
 * pass what the service accepts.
 */
export const toWireMessages = (messages: AssistantMessage[]): WireMessage[] =>
  messages.map((message, index) => {
    const wire = toWireMessage(message);
    if (index < messages.length - 1) delete wire.experimental_attachments;
    return wire;
  });
