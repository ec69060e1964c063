/**
 * The service's one error contract, on hono's own exception: a JSON body in the real service's
 * shape, `{ "error": "<message>", "code": "<code>" }` (`error` is the sentence clients show, `code`
 * is for programs), plus `issues` for a body that failed validation. Thrown anywhere in a route; the
 * app's one `onError` (`errorHandler`) answers it with `getResponse()`.
 */
import type { ErrorCode, ServiceErrorBody, ValidationProblem } from 'docs-assistant/protocol';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  BundleEvictedError,
  StorageDegradedError,
  StorageError,
  StorageUnavailableError,
} from '../storage/types.js';

/** Extras of an error body (spec §7 leaves error bodies open; DESIGN.md fixes the shape). */
export interface ErrorBodyInit {
  issues?: ValidationProblem[];
  headers?: Record<string, string>;
}

/**
 * A JSON error response in the real service's shape.
 *
 * @example
 * errorResponse(404, 'not_found', 'Unknown domain "acme"; check the domain in the request path.')
 */
export function errorResponse(
  status: ContentfulStatusCode,
  code: ErrorCode,
  message: string,
  init: ErrorBodyInit = {},
): Response {
  const body: ServiceErrorBody = { error: message, code };
  if (init.issues) body.issues = init.issues;
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...init.headers },
  });
}

/**
 * An error that becomes a JSON response; thrown anywhere inside a route.
 *
 * @example
 * throw new HttpError(409, 'conflict', 'The job is running, not completed: poll it until it is.');
 */
export class HttpError extends HTTPException {
  readonly code: ErrorCode;
  readonly issues: ValidationProblem[] | undefined;
  readonly headers: Record<string, string>;

  constructor(status: ContentfulStatusCode, code: ErrorCode, message: string, init: ErrorBodyInit = {}) {
    super(status, { message });
    this.name = 'HttpError';
    this.code = code;
    this.issues = init.issues;
    this.headers = init.headers ?? {};
  }

  override getResponse(): Response {
    return errorResponse(this.status as ContentfulStatusCode, this.code, this.message, {
      ...(this.issues ? { issues: this.issues } : {}),
      headers: this.headers,
    });
  }
}

/**
 * What the storage layer's errors answer: 503 while the database is unreachable (try again in
 * seconds) or keeps nothing (full or damaged: in a minute), 410 for a bundle evicted from memory.
 * Their messages say what to do.
 */
export function storageAnswer(error: StorageError): Response {
  if (error instanceof StorageUnavailableError)
    return errorResponse(503, 'unavailable', error.message, { headers: { 'Retry-After': '5' } });
  if (error instanceof StorageDegradedError)
    return errorResponse(503, 'unavailable', error.message, { headers: { 'Retry-After': '60' } });
  if (error instanceof BundleEvictedError) return errorResponse(410, 'not_found', error.message);
  return errorResponse(503, 'unavailable', error.message);
}

/**
 * The app's one `onError`: an `HTTPException` (ours, or one of hono's middleware) answers itself,
 * a storage error as `storageAnswer` says; anything else is logged through the service's logger
 * and answered 500 without its details.
 *
 * @example
 * app.onError(errorHandler(runtime.warn));
 */
export function errorHandler(warn: (message: string) => void) {
  return (error: Error, _c: Context): Response => {
    if (error instanceof HTTPException) return error.getResponse();
    if (error instanceof StorageError) return storageAnswer(error);
    warn(`unexpected error: ${error.stack ?? error.message}`);
    return errorResponse(500, 'internal', 'The service failed to handle this request; try again later.');
  };
}
