/** `docs-assistant serve`: the reference service on a local port. */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { formatSiteReport } from '../docs/load.js';
import type { IndexBuild } from '../retrieval/persist.js';
import {
  type AssistantServiceOptions,
  createAssistantService,
  DEFAULT_DOCS_DIR,
  DEFAULT_DOMAIN,
} from '../service.js';
import { identityLines, snippetLines } from './snippets.js';
import { type CliCommand, CliUsageError, parseFlags } from './types.js';

/** Port of `serve` when none is given. */
export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = '127.0.0.1';

const usage = `Usage: docs-assistant serve [options]

Serves the assistant endpoint (POST /discovery/v1/assistant/{domain}/message) over a folder of
Markdown/MDX docs.

Options:
  --docs <dir>        Docs folder (repeatable)                     [default: ${DEFAULT_DOCS_DIR}]
  --port <n>          Port, 0 for any free one                     [default: ${DEFAULT_PORT}]
  --host <addr>       Address to listen on                         [default: ${DEFAULT_HOST}]
  --domain <name>     Domain identifier in the endpoint path: the widget's
                      domain prop/attribute                         [default: ${DEFAULT_DOMAIN}]
  --data-dir <dir>    Embedded database (SQLite) in <dir>: threads, export jobs and
                      their bundles, feedback, rate limits          [default: in memory]
  --database-url <u>  PostgreSQL (postgres://user:pass@host:5432/db) instead, shared
                      by several replicas; also read from DATABASE_URL
  --retention-days <n>      Remove threads idle n days (and export jobs as old)
                                                                    [default: keep]
  --insights <on|off>       Record what readers ask, search and click for
                            docs-assistant insights (docs/insights.md) [default: on]
  --insights-retention-days <n>  Days question text and search queries are kept;
                            the figures stay                        [default: 30]
  --max-thread-bytes <n>    Bytes of turns kept per thread          [default: 262144]
  --max-stored-bytes <n>    Bytes of all threads kept, least recently used go first
                                                                    [default: 134217728]
  --engine <name>     extractive (no model) or openai              [default: extractive]
  --site-url <url>    Public URL of the docs, for absolute links
  --hidden-pages <m>  exclude or include pages the site's navigation does not list
                                                                    [default: exclude]
  --watch             Index the docs again when a file changes (only changed files
                      are parsed again); with --data-dir the index is also kept
                      in <dir>/index and reused at the next start if no file changed
  --assistant-key <k> Assistant key to accept (svc_dsc_…); pass it to keep the
                      key (and the widget's snippet) across restarts
                                                                    [default: random]
  --admin-key <k>     Admin key to accept (svc_…)                  [default: random]
  --mcp-require-key   The MCP endpoint (/mcp) asks for the assistant key
                                                                    [default: public]
  --mcp-allowed-origin <o>  A web origin (https://docs.example.com) whose pages may call
                      /mcp (repeatable; * for any); requests without Origin always may
  --no-mcp            Do not serve /mcp
  -h, --help          Show this help

The openai engine reads DOCS_ASSISTANT_LLM_BASE_URL, DOCS_ASSISTANT_LLM_API_KEY and
DOCS_ASSISTANT_LLM_MODEL (any OpenAI-compatible chat endpoint).`;

/** One line on how an index came to be: `restored 1,204 pages in 310 ms`. */
function describeBuild(build: IndexBuild): string {
  const pages = `${build.index.pages.length} pages`;
  const ms = `${Math.round(build.ms)} ms`;
  if (build.how === 'restored') return `restored ${pages} in ${ms} (no file changed)`;
  if (build.how === 'built') return `built ${pages} in ${ms}`;
  const changed = build.changedFiles.length;
  return `${pages} in ${ms} (${changed} ${changed === 1 ? 'file' : 'files'} changed, ${build.parsedFiles} parsed)`;
}

/** The flags `serve` reads (`--help` aside). */
const FLAGS = {
  values: [
    'docs',
    'port',
    'host',
    'domain',
    'data-dir',
    'database-url',
    'retention-days',
    'insights',
    'insights-retention-days',
    'max-thread-bytes',
    'max-stored-bytes',
    'engine',
    'site-url',
    'assistant-key',
    'admin-key',
    'hidden-pages',
    'mcp-allowed-origin',
  ],
  repeatable: ['docs', 'mcp-allowed-origin'],
  booleans: ['watch', 'mcp-require-key', 'no-mcp'],
};

type Flags = ReturnType<typeof parseFlags>;

/** A flag's value that must be one of `allowed`, else a usage error naming them. */
function oneOf<T extends string>(flags: Flags, name: string, allowed: readonly T[]): T | undefined {
  const value = flags.values[name]?.[0];
  if (value === undefined || (allowed as readonly string[]).includes(value)) return value as T | undefined;
  throw new CliUsageError(`--${name} must be ${allowed.map((a) => `"${a}"`).join(' or ')} (got "${value}").`);
}

/** A flag's whole number of at least 1, else a usage error. */
function count(flags: Flags, name: string): number | undefined {
  const value = flags.values[name]?.[0];
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new CliUsageError(`--${name} must be a whole number of at least 1 (got "${value}").`);
  }
  return Number(value);
}

/** The port, the engine and the docs folders the flags name, checked (a folder must exist). */
async function placeOf(flags: Flags) {
  const portText = flags.values.port?.[0] ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    throw new CliUsageError(`--port must be a whole number from 0 to 65535 (got "${portText}").`);
  }
  const engine = oneOf(flags, 'engine', ['extractive', 'openai'] as const) ?? 'extractive';
  const docs = (flags.values.docs ?? [DEFAULT_DOCS_DIR]).map((dir) => resolve(dir));
  for (const dir of docs) {
    const info = await stat(dir).catch(() => null);
    if (!info?.isDirectory()) {
      throw new CliUsageError(`Docs folder ${dir} does not exist or is not a folder; pass --docs <dir>.`);
    }
  }
  return { port, host: flags.values.host?.[0] ?? DEFAULT_HOST, engine, docs };
}

/** The service's options from the flags (the docs folders and the engine from `placeOf`). */
function serviceOptionsOf(flags: Flags, place: Awaited<ReturnType<typeof placeOf>>): AssistantServiceOptions {
  const one = (name: string): string | undefined => flags.values[name]?.[0];
  const dataDir = one('data-dir');
  const databaseUrl = one('database-url') ?? (process.env.DATABASE_URL || undefined);
  const retentionDays = count(flags, 'retention-days');
  const insights = oneOf(flags, 'insights', ['on', 'off'] as const) ?? 'on';
  const insightsRetentionDays = count(flags, 'insights-retention-days');
  const maxThreadBytes = count(flags, 'max-thread-bytes');
  const maxStoredBytes = count(flags, 'max-stored-bytes');
  const hiddenPages = oneOf(flags, 'hidden-pages', ['exclude', 'include'] as const);
  const limits = {
    ...(maxThreadBytes ? { maxThreadBytes } : {}),
    ...(maxStoredBytes ? { maxStoredBytes } : {}),
  };
  return {
    docs: place.docs,
    engine: place.engine,
    ...(one('domain') ? { domain: one('domain') } : {}),
    ...(dataDir ? { dataDir: resolve(dataDir) } : {}),
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(retentionDays ? { retention: { days: retentionDays } } : {}),
    insights: {
      enabled: insights === 'on',
      ...(insightsRetentionDays ? { retentionDays: insightsRetentionDays } : {}),
    },
    ...(Object.keys(limits).length ? { limits } : {}),
    ...(one('site-url') ? { siteUrl: one('site-url') } : {}),
    ...(one('assistant-key') ? { assistantKey: one('assistant-key') } : {}),
    ...(one('admin-key') ? { adminKey: one('admin-key') } : {}),
    ...(hiddenPages ? { site: { hiddenPages } } : {}),
    ...(flags.booleans.has('watch') ? { watch: true } : {}),
    mcp: {
      enabled: !flags.booleans.has('no-mcp'),
      requireKey: flags.booleans.has('mcp-require-key'),
      allowedOrigins: flags.values['mcp-allowed-origin'] ?? [],
    },
  };
}

type Service = ReturnType<typeof createAssistantService>;

/** What `serve` prints once it listens at `url`: where to call it, its keys, what it read, the snippets. */
async function startupLines(
  service: Service,
  url: string,
  shown: { flags: Flags; docs: string[]; engine: string; firstBuild: IndexBuild | undefined },
): Promise<string[]> {
  const { flags } = shown;
  const domain = service.config.domains[0]!;
  const organization = service.config.organizations[0]!;
  const index = await service.index(domain.domain);
  const identity = {
    url,
    domain: domain.domain,
    assistantKey: organization.assistantKeys[0]!,
    assistantKeyRandom: !flags.values['assistant-key']?.[0],
    adminKey: organization.adminKeys[0]!,
    adminKeyRandom: !flags.values['admin-key']?.[0],
  };
  const lines = [
    `docs-assistant serving ${index.pages.length} pages (${index.sections.length} sections) from ${shown.docs.join(', ')}`,
    `  URL:           ${url}`,
    `  Endpoint:      POST ${url}/discovery/v1/assistant/${domain.domain}/message`,
    ...identityLines(identity),
  ];
  if (!flags.booleans.has('no-mcp')) {
    lines.push(
      `  MCP:           ${url}/mcp (search, get_page; ${flags.booleans.has('mcp-require-key') ? 'assistant key required' : 'public'})`,
    );
  }
  lines.push(
    `  For agents:    ${url}/llms.txt (every page as Markdown at its path + .md)`,
    `  Engine:        ${shown.engine}`,
    `  Storage:       ${service.storage.description}`,
    `  Insights:      ${service.insights ? `on (question text kept ${service.insights.retentionDays} days; docs-assistant insights stats --url ${url} --key <admin key>)` : 'off'}`,
  );
  if (shown.firstBuild) lines.push(`  Index:         ${describeBuild(shown.firstBuild)}`);
  // What the docs folders' own navigation made of them (issue 17).
  for (const report of service.siteReports(domain.domain)) {
    for (const line of formatSiteReport(report)) lines.push(`  ${line}`);
  }
  return [...lines, ...snippetLines(identity)];
}

export const serveCommand: CliCommand = {
  summary: 'Serve the assistant endpoint over a docs folder',
  usage,
  async run(args, io) {
    const flags = parseFlags(args, FLAGS);
    if (flags.booleans.has('help')) {
      io.out(usage);
      return 0;
    }
    const place = await placeOf(flags);
    let firstBuild: IndexBuild | undefined;
    let service: Service;
    try {
      service = createAssistantService({
        ...serviceOptionsOf(flags, place),
        onIndex: (_domain, build) => {
          // The first build is reported with the start-up lines; later ones as they happen.
          if (!firstBuild) firstBuild = build;
          else io.out(`docs-assistant re-indexed: ${describeBuild(build)}`);
        },
      });
    } catch (error) {
      throw new CliUsageError(error instanceof Error ? error.message : String(error));
    }
    await service.ready();
    const { port, host } = place;
    await new Promise<void>((resolveListening, reject) => {
      const server = serve({ fetch: service.fetch, port, hostname: host }, (info) => {
        const shownHost = info.address.includes(':') ? `[${info.address}]` : info.address;
        const url = `http://${shownHost}:${info.port}`;
        startupLines(service, url, { flags, docs: place.docs, engine: place.engine, firstBuild }).then(
          (lines) => {
            for (const line of lines) io.out(line);
            resolveListening();
          },
          reject,
        );
      });
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'EADDRINUSE'
            ? new CliUsageError(
                `Port ${port} on ${host} is in use; pass another --port (0 picks a free one).`,
              )
            : error,
        ),
      );
      // Only a server that is listening needs a way to stop.
      server.once('listening', () => {
        const stop = () => {
          server.close();
          void service.close().finally(() => process.exit(0));
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
    return 0;
  },
};
