/**
 * The History view (issue 20): this site's kept conversations, the one saved last first, each with
 * its first question, when it was saved and its number of messages; a search over the questions
 * and answers; open one to go on with it (its thread and key), delete one, or delete all after a
 * confirmation. Loaded with `React.lazy` when the reader first opens it.
 *
 * For keyboard and screen reader use: it is a labelled region; the search box comes first and has
 * focus when the view opens; the number of conversations shown (or "none match") is a polite
 * status; every action is a button named by what it acts on; after a deletion focus goes to the
 * next conversation (or the search box), and "Delete all" asks first, with focus on Cancel (its
 * question is the description of both of its buttons).
 */
import { type CSSProperties, type RefObject, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { AssistantMessage, ConversationSummary } from '../../chat/types.js';
import type { Labels } from '../../labels/types.js';
import { type HistoryLabels, historyLabels } from './labels.js';

export interface HistoryViewProps {
  conversations: readonly ConversationSummary[];
  /** The id of the conversation shown in the panel, if it is kept. */
  currentId?: string;
  onOpen: (id: string) => void;
  onDelete: (id: string) => void;
  onDeleteAll: () => void;
  /** Back to the conversation. */
  onClose: () => void;
  labels: Labels;
  /** Hides the status text visually (it is for screen readers; the list shows the same). */
  hiddenStyle: CSSProperties;
  /** Now, for "2 hours ago" (a clock the stories and tests can fix). @default Date.now() */
  now?: number;
  /** The text of a message (the panel's, handed over: one reading of a message's text). */
  textOf: (message: AssistantMessage) => string;
}

/** The conversations whose questions or answers hold every word of `query` (case and accents aside). */
export function searchConversations(
  conversations: readonly ConversationSummary[],
  query: string,
  textOf: (message: AssistantMessage) => string,
): ConversationSummary[] {
  const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...conversations];
  return conversations.filter((conversation) => {
    const text = fold(conversation.messages.map(textOf).join('\n'));
    return words.every((word) => text.includes(word));
  });
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "3 days ago" in the page's language. */
export function relativeTime(date: Date, now: number, locale?: string): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  const [unit, size] = UNITS.find(([, size]) => Math.abs(seconds) >= size) ?? ['second', 1];
  return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(Math.round(seconds / size), unit);
}

const pageLocale = () =>
  typeof document === 'undefined' ? undefined : document.documentElement.lang || undefined;

/** Where focus goes: the search box on opening, Cancel when asked to confirm, the next row after a deletion. */
function useHistoryFocus(shown: ConversationSummary[], confirming: boolean) {
  const rootRef = useRef<HTMLElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const backRef = useRef<HTMLButtonElement>(null);
  // After a deletion: the conversation to focus next (null: the search box).
  const focusNext = useRef<string | null | undefined>(undefined);

  useEffect(() => {
    (searchRef.current ?? backRef.current)?.focus();
  }, []);
  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
  }, [confirming]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the list changed after a deletion
  useEffect(() => {
    const next = focusNext.current;
    if (next === undefined) return;
    focusNext.current = undefined;
    const button =
      next === null
        ? null
        : rootRef.current?.querySelector<HTMLButtonElement>(
            `[data-conversation-id="${CSS.escape(next)}"] [data-action="open-conversation"]`,
          );
    (button ?? searchRef.current ?? backRef.current)?.focus();
  }, [shown]);
  return { rootRef, searchRef, cancelRef, backRef, focusNext };
}

export default function HistoryView({
  conversations,
  currentId,
  onOpen,
  onDelete,
  onDeleteAll,
  onClose,
  labels,
  hiddenStyle,
  now = Date.now(),
  textOf,
}: HistoryViewProps) {
  const words = historyLabels(labels);
  const headingId = useId();
  const confirmId = useId();
  const [query, setQuery] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [deleted, setDeleted] = useState(false);
  const shown = useMemo(
    () => searchConversations(conversations, query, textOf),
    [conversations, query, textOf],
  );
  const { rootRef, searchRef, cancelRef, backRef, focusNext } = useHistoryFocus(shown, confirming);

  const remove = (id: string) => {
    const index = shown.findIndex((item) => item.id === id);
    focusNext.current = (shown[index + 1] ?? shown[index - 1])?.id ?? null;
    setDeleted(true);
    onDelete(id);
  };

  const status = statusText(words, conversations.length, shown.length, query, deleted);

  return (
    <section ref={rootRef} data-docs-assistant="history" aria-labelledby={headingId}>
      <HistoryHead
        headingId={headingId}
        words={words}
        backRef={backRef}
        onClose={onClose}
        searchRef={conversations.length > 0 ? searchRef : null}
        query={query}
        onQuery={(value) => {
          setQuery(value);
          setDeleted(false);
        }}
        status={status}
        statusStyle={shown.length > 0 ? hiddenStyle : undefined}
      />
      {shown.length > 0 ? (
        <HistoryList
          shown={shown}
          headingId={headingId}
          currentId={currentId}
          words={words}
          now={now}
          onOpen={onOpen}
          onRemove={remove}
        />
      ) : null}
      {conversations.length > 0 ? (
        <DeleteAll
          count={conversations.length}
          confirming={confirming}
          setConfirming={setConfirming}
          confirmId={confirmId}
          cancelRef={cancelRef}
          words={words}
          onConfirm={() => {
            setConfirming(false);
            setDeleted(true);
            focusNext.current = null;
            onDeleteAll();
          }}
        />
      ) : null}
    </section>
  );
}

/** What the status line says: none kept, none matching, or how many are shown (after "deleted"). */
function statusText(
  words: HistoryLabels,
  kept: number,
  shown: number,
  query: string,
  deleted: boolean,
): string {
  return kept === 0
    ? words.historyEmpty
    : shown === 0
      ? words.historyNoMatch(query.trim())
      : `${deleted ? `${words.historyDeleted} ` : ''}${words.historyCount(shown)}`;
}

interface HistoryHeadProps {
  headingId: string;
  words: HistoryLabels;
  backRef: RefObject<HTMLButtonElement | null>;
  onClose: () => void;
  /** The search box's ref; `null` without a search box (nothing kept). */
  searchRef: RefObject<HTMLInputElement | null> | null;
  query: string;
  onQuery: (query: string) => void;
  status: string;
  statusStyle: CSSProperties | undefined;
}

/** The view's top: its heading and Back button, the search box, the status line. */
function HistoryHead({
  headingId,
  words,
  backRef,
  onClose,
  searchRef,
  query,
  onQuery,
  status,
  statusStyle,
}: HistoryHeadProps) {
  return (
    <>
      <div data-part="bar">
        <h3 id={headingId}>{words.historyHeading}</h3>
        <button ref={backRef} type="button" data-action="close-history" onClick={onClose}>
          {words.historyBack}
        </button>
      </div>
      {searchRef ? (
        <input
          ref={searchRef}
          type="search"
          data-docs-assistant="history-search"
          aria-label={words.historySearch}
          placeholder={words.historySearch}
          value={query}
          onChange={(event) => onQuery(event.target.value)}
        />
      ) : null}
      <p data-docs-assistant="history-status" role="status" style={statusStyle}>
        {status}
      </p>
    </>
  );
}

interface HistoryListProps {
  shown: ConversationSummary[];
  headingId: string;
  currentId?: string;
  words: HistoryLabels;
  now: number;
  onOpen: (id: string) => void;
  onRemove: (id: string) => void;
}

/** The conversations shown: each opens with its first question, when and how long, and a delete button. */
function HistoryList({ shown, headingId, currentId, words, now, onOpen, onRemove }: HistoryListProps) {
  const locale = pageLocale();
  return (
    <ul aria-labelledby={headingId}>
      {shown.map((conversation) => {
        const title = conversation.title || words.historyUntitled;
        const current = conversation.id === currentId;
        return (
          <li key={conversation.id} data-docs-assistant="history-item" data-conversation-id={conversation.id}>
            <button
              type="button"
              data-action="open-conversation"
              aria-current={current ? 'true' : undefined}
              onClick={() => onOpen(conversation.id)}
            >
              <span data-part="title">{title}</span>
              <span data-part="meta">
                {conversation.updatedAt ? (
                  <time dateTime={conversation.updatedAt.toISOString()}>
                    {relativeTime(conversation.updatedAt, now, locale)}
                  </time>
                ) : null}
                {conversation.updatedAt ? ' · ' : null}
                {words.historyMessages(conversation.messages.length)}
                {current ? ` · ${words.historyCurrent}` : null}
              </span>
            </button>
            <button
              type="button"
              data-action="delete-conversation"
              aria-label={words.historyDelete(title)}
              title={words.historyDelete(title)}
              onClick={() => onRemove(conversation.id)}
            >
              <svg aria-hidden="true" focusable="false" width="16" height="16" viewBox="0 0 24 24">
                <path
                  d="M5 7h14M10 7V4h4v3M7 7l1 13h8l1-13"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                />
              </svg>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

interface DeleteAllProps {
  count: number;
  confirming: boolean;
  setConfirming: (confirming: boolean) => void;
  confirmId: string;
  cancelRef: RefObject<HTMLButtonElement | null>;
  words: HistoryLabels;
  onConfirm: () => void;
}

/** "Delete all", then its confirmation (the question describes both buttons). */
function DeleteAll({
  count,
  confirming,
  setConfirming,
  confirmId,
  cancelRef,
  words,
  onConfirm,
}: DeleteAllProps) {
  return confirming ? (
    <div data-docs-assistant="history-confirm">
      <p id={confirmId}>{words.historyConfirmDeleteAll(count)}</p>
      <button type="button" data-action="confirm-delete-all" aria-describedby={confirmId} onClick={onConfirm}>
        {words.historyDeleteAll}
      </button>
      <button
        ref={cancelRef}
        type="button"
        data-action="cancel-delete-all"
        aria-describedby={confirmId}
        onClick={() => setConfirming(false)}
      >
        {words.historyCancel}
      </button>
    </div>
  ) : (
    <button type="button" data-action="delete-all-conversations" onClick={() => setConfirming(true)}>
      {words.historyDeleteAll}
    </button>
  );
}
