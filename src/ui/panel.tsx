/**
 * The heavy half of the widget, loaded with `React.lazy` on first open: the chat hook, the part
 * renderers (markdown) and the conversation UI. The shell (`docs-assistant.tsx`) stays small.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AssistantError } from '../chat/types';
import { useDocsAssistant } from '../chat/use-docs-assistant';
import { useLabels } from '../labels';
import { createHrefResolver } from '../parts/index';
import { Composer } from './composer';
import { ContextChips } from './context-chips';
import { visuallyHidden } from './dom';
import { ErrorBanner } from './error-banner';
import { Icon } from './icons';
import { MessageList, messageText } from './message-list';
import { PanelHeader } from './panel-header';
import type { PanelProps } from './panel-types';
import { StarterQuestions } from './starter-questions';

export type { PanelProps };

export default function Panel({
  options,
  titleId,
  classNames,
  starterQuestions,
  components,
  docsBaseUrl,
  onClose,
  onStatusChange,
  apiRef,
  pendingRef,
}: PanelProps) {
  const labels = useLabels();
  const [hookOptions, announcement, clearAnnouncement] = useAnswerAnnouncement(options, labels.answerReady);
  const state = useDocsAssistant(hookOptions);
  const { messages, status, error, configError, context } = state;
  const [input, setInput] = useState('');
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const busy = status === 'submitted' || status === 'streaming';
  // Docs links resolve against the docs site; the panel only renders in the browser (see the shell).
  const resolveHref = useMemo(() => createHrefResolver(docsBaseUrl), [docsBaseUrl]);

  const latest = useRef(state);
  latest.current = state;

  useEffect(() => {
    onStatusChange(status);
    if (status === 'submitted') clearAnnouncement();
  }, [status, onStatusChange, clearAnnouncement]);

  // The shell's imperative handle reaches the conversation through this API; requests made before
  // this code loaded (ask, setInput, focus) are carried out now.
  useEffect(() => {
    apiRef.current = {
      ask: (question) => void latest.current.send(question),
      setInput: (text) => setInput(text),
      focusInput: () => inputRef.current?.focus(),
    };
    const pending = pendingRef.current;
    pendingRef.current = {};
    if (pending.input !== undefined) setInput(pending.input);
    if (pending.ask !== undefined) void latest.current.send(pending.ask);
    if (pending.focus) inputRef.current?.focus();
    return () => {
      apiRef.current = null;
    };
  }, [apiRef, pendingRef]);

  const ask = (question: string) => {
    void state.send(question);
    inputRef.current?.focus();
  };

  const shownError = configError ?? error;
  const empty = messages.length === 0;
  const waitingToRetry = useRetryWait(error);

  return (
    <>
      <PanelHeader titleId={titleId} className={classNames?.header} onClose={onClose}>
        <button
          type="button"
          data-action="new-conversation"
          disabled={empty && !busy}
          onClick={() => {
            state.newConversation();
            setInput('');
            inputRef.current?.focus();
          }}
        >
          <Icon name="plus" />
          <span>{labels.newConversation}</span>
        </button>
      </PanelHeader>
      {empty && starterQuestions && !configError ? (
        <StarterQuestions
          questions={starterQuestions}
          onAsk={ask}
          className={classNames?.starterQuestions}
          suggestionClassName={classNames?.suggestion}
        />
      ) : null}
      {empty ? null : (
        <MessageList
          messages={messages}
          status={status}
          components={components}
          resolveHref={resolveHref}
          onAsk={ask}
          classNames={classNames}
        />
      )}
      {shownError ? (
        <ErrorBanner
          error={shownError}
          className={classNames?.error}
          onRetry={shownError === configError || waitingToRetry ? undefined : () => void state.retry()}
        />
      ) : null}
      <ContextChips items={context.items} onRemove={context.remove} className={classNames?.context} />
      <Composer
        value={input}
        onValueChange={setInput}
        onSubmit={(question) => {
          setInput('');
          void state.send(question);
        }}
        onStop={state.stop}
        busy={busy}
        disabled={!!configError}
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

/**
 * Announces each finished answer once, from the hook's `onFinish` (which carries the complete
 * message, before the status turns `ready`). The live region is
 * emptied when the next question goes out, so an identical answer is announced again. A stopped or
 * failed answer is not announced: the reader stopped it, or the error alert speaks.
 */
function useAnswerAnnouncement(
  options: PanelProps['options'],
  answerReady: string,
): [PanelProps['options'], string, () => void] {
  const [announcement, setAnnouncement] = useState('');
  const answerReadyRef = useRef(answerReady);
  answerReadyRef.current = answerReady;
  const userOnFinish = options.onFinish;
  const onFinish = useCallback<NonNullable<PanelProps['options']['onFinish']>>(
    (message, thread) => {
      const text = messageText(message).trim();
      setAnnouncement(text ? `${answerReadyRef.current}: ${text}` : answerReadyRef.current);
      userOnFinish?.(message, thread);
    },
    [userOnFinish],
  );
  const clear = useCallback(() => setAnnouncement(''), []);
  return [{ ...options, onFinish }, announcement, clear];
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
