/**
 * The panel header's history actions, loaded with the panel: "History" (opens and closes the list
 * of past conversations) and "Copy conversation" (the whole conversation as Markdown, sources as
 * links), which shows once the conversation has a finished answer.
 */
import { useEffect, useState } from 'react';
import type { AssistantMessage } from '../../chat/types.js';
import type { Labels } from '../../labels.js';
import { historyLabels } from './labels.js';
import { type CollectSources, conversationMarkdown } from './markdown.js';

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
  /**
   * The panel's own helpers, handed over rather than imported, so this chunk shares no module with
   * the panel (esbuild would split each shared one into a chunk of its own).
   */
  collectSources: CollectSources;
  copyText: (text: string) => Promise<boolean>;
}

export default function HistoryActions({
  open,
  onToggle,
  messages,
  busy,
  resolveHref,
  labels,
  collectSources,
  copyText,
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
            const markdown = conversationMarkdown(messages, resolveHref, labels, collectSources);
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
