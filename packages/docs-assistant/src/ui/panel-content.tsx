/**
 * What the panel shows between its header and its question box, by view: a shared transcript,
 * the past conversations, a previewed page, the docs search's results, or the conversation (its
 * starter questions while empty). The share sheet sits above it while open. The error banner goes
 * after the last message, in the log's flow, so it never covers one; where no conversation shows
 * (an empty panel, another view) it sits above the question box.
 */
import { type ReactNode, Suspense, useMemo } from 'react';
import { resolveCurrentPath } from '../chat/config.js';
import { messageText } from '../chat/message-notes.js';
import { FeedbackContext } from '../events/feedback-slot.js';
import type { CoreLabels } from '../labels/types.js';
import { Markdown } from '../parts/markdown.js';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS_PER_MESSAGE } from '../protocol/limits.js';
import { defaultSearchKit } from '../search/kit.js';
import { RemoveButton } from './context-chips.js';
import { ErrorBanner } from './error-banner.js';
import {
  AttachmentTray,
  HistoryView,
  PagePreview,
  SearchResults,
  SharedTranscript,
  ShareSheet,
  SupportPrompt,
} from './lazy-views.js';
import { MessageList } from './message-list.js';
import type { PanelProps } from './panel-types.js';
import { CloseIcon } from './shell-frame.js';
import { StarterQuestions, starterQuestionsFor, validStarterQuestions } from './starter-questions.js';
import type { PanelChat } from './use-panel-chat.js';
import type { PanelCommands } from './use-panel-commands.js';
import type { usePanelInput } from './use-panel-input.js';
import type { usePanelView } from './use-panel-view.js';

const ATTACHMENT_LIMITS = { bytes: MAX_ATTACHMENT_BYTES, count: MAX_ATTACHMENTS_PER_MESSAGE };

export interface PanelContentProps {
  props: PanelProps;
  labels: CoreLabels;
  chat: PanelChat;
  box: ReturnType<typeof usePanelInput>;
  views: ReturnType<typeof usePanelView>;
  commands: PanelCommands;
}

export function PanelContent(content: PanelContentProps) {
  const { props, chat, box, commands } = content;
  const { threadId, threadKey } = chat.state;
  return (
    <>
      {commands.shareRequest > 0 && commands.share.canShare && threadId && threadKey ? (
        <Suspense fallback={null}>
          <ShareSheet
            options={props.options}
            threadId={threadId}
            threadKey={threadKey}
            request={commands.shareRequest}
            labels={content.labels}
            onClose={commands.closeShare}
            closeIcon={<CloseIcon />}
          />
        </Suspense>
      ) : null}
      <ViewContent {...content} />
      {props.attachments && box.incoming ? (
        <Suspense fallback={null}>
          <AttachmentTray
            box={box}
            labels={content.labels}
            limits={ATTACHMENT_LIMITS}
            RemoveButton={RemoveButton}
          />
        </Suspense>
      ) : null}
    </>
  );
}

function ViewContent(content: PanelContentProps) {
  const { props, labels, chat, box, views, commands } = content;
  const { view, dispatch } = views;
  if (view.name === 'shared' && view.sharedId) return sharedView(content, view.sharedId);
  if (view.name === 'history') return historyView(content);
  // The docs the search and the page preview read, and how their links resolve.
  const docs = { options: views.searchOptions, kit: defaultSearchKit, labels, resolveHref: chat.resolveHref };
  if (view.preview) {
    return (
      <Lazy>
        <PagePreview
          target={view.preview}
          {...docs}
          Markdown={Markdown}
          onBack={() => {
            dispatch({ type: 'preview', target: null });
            box.focus();
          }}
        />
      </Lazy>
    );
  }
  if (view.name === 'search' && views.canSearch && box.input.trim()) {
    return (
      <Lazy>
        <SearchResults
          {...docs}
          query={box.input}
          inputRef={box.inputRef}
          assistant={views.canAsk}
          onAsk={commands.askFromSearch}
          onOpen={
            views.onPreview
              ? (hit) => views.onPreview?.({ path: hit.path, url: hit.url, title: hit.title })
              : undefined
          }
          hiddenStyle={props.frame.visuallyHidden}
        />
      </Lazy>
    );
  }
  return <Conversation props={props} labels={labels} chat={chat} views={views} commands={commands} />;
}

// The two views below are elements ViewContent returns (plain calls, not components of their own),
// so the tree of the panel stays what it was before they were split out.

function sharedView({ props, labels, chat, box, views }: PanelContentProps, shareId: string) {
  const close = () => {
    views.dispatch({ type: 'close-shared' });
    box.focus();
  };
  return (
    <Lazy>
      <SharedTranscript
        shareId={shareId}
        options={props.options}
        labels={labels}
        Markdown={Markdown}
        resolveHref={chat.resolveHref}
        onContinue={(seed) => {
          chat.state.newConversation(seed);
          close();
        }}
        onClose={close}
      />
    </Lazy>
  );
}

function historyView({ props, labels, chat, box, views }: PanelContentProps) {
  const { state } = chat;
  const close = () => {
    views.dispatch({ type: 'toggle', name: 'history' });
    box.focus();
  };
  return (
    <Lazy>
      <HistoryView
        conversations={state.conversations}
        currentId={state.conversationId}
        onOpen={(id) => {
          state.openConversation(id);
          close();
        }}
        onDelete={state.deleteConversation}
        onDeleteAll={state.deleteAllConversations}
        onClose={close}
        labels={labels}
        hiddenStyle={props.frame.visuallyHidden}
        textOf={messageText}
      />
    </Lazy>
  );
}

const Lazy = ({ children }: { children: ReactNode }) => <Suspense fallback={null}>{children}</Suspense>;

function Conversation({ props, labels, chat, views, commands }: Omit<PanelContentProps, 'box'>) {
  const { messages, status } = chat.state;
  const questions = useStarterQuestions(props, messages.length === 0);
  const { errorInList, shownError, onRetryError } = commands;
  const errorClass = props.classNames?.error;
  // Kept while nothing of it changes: the memoised list re-renders for new messages, not for a key typed.
  const footer = useMemo(
    () =>
      errorInList && shownError ? (
        <ErrorBanner error={shownError} className={errorClass} onRetry={onRetryError} />
      ) : null,
    [errorInList, shownError, onRetryError, errorClass],
  );
  if (messages.length === 0) {
    return questions && views.canAsk && !chat.configError ? (
      <StarterQuestions
        questions={questions}
        onAsk={(question) => commands.ask(question, 'starter-question')}
        className={props.classNames?.starterQuestions}
        suggestionClassName={props.classNames?.suggestion}
      />
    ) : null;
  }
  return (
    <>
      <FeedbackContext.Provider value={commands.feedbackConfig.config}>
        <MessageList
          messages={messages}
          status={status}
          components={props.components}
          resolveHref={chat.resolveHref}
          onAsk={commands.askSuggested}
          onRetry={commands.retry}
          classNames={props.classNames}
          allowedImageOrigins={chat.imageOrigins}
          footer={footer}
        />
      </FeedbackContext.Provider>
      {props.support ? (
        <Lazy>
          <SupportPrompt
            option={props.support}
            messages={messages}
            status={status}
            downVoted={commands.feedbackConfig.downVoted}
            labels={labels}
            textOf={messageText}
          />
        </Lazy>
      ) : null}
    </>
  );
}

/**
 * The starter questions for the page the reader is on now, read only while they can show (an
 * empty conversation): a function or a map of them is not called on every update of an answer.
 */
function useStarterQuestions(props: PanelProps, empty: boolean) {
  const { starterQuestions, options } = props;
  const byPath = starterQuestions != null && !Array.isArray(starterQuestions);
  const pagePath = !byPath ? '' : empty ? (resolveCurrentPath(options.currentPath) ?? '/') : null;
  return useMemo(
    () =>
      pagePath === null ? undefined : validStarterQuestions(starterQuestionsFor(starterQuestions, pagePath)),
    [starterQuestions, pagePath],
  );
}

/** The error banner above the question box, where no conversation shows it (`shown`). */
export function PanelErrorBanner({
  commands,
  className,
  shown,
}: {
  commands: PanelCommands;
  className?: string;
  shown: boolean;
}) {
  const error = commands.shownError;
  return shown && error ? (
    <ErrorBanner error={error} className={className} onRetry={commands.onRetryError} />
  ) : null;
}
