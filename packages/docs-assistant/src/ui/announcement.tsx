/**
 * The panel's polite live region says two things per question: that an answer is on its way (once,
 * when the question goes out) and, from the hook's `onFinish` (which carries the complete message,
 * before the status turns `ready`), the finished answer as short plain text. The log itself stays
 * silent (see MessageList). A stopped or failed answer is not announced: the reader stopped it, or
 * the error alert speaks; the "on its way" message is then taken back so the next one is heard.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { messageText } from '../chat/message-notes.js';
import type { AssistantMessage, AssistantStatus } from '../chat/types.js';
import type { CoreLabels } from '../labels/types.js';
import { ANNOUNCEMENT_MAX_LENGTH, markdownToPlainText, truncateAtWord } from './plain-text.js';
import { useShellFrame } from './shell-frame.js';

export interface Announcer {
  /** Call from the hook's `onFinish`. */
  finished: (message: AssistantMessage) => void;
  text: string;
}

export function useAnswerAnnouncement(status: AssistantStatus, labels: CoreLabels): Announcer {
  const [text, setText] = useState('');
  const labelsRef = useRef(labels);
  labelsRef.current = labels;
  const finished = useCallback((message: AssistantMessage) => {
    const { answerReady, codeBlockAnnounced } = labelsRef.current;
    // Only the beginning is announced: a long answer is not converted to its end.
    const plain = markdownToPlainText(messageText(message), codeBlockAnnounced, ANNOUNCEMENT_MAX_LENGTH);
    const short = truncateAtWord(plain);
    setText(short ? `${answerReady}: ${short}` : answerReady);
  }, []);
  useEffect(() => {
    const answering = labelsRef.current.thinking;
    if (status === 'submitted') setText(answering);
    else if (status !== 'streaming') setText((current) => (current === answering ? '' : current));
  }, [status]);
  return { finished, text };
}

/** The region: inside the panel, so nothing is announced while it is hidden, and reopening changes nothing. */
export function Announcer({ text }: { text: string }) {
  const { visuallyHidden } = useShellFrame();
  return (
    <div
      data-docs-assistant="announcer"
      role="status"
      aria-live="polite"
      aria-atomic="true"
      style={visuallyHidden}
    >
      {text}
    </div>
  );
}
