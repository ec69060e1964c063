/**
 * The heavy half of the widget, loaded with `React.lazy` on first open: the chat hook, the part
 * renderers (markdown) and the conversation UI. The shell (`docs-assistant.tsx`) stays small.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { AssistantStatus } from '../chat/types';
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
  open,
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
  const state = useDocsAssistant(options);
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
  }, [status, onStatusChange]);

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

  const announcement = useAnswerAnnouncement(status, messages, labels.answerReady);

  const ask = (question: string) => {
    void state.send(question);
    inputRef.current?.focus();
  };

  const shownError = configError ?? error;
  const empty = messages.length === 0;

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
        <StarterQuestions questions={starterQuestions} onAsk={ask} className={classNames?.starterQuestions} />
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
          onRetry={shownError === configError ? undefined : () => void state.retry()}
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
        {open ? announcement : ''}
      </div>
    </>
  );
}

/**
 * Announces each finished answer once: when the status leaves `submitted`/`streaming` for `ready`,
 * the live region gets "Answer ready" and the answer's text. It is emptied when the next question
 * goes out, so an identical answer is announced again.
 */
function useAnswerAnnouncement(
  status: AssistantStatus,
  messages: ReturnType<typeof useDocsAssistant>['messages'],
  answerReady: string,
): string {
  const [announcement, setAnnouncement] = useState('');
  const previous = useRef(status);
  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (status === 'submitted') {
      setAnnouncement('');
      return;
    }
    if (status !== 'ready' || (was !== 'streaming' && was !== 'submitted')) return;
    const last = messages[messages.length - 1];
    if (last?.role !== 'assistant') return;
    const text = messageText(last).trim();
    setAnnouncement(text ? `${answerReady}: ${text}` : answerReady);
  }, [status, messages, answerReady]);
  return announcement;
}
