/**
 * The heavy half of the widget, loaded with `React.lazy` on first open: the chat hook, the part
 * renderers (markdown) and the conversation UI. The shell (`docs-assistant.tsx`) stays small.
 */
import {
  lazy,
  memo,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { resolveCurrentPath } from '../chat/config.js';
import { createMemoryThreadStorage, threadStorageKey } from '../chat/storage.js';
import type { AssistantError, AssistantMessage, AssistantStatus } from '../chat/types.js';
import { useDocsAssistant } from '../chat/use-docs-assistant.js';
import { type FeedbackConfig, FeedbackContext } from '../events/feedback-slot.js';
import type { AskSource, DocsAssistantEvent } from '../events/types.js';
import { defaultLabels, type Labels, useLabels } from '../labels.js';
import { copyText } from '../parts/copy-text.js';
import { collectSources, createHrefResolver, Markdown, parseAllowedImageOrigins } from '../parts/index.js';
import { warmUp as warmUpMarkdown } from '../parts/parse-off-thread.js';
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS_PER_MESSAGE } from '../protocol/limits.js';
import { assistantAvailable, searchAvailable } from '../search/features.js';
import { defaultSearchKit } from '../search/kit.js';
import { Composer } from './composer.js';
import { ContextChips } from './context-chips.js';
import { visuallyHidden } from './dom.js';
import { ErrorBanner } from './error-banner.js';
import { Boundary, reportWidgetError } from './error-boundary.js';
import { Icon } from './icons.js';
import { MessageList, messageText } from './message-list.js';
import { PanelHeader } from './panel-header.js';
import type { PanelProps } from './panel-types.js';
import { ANNOUNCEMENT_MAX_LENGTH, markdownToPlainText, truncateAtWord } from './plain-text.js';
import { StarterQuestions, starterQuestionsFor, validStarterQuestions } from './starter-questions.js';
import { useFullScreenModal } from './use-full-screen-modal.js';

export type { PanelProps };

/** Consent withdrawn: the conversation kept in memory (`storage="memory"`) goes too. */
export const forgetMemory = (domain: string): void =>
  createMemoryThreadStorage(threadStorageKey(domain)).clear();

// Instant docs search and a docs page shown in the panel (sourceAction="preview"): one chunk
// (search/views.ts), loaded the first time the reader types in the search view or opens a page.
const searchViews = () => import('../search/views.js');
const SearchResults = lazy(() => searchViews().then((m) => ({ default: m.SearchResults })));
const PagePreview = lazy(() => searchViews().then((m) => ({ default: m.PagePreview })));
// Sharing and support (views/share, views/support): one chunk, loaded only when the props ask for it.
const ShareSupport = lazy(() => import('../views/share/entry.js'));
// Past conversations and "Copy conversation" (views/history): one chunk for both (entry.ts).
const historyViews = () => import('../views/history/entry.js');
const HistoryActions = lazy(() => historyViews().then((m) => ({ default: m.HistoryActions })));
const HistoryView = lazy(() => historyViews().then((m) => ({ default: m.HistoryView })));
// Attached files (views/attachments): loaded when the reader first attaches one.
const AttachmentTray = lazy(() => import('../views/attachments/tray.js'));
type DraftAttachment = import('../views/attachments/tray.js').DraftAttachment;
const ATTACHMENT_LIMITS = { bytes: MAX_ATTACHMENT_BYTES, count: MAX_ATTACHMENTS_PER_MESSAGE };

type PreviewTarget = import('../search/page-preview.js').PreviewTarget;

/**
 * The panel, with an error boundary: an exception while rendering it (or in its effects) stays
 * in the panel, which says so and offers Retry; the launcher and the host page carry on.
 */
export default function Panel(props: PanelProps) {
  return (
    <Boundary
      onCatch={(cause) =>
        reportWidgetError(
          props.options.onError,
          'unavailable',
          'The assistant’s panel failed to render.',
          cause,
        )
      }
      fallback={(reset) => <PanelCrashed {...props} onRetry={reset} />}
    >
      <PanelBody {...props} />
    </Boundary>
  );
}

/**
 * In place of a panel body that threw while rendering: the title bar (so it can still be closed) and a
 * Retry that renders the panel again (the conversation is restored from storage).
 */
function PanelCrashed({ titleId, classNames, onClose, onRetry }: PanelProps & { onRetry: () => void }) {
  const labels = useLabels();
  const retryRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // Focus was in the panel's content that just went away: keep it in the panel.
    const active = document.activeElement;
    if (!active || active === document.body) retryRef.current?.focus();
  }, []);
  return (
    <>
      <PanelHeader titleId={titleId} className={classNames?.header} onClose={onClose} />
      <div
        data-docs-assistant="error"
        data-error-kind="unavailable"
        role="alert"
        className={classNames?.error}
      >
        <p>{labels.panelCrashed ?? defaultLabels.panelCrashed}</p>
        <button ref={retryRef} type="button" data-action="retry" onClick={onRetry}>
          {labels.retry}
        </button>
      </div>
    </>
  );
}

function PanelBody({
  options,
  variant,
  open,
  titleId,
  classNames,
  starterQuestions,
  components,
  docsBaseUrl,
  allowedImageOrigins,
  search,
  onClose,
  onStatusChange,
  apiRef,
  pendingRef,
  emit = () => {},
  eventsIncludeText,
  feedback = true,
  share,
  support,
  sharedId,
  attachments,
}: PanelProps) {
  const labels = useLabels();
  // When the question went out and when its first text came (performance.now), for `answer` events.
  const timing = useRef<{ start: number; first?: number }>({ start: 0 });
  const finishRef = useRef(options.onFinish);
  finishRef.current = options.onFinish;
  const onFinish = useCallback<NonNullable<PanelProps['options']['onFinish']>>(
    (message, thread) => {
      const { start, first } = timing.current;
      const now = performance.now();
      emit({
        type: 'answer',
        messageId: message.id,
        threadId: thread.threadId,
        timeToFirstTokenMs: first === undefined ? first : first - start,
        totalMs: now - start,
        sources: collectSources(message, latestHref.current).length,
      });
      finishRef.current?.(message, thread);
    },
    [emit],
  );
  const [hookOptions, announcement, announceStatus] = useAnswerAnnouncement({ ...options, onFinish }, labels);
  const state = useDocsAssistant(hookOptions);
  const { messages, status, error, context } = state;
  const [input, setInput] = useState('');
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const busy = status === 'submitted' || status === 'streaming';
  // Docs links resolve against the docs site; the panel only renders in the browser (see the shell).
  const [resolveHref, docsBaseUrlError] = useHrefResolver(docsBaseUrl);
  const latestHref = useRef(resolveHref);
  latestHref.current = resolveHref;
  const [imageOrigins, imageOriginsError] = useImageOrigins(allowedImageOrigins);
  const configError = state.configError ?? docsBaseUrlError ?? imageOriginsError;
  // A function or a map of `starterQuestions` is read for the page the reader is on now, and only
  // while the starters can show (an empty conversation): not on every update of a streamed answer.
  const byPath = starterQuestions != null && !Array.isArray(starterQuestions);
  const pagePath = !byPath
    ? ''
    : messages.length === 0
      ? (resolveCurrentPath(options.currentPath) ?? '/')
      : null;
  const questions = useMemo(
    () =>
      pagePath === null ? undefined : validStarterQuestions(starterQuestionsFor(starterQuestions, pagePath)),
    [starterQuestions, pagePath],
  );
  const searchOptions = useMemo(
    () => ({ ...options, features: search?.features }),
    [options, search?.features],
  );
  const canSearch = searchAvailable(searchOptions) && !configError;
  const canAsk = assistantAvailable(searchOptions);
  const firstView = canSearch && search?.defaultView === 'search' ? 'search' : 'chat';
  const [view, setView] = useState<'search' | 'chat'>(firstView);
  // The list of past conversations shows in the conversation's place.
  const [history, setHistory] = useState(false);
  // A page opened from a result or a source; while it shows, it takes the conversation's place.
  const [preview, setPreview] = useState<PreviewTarget | null>(null);
  const canPreview = canSearch && search?.sourceAction === 'preview';
  const searching = canSearch && view === 'search' && input.trim() !== '' && !preview;
  const closePreview = useCallback(() => {
    setPreview(null);
    inputRef.current?.focus();
  }, []);

  // The shell's panel element (this component renders inside it).
  const panelRef = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    panelRef.current = inputRef.current?.closest<HTMLElement>('[data-docs-assistant="panel"]') ?? null;
  }, []);
  const dialog = variant === 'floating' || variant === 'modal';
  useFullScreenModal(panelRef, dialog && open, inputRef, variant === 'modal');
  // Files attached to the next question; `incoming` are files not yet read (the tray loads with the
  // first, and takes them out as it reads them, so batches coming close together add up).
  const [attached, setAttached] = useState<DraftAttachment[]>([]);
  const [incoming, setIncoming] = useState<File[] | null>(null);
  const addFiles = (files: File[]) => setIncoming((waiting) => [...(waiting ?? []), ...files]);
  const takeFiles = (files: File[]) =>
    setIncoming((waiting) => waiting?.filter((file) => !files.includes(file)) ?? null);
  const takeAttachments = () => {
    if (!attached.length) return undefined;
    setAttached([]);
    return { attachments: attached.map(({ name, contentType, url }) => ({ name, contentType, url })) };
  };

  // The Markdown worker starts while the reader reads or types, not in the first answer's frames.
  useEffect(() => whenIdle(warmUpMarkdown), []);

  // An answer's source links open in the panel too: one listener on the panel, not one per link.
  useEffect(() => {
    const panel = panelRef.current;
    if (!canPreview || !panel) return;
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.<HTMLAnchorElement>(
        'a[data-docs-assistant="source"]',
      );
      if (
        !link ||
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.ctrlKey ||
        event.shiftKey
      )
        return;
      event.preventDefault();
      setPreview({ path: new URL(link.href).pathname, url: link.href, title: link.textContent ?? link.href });
    };
    panel.addEventListener('click', onClick);
    return () => panel.removeEventListener('click', onClick);
  }, [canPreview]);

  const latest = useRef({
    state,
    configError,
    ask: (_question: string, _source: AskSource) => {},
    send: (_question: string, _source: AskSource) => {},
  });
  latest.current = { ...latest.current, state, configError };

  useEffect(() => {
    onStatusChange(status);
    announceStatus(status);
    if (status === 'submitted') timing.current = { start: performance.now() };
  }, [status, onStatusChange, announceStatus]);
  const lastMessage = messages[messages.length - 1];
  const answering = status === 'streaming' && lastMessage?.role === 'assistant' && !!lastMessage.content;
  useEffect(() => {
    if (answering) timing.current.first ??= performance.now();
  }, [answering]);

  // Sources opened and copies made, with the answer they belong to: one listener on the panel.
  useEffect(() => {
    const panel = panelRef.current;
    if (!panel) return;
    const onClick = (event: MouseEvent) => {
      const target = event.target as Element | null;
      const messageId =
        target?.closest?.('[data-docs-assistant="message"]')?.getAttribute('data-message-id') ?? undefined;
      const link = target?.closest?.<HTMLAnchorElement>('a[data-docs-assistant="source"]');
      const followUp = target?.closest?.<HTMLAnchorElement>('a[data-docs-assistant="suggestion"]');
      if (link) emit({ type: 'source-click', url: link.href, messageId });
      else if (followUp) emit({ type: 'suggestion-click', kind: 'follow-up', url: followUp.href, messageId });
      else if (target?.closest?.('[data-action="copy"]')) emit({ type: 'copy', target: 'answer', messageId });
      else if (target?.closest?.('[data-copy-state]')) emit({ type: 'copy', target: 'code', messageId });
    };
    panel.addEventListener('click', onClick);
    return () => panel.removeEventListener('click', onClick);
  }, [emit]);

  // Every question goes out here, so each is reported once with where it came from.
  const send = (question: string, source: AskSource) => {
    setHistory(false);
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
      contextItems: context.items.length,
      question: eventsIncludeText ? question : undefined,
    });
    void state.send(question, takeAttachments());
  };

  // The shell's imperative handle reaches the conversation through this API; requests made before
  // this code loaded (ask, setInput, focus) are carried out now.
  useEffect(() => {
    apiRef.current = {
      ask: (question, source = 'api') => {
        if (!latest.current.configError) latest.current.send(question, source);
      },
      setInput: (text) => setInput(text),
      focusInput: () => inputRef.current?.focus(),
      chat: () => latest.current.state,
    };
    const pending = pendingRef.current;
    pendingRef.current = {};
    if (pending.input !== undefined) setInput(pending.input);
    if (pending.ask !== undefined && !latest.current.configError)
      latest.current.send(pending.ask, pending.askSource ?? 'api');
    if (pending.focus) inputRef.current?.focus();
    return () => {
      apiRef.current = null;
    };
  }, [apiRef, pendingRef]);

  const ask = (question: string, source: AskSource) => {
    if (!configError && canAsk) send(question, source);
    setView('chat');
    setPreview(null);
    inputRef.current?.focus();
  };
  const askFromSearch = useCallback((question: string) => {
    setInput('');
    latest.current.ask(question, 'search');
  }, []);
  const askSuggested = useCallback((question: string) => latest.current.ask(question, 'suggestion'), []);
  latest.current.ask = ask;
  latest.current.send = send;

  const { threadId, threadKey } = state;
  const optionsRef = useRef(options);
  optionsRef.current = options;
  // The answer the reader voted down last: the support prompt offers a way to a human under it.
  const [downVoted, setDownVoted] = useState<string | null>(null);
  const emitVote = useCallback(
    (event: DocsAssistantEvent) => {
      if (event.type === 'feedback') setDownVoted(event.rating === 'down' ? event.messageId : null);
      emit(event);
    },
    [emit],
  );
  const feedbackConfig = useMemo<FeedbackConfig | null>(
    () =>
      feedback && !configError
        ? {
            options: () => optionsRef.current,
            feedback: feedback === true ? {} : feedback,
            emit: support ? emitVote : emit,
            includeText: !!eventsIncludeText,
            threadId,
            threadKey,
          }
        : null,
    [feedback, configError, emit, emitVote, support, eventsIncludeText, threadId, threadKey],
  );

  const shownError = configError ?? error;
  const empty = messages.length === 0;
  // A shared conversation (`?assistant-share=`) shows until the reader closes or continues it.
  const [closedShare, setClosedShare] = useState<string>();
  const shared = sharedId && sharedId !== closedShare && !configError ? sharedId : null;
  const waitingToRetry = useRetryWait(error);

  // The header, the context chips and the question box are memoised: a streamed answer re-renders
  // this component once per frame, and only the conversation changes then. Their callbacks keep
  // their identity (they call this render's code), and the history actions get the messages as of
  // the last pause: while an answer streams they show nothing that depends on them.
  const pausedRef = useRef(messages);
  if (!busy) pausedRef.current = messages;
  const pausedMessages = pausedRef.current;
  const startNewConversation = useStableCallback(() => {
    emit({ type: 'new-conversation', threadId: state.threadId });
    state.newConversation();
    setHistory(false);
    setInput('');
    setView(firstView);
    inputRef.current?.focus();
  });
  const toggleHistory = useStableCallback(() => setHistory(!history));
  const toggleSearch = useStableCallback(() => {
    setView(view === 'search' ? 'chat' : 'search');
    inputRef.current?.focus();
  });
  const changeInput = useStableCallback((text: string) => {
    setInput(text);
    // Typing goes back from a previewed page to the results (or the conversation).
    setPreview(null);
  });
  const submitInput = useStableCallback((question: string) => {
    // Search without the assistant (features.assistant false): Enter only chooses rows.
    if (!canAsk) return;
    setInput('');
    setView('chat');
    setPreview(null);
    const types = context.items.map((item) => item.type);
    send(
      question,
      types.includes('textSelection') ? 'selection' : types.includes('code') ? 'code-block' : 'composer',
    );
  });
  const stableAddFiles = useStableCallback(addFiles);

  return (
    <>
      <PanelHeader titleId={titleId} className={classNames?.header} onClose={onClose}>
        <ConversationActions
          canStartNew={!empty || busy}
          history={history}
          messages={pausedMessages}
          busy={busy}
          canSearch={canSearch}
          searchView={view === 'search'}
          resolveHref={resolveHref}
          labels={labels}
          onNewConversation={startNewConversation}
          onToggleHistory={toggleHistory}
          onToggleSearch={toggleSearch}
        />
        {(share !== false && state.threadKey) || support ? (
          <Suspense fallback={null}>
            <ShareSupport
              slot="header"
              options={options}
              share={share}
              support={support}
              threadId={state.threadId}
              threadKey={state.threadKey}
              messages={messages}
              busy={busy}
              labels={labels}
            />
          </Suspense>
        ) : null}
      </PanelHeader>
      {shared ? (
        <Suspense fallback={null}>
          <ShareSupport
            slot="transcript"
            shareId={shared}
            options={options}
            labels={labels}
            Markdown={Markdown}
            resolveHref={resolveHref}
            onContinue={(seed) => {
              state.newConversation(seed);
              setClosedShare(shared);
              inputRef.current?.focus();
            }}
            onClose={() => {
              setClosedShare(shared);
              inputRef.current?.focus();
            }}
          />
        </Suspense>
      ) : null}
      {searching ? (
        <Suspense fallback={null}>
          <SearchResults
            query={input}
            options={searchOptions}
            inputRef={inputRef}
            assistant={canAsk}
            onAsk={askFromSearch}
            resolveHref={resolveHref}
            onOpen={
              canPreview ? (hit) => setPreview({ path: hit.path, url: hit.url, title: hit.title }) : undefined
            }
            labels={labels}
            kit={defaultSearchKit}
            hiddenStyle={visuallyHidden}
          />
        </Suspense>
      ) : null}
      {preview ? (
        <Suspense fallback={null}>
          <PagePreview
            target={preview}
            options={searchOptions}
            kit={defaultSearchKit}
            labels={labels}
            Markdown={Markdown}
            resolveHref={resolveHref}
            onBack={closePreview}
          />
        </Suspense>
      ) : null}
      {history ? (
        <Suspense fallback={null}>
          <HistoryView
            conversations={state.conversations}
            currentId={state.conversationId}
            onOpen={(id) => {
              state.openConversation(id);
              setHistory(false);
              inputRef.current?.focus();
            }}
            onDelete={state.deleteConversation}
            onDeleteAll={state.deleteAllConversations}
            onClose={() => {
              setHistory(false);
              inputRef.current?.focus();
            }}
            labels={labels}
            hiddenStyle={visuallyHidden}
          />
        </Suspense>
      ) : null}
      {empty && questions && canAsk && !configError && !searching && !preview && !shared && !history ? (
        <StarterQuestions
          questions={questions}
          onAsk={(question) => ask(question, 'starter-question')}
          className={classNames?.starterQuestions}
          suggestionClassName={classNames?.suggestion}
        />
      ) : null}
      {empty || searching || preview || shared || history ? null : (
        <FeedbackContext.Provider value={feedbackConfig}>
          <MessageList
            messages={messages}
            status={status}
            components={components}
            resolveHref={resolveHref}
            onAsk={askSuggested}
            classNames={classNames}
            allowedImageOrigins={imageOrigins}
          />
        </FeedbackContext.Provider>
      )}
      {support && !empty && !searching && !preview && !shared && !history ? (
        <Suspense fallback={null}>
          <ShareSupport
            slot="prompt"
            option={support}
            messages={messages}
            status={status}
            downVoted={downVoted}
            labels={labels}
          />
        </Suspense>
      ) : null}
      {shownError ? (
        <ErrorBanner
          error={shownError}
          className={classNames?.error}
          onRetry={
            shownError === configError || waitingToRetry
              ? undefined
              : () => {
                  // The banner (and its button) goes away: the question box is where to go on.
                  inputRef.current?.focus();
                  emit({
                    type: 'ask',
                    source: 'retry',
                    threadId: state.threadId,
                    contextItems: 0,
                  });
                  void state.retry();
                }
          }
        />
      ) : null}
      <ContextChips
        items={context.items}
        onRemove={context.remove}
        fallbackFocusRef={inputRef}
        className={classNames?.context}
      />
      {attachments && incoming ? (
        <Suspense fallback={null}>
          <AttachmentTray
            items={attached}
            incoming={incoming}
            onChange={setAttached}
            onTaken={takeFiles}
            fallbackFocusRef={inputRef}
            labels={labels}
            limits={ATTACHMENT_LIMITS}
          />
        </Suspense>
      ) : null}
      <Composer
        onFiles={attachments ? stableAddFiles : undefined}
        value={input}
        onValueChange={changeInput}
        onSubmit={submitInput}
        onStop={state.stop}
        busy={busy}
        disabled={!!configError || !!shared}
        inputRef={inputRef}
        className={classNames?.composer}
        inputClassName={classNames?.input}
      />
      <div
        data-docs-assistant="announcer"
        role="status"
        aria-live="polite"
        aria-atomic="true"
        style={visuallyHidden}
      >
        {/* Inside the panel: while it is hidden nothing is announced, and reopening changes nothing. */}
        {announcement}
      </div>
    </>
  );
}

/** A function of constant identity that calls the `fn` of the latest render (for memoised children). */
function useStableCallback<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void {
  const latest = useRef(fn);
  latest.current = fn;
  return useCallback((...args: A) => latest.current(...args), []);
}

interface ConversationActionsProps {
  canStartNew: boolean;
  history: boolean;
  messages: readonly AssistantMessage[];
  busy: boolean;
  canSearch: boolean;
  searchView: boolean;
  resolveHref: (href: string) => string | null;
  labels: Labels;
  onNewConversation: () => void;
  onToggleHistory: () => void;
  onToggleSearch: () => void;
}

/** The header's conversation actions: New conversation, the history actions and the search view. */
const ConversationActions = memo(function ConversationActions({
  canStartNew,
  history,
  messages,
  busy,
  canSearch,
  searchView,
  resolveHref,
  labels,
  onNewConversation,
  onToggleHistory,
  onToggleSearch,
}: ConversationActionsProps) {
  return (
    <>
      <button
        type="button"
        data-action="new-conversation"
        disabled={!canStartNew}
        onClick={onNewConversation}
      >
        <Icon name="plus" />
        <span>{labels.newConversation}</span>
      </button>
      <Suspense fallback={null}>
        <HistoryActions
          open={history}
          onToggle={onToggleHistory}
          messages={messages}
          busy={busy}
          resolveHref={resolveHref}
          labels={labels}
          collectSources={collectSources}
          copyText={copyText}
        />
      </Suspense>
      {canSearch ? (
        <button type="button" data-action="search-view" aria-pressed={searchView} onClick={onToggleSearch}>
          <span>{labels.searchView ?? 'Search the docs'}</span>
        </button>
      ) : null}
    </>
  );
});

/**
 * The panel's polite live region says two things per question: that an answer is on its way (once,
 * when the question goes out) and, from the hook's `onFinish` (which carries the complete message,
 * before the status turns `ready`), the finished answer as short plain text. The log itself stays
 * silent (see MessageList). A stopped or failed answer is not announced: the reader stopped it, or
 * the error alert speaks; the "on its way" message is then taken back so the next one is heard.
 */
function useAnswerAnnouncement(
  options: PanelProps['options'],
  labels: Labels,
): [PanelProps['options'], string, (status: AssistantStatus) => void] {
  const [announcement, setAnnouncement] = useState('');
  const labelsRef = useRef(labels);
  labelsRef.current = labels;
  const userOnFinish = options.onFinish;
  const onFinish = useCallback<NonNullable<PanelProps['options']['onFinish']>>(
    (message, thread) => {
      const { answerReady, codeBlockAnnounced } = labelsRef.current;
      // Only the beginning is announced: a long answer is not converted to its end.
      const plain = markdownToPlainText(
        messageText(message),
        codeBlockAnnounced ?? '(code block)',
        ANNOUNCEMENT_MAX_LENGTH,
      );
      const text = truncateAtWord(plain);
      setAnnouncement(text ? `${answerReady}: ${text}` : answerReady);
      userOnFinish?.(message, thread);
    },
    [userOnFinish],
  );
  const announceStatus = useCallback((status: AssistantStatus) => {
    const answering = labelsRef.current.thinking;
    if (status === 'submitted') setAnnouncement(answering);
    else if (status !== 'streaming') setAnnouncement((current) => (current === answering ? '' : current));
  }, []);
  return [{ ...options, onFinish }, announcement, announceStatus];
}

/** The docs link resolver, or (for a `docsBaseUrl` that is no URL) a config error saying so. */
function useHrefResolver(docsBaseUrl: unknown): [(href: string) => string | null, AssistantError | null] {
  const [resolver, error] = useMemo((): [(href: string) => string | null, AssistantError | null] => {
    try {
      return [createHrefResolver(docsBaseUrl as string | undefined), null];
    } catch {
      // Also reached without docsBaseUrl on a page whose own address is not http(s).
      const detail = `docsBaseUrl ${JSON.stringify(docsBaseUrl)} is not an absolute http(s) URL: pass the docs site's address, e.g. "https://docs.example.com".`;
      return [
        fallbackResolver(),
        { kind: 'config', message: defaultLabels.errorConfig, detail, retryable: false },
      ];
    }
  }, [docsBaseUrl]);
  useEffect(() => {
    if (error?.detail) console.error(`[docs-assistant] ${error.detail}`);
  }, [error]);
  return [resolver, error];
}

/**
 * `allowedImageOrigins` checked once (keyed on its text, as hosts pass arrays inline), or, for an
 * entry that is no origin, no images at all and a config error saying which entry to fix.
 */
function useImageOrigins(allowed: unknown): [string[] | undefined, AssistantError | null] {
  const key = Array.isArray(allowed) ? JSON.stringify(allowed) : allowed;
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed on the array's contents
  const [origins, error] = useMemo((): [string[] | undefined, AssistantError | null] => {
    if (allowed === undefined) return [undefined, null];
    try {
      return [parseAllowedImageOrigins(allowed as string[]), null];
    } catch (cause) {
      const detail = (cause as Error).message;
      return [[], { kind: 'config', message: defaultLabels.errorConfig, detail, retryable: false }];
    }
  }, [key]);
  useEffect(() => {
    if (error?.detail) console.error(`[docs-assistant] ${error.detail}`);
  }, [error]);
  return [origins, error];
}

/** Links against this page's own site, or none where even that is no http(s) address. */
function fallbackResolver(): (href: string) => string | null {
  try {
    return createHrefResolver();
  } catch {
    return () => null;
  }
}

/** Runs `task` once the page is idle (within 2 s); returns what cancels it. */
function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(task, { timeout: 2_000 });
    return () => cancelIdleCallback(id);
  }
  // Safari has no idle callbacks.
  const timer = setTimeout(task, 200);
  return () => clearTimeout(timer);
}

// setTimeout's longest delay; a longer Retry-After would fire at once.
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Whether a rate-limit error's `Retry-After` wait is still running. Retry only shows once it has
 * passed: pressing it sooner would only earn another "too many requests" (the message says how long
 * to wait).
 */
function useRetryWait(error: AssistantError | null | undefined): boolean {
  const waitMs = error?.kind === 'rate-limit' && error.retryAfter ? error.retryAfter * 1000 : 0;
  const [waited, setWaited] = useState<AssistantError | null>(null);
  useEffect(() => {
    if (!error || waitMs <= 0) return;
    const timer = setTimeout(() => setWaited(error), Math.min(waitMs, MAX_TIMER_MS));
    return () => clearTimeout(timer);
  }, [error, waitMs]);
  return waitMs > 0 && waited !== error;
}
