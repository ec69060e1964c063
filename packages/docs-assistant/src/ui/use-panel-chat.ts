/**
 * The panel's conversation: the headless hook with the panel's reporting wrapped around its
 * `onFinish` (the `answer` event, the announcement), the config problems of the panel's own
 * options, and every way a question goes out (`send`), each reported once with where it came from.
 */
import { useCallback, useMemo, useRef } from 'react';
import type { AssistantMessage, DocsAssistantState, UseDocsAssistantOptions } from '../chat/types.js';
import { useConversation } from '../chat/use-conversation.js';
import type { AskSource, DocsAssistantEvent } from '../events/types.js';
import type { CoreLabels } from '../labels/types.js';
import { Announcer as AnnouncerView, useAnswerAnnouncement } from './announcement.js';
import { useHrefResolver, useImageOrigins } from './panel-config.js';
import type { PanelProps } from './panel-types.js';
import { useAnswerEvents } from './use-panel-events.js';

export interface PanelChat {
  state: DocsAssistantState;
  busy: boolean;
  configError: DocsAssistantState['configError'];
  resolveHref: (href: string) => string | null;
  imageOrigins: string[] | undefined;
  announcement: string;
  /** Sends a question (with the context items and `attachments`), reported as coming from `source`. */
  send: (question: string, source: AskSource, attachments?: { attachments: unknown[] }) => void;
  emit: (event: DocsAssistantEvent) => void;
}

const noEmit = () => {};
type OnFinish = NonNullable<UseDocsAssistantOptions['onFinish']>;

export function usePanelChat(props: PanelProps, labels: CoreLabels): PanelChat {
  const { options, emit = noEmit, eventsIncludeText } = props;
  const [resolveHref, docsBaseUrlError] = useHrefResolver(props.docsBaseUrl);
  const [imageOrigins, imageOriginsError] = useImageOrigins(props.allowedImageOrigins);
  // The hook's `onFinish` calls the reporting set up below it (which needs the hook's status).
  const finishRef = useRef<OnFinish>(undefined);
  const onFinish = useCallback<OnFinish>((message, thread) => finishRef.current?.(message, thread), []);
  const state = useConversation(useMemo(() => ({ ...options, onFinish }), [options, onFinish]));
  const { status, messages } = state;
  const last: AssistantMessage | undefined = messages[messages.length - 1];
  const answering = status === 'streaming' && last?.role === 'assistant' && !!last.content;
  const announcer = useAnswerAnnouncement(status, labels);
  finishRef.current = useAnswerEvents(emit, status, answering, resolveHref, (message, thread) => {
    announcer.finished(message);
    options.onFinish?.(message, thread);
  });
  const configError = state.configError ?? docsBaseUrlError ?? imageOriginsError;

  const send = (question: string, source: AskSource, attachments?: { attachments: unknown[] }) => {
    if (source === 'starter-question' || source === 'suggestion') {
      emit({
        type: 'suggestion-click',
        kind: source === 'suggestion' ? 'follow-up' : 'starter',
        question: eventsIncludeText ? question : undefined,
      });
    }
    emit({
      type: 'ask',
      source,
      threadId: state.threadId,
      contextItems: state.context.items.length,
      question: eventsIncludeText ? question : undefined,
    });
    void state.send(question, attachments as Parameters<DocsAssistantState['send']>[1]);
  };
  return {
    state,
    busy: status === 'submitted' || status === 'streaming',
    configError,
    resolveHref,
    imageOrigins,
    announcement: announcer.text,
    send,
    emit,
  };
}

export { AnnouncerView as Announcer };
