/**
 * Query strings of the admin list routes (feedback, insights): one check of `?format=` and one 400
 * naming every problem found, so both families answer a bad query alike.
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

/** Throws the 400 of a query that failed its checks, each problem named (`issues`), if any. */
export function throwIfInvalidQuery(problems: ValidationProblem[]): void {
  if (!problems.length) return;
  const list = problems.map((p) => `${p.path}: ${p.message}`).join('; ');
  throw new HttpError(400, 'invalid_request', `Invalid query: ${list}.`, { issues: problems });
}
