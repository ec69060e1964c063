import { z } from 'zod/v4-mini';

/** Error codes the reference service answers with; the body is `{ error: { code, message } }`. */
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

export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    /** For `invalid_request`: one entry per problem, with the path of the field. */
    issues: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
  }),
});

export type ErrorBody = z.infer<typeof ErrorBodySchema>;
