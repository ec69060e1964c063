import {
  memo,
  type ReactNode,
  type RefObject,
  type UIEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
} from 'react';
import { noteOf } from '../chat/message-notes.js';
import type { AssistantMessage, AssistantStatus } from '../chat/types.js';
import { useLabels } from '../labels/index.js';
import type { PartComponents, PartStatus } from '../parts/types.js';
import { EarlierMessages } from './earlier-messages.js';
import { BROKEN, COMPLETE, MessageItem, RUNNING, STOPPED } from './message-item.js';
import type { ClassNames } from './types.js';
import { useMessageWindow } from './use-message-window.js';

export interface MessageListProps {
  messages: readonly AssistantMessage[];
  status: AssistantStatus;
  components?: PartComponents;
  resolveHref: (href: string) => string | null;
  onAsk: (question: string) => void;
  classNames?: ClassNames;
  /** Checked origins (see `allowedImageOrigins` on the widget); `undefined` for the default. */
  allowedImageOrigins?: string[];
  /** Asks the last question again (a stopped one offers it). */
  onRetry?: () => void;
  /** After the last message, in the log's flow (the error banner: it never covers a message). */
  footer?: ReactNode;
}

/**
 * The conversation. It is a `role="log"` kept at `aria-live="off"`: a streaming answer changes it
 * many times a second and a screen reader would read every fragment. Finished answers are announced
 * once by the panel's own live region instead. Memoised: the panel re-renders for other reasons too
 * (a key typed in the question box while an answer streams).
 */
export const MessageList = memo(function MessageList({
  messages,
  status,
  components,
  resolveHref,
  onAsk,
  classNames,
  allowedImageOrigins,
  onRetry,
  footer,
}: MessageListProps) {
  const labels = useLabels();
  const listRef = useRef<HTMLDivElement>(null);
  const busy = status === 'submitted' || status === 'streaming';
  const shown = messages.filter((m) => m.role === 'user' || m.role === 'assistant');
  const last = shown[shown.length - 1];
  const waiting = busy && last?.role !== 'assistant';

  // Keyed on the strings: an inline `classNames` object must not re-render every message.
  const { part, source, suggestion } = classNames ?? {};
  const partClassNames = useMemo(() => ({ part, source, suggestion }), [part, source, suggestion]);
  const onScroll = useConversationScroll(listRef, shown.findLast((m) => m.role === 'user')?.id);
  // A long conversation renders its latest messages; earlier ones on demand.
  const { visible, hidden, added, showEarlier } = useMessageWindow(shown, listRef);

  return (
    <div
      ref={listRef}
      data-docs-assistant="messages"
      className={classNames?.messages}
      role="log"
      aria-live="off"
      aria-busy={busy}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable so keyboard readers can scroll it (WCAG 2.1.1).
      tabIndex={0}
      aria-label={labels.title}
      onScroll={onScroll}
    >
      {hidden > 0 || added > 0 ? (
        <EarlierMessages hidden={hidden} added={added} onShow={showEarlier} listRef={listRef} />
      ) : null}
      {visible.map((message) => (
        <MessageItem
          key={message.id}
          message={message}
          status={statusOf(message, message === last, status)}
          onRetry={message === last && !busy ? onRetry : undefined}
          components={components}
          resolveHref={resolveHref}
          onAsk={onAsk}
          allowedImageOrigins={allowedImageOrigins}
          className={classNames?.message}
          partClassNames={partClassNames}
        />
      ))}
      {waiting ? (
        <div data-docs-assistant="thinking" role="presentation">
          {labels.thinking}
        </div>
      ) : null}
      {footer}
    </div>
  );
});

/** Where a message stands: the last answer while the chat is busy or broke, any one noted stopped. */
function statusOf(message: AssistantMessage, isLast: boolean, status: AssistantStatus): PartStatus {
  if (noteOf(message).stopped) return STOPPED;
  if (!isLast || message.role !== 'assistant') return COMPLETE;
  if (status === 'submitted' || status === 'streaming') return RUNNING;
  return status === 'error' ? BROKEN : COMPLETE;
}

/**
 * The last question's element: the messages are the list's children, so it is found from the end
 * among them, not by a query over the whole list (an answer's Markdown makes a large subtree, and
 * this runs on every frame the answer grows).
 */
function turnQuestion(list: HTMLElement): HTMLElement | null {
  for (let child = list.lastElementChild; child; child = child.previousElementSibling) {
    if (
      child.getAttribute('data-docs-assistant') === 'message' &&
      child.getAttribute('data-role') === 'user'
    ) {
      return child as HTMLElement;
    }
  }
  return null;
}

/** How close to the bottom counts as "at the bottom" (in px): rounding and a stray wheel tick. */
const AT_BOTTOM_PX = 24;

/**
 * Where the conversation scrolls. When the reader asks, the list follows the answer as it grows,
 * but only until their question reaches the top of the list (less its `scroll-margin-block-start`):
 * a long answer is then read from its start, and the question is never pushed under the header.
 * A reader who scrolls is left where they scrolled to; one who scrolls to the very bottom is
 * followed there. Only the list scrolls, never the page around the widget.
 */
function useConversationScroll(
  listRef: RefObject<HTMLDivElement | null>,
  lastQuestionId: string | undefined,
): (event: UIEvent<HTMLDivElement>) => void {
  // `turn`: following the last question's answer; `read`: that question reached the top, the rest of
  // the answer is read from there (nothing to follow until the next question or a scroll to the
  // bottom); `bottom`: following the bottom; `free`: left where the reader scrolled to.
  const mode = useRef<'turn' | 'read' | 'bottom' | 'free'>('turn');
  // The scroll position this hook set last: the scroll event it causes is not the reader's.
  const ownScrollTop = useRef<number | null>(null);
  const turnId = useRef(lastQuestionId);
  if (turnId.current !== lastQuestionId) {
    // A new question: show its turn, whatever the reader did during the last one.
    turnId.current = lastQuestionId;
    mode.current = 'turn';
  }

  const follow = useCallback(() => {
    const list = listRef.current;
    // Hidden (a closed panel keeps streaming): nothing to measure; the observer reports again when
    // the panel shows and the messages get their size.
    if (mode.current === 'free' || mode.current === 'read' || !list || list.clientHeight === 0) return;
    const bottom = list.scrollHeight - list.clientHeight;
    let target = bottom;
    if (mode.current === 'turn' && turnId.current !== undefined) {
      const question = turnQuestion(list);
      if (question) {
        const margin = Number.parseFloat(getComputedStyle(question).scrollMarginTop) || 0;
        const questionTop =
          list.scrollTop + question.getBoundingClientRect().top - list.getBoundingClientRect().top - margin;
        target = Math.min(bottom, Math.max(0, questionTop));
        // The question reaches the top here: the answer growing below it moves nothing any more, so
        // it is not measured again on every frame it grows.
        if (questionTop <= bottom) mode.current = 'read';
      }
    }
    // Only ever down: content that grows below never moves what the reader sees upwards.
    if (target > list.scrollTop + 1) {
      list.scrollTop = target;
      ownScrollTop.current = list.scrollTop;
    }
  }, [listRef]);

  useFollowChildrenSize(listRef, follow);

  return useCallback((event: UIEvent<HTMLDivElement>) => {
    const list = event.currentTarget;
    if (ownScrollTop.current !== null && Math.abs(list.scrollTop - ownScrollTop.current) < 1) return;
    ownScrollTop.current = null;
    mode.current = list.scrollHeight - list.scrollTop - list.clientHeight < AT_BOTTOM_PX ? 'bottom' : 'free';
  }, []);
}

/** Calls `follow` when a child of the list changes size (without ResizeObserver, on every commit). */
function useFollowChildrenSize(listRef: RefObject<HTMLDivElement | null>, follow: () => void) {
  // Follows the content's size rather than this component's renders: a streamed answer's Markdown
  // is rendered in the background (see StreamingMarkdown) and commits without the list. The
  // observer reports after the browser's own layout and before the paint, so following costs no
  // forced layout inside a render's task (a streamed answer's first render plus a forced layout
  // made one task of 50-70 ms) and the scroll still lands in the frame that shows the new words.
  const observer = useRef<ResizeObserver | null>(null);
  // The children it observes: a new observer (after a disconnect) observes them all again.
  const observed = useRef<WeakSet<Element> | null>(null);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    if (typeof ResizeObserver !== 'function') {
      follow();
      return;
    }
    if (!observer.current) {
      observer.current = new ResizeObserver(follow);
      observed.current = new WeakSet();
    }
    // New messages are new children: only those are observed (this runs on every commit).
    for (const child of list.children) {
      if (observed.current!.has(child)) continue;
      observed.current!.add(child);
      observer.current.observe(child);
    }
  });
  useEffect(
    () => () => {
      observer.current?.disconnect();
      observer.current = null;
    },
    [],
  );
}
