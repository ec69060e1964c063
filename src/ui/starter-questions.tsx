import { useId } from 'react';
import { useLabels } from '../labels';

export interface StarterQuestionsProps {
  questions: readonly string[];
  onAsk: (question: string) => void;
  className?: string;
}

/** Questions offered in an empty conversation; choosing one asks it. */
export function StarterQuestions({ questions, onAsk, className }: StarterQuestionsProps) {
  const labels = useLabels();
  const headingId = useId();
  if (questions.length === 0) return null;
  return (
    <div data-docs-assistant="starter-questions" className={className}>
      <h3 id={headingId}>{labels.starterQuestionsHeading}</h3>
      <ul aria-labelledby={headingId}>
        {questions.map((question) => (
          <li key={question}>
            <button type="button" data-docs-assistant="suggestion" onClick={() => onAsk(question)}>
              {question}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
