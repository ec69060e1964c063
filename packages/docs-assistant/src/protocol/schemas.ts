/**
 * Zod schemas of the v1 assistant request (spec §2.1–2.4), shared by the widget and the
 * reference service. Written with `zod/v4-mini` so the browser bundle stays small.
 */

import { describeIssues, type FieldHints, type ValidationProblem } from './issues.js';
import { CURRENT_PATH_MAX_LENGTH, codePointLength, MAX_RETRIEVAL_PAGE_SIZE } from './limits.js';
import { buildingJitless, z } from './zod.js';

// No `new Function` while these are built (`./zod.ts`): a strict CSP would refuse and report it.
const built = buildingJitless();

export type { ValidationProblem };

// --- Parts (§2.3) -------------------------------------------------------------------------------

export const TextPartSchema = z.object({ type: z.literal('text'), text: z.string() });

export const ReasoningDetailSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string(), signature: z.optional(z.string()) }),
  z.object({ type: z.literal('redacted'), data: z.string() }),
]);

export const ReasoningPartSchema = z.object({
  type: z.literal('reasoning'),
  reasoning: z.string(),
  details: z.array(ReasoningDetailSchema),
});

export const StepStartPartSchema = z.object({ type: z.literal('step-start') });

export const SourceSchema = z.object({
  sourceType: z.literal('url'),
  id: z.string(),
  url: z.string(),
  title: z.optional(z.string()),
});

export const SourcePartSchema = z.object({ type: z.literal('source'), source: SourceSchema });

const toolCallFields = {
  step: z.optional(z.number()),
  toolCallId: z.string(),
  toolName: z.string(),
  args: z.unknown(),
};

export const ToolInvocationSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('partial-call'), ...toolCallFields }),
  z.object({ state: z.literal('call'), ...toolCallFields }),
  z.object({ state: z.literal('result'), ...toolCallFields, result: z.unknown() }),
]);

export const ToolInvocationPartSchema = z.object({
  type: z.literal('tool-invocation'),
  toolInvocation: ToolInvocationSchema,
});

/**
 * Not in the spec's table, but the v4 client produces it for `k:` stream parts and sends it back
 * with the conversation, so the service must accept it.
 */
export const FilePartSchema = z.object({ type: z.literal('file'), mimeType: z.string(), data: z.string() });

export const PartSchema = z.discriminatedUnion('type', [
  TextPartSchema,
  ReasoningPartSchema,
  StepStartPartSchema,
  SourcePartSchema,
  ToolInvocationPartSchema,
  FilePartSchema,
]);

// --- Message (§2.2) -----------------------------------------------------------------------------

export const MESSAGE_ROLES = ['system', 'assistant', 'data', 'user'] as const;

export const AttachmentSchema = z.object({
  name: z.optional(z.string()),
  contentType: z.optional(z.string()),
  url: z.string(),
});

/** Loose: the v4 client sends extra fields (`toolInvocations`, `reasoning`) that must survive. */
export const MessageSchema = z.looseObject({
  id: z.string().check(z.minLength(1, 'must be a non-empty string')),
  role: z.enum(MESSAGE_ROLES, `must be one of ${MESSAGE_ROLES.join(', ')}`),
  content: z.string(),
  parts: z.array(PartSchema),
  createdAt: z.optional(z.union([z.iso.datetime({ offset: true }), z.date()])),
  annotations: z.optional(z.array(z.unknown())),
  experimental_attachments: z.optional(z.array(AttachmentSchema)),
});

// --- Context (§2.4) -----------------------------------------------------------------------------

export const CONTEXT_TYPES = ['code', 'textSelection'] as const;

export const ContextSchema = z.object({
  type: z.enum(CONTEXT_TYPES, `must be one of ${CONTEXT_TYPES.join(', ')}`),
  value: z.string(),
  path: z.optional(z.string()),
  elementId: z.optional(z.string()),
});

// --- Request body (§2.1) ------------------------------------------------------------------------

export const FilterSchema = z.object({
  version: z.optional(z.string()),
  language: z.optional(z.string()),
});

export const AssistantRequestSchema = z.object({
  fp: z.string().check(z.minLength(1, 'must be a non-empty string (use "anonymous" for anonymous readers)')),
  messages: z.array(MessageSchema).check(z.minLength(1, 'must hold at least the latest user message')),
  threadId: z.nullish(z.string().check(z.minLength(1, 'must be a non-empty string or null'))),
  /** Not in the spec: the key the reference service hands out with a thread (`X-Thread-Key`). */
  threadKey: z.nullish(z.string()),
  retrievalPageSize: z.optional(
    z
      .number()
      .check(
        z.int('must be a whole number'),
        z.gte(1, 'must be at least 1'),
        z.lte(MAX_RETRIEVAL_PAGE_SIZE, `must be at most ${MAX_RETRIEVAL_PAGE_SIZE}`),
      ),
  ),
  filter: z.nullish(FilterSchema),
  context: z.optional(z.array(ContextSchema)),
  currentPath: z.optional(
    z.string().check(
      // Characters are code points (an emoji is one), not UTF-16 units as `maxLength` counts.
      z.refine((path) => codePointLength(path) <= CURRENT_PATH_MAX_LENGTH, {
        error: `must be at most ${CURRENT_PATH_MAX_LENGTH} characters (spec §8); cut it before sending`,
      }),
    ),
  ),
});

// --- Types --------------------------------------------------------------------------------------

export type TextPart = z.infer<typeof TextPartSchema>;
export type ReasoningDetail = z.infer<typeof ReasoningDetailSchema>;
export type ReasoningPart = z.infer<typeof ReasoningPartSchema>;
export type StepStartPart = z.infer<typeof StepStartPartSchema>;
export type Source = z.infer<typeof SourceSchema>;
export type SourcePart = z.infer<typeof SourcePartSchema>;
export type ToolInvocation = z.infer<typeof ToolInvocationSchema>;
export type ToolInvocationPart = z.infer<typeof ToolInvocationPartSchema>;
export type FilePart = z.infer<typeof FilePartSchema>;
export type Part = z.infer<typeof PartSchema>;
export type MessageRole = (typeof MESSAGE_ROLES)[number];
export type Message = z.infer<typeof MessageSchema>;
export type Attachment = z.infer<typeof AttachmentSchema>;
export type ContextType = (typeof CONTEXT_TYPES)[number];
export type Context = z.infer<typeof ContextSchema>;
export type Filter = z.infer<typeof FilterSchema>;
export type AssistantRequest = z.infer<typeof AssistantRequestSchema>;

const PART_TYPES = ['text', 'reasoning', 'step-start', 'source', 'tool-invocation', 'file'];
const TOOL_STATES = ['partial-call', 'call', 'result'];
const oneOf = (values: readonly string[]) => `one of: ${values.join(', ')}`;

/** What each field of the request should hold, for messages like "expected …, got a number". */
export const ASSISTANT_REQUEST_HINTS: FieldHints = {
  '(body)': 'a JSON object { "fp": string, "messages": [ … ], … }',
  fp: 'a string (the reader\'s fingerprint, or "anonymous")',
  messages: 'an array of messages (at least the latest user message)',
  'messages.*': 'a message object { "id", "role", "content", "parts" }',
  'messages.*.id': 'a string (the message id)',
  'messages.*.role': oneOf(MESSAGE_ROLES),
  'messages.*.content': 'a string (the text of the message; may be "")',
  'messages.*.parts': 'an array of parts, like [{ "type": "text", "text": "…" }] (may be [])',
  'messages.*.parts.*': `a part object with "type" (${oneOf(PART_TYPES)})`,
  'messages.*.parts.*.type': oneOf(PART_TYPES),
  'messages.*.parts.*.text': 'a string',
  'messages.*.parts.*.toolInvocation': 'an object { "state", "toolCallId", "toolName", "args" }',
  'messages.*.parts.*.toolInvocation.state': oneOf(TOOL_STATES),
  'messages.*.parts.*.details.*.type': oneOf(['text', 'redacted']),
  'messages.*.parts.*.source.sourceType': oneOf(['url']),
  'messages.*.createdAt': 'an ISO 8601 date-time with a time zone, like "2026-01-31T12:00:00Z"',
  'messages.*.annotations': 'an array',
  'messages.*.experimental_attachments': 'an array of { "url", "name"?, "contentType"? }',
  'messages.*.experimental_attachments.*.url': 'a string (the attachment URL)',
  threadId: 'a string (the threadId of an earlier answer) or null',
  threadKey: 'a string or null',
  retrievalPageSize: `a whole number from 1 to ${MAX_RETRIEVAL_PAGE_SIZE} (5 is recommended)`,
  filter: 'an object { "version"?: string, "language"?: string } or null',
  'filter.version': 'a string (a documentation version, like "v2")',
  'filter.language': 'a string (a language code, like "en")',
  context: 'an array of { "type", "value", "path"?, "elementId"? } (leave the field out for none)',
  'context.*': 'an object { "type", "value", "path"?, "elementId"? }',
  'context.*.type': oneOf(CONTEXT_TYPES),
  'context.*.value': 'a string (the code or selected text)',
  'context.*.path': 'a string',
  'context.*.elementId': 'a string',
  currentPath: `a string of at most ${CURRENT_PATH_MAX_LENGTH} characters (leave the field out for none)`,
};

/** Validates a request body, returning the data or every problem with its path. */
export function validateAssistantRequest(
  body: unknown,
): { success: true; data: AssistantRequest } | { success: false; problems: ValidationProblem[] } {
  const result = AssistantRequestSchema.safeParse(body, { reportInput: true });
  if (result.success) return { success: true, data: result.data };
  return { success: false, problems: describeIssues(result.error.issues, ASSISTANT_REQUEST_HINTS) };
}

built();
