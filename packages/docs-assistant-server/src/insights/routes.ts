/**
 * Insights over HTTP (docs/insights.md): the owner's API under `/discovery/v1/insights/{domain}`
 * (admin key, no CORS, JSON or `?format=csv`); the reader's beacon is in `beacon.ts`. With insights
 * off every route answers 404 `insights_off`.
 */
import type { ValidationProblem } from 'docs-assistant/protocol';
import type { Context } from 'hono';
import type { AssistantRuntime } from '../assistant.js';
import { csvField } from '../discovery/feedback.js';
import {
  adminWrongMethod,
  HttpError,
  listFormat,
  listLimit,
  ownerAdmission,
  RouteFamily,
  type ServiceEnv,
  throwIfInvalidQuery,
} from '../http/index.js';
import { dayOf } from '../storage/insights.js';
import {
  conversations,
  type DayRange,
  decodeCursor,
  gaps,
  pagesReport,
  questionGroups,
  searchReport,
  stats,
  transcript,
} from './compute.js';
import type { InsightsRecorder } from './record.js';

export const INSIGHTS_ROUTE = '/discovery/v1/insights/:domain';
/** What `/health` lists while insights are recorded (the widget sends its beacon only then). */
export const INSIGHTS_CAPABILITY = 'insights';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Days of the default range (today included). */
const DEFAULT_DAYS = 30;
/** Longest range read at once. */
const MAX_RANGE_DAYS = 3660;
const MAX_LIMIT = 1000;
const DEFAULT_LIMIT = 50;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

interface ListQuery {
  range: DayRange;
  limit: number;
  cursor: Record<string, unknown> | undefined;
  csv: boolean;
}

function readQuery(c: Context): ListQuery {
  const problems: ValidationProblem[] = [];
  const today = dayOf(Date.now());
  const day = (name: 'from' | 'to', fallback: string): string => {
    const value = c.req.query(name);
    if (value === undefined) return fallback;
    if (!DAY.test(value) || Number.isNaN(Date.parse(value)) || dayOf(Date.parse(value)) !== value) {
      problems.push({
        path: name,
        message: `must be a UTC day as YYYY-MM-DD, e.g. ${today} (got "${value}")`,
      });
    }
    return value;
  };
  const to = day('to', today);
  const from = day('from', dayOf((DAY.test(to) ? Date.parse(to) : Date.now()) - (DEFAULT_DAYS - 1) * DAY_MS));
  if (!problems.length && from > to) problems.push({ path: 'from', message: `must not be after to (${to})` });
  if (!problems.length && (Date.parse(to) - Date.parse(from)) / DAY_MS >= MAX_RANGE_DAYS) {
    problems.push({
      path: 'from',
      message: `the range may span at most ${MAX_RANGE_DAYS} days; narrow from/to`,
    });
  }
  const limit = listLimit(c.req.query('limit'), DEFAULT_LIMIT, MAX_LIMIT, problems);
  const cursorText = c.req.query('cursor');
  const cursor = cursorText ? decodeCursor(cursorText) : undefined;
  if (cursorText && !cursor)
    problems.push({
      path: 'cursor',
      message: 'is not a cursor of this API; pass the `next` of the previous page',
    });
  const format = listFormat(c.req.query('format'), problems);
  throwIfInvalidQuery(problems);
  return { range: { from, to }, limit, cursor, csv: format === 'csv' };
}

const offsetOf = (query: ListQuery): number => {
  const offset = Number(query.cursor?.o ?? 0);
  return Number.isInteger(offset) && offset >= 0 ? offset : 0;
};

/** A CSV of `rows` under a header of `columns`; arrays are joined with ` | `. */
export function toCsv(columns: string[], rows: Array<Record<string, unknown>>): string {
  const cell = (value: unknown): string =>
    csvField(
      value === null || value === undefined
        ? ''
        : Array.isArray(value)
          ? value
              .map((v) => (typeof v === 'object' ? String((v as { path?: unknown }).path ?? '') : String(v)))
              .join(' | ')
          : typeof value === 'object'
            ? String((value as { path?: unknown }).path ?? '')
            : String(value),
    );
  return `${[columns.join(','), ...rows.map((row) => columns.map((column) => cell(row[column])).join(','))].join('\r\n')}\r\n`;
}

/** The JSON body, or with `?format=csv` the table of its rows (made only then) as a download. */
function answer(
  c: Context<ServiceEnv>,
  query: ListQuery,
  body: unknown,
  csv: Read<unknown>['csv'],
): Response {
  const headers = { 'Cache-Control': 'no-store' };
  if (query.csv) {
    const domain = c.get('domain').domain.replace(/[^\w.-]/g, '_');
    return new Response(toCsv(csv.columns, csv.rows(body)), {
      headers: {
        ...headers,
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="insights-${csv.name}-${domain}.csv"`,
      },
    });
  }
  return new Response(JSON.stringify(body), {
    headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' },
  });
}

/** The index of a domain for page titles and closest pages; the figures do not wait on a failed load. */
const indexOf = (runtime: AssistantRuntime, domain: string) => runtime.index(domain).catch(() => undefined);

/** The columns of the daily series (`/stats`' CSV and the command's table). */
export const DAILY_COLUMNS = [
  'date',
  'questions',
  'conversations',
  'readers',
  'searches',
  'agentCalls',
  'uncertain',
  'up',
  'down',
];

/** What a read gets: the checked query, the domain, where the figures are, the page asked for. */
interface ReadInput {
  c: Context<ServiceEnv>;
  query: ListQuery;
  domain: string;
  storage: InsightsRecorder['storage'];
  page: { limit: number; offset: number };
  /** The domain's search index (page titles, closest pages), loaded only by the reads that need it. */
  index: () => ReturnType<typeof indexOf>;
}

/** One route of the API: its body, and the table its `?format=csv` gives. */
interface Read<B> {
  path: string;
  what: string;
  read: (input: ReadInput) => Promise<B>;
  csv: { name: string; columns: string[]; rows: (body: B) => Array<Record<string, unknown>> };
}

/** Keeps a read's body type between `read` and `csv.rows` while the list holds reads of any body. */
const route = <B>(read: Read<B>) => read as Read<unknown>;

/** The reads of question groups (all questions, or the uncertain ones as gaps): one page of groups. */
const grouped =
  <B>(groups: (...args: Parameters<typeof gaps>) => Promise<B>) =>
  async ({ storage, domain, query, page, index }: ReadInput): Promise<B> =>
    groups(storage, await index(), domain, query.range, page);
const readQuestions = grouped(questionGroups);
const readGaps = grouped(gaps);

const READS: Array<Read<unknown>> = [
  route({
    path: '/stats',
    what: 'daily figures and totals',
    read: ({ storage, domain, query }) => stats(storage, domain, query.range),
    csv: { name: 'stats', columns: DAILY_COLUMNS, rows: (body) => body.daily },
  }),
  route({
    path: '/questions',
    what: 'top questions grouped by meaning',
    read: readQuestions,
    csv: {
      name: 'questions',
      columns: ['id', 'label', 'questions', 'uncertain', 'up', 'down', 'examples', 'pages'],
      rows: (body) => body.groups,
    },
  }),
  route({
    path: '/gaps',
    what: 'coverage gaps',
    read: readGaps,
    csv: {
      name: 'gaps',
      columns: ['id', 'label', 'questions', 'examples', 'closest', 'closestTitle', 'closestScore'],
      rows: (body) =>
        body.gaps.map((gap) => ({
          ...gap,
          closest: gap.closest?.path,
          closestTitle: gap.closest?.title,
          closestScore: gap.closest?.score,
        })),
    },
  }),
  route({
    path: '/search',
    what: 'search figures',
    read: ({ storage, domain, query }) => searchReport(storage, domain, query.range, query.limit),
    csv: {
      name: 'search',
      columns: ['list', 'query', 'searches', 'clicks'],
      rows: (body) => [
        ...body.top.map((row) => ({ list: 'top', ...row })),
        ...body.noResults.map((row) => ({ list: 'noResults', ...row })),
      ],
    },
  }),
  route({
    path: '/pages',
    what: 'pages cited, down-voted and asked from',
    read: async ({ storage, domain, query, index }) =>
      pagesReport(storage, await index(), domain, query.range, query.limit),
    csv: {
      name: 'pages',
      columns: ['list', 'path', 'title', 'citations', 'up', 'down', 'questions'],
      rows: (body) => [
        ...body.cited.map((row) => ({ list: 'cited', ...row })),
        ...body.downVoted.map((row) => ({ list: 'downVoted', ...row })),
        ...body.asked.map((row) => ({ list: 'asked', path: row.currentPath, questions: row.questions })),
      ],
    },
  }),
  route({
    path: '/conversations',
    what: 'conversations',
    read: ({ c, storage, domain, query }) => {
      const { s, i } = query.cursor ?? {};
      return conversations(storage, domain, query.range, {
        limit: query.limit,
        uncertain: c.req.query('uncertain') === '1',
        down: c.req.query('vote') === 'down',
        ...(typeof s === 'number' && typeof i === 'string' ? { after: { started: s, id: i } } : {}),
      });
    },
    csv: {
      name: 'conversations',
      columns: ['threadId', 'startedAt', 'questions', 'uncertain', 'vote', 'first', 'language'],
      rows: (body) => body.conversations,
    },
  }),
  route({
    path: '/conversations/:threadId',
    what: 'one conversation',
    read: async ({ c, storage, domain }) => {
      const threadId = c.req.param('threadId') ?? '';
      const body = await transcript(storage, domain, threadId);
      if (!body)
        throw new HttpError(404, 'not_found', `No recorded conversation "${threadId}" on this domain.`);
      return body;
    },
    csv: {
      name: 'conversation',
      columns: ['role', 'text', 'at', 'sources', 'uncertain', 'vote'],
      rows: (body) => body.messages,
    },
  }),
];

/** Every read the same way: the query checked once, the body read, as JSON or as its CSV table. */
async function handleRead(
  c: Context<ServiceEnv>,
  on: InsightsRecorder,
  runtime: AssistantRuntime,
  { read, csv }: Read<unknown>,
): Promise<Response> {
  const query = readQuery(c);
  const domain = c.get('domain').domain;
  const body = await read({
    c,
    query,
    domain,
    storage: on.storage,
    page: { limit: query.limit, offset: offsetOf(query) },
    index: () => indexOf(runtime, domain),
  });
  return answer(c, query, body, csv);
}

/** The 404 of every insights route while recording is off (`serve --insights off`). */
export const insightsOff = (): Response =>
  new Response(
    JSON.stringify({
      error:
        'Insights are off on this service (serve --insights off): nothing is recorded and there is nothing to read.',
      code: 'insights_off',
    }),
    { status: 404, headers: { 'Content-Type': 'application/json; charset=utf-8' } },
  );

/** The owner's API: admin key, no CORS (like the feedback list). */
export function insightsRoutes(runtime: AssistantRuntime): RouteFamily {
  const on = runtime.insights;
  const family = new RouteFamily({ cors: 'none', wrongMethod: adminWrongMethod });
  const admit = ownerAdmission(runtime, 'insights need');
  for (const read of READS) {
    family.get(
      `${INSIGHTS_ROUTE}${read.path}`,
      `Use GET ${INSIGHTS_ROUTE.replace(':domain', '{domain}')}${read.path} to read the ${read.what}.`,
      async (_c, next) => (on ? next() : insightsOff()),
      admit,
      (c) => handleRead(c, on as InsightsRecorder, runtime, read),
    );
  }
  return family;
}
