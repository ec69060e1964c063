/**
 * Thumbs up / down under a finished answer, then an optional short comment. An on-demand view: the
 * panel loads it with the first finished answer (see `events/feedback-slot.tsx`).
 *
 * The two votes are toggle buttons (`aria-pressed`) in a named group; one vote per answer, which the
 * other button changes. After a vote the comment box opens and takes focus (Escape or Skip closes it
 * and focus returns to the vote); what happened is said in a polite live region.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { FeedbackConfig, FeedbackKit } from '../../events/feedback-slot.js';
import type { FeedbackRating } from '../../events/types.js';
import type { Labels } from '../../labels/types.js';
import { type FeedbackLabels, feedbackLabels } from './labels.js';
import { keepVote, MAX_COMMENT_CHARS, readVote, sendVote, type Vote } from './votes.js';

export interface FeedbackProps {
  config: FeedbackConfig;
  /** The panel's helpers this chunk uses (imported, they would be split into chunks of their own). */
  kit: FeedbackKit;
  labels: Labels;
  messageId: string;
}

const THUMB =
  'M7 10v11H3V10h4zm2 11h9.2a2 2 0 0 0 2-1.7l1.3-7A2 2 0 0 0 19.5 10H14l1-4.5A2 2 0 0 0 13 3l-4 7v11z';

function Thumb({ down }: { down?: boolean }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      width="16"
      height="16"
      fill="currentColor"
      style={down ? { transform: 'scaleY(-1)' } : undefined}
    >
      <path d={THUMB} />
    </svg>
  );
}

/** The answer's vote (kept per message) and its sending; `said` is what the status line says. */
function useVote(config: FeedbackConfig, kit: FeedbackKit, labels: FeedbackLabels, messageId: string) {
  const [vote, setVote] = useState<Vote | undefined>(() => readVote(config, messageId));
  const [said, setSaid] = useState('');

  const submit = (next: Vote) => {
    setVote(next);
    keepVote(config, messageId, next);
    config.emit({
      type: 'feedback',
      messageId,
      threadId: config.threadId,
      rating: next.rating,
      hasComment: !!next.comment,
      comment: config.includeText ? next.comment : undefined,
    });
    setSaid('');
    void sendVote(config, kit, messageId, next).then((error) => {
      if (!error) {
        setSaid(labels.feedbackThanks);
        return;
      }
      config.emit(kit.errorEvent(error));
      console.warn(`[docs-assistant] feedback not sent: ${error.detail ?? error.message}`);
      setSaid(labels.feedbackFailed);
    });
  };
  return { vote, said, submit };
}

export default function Feedback({ config, kit, labels: given, messageId }: FeedbackProps) {
  const labels = feedbackLabels(given);
  const { vote, said, submit } = useVote(config, kit, labels, messageId);
  const [commenting, setCommenting] = useState(false);
  const voteRefs = { up: useRef<HTMLButtonElement>(null), down: useRef<HTMLButtonElement>(null) };
  const groupLabel = labels.feedbackPrompt;

  const rate = (rating: FeedbackRating) => {
    // Pressing the vote already given changes nothing: one vote per answer, changed by the other button.
    if (vote?.rating === rating) return;
    submit({ rating, ...(vote?.comment ? { comment: vote.comment } : {}) });
    if (config.feedback.comment !== false) setCommenting(true);
  };

  const closeComment = () => {
    setCommenting(false);
    if (vote) voteRefs[vote.rating].current?.focus();
  };

  return (
    <div data-docs-assistant="feedback" data-rating={vote?.rating}>
      {/* biome-ignore lint/a11y/useSemanticElements: a fieldset's legend would show; the group only names the two votes. */}
      <div role="group" aria-label={groupLabel}>
        {(['up', 'down'] as const).map((rating) => {
          const name = rating === 'up' ? labels.feedbackUp : labels.feedbackDown;
          return (
            <button
              key={rating}
              ref={voteRefs[rating]}
              type="button"
              data-action={`feedback-${rating}`}
              aria-pressed={vote?.rating === rating}
              aria-label={name}
              title={name}
              onClick={() => rate(rating)}
            >
              <Thumb down={rating === 'down'} />
            </button>
          );
        })}
      </div>
      {commenting && vote ? (
        <CommentForm
          initial={vote.comment ?? ''}
          labels={labels}
          onSend={(comment) => {
            submit({ rating: vote.rating, ...(comment ? { comment } : {}) });
            closeComment();
          }}
          onSkip={closeComment}
        />
      ) : null}
      <span data-docs-assistant="feedback-status" role="status" aria-live="polite" style={kit.visuallyHidden}>
        {said}
      </span>
    </div>
  );
}

interface CommentFormProps {
  initial: string;
  labels: FeedbackLabels;
  onSend: (comment: string) => void;
  onSkip: () => void;
}

function CommentForm({ initial, labels, onSend, onSkip }: CommentFormProps) {
  const [text, setText] = useState(initial);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  useEffect(() => {
    inputRef.current?.focus();
  }, []);
  return (
    <form
      data-docs-assistant="feedback-comment"
      onSubmit={(event) => {
        event.preventDefault();
        onSend(text.trim());
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || event.nativeEvent.isComposing) return;
        // Closes the comment box only, not the panel around it.
        event.preventDefault();
        event.stopPropagation();
        onSkip();
      }}
    >
      <label htmlFor={id}>{labels.feedbackComment}</label>
      <textarea
        ref={inputRef}
        id={id}
        rows={2}
        maxLength={MAX_COMMENT_CHARS}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <div>
        <button type="submit" data-action="feedback-send" disabled={!text.trim()}>
          {labels.feedbackSend}
        </button>
        <button type="button" data-action="feedback-skip" onClick={onSkip}>
          {labels.feedbackSkip}
        </button>
      </div>
    </form>
  );
}
