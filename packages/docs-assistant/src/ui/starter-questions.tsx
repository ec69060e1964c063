import { useId } from 'react';
import { useLabels } from '../labels/index.js';

export interface StarterQuestionsProps {
  questions: readonly string[];
  onAsk: (question: string) => void;
  className?: string;
  /** Class of each question button (they are `suggestion` slots, like follow-up links). */
  suggestionClassName?: string;
}

/**
 * The usable starter questions: a host calling from JavaScript may pass anything, and a wrong value
 * must not break its page. Anything but an array of non-empty strings is left out with a warning.
 */
export function validStarterQuestions(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const questions = Array.isArray(value)
    ? value.filter((q): q is string => typeof q === 'string' && q.trim() !== '')
    : [];
  if (!Array.isArray(value) || questions.length !== value.length) {
    console.warn(
      `[docs-assistant] starterQuestions must be an array of non-empty strings, e.g. ["How do I install it?"]; what is not was left out of ${JSON.stringify(value)}.`,
    );
  }
  // Each is a React key: a repeated question is shown once.
  return [...new Set(questions)];
}

/**
 * The `starterQuestions` option: one list for every page, a function of the page's path, or lists
 * by path prefix (`{ '/': [...], '/api': [...] }`, the longest prefix that matches the path wins).
 */
export type StarterQuestionsOption =
  | readonly string[]
  | ((currentPath: string) => readonly string[] | null | undefined)
  | Readonly<Record<string, readonly string[]>>;

/**
 * Whether `prefix` covers `path` on segment boundaries: `/api` covers `/api` and `/api/keys`, not
 * `/apiary` (a prefix ending in `/` covers whatever starts with it).
 */
const covers = (prefix: string, path: string) =>
  path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);

/**
 * The questions of `option` for the page at `path`, before `validStarterQuestions` checks them: a
 * function is called with the path (what it throws is reported and offers nothing), a map gives the
 * list of the longest prefix that covers the path (none: nothing).
 */
export function starterQuestionsFor(option: unknown, path: string): unknown {
  if (typeof option === 'function') {
    try {
      return option(path);
    } catch (error) {
      console.warn(
        '[docs-assistant] starterQuestions(currentPath) threw; no starter questions shown.',
        error,
      );
      return undefined;
    }
  }
  if (!option || typeof option !== 'object' || Array.isArray(option)) return option;
  const keys = Object.keys(option);
  const bad = keys.filter((key) => !key.startsWith('/'));
  if (bad.length) {
    console.warn(
      `[docs-assistant] starterQuestions keys are path prefixes starting with "/" (e.g. { "/": [...], "/api": [...] }); ${JSON.stringify(bad)} never match.`,
    );
  }
  const prefix = keys
    .filter((key) => key.startsWith('/') && covers(key, path))
    .reduce<string | undefined>(
      (best, key) => (best === undefined || key.length > best.length ? key : best),
      undefined,
    );
  return prefix === undefined ? undefined : (option as Record<string, unknown>)[prefix];
}

/** Questions offered in an empty conversation; choosing one asks it. */
export function StarterQuestions({
  questions,
  onAsk,
  className,
  suggestionClassName,
}: StarterQuestionsProps) {
  const labels = useLabels();
  const headingId = useId();
  if (questions.length === 0) return null;
  return (
    <div data-docs-assistant="starter-questions" className={className}>
      <h3 id={headingId}>{labels.starterQuestionsHeading}</h3>
      <ul aria-labelledby={headingId}>
        {questions.map((question) => (
          <li key={question}>
            <button
              type="button"
              className={suggestionClassName}
              data-docs-assistant="suggestion"
              onClick={() => onAsk(question)}
            >
              {question}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
