/**
 * One message of the conversation. A question shows the context it was sent with (the selection
 * or the code, as chips). An answer shows its parts, then, once complete, its actions on one row
 * (copy as clean Markdown, the feedback votes); an answer the reader stopped says so instead, with
 * Retry when it is the last, and so does a question stopped before any answer came.
 */
import { memo, useEffect, useState } from 'react';
import { messageText, noteOf } from '../chat/message-notes.js';
import type { AssistantMessage } from '../chat/types.js';
import { FeedbackSlot } from '../events/feedback-slot.js';
import { useLabels } from '../labels/index.js';
import type { CoreLabels } from '../labels/types.js';
import { copyText } from '../parts/copy-text.js';
import { MessageParts } from '../parts/message-parts.js';
import type { PartClassNames } from '../parts/part-class-names.js';
import type { PartComponents, PartStatus } from '../parts/types.js';
import { answerMarkdown } from './copy-markdown.js';
import { ICONS } from './panel-icons.js';
import { Icon, useShellFrame } from './shell-frame.js';

export const RUNNING: PartStatus = { type: 'running' };
export const COMPLETE: PartStatus = { type: 'complete' };
export const STOPPED: PartStatus = { type: 'incomplete', reason: 'stopped' };
export const BROKEN: PartStatus = { type: 'incomplete', reason: 'error' };

/** How long "Copied" shows after copying an answer (in ms). */
const COPIED_FEEDBACK_MS = 2_000;

export interface MessageItemProps {
  message: AssistantMessage;
  /** Where the message stands (an answer being written, complete, or cut short). */
  status: PartStatus;
  components?: PartComponents;
  resolveHref: (href: string) => string | null;
  onAsk: (question: string) => void;
  /** Given for the last message when it was stopped: asks its question again. */
  onRetry?: () => void;
  allowedImageOrigins?: string[];
  className?: string;
  /** The `part`, `source` and `suggestion` class names (MessageParts keys its context on them). */
  partClassNames?: PartClassNames;
}

export const MessageItem = memo(function MessageItem(props: MessageItemProps) {
  const { message, status, className } = props;
  const labels = useLabels();
  const { visuallyHidden } = useShellFrame();
  const isUser = message.role === 'user';
  const stopped = status.type === 'incomplete' && status.reason === 'stopped';
  return (
    <div
      data-docs-assistant="message"
      data-role={message.role}
      data-message-id={message.id}
      data-streaming={status.type === 'running' ? '' : undefined}
      data-stopped={stopped ? '' : undefined}
      className={className}
    >
      <span style={visuallyHidden}>{isUser ? labels.you : labels.assistant}</span>
      {isUser ? <Question message={message} labels={labels} /> : <Answer {...props} labels={labels} />}
      {stopped ? (
        <p data-docs-assistant="stopped">
          <span>{labels.stopped}</span>
          {props.onRetry ? (
            <button type="button" data-action="retry" onClick={props.onRetry}>
              <Icon path={ICONS.retry} />
              {labels.retry}
            </button>
          ) : null}
        </p>
      ) : null}
    </div>
  );
});
MessageItem.displayName = 'MessageItem';

function Question({ message, labels }: { message: AssistantMessage; labels: CoreLabels }) {
  const context = noteOf(message).context ?? [];
  return (
    <>
      <div data-docs-assistant="user-text">{message.content}</div>
      {context.length ? (
        <ul data-docs-assistant="sent-context-list" aria-label={labels.sentContext}>
          {context.map((item) => (
            <li
              key={`${item.type}:${item.value}`}
              data-docs-assistant="sent-context"
              data-context-type={item.type}
              title={item.value}
            >
              {item.type === 'code' ? <code>{chipText(item.value)}</code> : chipText(item.value)}
            </li>
          ))}
        </ul>
      ) : null}
      {/* The names of the files sent with the question (`attachments`; not kept in storage). */}
      {message.experimental_attachments?.map((file, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a sent message's files never change
        <div key={index} data-docs-assistant="message-attachment">
          {file.name}
        </div>
      ))}
    </>
  );
}

/** Longest preview of a context value on its chip (in characters); the full value is its title. */
const CHIP_PREVIEW_LENGTH = 60;

export function chipText(value: string): string {
  const oneLine = value.replace(/\s+/g, ' ').trim();
  return oneLine.length > CHIP_PREVIEW_LENGTH ? `${oneLine.slice(0, CHIP_PREVIEW_LENGTH)}…` : oneLine;
}

function Answer(props: MessageItemProps & { labels: CoreLabels }) {
  const { message, status, labels, resolveHref } = props;
  return (
    <>
      <MessageParts
        message={message}
        isStreaming={status.type === 'running'}
        status={status}
        components={props.components}
        resolveHref={resolveHref}
        onAsk={props.onAsk}
        classNames={props.partClassNames}
        allowedImageOrigins={props.allowedImageOrigins}
      />
      {status.type === 'complete' && messageText(message) ? (
        <div data-docs-assistant="message-actions">
          <CopyButton text={() => answerMarkdown(message, resolveHref, labels)} labels={labels} />
          <FeedbackSlot messageId={message.id} />
        </div>
      ) : null}
    </>
  );
}

function CopyButton({ text, labels }: { text: () => string; labels: CoreLabels }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const label = copied ? labels.copied : labels.copy;
  return (
    <button
      type="button"
      data-action="copy"
      data-copied={copied ? '' : undefined}
      aria-label={label}
      title={label}
      onClick={() => {
        void copyText(text()).then((ok) => {
          if (ok) setCopied(true);
          else
            console.error('docs-assistant: copying the answer failed: this page allows no clipboard access.');
        });
      }}
    >
      <Icon path={copied ? ICONS.check : ICONS.copy} />
    </button>
  );
}
