/**
 * `<InsightsPanel>`: the docs owner's dashboard of what readers ask. It calls the host's backend
 * route (`createInsightsHandler` from `docs-assistant/insights`), never the service with a key:
 * totals and charts of a date range, coverage gaps, top questions, search without results, pages,
 * and the conversations with a drill-down to each transcript. Its own entry: none of it is in the
 * widget a reader loads.
 */
import { type FormEvent, type HTMLAttributes, useEffect, useId, useMemo, useRef, useState } from 'react';
import { globalFetch } from '../protocol/fetch.js';
import { Trends } from './charts.js';
import {
  type ConversationFilter,
  type Fetch,
  type InsightsData,
  type InsightsRange,
  lastDays,
  loadConversations,
  loadInsights,
  loadTranscript,
} from './client.js';
import { Conversations, type TranscriptState, TranscriptView } from './conversations.js';
import { defaultInsightsLabels, type InsightsPanelLabels } from './labels.js';
import { DashboardSections, Totals } from './sections.js';
import { INSIGHTS_CSS } from './styles.js';
import type { ConversationRow, Paged } from './types.js';

export interface InsightsPanelProps extends Omit<HTMLAttributes<HTMLElement>, 'children'> {
  /** URL of the host's route that runs `createInsightsHandler`, e.g. `/api/insights`. */
  endpoint: string;
  /** The range shown first. @default the last 30 days, today (UTC) included */
  defaultRange?: InsightsRange;
  /** Today, for the default range. @default () => new Date() */
  now?: () => Date;
  /** @default globalThis.fetch */
  fetch?: Fetch;
  labels?: Partial<InsightsPanelLabels>;
  /** `'system'` follows the reader's colour scheme; without it, a `data-theme` of an ancestor applies. */
  theme?: 'light' | 'dark' | 'system';
  /** Leave out the panel's own stylesheet (style it yourself through the `data-*` attributes). */
  unstyled?: boolean;
  /**
   * The nonce of the page's Content-Security-Policy, put on the panel's `<style>`: a policy whose
   * `style-src` lists `'nonce-…'` and not `'unsafe-inline'` refuses the stylesheet without it.
   */
  nonce?: string;
}

/** Days in the default range. */
const DEFAULT_DAYS = 30;

type LoadState =
  | { status: 'loading' }
  | { status: 'ready'; data: InsightsData }
  | { status: 'error'; message: string };
type ConversationList = { page: Paged<ConversationRow>; busy: boolean; error?: string };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Everything of a range, loaded again when the range changes or on Retry. */
function useRangeData(fetcher: Fetch, endpoint: string, range: InsightsRange, filter: ConversationFilter) {
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [list, setList] = useState<ConversationList>();
  const latest = useRef({ fetcher, filter });
  latest.current = { fetcher, filter };
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt loads again
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    loadInsights(latest.current.fetcher, endpoint, range, latest.current.filter, controller.signal).then(
      (data) => {
        setState({ status: 'ready', data });
        setList({ page: data.conversations, busy: false });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', message: messageOf(error) });
      },
    );
    return () => controller.abort();
  }, [endpoint, range.from, range.to, attempt]);
  return { state, list, setList, retry: () => setAttempt((n) => n + 1) };
}

/** The conversation list's filter and its next page, each loaded on its own. */
function useConversationList(
  fetcher: Fetch,
  endpoint: string,
  range: InsightsRange,
  setList: (update: (list: ConversationList | undefined) => ConversationList | undefined) => void,
) {
  const [filter, setFilter] = useState<ConversationFilter>({});
  const request = useRef<AbortController>(undefined);
  useEffect(() => () => request.current?.abort(), []);
  const load = (next: ConversationFilter, cursor?: string) => {
    request.current?.abort();
    const controller = new AbortController();
    request.current = controller;
    setList((list) => list && { ...list, busy: true, error: undefined });
    loadConversations(fetcher, endpoint, range, next, cursor, controller.signal).then(
      (page) =>
        setList((list) => ({
          page: cursor && list ? { items: [...list.page.items, ...page.items], next: page.next } : page,
          busy: false,
        })),
      (error: unknown) => {
        if (!controller.signal.aborted)
          setList((list) => list && { ...list, busy: false, error: messageOf(error) });
      },
    );
  };
  return { filter, setFilter, load };
}

/** The transcript open, if any, and the row to give focus back to. */
function useTranscript(fetcher: Fetch, endpoint: string) {
  const [open, setOpen] = useState<{ threadId: string; state: TranscriptState; attempt: number }>();
  const back = useRef<string>(undefined);
  const threadId = open?.threadId;
  const attempt = open?.attempt;
  // biome-ignore lint/correctness/useExhaustiveDependencies: loads when the thread or the attempt changes
  useEffect(() => {
    if (!threadId) return;
    const controller = new AbortController();
    const settle = (state: TranscriptState) =>
      setOpen((current) => (current?.threadId === threadId ? { ...current, state } : current));
    loadTranscript(fetcher, endpoint, threadId, controller.signal).then(
      (transcript) => settle({ status: 'ready', transcript }),
      (error: unknown) => {
        if (!controller.signal.aborted) settle({ status: 'error', message: messageOf(error) });
      },
    );
    return () => controller.abort();
  }, [threadId, attempt, endpoint]);
  return {
    open,
    show: (id: string) => setOpen({ threadId: id, state: { status: 'loading' }, attempt: 0 }),
    retry: () =>
      setOpen(
        (current) => current && { ...current, state: { status: 'loading' }, attempt: current.attempt + 1 },
      ),
    close: () => {
      back.current = threadId;
      setOpen(undefined);
    },
    back,
  };
}

export function InsightsPanel(props: InsightsPanelProps) {
  const { endpoint, defaultRange, now, fetch, labels: labelsProp, theme, unstyled, nonce, ...rest } = props;
  const labels = useMemo(() => ({ ...defaultInsightsLabels, ...labelsProp }), [labelsProp]);
  const fetcher: Fetch = fetch ?? globalFetch;
  const [range, setRange] = useState(() => defaultRange ?? lastDays(now ? now() : new Date(), DEFAULT_DAYS));
  const conversations = useConversationList(fetcher, endpoint, range, (update) => data.setList(update));
  const data = useRangeData(fetcher, endpoint, range, conversations.filter);
  const transcript = useTranscript(fetcher, endpoint);
  const root = useRef<HTMLElement>(null);
  const titleId = useId();
  // Back from a transcript: focus returns to the row's button that opened it.
  useEffect(() => {
    if (transcript.open || !transcript.back.current) return;
    root.current
      ?.querySelector<HTMLElement>(`[data-thread-id="${CSS.escape(transcript.back.current)}"]`)
      ?.focus();
    transcript.back.current = undefined;
  });
  return (
    <section {...rest} ref={root} data-docs-assistant="insights" data-theme={theme} aria-labelledby={titleId}>
      {unstyled ? null : <style nonce={nonce}>{INSIGHTS_CSS}</style>}
      <h2 id={titleId}>{labels.title}</h2>
      <RangeForm range={range} onChange={setRange} labels={labels} />
      <p role="status">{data.state.status === 'loading' ? labels.loading : ''}</p>
      {data.state.status === 'error' ? (
        <div role="alert">
          <p>{labels.failed(data.state.message)}</p>
          <button type="button" data-action="retry" onClick={data.retry}>
            {labels.retry}
          </button>
        </div>
      ) : null}
      {data.state.status === 'ready' ? (
        <>
          <Overview data={data.state.data} labels={labels} />
          {transcript.open ? (
            <TranscriptView
              state={transcript.open.state}
              onBack={transcript.close}
              onRetry={transcript.retry}
              labels={labels}
            />
          ) : data.list ? (
            <ConversationsPart
              list={data.list}
              conversations={conversations}
              onOpen={transcript.show}
              labels={labels}
            />
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function ConversationsPart({
  list,
  conversations,
  onOpen,
  labels,
}: {
  list: ConversationList;
  conversations: ReturnType<typeof useConversationList>;
  onOpen: (threadId: string) => void;
  labels: InsightsPanelLabels;
}) {
  return (
    <>
      <Conversations
        page={list.page}
        filter={conversations.filter}
        onFilter={(next) => {
          conversations.setFilter(next);
          conversations.load(next);
        }}
        onMore={() => conversations.load(conversations.filter, list.page.next ?? undefined)}
        busy={list.busy}
        onOpen={onOpen}
        labels={labels}
      />
      {list.error ? <p role="alert">{labels.failed(list.error)}</p> : null}
    </>
  );
}

/** The range's figures, charts and tables (all but the conversations). */
function Overview({ data, labels }: { data: InsightsData; labels: InsightsPanelLabels }) {
  const { stats } = data;
  return (
    <>
      {stats.totals.questions === 0 ? (
        <p data-insights="empty">{labels.empty(stats.from, stats.to)}</p>
      ) : null}
      <Totals stats={stats} labels={labels} />
      <section data-insights="trends" aria-label={labels.trends}>
        <Trends stats={stats} labels={labels} />
      </section>
      <div data-insights="tables">
        <DashboardSections data={data} labels={labels} />
      </div>
    </>
  );
}

/** Two dates and Show: the range changes on submit, not at every keystroke in a date field. */
function RangeForm({
  range,
  onChange,
  labels,
}: {
  range: InsightsRange;
  onChange: (range: InsightsRange) => void;
  labels: InsightsPanelLabels;
}) {
  const [draft, setDraft] = useState(range);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft.from || !draft.to) return;
    // A range given backwards is meant forwards.
    onChange(draft.from <= draft.to ? draft : { from: draft.to, to: draft.from });
  };
  return (
    <form data-insights="range" onSubmit={submit}>
      <label>
        {labels.from}
        <input
          type="date"
          value={draft.from}
          onChange={(e) => setDraft({ ...draft, from: e.target.value })}
        />
      </label>
      <label>
        {labels.to}
        <input type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
      </label>
      <button type="submit">{labels.apply}</button>
    </form>
  );
}
