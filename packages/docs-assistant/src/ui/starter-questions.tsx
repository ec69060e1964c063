import { useId } from 'react';
import { useLabels } from '../labels.js';

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
