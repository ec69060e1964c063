/**
 * The panel's requests to the host's route (`createInsightsHandler`): every list of one date range
 * at once, a page of conversations, one transcript. Answers are checked for the fields the panel
 * reads, so a wrong route (an HTML page, another API) is a clear error instead of a broken table.
 */
import { readErrorBody } from '../protocol/error-body.js';
import { isRecord } from '../protocol/search-results.js';
import type {
  ConversationRow,
  CoverageGap,
  InsightsStats,
  Paged,
  PageInsights,
  QuestionGroup,
  SearchInsights,
  Transcript,
} from './types.js';

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** A date range, `YYYY-MM-DD` in UTC, both days included. */
export interface InsightsRange {
  from: string;
  to: string;
}

/** Which conversations the list shows. */
export interface ConversationFilter {
  uncertain?: boolean;
  down?: boolean;
}

/** Everything the panel shows for a range. */
export interface InsightsData {
  stats: InsightsStats;
  questions: QuestionGroup[];
  gaps: CoverageGap[];
  search: SearchInsights;
  pages: PageInsights;
  conversations: Paged<ConversationRow>;
}

/** Rows asked of each list. */
export const ROWS = 10;

/** The URL of a route under the host's endpoint, with its query. */
export function insightsUrl(
  endpoint: string,
  route: string,
  query: Record<string, string | undefined>,
): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, value);
  const search = params.toString();
  return `${endpoint.replace(/\/+$/, '')}/${route}${search ? `?${search}` : ''}`;
}

/** The JSON of a route, or an error whose message says what went wrong. */
async function getJson<T>(
  fetcher: Fetch,
  url: string,
  check: (data: Record<string, unknown>) => boolean,
  signal?: AbortSignal,
): Promise<T> {
  let response: Response;
  try {
    response = await fetcher(url, { headers: { Accept: 'application/json' }, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new Error('the insights route could not be reached');
  }
  let data: unknown;
  try {
    data = await response.json();
  } catch {
    throw new Error(`the insights route answered ${response.status} without JSON`);
  }
  if (!response.ok) {
    throw new Error(readErrorBody(data)?.message ?? `the insights route answered ${response.status}`);
  }
  if (!isRecord(data) || !check(data)) throw new Error('the insights route answered an unexpected shape');
  return data as T;
}

const arrays =
  (...names: string[]) =>
  (data: Record<string, unknown>) =>
    names.every((name) => Array.isArray(data[name]));

const isStats = (data: Record<string, unknown>) =>
  isRecord(data.totals) && arrays('daily', 'languages')(data);

/** A page of conversations (`cursor` for the next one). */
export function loadConversations(
  fetcher: Fetch,
  endpoint: string,
  range: InsightsRange,
  filter: ConversationFilter,
  cursor?: string,
  signal?: AbortSignal,
): Promise<Paged<ConversationRow>> {
  const url = insightsUrl(endpoint, 'conversations', {
    ...range,
    limit: String(ROWS),
    cursor,
    uncertain: filter.uncertain ? '1' : undefined,
    vote: filter.down ? 'down' : undefined,
  });
  return getJson<{ conversations: ConversationRow[]; next?: string | null }>(
    fetcher,
    url,
    arrays('conversations'),
    signal,
  ).then((page) => ({ items: page.conversations, next: page.next ?? null }));
}

/** Every list of a range, asked at once. */
export async function loadInsights(
  fetcher: Fetch,
  endpoint: string,
  range: InsightsRange,
  filter: ConversationFilter,
  signal?: AbortSignal,
): Promise<InsightsData> {
  const list = { ...range, limit: String(ROWS) };
  const get = <T>(
    route: string,
    check: (data: Record<string, unknown>) => boolean,
    query: Record<string, string> = list,
  ) => getJson<T>(fetcher, insightsUrl(endpoint, route, query), check, signal);
  const [stats, questions, gaps, search, pages, conversations] = await Promise.all([
    get<InsightsStats>('stats', isStats, { from: range.from, to: range.to }),
    get<{ groups: QuestionGroup[] }>('questions', arrays('groups')),
    get<{ gaps: CoverageGap[] }>('gaps', arrays('gaps')),
    get<SearchInsights>('search', (data) => isRecord(data.totals) && arrays('top', 'noResults')(data)),
    get<PageInsights>('pages', arrays('cited', 'downVoted', 'asked')),
    loadConversations(fetcher, endpoint, range, filter, undefined, signal),
  ]);
  return { stats, questions: questions.groups, gaps: gaps.gaps, search, pages, conversations };
}

/** One conversation, every message. */
export function loadTranscript(
  fetcher: Fetch,
  endpoint: string,
  threadId: string,
  signal?: AbortSignal,
): Promise<Transcript> {
  return getJson<Transcript>(
    fetcher,
    insightsUrl(endpoint, `conversations/${encodeURIComponent(threadId)}`, {}),
    arrays('messages'),
    signal,
  );
}

/** The last `days` days up to `today` (UTC), both included. */
export function lastDays(today: Date, days: number): InsightsRange {
  const day = (date: Date) => date.toISOString().slice(0, 10);
  return { from: day(new Date(today.getTime() - (days - 1) * 86_400_000)), to: day(today) };
}
