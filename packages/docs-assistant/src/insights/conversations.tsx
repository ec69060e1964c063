/**
 * The conversations of the range, filtered to uncertain or down-voted ones, a page at a time; a
 * row's button opens its transcript in place, and Back returns to the row it came from.
 */
import { useEffect, useId, useRef } from 'react';
import type { ConversationFilter } from './client.js';
import type { InsightsPanelLabels } from './labels.js';
import { PageName, Section, Table } from './sections.js';
import type { ConversationRow, InsightsVote, Paged, Transcript } from './types.js';

type Labels = { labels: InsightsPanelLabels };

/** `2026-12-06T09:30:00.000Z` as `2026-12-06 09:30 UTC`: the same for every viewer. */
export const formatTime = (iso: string): string =>
  Number.isNaN(Date.parse(iso)) ? iso : `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const voteText = (vote: InsightsVote | undefined, labels: InsightsPanelLabels) =>
  vote === 'up' ? labels.votedUp : vote === 'down' ? labels.votedDown : '';

/** One checkbox of the filter: it sets or clears `name` and leaves the other as it was. */
function FilterBox({
  name,
  label,
  filter,
  onFilter,
}: {
  name: keyof ConversationFilter;
  label: string;
  filter: ConversationFilter;
  onFilter: (filter: ConversationFilter) => void;
}) {
  return (
    <label>
      <input
        type="checkbox"
        checked={!!filter[name]}
        onChange={(event) => onFilter({ ...filter, [name]: event.target.checked })}
      />
      {label}
    </label>
  );
}

export function Conversations({
  page,
  filter,
  onFilter,
  onMore,
  busy,
  onOpen,
  labels,
}: {
  page: Paged<ConversationRow>;
  filter: ConversationFilter;
  onFilter: (filter: ConversationFilter) => void;
  onMore: () => void;
  busy: boolean;
  onOpen: (threadId: string) => void;
} & Labels) {
  return (
    <Section title={labels.conversations} name="conversations">
      <fieldset data-insights="filters">
        <legend>{labels.filter}</legend>
        <FilterBox name="uncertain" label={labels.onlyUncertain} filter={filter} onFilter={onFilter} />
        <FilterBox name="down" label={labels.onlyDownVoted} filter={filter} onFilter={onFilter} />
      </fieldset>
      <Table
        caption={labels.conversations}
        columns={[
          labels.firstQuestion,
          labels.started,
          labels.questionsUncertain,
          labels.vote,
          labels.language,
        ]}
        rows={page.items.map((row) => ({
          key: row.threadId,
          head: (
            <button type="button" data-thread-id={row.threadId} onClick={() => onOpen(row.threadId)}>
              {row.first ?? labels.textExpired}
            </button>
          ),
          cells: [
            formatTime(row.startedAt),
            `${row.questions} (${row.uncertain})`,
            voteText(row.vote, labels),
            row.language ?? '',
          ],
        }))}
        empty={labels.none}
      />
      {page.next ? (
        <button
          type="button"
          data-action="more"
          onClick={onMore}
          disabled={busy}
          aria-busy={busy || undefined}
        >
          {labels.more}
        </button>
      ) : null}
    </Section>
  );
}

export type TranscriptState =
  | { status: 'loading' }
  | { status: 'ready'; transcript: Transcript }
  | { status: 'error'; message: string };

/** One conversation, every message with its sources and marks; focus goes to its heading. */
export function TranscriptView({
  state,
  onBack,
  onRetry,
  labels,
}: { state: TranscriptState; onBack: () => void; onRetry: () => void } & Labels) {
  const heading = useRef<HTMLHeadingElement>(null);
  const id = useId();
  useEffect(() => heading.current?.focus(), []);
  const title =
    state.status === 'ready'
      ? labels.transcript(formatTime(state.transcript.startedAt))
      : labels.conversations;
  return (
    <section data-insights="transcript" aria-labelledby={id}>
      <h3 id={id} ref={heading} tabIndex={-1}>
        {title}
      </h3>
      <button type="button" data-action="back" onClick={onBack}>
        {labels.back}
      </button>
      {state.status === 'loading' ? <p role="status">{labels.loading}</p> : null}
      {state.status === 'error' ? (
        <div role="alert">
          <p>{labels.failed(state.message)}</p>
          <button type="button" data-action="retry" onClick={onRetry}>
            {labels.retry}
          </button>
        </div>
      ) : null}
      {state.status === 'ready' ? (
        <ol data-insights="messages">
          {state.transcript.messages.map((message, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a transcript's messages, in order, never reordered
            <li key={i} data-role={message.role}>
              <p data-insights="speaker">
                {message.role === 'user' ? labels.reader : labels.assistant}
                {message.uncertain ? <span data-insights="mark"> · {labels.uncertain}</span> : null}
                {message.vote ? <span data-insights="mark"> · {voteText(message.vote, labels)}</span> : null}
                <span data-insights="time"> · {formatTime(message.at)}</span>
              </p>
              <p data-insights="text">{message.text ?? labels.textExpired}</p>
              {message.sources.length ? (
                <ul aria-label={labels.sources}>
                  {message.sources.map((source) => (
                    <li key={source.path}>
                      <PageName page={source} />
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
