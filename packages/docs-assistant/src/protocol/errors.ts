import { z } from 'zod/v4-mini';
import { isRecord } from './search-results.js';

/**
 * Error codes the reference service answers with, in the `code` field beside the message:
 * `{ "error": "<message>", "code": "<code>" }` (see `ServiceErrorBodySchema`).
 */
export const ERROR_CODES = [
  'invalid_request',
  'invalid_json',
  'unsupported_media_type',
  'payload_too_large',
  'unauthorized',
  'forbidden',
  'not_found',
  /** The `threadId` is unknown here (expired, another reader's, a service restarted without a data dir). */
  'thread_not_found',
  'conflict',
  'rate_limited',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const IssuesSchema = z.optional(z.array(z.object({ path: z.string(), message: z.string() })));

/**
 * The error body of the real service and of the reference service: `error` is the human-readable
 * message (a string); `code` a machine code (`ERROR_CODES` from the reference service, absent from
 * others); `issues` lists validation problems. Other fields may be added.
 */
export const ServiceErrorBodySchema = z.object({
  error: z.string(),
  code: z.optional(z.string()),
  /** For `invalid_request`: one entry per problem, with the path of the field. */
  issues: IssuesSchema,
});

export type ServiceErrorBody = z.infer<typeof ServiceErrorBodySchema>;

/**
 * The older error body of the reference service, `{ error: { code, message } }`. Kept so clients
 * can still read services that answer with it; `readErrorBody` reads both shapes.
 */
export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    /** For `invalid_request`: one entry per problem, with the path of the field. */
    issues: IssuesSchema,
  }),
});

export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** An error body read from any shape a service may send. */
export interface ErrorBodyInfo {
  message: string;
  code?: string;
}

/**
 * Reads the message and code of an error body of any shape: `{ error: "…", code? }` (the real
 * service), `{ error: { message, code } }` (older reference service), `{ message, code? }`.
 * `undefined` when no message can be found.
 */
export function readErrorBody(body: unknown): ErrorBodyInfo | undefined {
  if (!isRecord(body)) return undefined;
  const record = body;
  const nested = isRecord(record.error) ? record.error : undefined;
  const message =
    typeof record.error === 'string' && record.error
      ? record.error
      : typeof nested?.message === 'string' && nested.message
        ? nested.message
        : typeof record.message === 'string' && record.message
          ? record.message
          : undefined;
  if (!message) return undefined;
  const code =
    typeof record.code === 'string'
      ? record.code
      : typeof nested?.code === 'string'
        ? nested.code
        : undefined;
  return code ? { message, code } : { message };
}
