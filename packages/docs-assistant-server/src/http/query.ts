/**
 * Input that failed its checks: one 400 naming every problem found (`invalidRequest`), so routes
 * answer a bad body or query alike; and the query strings of the admin list routes (feedback,
 * insights): one check of `?format=`.
 */
import type { ValidationProblem } from 'docs-assistant/protocol';
import { HttpError } from './errors.js';

/** `?format=`: `json`, `csv` or absent; anything else is added to `problems`. */
export function listFormat(
  format: string | undefined,
  problems: ValidationProblem[],
): 'json' | 'csv' | undefined {
  if (format === undefined || format === 'json' || format === 'csv') return format;
  problems.push({ path: 'format', message: `must be "json" or "csv" (got "${format}")` });
  return undefined;
}

/**
 * The 400 of input that failed its checks: `<what>: <path>: <message>; …`, each problem also named
 * in `issues`.
 *
 * @example
 * throw invalidRequest('Invalid request body', problems);
 */
export function invalidRequest(what: string, problems: ValidationProblem[]): HttpError {
  const list = problems.map((p) => `${p.path}: ${p.message}`).join('; ');
  return new HttpError(400, 'invalid_request', `${what}: ${list}.`, { issues: problems });
}

/** `?limit=`: a whole number from 1 to `max`, `fallback` when absent; anything else is added to `problems`. */
export function listLimit(
  limitText: string | undefined,
  fallback: number,
  max: number,
  problems: ValidationProblem[],
): number {
  if (limitText === undefined) return fallback;
  const limit = Number(limitText);
  if (!/^\d+$/.test(limitText) || limit < 1 || limit > max) {
    problems.push({ path: 'limit', message: `must be a whole number from 1 to ${max}` });
  }
  return limit;
}

/** Throws the 400 of a query that failed its checks, each problem named (`issues`), if any. */
export function throwIfInvalidQuery(problems: ValidationProblem[]): void {
  if (problems.length) throw invalidRequest('Invalid query', problems);
}
