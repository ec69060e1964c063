/**
 * `docs-assistant insights stats|questions|gaps|search|feedback|conversations`: reads a running
 * service's insights API (docs/insights.md) with an admin key, and prints a table, JSON or CSV.
 * It calls the service rather than opening its database: the figures need the service's search
 * index (page titles, the closest page of a gap), and PostgreSQL deployments have no data folder.
 */
import { DAILY_COLUMNS } from '../insights/routes.js';
import { type CliCommand, CliUsageError, parseFlags } from './types.js';

const REPORTS = {
  stats: '/stats',
  questions: '/questions',
  gaps: '/gaps',
  search: '/search',
  feedback: '/pages',
  conversations: '/conversations',
} as const;
type Report = keyof typeof REPORTS;

const usage = `Usage: docs-assistant insights <report> [options]

Reads what readers ask from a running service (docs-assistant serve) with an admin key.

Reports:
  stats          Totals and the daily series: questions, conversations, readers,
                 searches, agent calls, uncertain answers, votes
  questions      Top questions, grouped by meaning
  gaps           Groups of uncertain or down-voted questions, with the closest page
  search         Searches, click-through, top queries and queries without results
  feedback       Pages: most cited (with votes), most down-voted, asked from
  conversations  Conversations, newest first (--uncertain, --down to filter)

Options:
  --url <url>         The service                      [default: http://127.0.0.1:8787]
  --key <key>         Admin key (svc_…); also read from DOCS_ASSISTANT_ADMIN_KEY
  --domain <name>     Domain                           [default: docs-assistant]
  --from <day>        First day, YYYY-MM-DD (UTC)      [default: 29 days before --to]
  --to <day>          Last day, YYYY-MM-DD (UTC)       [default: today]
  --limit <n>         Rows of a list (1-1000)          [default: 20]
  --format <f>        table, json or csv               [default: table]
  --uncertain         conversations: only those with an uncertain answer
  --down              conversations: only those with a down-vote
  -h, --help          Show this help`;

type Json = Record<string, unknown>;

/** Rows as a plain-text table: a header, a rule, columns padded to their widest cell. */
export function formatTable(columns: string[], rows: Json[]): string[] {
  const cell = (value: unknown): string => {
    if (value === null || value === undefined) return '-';
    if (typeof value === 'number')
      return Number.isInteger(value) ? value.toLocaleString('en-US') : value.toFixed(3);
    const text = Array.isArray(value)
      ? value.map((v) => (typeof v === 'object' ? (v as Json).path : v)).join(', ')
      : String(value);
    return text.length > 60 ? `${text.slice(0, 59)}…` : text;
  };
  const cells = rows.map((row) => columns.map((column) => cell(row[column])));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((line) => line[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((value, i) =>
        /^-?[\d,.]+%?$/.test(value) ? value.padStart(widths[i]!) : value.padEnd(widths[i]!),
      )
      .join('  ')
      .trimEnd();
  return [line(columns), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)];
}

const percent = (value: unknown): string =>
  typeof value === 'number' ? `${(value * 100).toFixed(1)}%` : '-';

/** What `table` prints of each report. */
function tableOf(report: Report, body: Json): string[] {
  const list = (name: string) => (body[name] as Json[] | undefined) ?? [];
  if (report === 'stats') {
    const totals = body.totals as Json;
    const head = Object.entries(totals).map(
      ([name, value]) => `${name}: ${Number(value).toLocaleString('en-US')}`,
    );
    return [
      `${body.from} to ${body.to}`,
      head.join('  '),
      `uncertain share: ${percent(body.uncertainShare)}  satisfaction: ${percent(body.satisfaction)}`,
      `languages: ${
        list('languages')
          .map((l) => `${l.language ?? '?'} ${l.questions}`)
          .join(', ') || '-'
      }`,
      '',
      ...formatTable(DAILY_COLUMNS, list('daily')),
    ];
  }
  if (report === 'questions')
    return formatTable(['questions', 'uncertain', 'up', 'down', 'label', 'pages'], list('groups'));
  if (report === 'gaps') {
    const rows = list('gaps').map((gap) => ({ ...gap, closest: (gap.closest as Json | null)?.path ?? null }));
    return formatTable(['questions', 'label', 'closest'], rows);
  }
  if (report === 'search') {
    const totals = body.totals as Json;
    return [
      `searches: ${Number(totals.searches).toLocaleString('en-US')}  without results: ${Number(totals.noResults).toLocaleString('en-US')}  clicks: ${Number(totals.clicks).toLocaleString('en-US')}  click-through: ${percent(totals.clickThrough)}`,
      '',
      ...formatTable(['searches', 'clicks', 'query'], list('top')),
      '',
      'Without results:',
      ...formatTable(['searches', 'query'], list('noResults')),
    ];
  }
  if (report === 'feedback') {
    return [
      ...formatTable(['citations', 'up', 'down', 'path', 'title'], list('cited')),
      '',
      'Most down-voted:',
      ...formatTable(['down', 'up', 'path', 'title'], list('downVoted')),
      '',
      'Asked from:',
      ...formatTable(['questions', 'currentPath'], list('asked')),
    ];
  }
  return formatTable(
    ['startedAt', 'questions', 'uncertain', 'vote', 'language', 'first'],
    list('conversations'),
  );
}

function readArgs(args: string[]) {
  const [report, ...rest] = args;
  const flags = parseFlags(rest, {
    values: ['url', 'key', 'domain', 'from', 'to', 'limit', 'format'],
    booleans: ['uncertain', 'down'],
  });
  const one = (name: string) => flags.values[name]?.[0];
  const format = one('format') ?? 'table';
  if (format !== 'table' && format !== 'json' && format !== 'csv') {
    throw new CliUsageError(`--format must be table, json or csv (got "${format}").`);
  }
  const key = one('key') ?? process.env.DOCS_ASSISTANT_ADMIN_KEY;
  if (!key) throw new CliUsageError('Pass the admin key with --key svc_… (or DOCS_ASSISTANT_ADMIN_KEY).');
  const query = new URLSearchParams();
  for (const name of ['from', 'to'] as const) if (one(name)) query.set(name, one(name)!);
  if (report !== 'stats') query.set('limit', one('limit') ?? '20');
  if (flags.booleans.has('uncertain')) query.set('uncertain', '1');
  if (flags.booleans.has('down')) query.set('vote', 'down');
  if (format === 'csv') query.set('format', 'csv');
  return {
    flags,
    format,
    key,
    query,
    url: one('url') ?? 'http://127.0.0.1:8787',
    domain: one('domain') ?? 'docs-assistant',
  };
}

export const insightsCommand: CliCommand = {
  summary: "Read a running service's insights: stats, questions, gaps, search, feedback, conversations",
  usage,
  async run(args, io) {
    if (!args.length || args[0] === '--help' || args[0] === '-h') {
      io.out(usage);
      return args.length ? 0 : 2;
    }
    const report = args[0] as Report;
    if (!(report in REPORTS)) {
      throw new CliUsageError(`Unknown report "${args[0]}"; use ${Object.keys(REPORTS).join(', ')}.`);
    }
    const { flags, format, key, query, url, domain } = readArgs(args);
    if (flags.booleans.has('help')) {
      io.out(usage);
      return 0;
    }
    const address = `${url.replace(/\/+$/, '')}/discovery/v1/insights/${encodeURIComponent(domain)}${REPORTS[report]}?${query}`;
    const response = await fetch(address, { headers: { Authorization: `Bearer ${key}` } }).catch(
      (error: Error) => {
        throw new Error(`could not reach ${url} (${error.message}); is docs-assistant serve running there?`);
      },
    );
    const text = await response.text();
    if (!response.ok) {
      let message = text;
      try {
        message = String((JSON.parse(text) as Json).error ?? text);
      } catch {}
      io.err(`docs-assistant insights: ${response.status} from ${url}: ${message}`);
      return 1;
    }
    if (format === 'csv') io.out(text.replace(/\r\n$/, '').replaceAll('\r\n', '\n'));
    else if (format === 'json') io.out(JSON.stringify(JSON.parse(text), null, 2));
    else for (const line of tableOf(report, JSON.parse(text) as Json)) io.out(line);
    return 0;
  },
};
