/**
 * A `fetch` for `<InsightsPanel>` stories that answers as the host's `createInsightsHandler` route
 * does, with contract-shaped JSON (docs/insights.md): a month of a docs site's traffic, made from a
 * fixed seed so every picture is the same, an empty month, a failing route, or one that never
 * answers. The real handler needs the reference service, which needs Node; the tests run that
 * chain (tests/insights/).
 */
import type {
  ConversationRow,
  CoverageGap,
  InsightsDay,
  InsightsStats,
  PageInsights,
  QuestionGroup,
  SearchInsights,
  Transcript,
} from '../../packages/docs-assistant/src/insights/types';

export const STORY_RANGE = { from: '2026-11-07', to: '2026-12-06' };

/** The days of the story's range. */
function days(): string[] {
  const out: string[] = [];
  for (let t = Date.parse(STORY_RANGE.from); t <= Date.parse(STORY_RANGE.to); t += 86_400_000) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

/** A day's traffic: weekdays busier, a release on the 20th, fewer uncertain answers after the docs fix on the 25th. */
function day(date: string, i: number): InsightsDay {
  const weekday = new Date(date).getUTCDay() % 6 !== 0;
  const questions = (weekday ? 60 : 25) + ((i * 37) % 17) + (date === '2026-11-20' ? 55 : 0);
  const uncertain = Math.round(questions * (date < '2026-11-25' ? 0.22 : 0.09) + (i % 3));
  const votes = Math.round(questions / 6);
  const down = Math.round(votes * (date < '2026-11-25' ? 0.35 : 0.15));
  return {
    date,
    questions,
    conversations: Math.round(questions * 0.7),
    readers: Math.round(questions * 0.55),
    searches: questions * 2 + (i % 5),
    agentCalls: 8 + (i % 4),
    uncertain,
    up: votes - down,
    down,
  };
}

function stats(empty: boolean): InsightsStats {
  const daily = days().map((date, i) => (empty ? { ...day(date, i), ...zero } : day(date, i)));
  const sum = (key: keyof Omit<InsightsDay, 'date'>) => daily.reduce((total, d) => total + d[key], 0);
  const totals = {
    questions: sum('questions'),
    conversations: sum('conversations'),
    readers: Math.round(sum('readers') * 0.6),
    searches: sum('searches'),
    agentCalls: sum('agentCalls'),
    uncertain: sum('uncertain'),
    up: sum('up'),
    down: sum('down'),
  };
  return {
    ...STORY_RANGE,
    totals,
    uncertainShare: totals.questions ? totals.uncertain / totals.questions : null,
    satisfaction: totals.up + totals.down ? totals.up / (totals.up + totals.down) : null,
    languages: empty
      ? []
      : [
          { language: 'en', questions: totals.questions - 140 },
          { language: 'de', questions: 140 },
        ],
    daily,
  };
}

const zero = {
  questions: 0,
  conversations: 0,
  readers: 0,
  searches: 0,
  agentCalls: 0,
  uncertain: 0,
  up: 0,
  down: 0,
};

const GROUPS: QuestionGroup[] = [
  group('g1', 'install with npm', 412, 12, 'How do I install the widget with npm?', '/getting-started'),
  group('g2', 'dark theme colours', 233, 9, 'How can I make the assistant dark?', '/guides/theming'),
  group('g3', 'authentication tokens', 187, 31, 'Where do I put the API key?', '/guides/authentication'),
  group('g4', 'rate limits', 96, 22, 'What happens when I hit the rate limit?', '/reference/limits'),
];

function group(
  id: string,
  label: string,
  questions: number,
  uncertain: number,
  example: string,
  path: string,
) {
  return {
    id,
    label,
    questions,
    uncertain,
    up: Math.round(questions / 9),
    down: Math.round(uncertain / 3),
    examples: [example],
    pages: [{ path, title: label, count: questions - uncertain }],
  };
}

const GAPS: CoverageGap[] = [
  {
    id: 'x1',
    label: 'invoices by cheque',
    questions: 64,
    examples: ['Can I pay the invoice with a cheque?'],
    closest: { path: '/reference/billing', title: 'Billing', score: 0.31 },
  },
  {
    id: 'x2',
    label: 'single sign-on with SAML',
    questions: 41,
    examples: ['Does it support SAML SSO?'],
    closest: { path: '/guides/authentication', title: 'Authentication', score: 0.44 },
  },
  {
    id: 'x3',
    label: 'offline mode',
    questions: 17,
    examples: ['Does the assistant work offline?'],
    closest: null,
  },
];

const SEARCH: SearchInsights = {
  totals: { searches: 3912, noResults: 287, clicks: 1804, clickThrough: 0.46 },
  top: [
    { query: 'theme', searches: 311, clicks: 204 },
    { query: 'install', searches: 280, clicks: 190 },
  ],
  noResults: [
    { query: 'saml', searches: 52 },
    { query: 'cheque', searches: 31 },
    { query: 'offline', searches: 12 },
  ],
};

const PAGES: PageInsights = {
  cited: [
    { path: '/getting-started', title: 'Getting started', citations: 640, up: 71, down: 6 },
    { path: '/guides/theming', title: 'Theming', citations: 402, up: 40, down: 9 },
  ],
  downVoted: [{ path: '/guides/authentication', title: 'Authentication', down: 23, up: 17 }],
  asked: [
    { currentPath: '/guides/authentication', questions: 240 },
    { currentPath: '/', questions: 198 },
  ],
};

const CONVERSATIONS: ConversationRow[] = [
  row('thr_a1', '2026-12-06T09:41:00.000Z', 'Can I pay the invoice with a cheque?', 2, 2, 'down', 'en'),
  row('thr_a2', '2026-12-06T08:12:00.000Z', 'How can I make the assistant dark?', 1, 0, 'up', 'en'),
  row('thr_a3', '2026-12-05T17:03:00.000Z', 'Wie installiere ich das Widget?', 3, 0, null, 'de'),
  row('thr_a4', '2026-12-05T11:26:00.000Z', null, 1, 1, null, 'en'),
];

function row(
  threadId: string,
  startedAt: string,
  first: string | null,
  questions: number,
  uncertain: number,
  vote: ConversationRow['vote'],
  language: string,
): ConversationRow {
  return { threadId, startedAt, first, questions, uncertain, vote, language };
}

const TRANSCRIPT: Transcript = {
  threadId: 'thr_a1',
  startedAt: '2026-12-06T09:41:00.000Z',
  messages: [
    {
      role: 'user',
      text: 'Can I pay the invoice with a cheque?',
      at: '2026-12-06T09:41:00.000Z',
      sources: [],
    },
    {
      role: 'assistant',
      text: 'The docs do not say which payment methods billing takes. The closest page is Billing.',
      at: '2026-12-06T09:41:02.000Z',
      sources: [{ path: '/reference/billing', title: 'Billing', score: 0.31 }],
      uncertain: true,
      vote: 'down',
    },
    { role: 'user', text: 'Who do I ask then?', at: '2026-12-06T09:41:40.000Z', sources: [] },
    {
      role: 'assistant',
      text: 'Contact support from the dashboard.',
      at: '2026-12-06T09:41:42.000Z',
      sources: [],
      uncertain: true,
    },
  ],
};

export type InsightsStoryMode = 'data' | 'empty' | 'error' | 'loading';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The route's answers for a story (`mode`); `asked` lists each path and query asked. */
export function insightsFetch(mode: InsightsStoryMode) {
  const asked: string[] = [];
  const fetch = (input: string): Promise<Response> => {
    const url = new URL(input, 'https://dashboard.example.com');
    asked.push(`${url.pathname}${url.search}`);
    // Never answers: the panel stays loading, a still picture.
    if (mode === 'loading') return new Promise<Response>(() => {});
    if (mode === 'error') {
      return Promise.resolve(
        json({ error: 'Sign in as a user allowed to read the insights.', code: 'unauthorized' }, 401),
      );
    }
    const empty = mode === 'empty';
    const route = url.pathname.split('/api/insights/')[1] ?? '';
    const down = url.searchParams.get('vote') === 'down';
    const answers: Record<string, unknown> = {
      stats: stats(empty),
      questions: { groups: empty ? [] : GROUPS, next: null },
      gaps: { gaps: empty ? [] : GAPS, next: null },
      search: empty
        ? { totals: { searches: 0, noResults: 0, clicks: 0, clickThrough: null }, top: [], noResults: [] }
        : SEARCH,
      pages: empty ? { cited: [], downVoted: [], asked: [] } : PAGES,
      conversations: {
        conversations: empty ? [] : CONVERSATIONS.filter((item) => !down || item.vote === 'down'),
        next: null,
      },
      'conversations/thr_a1': TRANSCRIPT,
    };
    const answer = answers[route];
    return Promise.resolve(
      answer === undefined ? json({ error: `No route ${route}`, code: 'not_found' }, 404) : json(answer),
    );
  };
  return { fetch, asked };
}
