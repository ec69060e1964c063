/**
 * Reads an error body of any shape a service answers with, by hand: this file imports no zod, so
 * the widget's bundle can read errors without the schema runtime.
 *
 * Shapes read (spec §7 leaves error bodies open):
 * - `{ "error": "<message>", "code"?: "<code>" }`: the real service (`error` is a string) and the
 *   reference service, which adds `code` (and `issues` for a request that failed validation);
 * - `{ "error": { "code", "message", "issues"? } }`: the reference service before it matched;
 * - `{ "message": "<message>", "code"? }`: what many proxies and frameworks answer.
 */
import { isRecord } from './search-results.js';

/** One validation problem of a refused request, with the path of the field. */
export interface ErrorBodyIssue {
  path: string;
  message: string;
}

/** What an error body says, whatever its shape. */
export interface ErrorBodyInfo {
  /** The human-readable message. */
  message: string;
  /** A machine code when the body gave one (`thread_not_found`, `invalid_request`, …). */
  code?: string;
  /** Validation problems when the body listed them. */
  issues?: ErrorBodyIssue[];
}

const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value !== '';

function issuesOf(value: unknown): ErrorBodyIssue[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const issues = value.filter(
    (issue): issue is ErrorBodyIssue =>
      isRecord(issue) && typeof issue.path === 'string' && typeof issue.message === 'string',
  );
  return issues.length > 0 ? issues.map(({ path, message }) => ({ path, message })) : undefined;
}

/**
 * The message, code and issues of a parsed error body, or `undefined` when it holds no message in
 * any of the shapes above. A string `error` wins over a nested one, which wins over `message`.
 */
export function readErrorBody(body: unknown): ErrorBodyInfo | undefined {
  if (!isRecord(body)) return undefined;
  const nested = isRecord(body.error) ? body.error : undefined;
  const message = nonEmptyString(body.error)
    ? body.error
    : nonEmptyString(nested?.message)
      ? nested.message
      : nonEmptyString(body.message)
        ? body.message
        : undefined;
  if (message === undefined) return undefined;
  const code = nonEmptyString(body.code) ? body.code : nonEmptyString(nested?.code) ? nested.code : undefined;
  const issues = issuesOf(body.issues) ?? issuesOf(nested?.issues);
  return { message, ...(code ? { code } : {}), ...(issues ? { issues } : {}) };
}

/** `readErrorBody` of a body still in text form (not JSON: `undefined`). */
export function readErrorText(text: string): ErrorBodyInfo | undefined {
  try {
    return readErrorBody(JSON.parse(text));
  } catch {
    return undefined;
  }
}
