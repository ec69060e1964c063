/**
 * Compares measured failures with the ratchet list (known-failures.ts): what fails and is not
 * listed is new; what is listed and passes is fixed and must leave the list.
 */
import type { Failure } from './checks';

export interface RatchetReport {
  /** `key: check — detail` of each failure not in the list. */
  added: string[];
  /** `key: check` of each listed failure that no longer fails. */
  fixed: string[];
}

export function compareWithKnown(
  found: ReadonlyMap<string, Failure[]>,
  known: Readonly<Record<string, string>>,
): RatchetReport {
  const added: string[] = [];
  const fixed: string[] = [];
  for (const [key, failures] of found) {
    const listed = new Set((known[key] ?? '').split(/\s+/).filter(Boolean));
    const failing = new Set<string>(failures.map((failure) => failure.check));
    for (const failure of failures) {
      if (!listed.has(failure.check)) added.push(`${key}: ${failure.check} — ${failure.detail}`);
    }
    for (const check of listed) if (!failing.has(check)) fixed.push(`${key}: ${check}`);
  }
  return { added, fixed };
}

/** Keys in the list that no run measures (a target, state, viewport or language that is gone). */
export const unknownKeys = (known: Readonly<Record<string, string>>, keys: ReadonlySet<string>): string[] =>
  Object.keys(known).filter((key) => !keys.has(key));

/** The list with the fixed checks taken out (`key: check` as `compareWithKnown` reports them). */
export function withoutFixed(
  known: Readonly<Record<string, string>>,
  fixed: readonly string[],
): Record<string, string> {
  const gone = new Set(fixed);
  const kept: Record<string, string> = {};
  for (const [key, checks] of Object.entries(known)) {
    const left = checks.split(/\s+/).filter((check) => check && !gone.has(`${key}: ${check}`));
    if (left.length > 0) kept[key] = left.join(' ');
  }
  return kept;
}

/** known-failures.ts as written: its header comment, then one line per result, sorted. */
export function formatKnownFailures(known: Readonly<Record<string, string>>, header: string): string {
  const lines = Object.keys(known)
    .sort()
    .map((key) => `  '${key}': '${known[key]}',`);
  return `${header}export const KNOWN_FAILURES: Record<string, string> = {${lines.length ? `\n${lines.join('\n')}\n` : ''}};\n`;
}
