import { buildingJitless, z } from './zod.js';

// No `new Function` while these are built (`./zod.ts`): a strict CSP would refuse and report it.
const built = buildingJitless();

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
  /** The service's database cannot be reached right now (503); the same request works once it is back. */
  'unavailable',
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
 * can still read services that answer with it; `readErrorBody` (`error-body.ts`) reads every shape.
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

built();
