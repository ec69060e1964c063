/**
 * What the panel's controls do: every way a question goes out (the box, a starter, a follow-up, a
 * search row, Retry, the shell's handle), the header's actions (new conversation, history, copy,
 * search, share, support, consent), and the feedback votes' configuration. Each callback keeps its
 * identity across renders, so the memoised header, box and chips do not re-render while an answer
 * streams.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { messageText } from '../chat/message-notes.js';
import type { AssistantMessage } from '../chat/types.js';
import type { FeedbackConfig } from '../events/feedback-slot.js';
import type { AskSource, DocsAssistantEvent } from '../events/types.js';
import type { CoreLabels } from '../labels/types.js';
import { copyText } from '../parts/copy-text.js';
import { conversationMarkdown } from './copy-markdown.js';
import type { PanelProps } from './panel-types.js';
import { usePanelActions } from './use-panel-actions.js';
import type { PanelChat } from './use-panel-chat.js';
import type { usePanelInput } from './use-panel-input.js';
import type { usePanelView } from './use-panel-view.js';
import { useRetryWait } from './use-retry-wait.js';
import { useShareSupport } from './use-share-support.js';
import { useStableCallback } from './use-stable-callback.js';

type Box = ReturnType<typeof usePanelInput>;
type Views = ReturnType<typeof usePanelView>;

/** How long a notice ("Conversation copied") shows (in ms). */
const NOTICE_MS = 2_000;

export function usePanelCommands(
  props: PanelProps,
  labels: CoreLabels,
  chat: PanelChat,
  box: Box,
  views: Views,
) {
  const { state, configError } = chat;
  const { dispatch, view } = views;
  const [notice, setNotice] = useNotice();
  const [shareRequest, setShareRequest] = useShareRequest(state.threadId);

  /** Every question goes out here: history closes, the files attached go with it. */
  const send = (question: string, source: AskSource) => {
    if (view.name === 'history') dispatch({ type: 'toggle', name: 'history' });
    chat.send(question, source, box.takeAttachments());
  };
  const ask = useStableCallback((question: string, source: AskSource) => {
    if (!configError && views.canAsk) send(question, source);
    dispatch({ type: 'show', name: 'chat' });
    box.focus();
  });
  const run = useRunCommands(props, labels, chat, box, views, setNotice, setShareRequest);
  const submitInput = useStableCallback((question: string) => {
    // Search without the assistant (features.assistant false): Enter only chooses rows.
    if (!views.canAsk) return;
    box.setInput('');
    dispatch({ type: 'show', name: 'chat' });
    const types = state.context.items.map((item) => item.type);
    send(
      question,
      types.includes('textSelection') ? 'selection' : types.includes('code') ? 'code-block' : 'composer',
    );
  });
  const changeInput = useStableCallback((text: string) => {
    box.setInput(text);
    // Typing goes back from a previewed page to the results (or the conversation).
    dispatch({ type: 'preview', target: null });
  });
  const retry = useStableCallback(() => {
    // The banner (and its button) goes away: the question box is where to go on.
    box.focus();
    chat.emit({ type: 'ask', source: 'retry', threadId: state.threadId, contextItems: 0 });
    void state.retry();
  });
  const { share, actions } = useHeaderActions(props, labels, chat, views, run);
  const errors = useShownError(chat, views, retry);
  return {
    ask,
    askFromSearch: useStableCallback((question: string) => {
      box.setInput('');
      ask(question, 'search');
    }),
    askSuggested: useStableCallback((question: string) => ask(question, 'suggestion')),
    submitInput,
    changeInput,
    retry,
    actions,
    notice,
    shareRequest,
    closeShare: useStableCallback(() => setShareRequest(0)),
    share,
    feedbackConfig: useFeedbackConfig(props, chat),
    ...errors,
    bridge: {
      ask: (question: string, source: AskSource) => {
        if (!configError) send(question, source);
      },
      setInput: box.setInput,
    },
  };
}

export type PanelCommands = ReturnType<typeof usePanelCommands>;

/** How many times Share was pressed since the thread changed (0: the share sheet is closed). */
function useShareRequest(threadId: string | undefined) {
  const [shareRequest, setShareRequest] = useState(0);
  // The thread changed (a new conversation, another one opened): the share sheet was about the last.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the thread changes
  useEffect(() => setShareRequest(0), [threadId]);
  return [shareRequest, setShareRequest] as const;
}

/** What sharing and support can do, and the header's actions with their callbacks (`run`). */
function useHeaderActions(
  props: PanelProps,
  labels: CoreLabels,
  { state, busy }: PanelChat,
  views: Views,
  run: ReturnType<typeof useRunCommands>,
) {
  const share = useShareSupport({
    options: views.searchOptions,
    share: props.share,
    support: props.support,
    threadKey: state.threadKey,
  });
  // The header's actions get the messages as of the last pause: while an answer streams nothing they show depends on them.
  const paused = useRef(state.messages);
  if (!busy) paused.current = state.messages;
  const actions = usePanelActions({
    labels,
    view: views.view.name,
    busy,
    messages: paused.current,
    canSearch: views.canSearch,
    canShare: share.canShare,
    shareModule: share.module,
    support: props.support,
    textOf: messageText,
    run,
  });
  return { share, actions };
}

/** The error to show, whether it goes in the conversation's list, and its Retry (none while waiting or for a configuration error). */
function useShownError({ state, configError }: PanelChat, { view }: Views, retry: () => void) {
  const waitingToRetry = useRetryWait(state.error);
  const shownError = configError ?? state.error;
  const conversationShown =
    state.messages.length > 0 && view.name !== 'history' && view.name !== 'shared' && !view.preview;
  return {
    shownError,
    onRetryError: shownError === configError || waitingToRetry ? undefined : retry,
    errorInList: !!shownError && shownError !== configError && conversationShown,
  };
}

/** The header's actions' callbacks, each of constant identity. */
function useRunCommands(
  props: PanelProps,
  labels: CoreLabels,
  chat: PanelChat,
  box: Box,
  views: Views,
  setNotice: (text: string) => void,
  setShareRequest: (update: (count: number) => number) => void,
) {
  const { state } = chat;
  const { dispatch } = views;
  const newConversation = useStableCallback(() => {
    chat.emit({ type: 'new-conversation', threadId: state.threadId });
    state.newConversation();
    dispatch({ type: 'reset' });
    box.setInput('');
    box.focus();
  });
  const toggleHistory = useStableCallback(() => dispatch({ type: 'toggle', name: 'history' }));
  const toggleSearch = useStableCallback(() => {
    dispatch({ type: 'toggle', name: 'search' });
    box.focus();
  });
  const copyConversation = useStableCallback(() => {
    const markdown = conversationMarkdown(state.messages, chat.resolveHref, labels);
    void copyText(markdown).then((ok) => {
      if (ok) setNotice(labels.conversationCopied);
      else
        console.error(
          'docs-assistant: copying the conversation failed: this page allows no clipboard access.',
        );
    });
  });
  const share = useStableCallback(() => setShareRequest((count) => count + 1));
  const withdraw = useStableCallback(() => props.onWithdrawConsent?.());
  const hasWithdraw = !!props.onWithdrawConsent;
  return useMemo(
    () => ({
      newConversation,
      toggleHistory,
      toggleSearch,
      copyConversation,
      share,
      withdrawConsent: hasWithdraw ? withdraw : undefined,
    }),
    [newConversation, toggleHistory, toggleSearch, copyConversation, share, withdraw, hasWithdraw],
  );
}

/** A short status line ("Conversation copied") that goes after a moment. */
function useNotice(): [string, (text: string) => void] {
  const [notice, setNotice] = useState('');
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(''), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  return [notice, setNotice];
}

/** The feedback votes' configuration; a vote down remembers its answer (the support prompt offers a human). */
function useFeedbackConfig(props: PanelProps, chat: PanelChat) {
  const { feedback = true, support, eventsIncludeText, options, frame } = props;
  const { configError, emit } = chat;
  const { threadId, threadKey } = chat.state;
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const [downVoted, setDownVoted] = useState<string | null>(null);
  const emitVote = useStableCallback((event: DocsAssistantEvent) => {
    if (event.type === 'feedback') setDownVoted(event.rating === 'down' ? event.messageId : null);
    emit(event);
  });
  const config = useMemo<FeedbackConfig | null>(
    () =>
      feedback && !configError
        ? {
            options: () => optionsRef.current,
            feedback: feedback === true ? {} : feedback,
            emit: support ? emitVote : emit,
            includeText: !!eventsIncludeText,
            threadId,
            threadKey,
            shell: frame,
          }
        : null,
    [feedback, configError, emit, emitVote, support, eventsIncludeText, threadId, threadKey, frame],
  );
  return { config, downVoted };
}

export type { AssistantMessage };
