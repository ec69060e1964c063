/**
 * The figures owners act on, from insights' roll-ups (`storage/insights.ts`): totals and daily
 * series from the daily rows, distinct readers, languages, top questions and coverage gaps grouped
 * by meaning (`groupForms`), searches, pages, and conversations with their transcripts. Every read
 * is over per-day rows or one indexed range, so a million recorded questions answer as fast as a
 * thousand.
 */
import type { DocsIndex } from '../retrieval/index.js';
import { dayOf, type InsightReads, type InsightSource, shortestExample } from '../storage/insights.js';
import type { InsightsStorage } from '../storage/types.js';
import { type FormCount, groupForms } from './text.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Forms read for grouping: the most asked (or most uncertain) ones of the range. */
const MAX_FORMS = 5000;
const EXAMPLES = 3;
const GROUP_PAGES = 3;

/** An inclusive range of UTC days. */
export interface DayRange {
  from: string;
  to: string;
}

export interface Page {
  limit: number;
  /** Items to skip (from the cursor). */
  offset: number;
}

const num = (value: unknown): number => Number(value ?? 0);
const share = (part: number, whole: number): number | null => (whole ? part / whole : null);

/** Every day of the range, in order. */
export function daysOf(range: DayRange): string[] {
  const days: string[] = [];
  for (let t = Date.parse(range.from); t <= Date.parse(range.to); t += DAY_MS) days.push(dayOf(t));
  return days;
}

/** A short stable id of a text (FNV-1a, hex): a group's id from its leading form. */
export function textId(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0');
}

const DAILY_FIELDS = {
  questions: 'questions',
  conversations: 'conversations',
  searches: 'searches',
  agentCalls: 'agent_calls',
  uncertain: 'uncertain',
  up: 'up',
  down: 'down',
} as const;

export async function stats(storage: InsightsStorage, domain: string, range: DayRange) {
  return storage.readInsights(async (reads) => {
    const rows = new Map(
      (await reads.daily(domain, range.from, range.to)).map((row) => [String(row.day), row]),
    );
    const readers = await reads.readers(domain, range.from, range.to);
    const readersByDay = new Map(readers.daily.map((row) => [String(row.day), num(row.n)]));
    const daily = daysOf(range).map((date) => {
      const row = rows.get(date);
      const entry: Record<string, number | string> = { date, readers: readersByDay.get(date) ?? 0 };
      for (const [name, column] of Object.entries(DAILY_FIELDS)) entry[name] = num(row?.[column]);
      return entry as { date: string; readers: number } & Record<keyof typeof DAILY_FIELDS, number>;
    });
    const totals = {
      questions: 0,
      conversations: 0,
      readers: readers.total,
      searches: 0,
      agentCalls: 0,
      uncertain: 0,
      up: 0,
      down: 0,
    };
    for (const day of daily)
      for (const name of Object.keys(DAILY_FIELDS) as Array<keyof typeof DAILY_FIELDS>)
        totals[name] += day[name];
    const languages = (await reads.counts(domain, 'language', range.from, range.to, 100)).map((row) => ({
      language: String(row.key) || null,
      questions: num(row.n),
    }));
    return {
      ...range,
      totals,
      uncertainShare: share(totals.uncertain, totals.questions),
      satisfaction: share(totals.up, totals.up + totals.down),
      languages,
      daily: daily.map(
        ({ date, questions, conversations, readers: r, searches, agentCalls, uncertain, up, down }) => ({
          date,
          questions,
          conversations,
          readers: r,
          searches,
          agentCalls,
          uncertain,
          up,
          down,
        }),
      ),
    };
  });
}

interface FormRow extends FormCount {
  questions: number;
  uncertain: number;
  up: number;
  down: number;
  example: string | null;
  path: string | null;
}

async function readForms(
  reads: InsightReads,
  domain: string,
  range: DayRange,
  uncertain: boolean,
): Promise<FormRow[]> {
  const rows = await reads.forms(domain, range.from, range.to, { uncertain, limit: MAX_FORMS });
  return rows.map((row) => ({
    form: String(row.form),
    questions: num(row.questions),
    uncertain: num(row.uncertain),
    up: num(row.up),
    down: num(row.down),
    count: num(uncertain ? row.uncertain : row.questions),
    example: shortestExample(row.example),
    path: row.path === null || row.path === undefined ? null : String(row.path),
  }));
}

const titleOf = (index: DocsIndex | undefined, path: string): string => index?.page(path)?.title ?? path;

function examplesOf(members: FormRow[]): string[] {
  const seen = new Map<string, string>();
  for (const member of members) {
    if (member.example && !seen.has(member.example.toLowerCase()))
      seen.set(member.example.toLowerCase(), member.example);
    if (seen.size >= EXAMPLES) break;
  }
  return [...seen.values()];
}

/** A group's label: its shortest example (the plainest wording), else its leading form's terms. */
function labelOf(lead: FormRow, members: FormRow[]): string {
  let label: string | null = null;
  for (const member of members)
    if (member.example && (!label || member.example.length < label.length)) label = member.example;
  return label ?? lead.example ?? lead.form;
}

const paged = <T>(items: T[], page: Page) => ({
  items: items.slice(page.offset, page.offset + page.limit),
  next: page.offset + page.limit < items.length ? encodeCursor({ o: page.offset + page.limit }) : null,
});

/** Top questions grouped by meaning, largest first. */
export async function questionGroups(
  storage: InsightsStorage,
  index: DocsIndex | undefined,
  domain: string,
  range: DayRange,
  page: Page,
) {
  const forms = await storage.readInsights((reads) => readForms(reads, domain, range, false));
  const groups = groupForms(forms).map(({ lead, members }) => {
    const sum = (name: 'questions' | 'uncertain' | 'up' | 'down') => members.reduce((n, m) => n + m[name], 0);
    const pages = new Map<string, number>();
    for (const member of members)
      if (member.path) pages.set(member.path, (pages.get(member.path) ?? 0) + member.questions);
    return {
      id: textId(lead.form),
      label: labelOf(lead, members),
      questions: sum('questions'),
      uncertain: sum('uncertain'),
      up: sum('up'),
      down: sum('down'),
      examples: examplesOf(members),
      pages: [...pages]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, GROUP_PAGES)
        .map(([path, count]) => ({ path, title: titleOf(index, path), count })),
    };
  });
  const { items, next } = paged(groups, page);
  return { groups: items, next };
}

/** Coverage gaps: groups of uncertain or down-voted questions, largest first, with the closest page. */
export async function gaps(
  storage: InsightsStorage,
  index: DocsIndex | undefined,
  domain: string,
  range: DayRange,
  page: Page,
) {
  const forms = await storage.readInsights((reads) => readForms(reads, domain, range, true));
  const groups = groupForms(forms);
  const { items, next } = paged(groups, page);
  return {
    gaps: items.map(({ lead, members, count }) => {
      const label = labelOf(lead, members);
      const best = index?.query({ question: label || lead.form, limit: 1 }).hits[0];
      return {
        id: textId(lead.form),
        label,
        questions: count,
        examples: examplesOf(members),
        closest: best
          ? {
              path: best.section.pagePath,
              title: best.section.pageTitle,
              score: Math.round(best.score * 1000) / 1000,
            }
          : null,
      };
    }),
    next,
  };
}

/** Searches: totals, the most frequent queries with their clicks, and those that found nothing. */
export async function searchReport(storage: InsightsStorage, domain: string, range: DayRange, limit: number) {
  return storage.readInsights(async (reads) => {
    const days = await reads.daily(domain, range.from, range.to);
    const total = (column: string) => days.reduce((n, row) => n + num(row[column]), 0);
    const searches = total('searches');
    const clicks = total('search_clicks');
    const clicked = new Map(
      (await reads.counts(domain, 'search_click', range.from, range.to, 10_000)).map((row) => [
        String(row.key),
        num(row.n),
      ]),
    );
    const top = await reads.counts(domain, 'search', range.from, range.to, limit);
    const none = await reads.counts(domain, 'search_none', range.from, range.to, limit);
    return {
      totals: { searches, noResults: total('no_results'), clicks, clickThrough: share(clicks, searches) },
      top: top.map((row) => ({
        query: String(row.key),
        searches: num(row.n),
        clicks: clicked.get(String(row.key)) ?? 0,
      })),
      noResults: none.map((row) => ({ query: String(row.key), searches: num(row.n) })),
    };
  });
}

/** Pages: most cited (with the votes on answers citing them), most down-voted, and where readers asked. */
export async function pagesReport(
  storage: InsightsStorage,
  index: DocsIndex | undefined,
  domain: string,
  range: DayRange,
  limit: number,
) {
  return storage.readInsights(async (reads) => {
    const counted = async (dim: string, n: number) =>
      new Map(
        (await reads.counts(domain, dim, range.from, range.to, n)).map((row) => [
          String(row.key),
          num(row.n),
        ]),
      );
    const up = await counted('cited_up', 10_000);
    const down = await counted('cited_down', 10_000);
    const cited = await counted('cited', limit);
    const downVoted = [...down].filter(([, n]) => n > 0).slice(0, limit);
    const asked = await counted('asked', limit);
    return {
      cited: [...cited].map(([path, citations]) => ({
        path,
        title: titleOf(index, path),
        citations,
        up: up.get(path) ?? 0,
        down: down.get(path) ?? 0,
      })),
      downVoted: downVoted.map(([path, n]) => ({
        path,
        title: titleOf(index, path),
        down: n,
        up: up.get(path) ?? 0,
      })),
      asked: [...asked].map(([currentPath, questions]) => ({ currentPath, questions })),
    };
  });
}

export function encodeCursor(value: Record<string, unknown>): string {
  return btoa(JSON.stringify(value)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The cursor's value, or undefined when it is not one of ours. */
export function decodeCursor(cursor: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(atob(cursor.replaceAll('-', '+').replaceAll('_', '/'))) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const voteOf = (row: Record<string, unknown>): 'up' | 'down' | null =>
  num(row.down) > 0 ? 'down' : num(row.up) > 0 ? 'up' : null;

export async function conversations(
  storage: InsightsStorage,
  domain: string,
  range: DayRange,
  options: { limit: number; uncertain: boolean; down: boolean; after?: { started: number; id: string } },
) {
  const fromMs = Date.parse(range.from);
  const toMs = Date.parse(range.to) + DAY_MS;
  const rows = await storage.readInsights((reads) =>
    reads.conversations(domain, { fromMs, toMs }, { ...options, limit: options.limit + 1 }),
  );
  const items = rows.slice(0, options.limit).map((row) => ({
    threadId: String(row.thread_id),
    startedAt: new Date(num(row.started_at)).toISOString(),
    questions: num(row.questions),
    uncertain: num(row.uncertain),
    vote: voteOf(row),
    first: row.first === null || row.first === undefined ? null : String(row.first),
    language: row.language === null || row.language === undefined ? null : String(row.language),
  }));
  const last = rows[options.limit - 1];
  return {
    conversations: items,
    next:
      rows.length > options.limit && last
        ? encodeCursor({ s: num(last.started_at), i: String(last.thread_id) })
        : null,
  };
}

export async function transcript(storage: InsightsStorage, domain: string, threadId: string) {
  const { thread, questions } = await storage.readInsights((reads) => reads.conversation(domain, threadId));
  if (!thread) return undefined;
  const textOf = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    threadId,
    startedAt: new Date(num(thread.started_at)).toISOString(),
    messages: questions.flatMap((row) => {
      const at = new Date(num(row.at)).toISOString();
      const vote = row.vote === 'up' || row.vote === 'down' ? row.vote : null;
      return [
        { role: 'user' as const, text: textOf(row.text), at, sources: [], uncertain: false, vote: null },
        {
          role: 'assistant' as const,
          text: textOf(row.answer),
          at,
          sources: JSON.parse(String(row.sources)) as InsightSource[],
          uncertain: num(row.uncertain) > 0,
          vote,
        },
      ];
    }),
  };
}
