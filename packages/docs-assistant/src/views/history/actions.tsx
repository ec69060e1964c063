/**
 * The panel header's history actions, loaded with the panel: "History" (opens and closes the list
 * of past conversations) and "Copy conversation" (the whole conversation as Markdown, sources as
 * links), which shows once the conversation has a finished answer.
 */
import { useEffect, useState } from 'react';
import type { AssistantMessage } from '../../chat/types.js';
import type { Labels } from '../../labels.js';
import { copyText } from '../../parts/copy-text.js';
import { historyLabels } from './labels.js';
import { conversationMarkdown } from './markdown.js';

/** How long "Conversation copied" shows (in ms). */
const COPIED_MS = 2_000;

export interface HistoryActionsProps {
  /** The history view is shown. */
  open: boolean;
  onToggle: () => void;
  messages: readonly AssistantMessage[];
  /** An answer is on its way: the conversation is not complete yet. */
  busy: boolean;
  resolveHref: (href: string) => string | null;
  labels: Labels;
}

export default function HistoryActions({
  open,
  onToggle,
  messages,
  busy,
  resolveHref,
  labels,
}: HistoryActionsProps) {
  const words = historyLabels(labels);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const canCopy = !open && !busy && messages.some((message) => message.role === 'assistant');
  return (
    <>
      <button type="button" data-action="history" aria-pressed={open} onClick={onToggle}>
        <span>{words.history}</span>
      </button>
      {canCopy ? (
        <button
          type="button"
          data-action="copy-conversation"
          data-copied={copied ? 'true' : undefined}
          onClick={() => {
            const markdown = conversationMarkdown(messages, resolveHref, labels);
            void copyText(markdown).then((ok) => {
              if (ok) setCopied(true);
              else
                console.error(
                  'docs-assistant: copying the conversation failed: this page allows no clipboard access.',
                );
            });
          }}
        >
          {/* No live region: the focused button's new name is what a screen reader says. */}
          <span>{copied ? words.conversationCopied : words.copyConversation}</span>
        </button>
      ) : null}
    </>
  );
}
