/**
 * A way to a human (the `support` option): the "Contact support" action, and the prompt the panel
 * shows under an answer that found nothing in the docs or that the reader voted down. Loaded with
 * the header's menu or the prompt, never before; imports nothing the panel has (the labels and the
 * reading of a message's text come as props).
 */
import type { AssistantMessage, AssistantStatus } from '../../chat/types.js';
import { type PanelLabels, type ShareLabels, shareLabels } from '../share/labels.js';
import { supportHref, supportLinkKind, supportTranscript, type TextOf } from './transcript.js';
import type { SupportOption, SupportTrigger } from './types.js';

export interface SupportActionProps {
  option: SupportOption;
  messages: AssistantMessage[];
  trigger: SupportTrigger;
  labels: ShareLabels;
  textOf: TextOf;
  className?: string;
}

export const pageUrl = () => (typeof location === 'undefined' ? '' : location.href);

/** "Contact support": a link (URL, mailto) or a button (callback) carrying the conversation. */
export function SupportAction({ option, messages, trigger, labels, textOf, className }: SupportActionProps) {
  const kind = supportLinkKind(option);
  const text = labels.contactSupport;
  if (kind === 'callback' && typeof option === 'function') {
    return (
      <button
        type="button"
        data-action="contact-support"
        data-support-trigger={trigger}
        className={className}
        onClick={() => option(supportTranscript(trigger, messages, pageUrl(), textOf))}
      >
        {text}
      </button>
    );
  }
  if (!kind || typeof option !== 'string') return null;
  const href = supportHref(option, messages, pageUrl(), labels.supportSubject, textOf);
  return (
    <a
      href={href}
      data-action="contact-support"
      data-support-trigger={trigger}
      className={className}
      {...(kind === 'url' ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
    >
      {text}
    </a>
  );
}

/** Whether an answer cited no page of the docs (the service's "the docs don't cover that"). */
export function foundNothing(message: AssistantMessage | undefined): boolean {
  if (message?.role !== 'assistant') return false;
  const parts = Array.isArray(message.parts) ? message.parts : [];
  return !parts.some((part) => part.type === 'source');
}

export interface SupportPromptProps {
  option: SupportOption;
  messages: AssistantMessage[];
  status: AssistantStatus;
  /** Id of the answer the reader voted down, if any. */
  downVoted?: string | null;
  labels: PanelLabels;
  textOf: TextOf;
  className?: string;
}

/**
 * Under the conversation, once the latest answer is finished: when the reader voted an answer
 * down, or when the latest answer cited nothing ("the docs don't cover that").
 */
export default function SupportPrompt({
  option,
  messages,
  status,
  downVoted,
  labels: given,
  textOf,
  className,
}: SupportPromptProps) {
  const labels = shareLabels(given);
  const last = messages[messages.length - 1];
  if (status !== 'ready' || !last || last.role !== 'assistant') return null;
  const trigger: SupportTrigger | null =
    downVoted && messages.some((message) => message.id === downVoted)
      ? 'thumbs-down'
      : foundNothing(last)
        ? 'no-answer'
        : null;
  if (!trigger || !supportLinkKind(option)) return null;
  return (
    <div data-docs-assistant="support-prompt" data-support-trigger={trigger} className={className}>
      <p>{trigger === 'thumbs-down' ? labels.supportAfterVote : labels.supportNoAnswer}</p>
      <SupportAction option={option} messages={messages} trigger={trigger} labels={labels} textOf={textOf} />
    </div>
  );
}
