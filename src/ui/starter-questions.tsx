import { useId } from 'react';
import { useLabels } from '../labels';

export interface StarterQuestionsProps {
  questions: readonly string[];
  onAsk: (question: string) => void;
  className?: string;
  /** Class of each question button (they are `suggestion` slots, like follow-up links). */
  suggestionClassName?: string;
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
