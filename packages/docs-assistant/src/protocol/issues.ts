/**
 * Turns zod issues into messages that say what to send instead. `zod/v4-mini` ships no messages
 * of its own ("Invalid input" for everything), and a global `z.config()` would change the zod of a
 * host app, so the words are built here from each issue's code, what was expected and what came.
 */

/** One problem of a rejected body: a dotted path (`messages.0.role`) and what is wrong there. */
export interface ValidationProblem {
  path: string;
  message: string;
}

/** The parts of a zod issue the messages are built from (any zod 4 issue has this shape). */
export interface IssueLike {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly expected?: string;
  readonly input?: unknown;
  readonly values?: readonly unknown[];
  readonly note?: string;
  readonly minimum?: unknown;
  readonly maximum?: unknown;
  readonly keys?: readonly string[];
}

/**
 * What a field should hold, by dotted path with `*` for array indexes (`messages.*.parts`).
 * `(body)` is the whole body. Used as "required, <hint>" or "expected <hint>, got …".
 */
export type FieldHints = Readonly<Record<string, string>>;

/** zod's `expected` in words. */
const EXPECTED_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  date: 'a date',
  null: 'null',
  bigint: 'a whole number',
};

/** The kind of a JSON value, for "got …". */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return value.length > 40 ? 'a string' : `the string ${JSON.stringify(value)}`;
    case 'number':
      return `a number (${value})`;
    case 'boolean':
      return `${value}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

const pathKey = (path: readonly PropertyKey[]): string =>
  path.length ? path.map((key) => (typeof key === 'number' ? '*' : String(key))).join('.') : '(body)';

const dotted = (path: readonly PropertyKey[]): string =>
  path.length ? path.map(String).join('.') : '(body)';

// The message zod gives an issue that has no message of its own.
const GENERIC = 'Invalid input';

function describeIssue(issue: IssueLike, hints: FieldHints): string {
  const hint = hints[pathKey(issue.path)];
  const own = issue.message && issue.message !== GENERIC ? issue.message : undefined;
  // A schema's own message (its `error` option) is used where no hint is given for the field.
  if (own && !hint) return own;
  switch (issue.code) {
    case 'invalid_type': {
      const expected = hint ?? EXPECTED_WORDS[issue.expected ?? ''] ?? `a value of type ${issue.expected}`;
      return issue.input === undefined
        ? `required, ${expected}`
        : `expected ${expected}, got ${describeValue(issue.input)}`;
    }
    case 'invalid_value': {
      const values = (issue.values ?? []).map(String).join(', ');
      return `${issue.input === undefined ? 'required, ' : ''}one of: ${values} (got ${describeValue(issue.input)})`;
    }
    case 'invalid_union': {
      // A discriminated union puts the issue on the discriminator (`type`, `state`) with the whole
      // object as input; its value is the field's value.
      const input =
        issue.note === 'No matching discriminator' && issue.input && typeof issue.input === 'object'
          ? (issue.input as Record<string, unknown>)[String(issue.path.at(-1))]
          : issue.input;
      const expected = hint ?? 'a value of another shape';
      if (input === undefined) return `required, ${expected}`;
      return expected.startsWith('one of:')
        ? `${expected} (got ${describeValue(input)})`
        : `expected ${expected}, got ${describeValue(input)}`;
    }
    case 'unrecognized_keys':
      return `unknown field${(issue.keys?.length ?? 0) > 1 ? 's' : ''} ${(issue.keys ?? []).map((k) => JSON.stringify(k)).join(', ')}; remove ${(issue.keys?.length ?? 0) > 1 ? 'them' : 'it'}`;
    case 'too_small':
      return own ?? `too small: must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return own ?? `too big: must be at most ${String(issue.maximum)}`;
    default:
      return own ?? (hint ? `expected ${hint}` : `not accepted (${issue.code})`);
  }
}

/**
 * One problem per issue, each with its path and a message that says what to change. Parse with
 * `{ reportInput: true }` so messages can name what was received; the input itself is never
 * copied into a message beyond a short string or number.
 */
export function describeIssues(issues: readonly IssueLike[], hints: FieldHints = {}): ValidationProblem[] {
  return issues.map((issue) => ({ path: dotted(issue.path), message: describeIssue(issue, hints) }));
}

/** The problems as one sentence: `fp: required, a string; messages.0.id: …`. */
export const problemList = (problems: readonly ValidationProblem[]): string =>
  problems.map((p) => `${p.path}: ${p.message}`).join('; ');
