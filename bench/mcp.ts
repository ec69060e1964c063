/**
 * Search through MCP against the search endpoint: the reference service over 1,000 generated
 * pages (the discovery benchmark's corpus), on 127.0.0.1. The same 200 queries (`pageSize` 10), one
 * at a time, interleaved so both ways see the same machine: `POST /discovery/v1/search/{domain}`
 * with fetch; the MCP `search` tool through the SDK's `Client` over Streamable HTTP (`/mcp`); the
 * same `tools/call` as one plain JSON-RPC POST (what the server costs without the client's
 * bookkeeping); and `docs-assistant mcp` over stdio through the SDK's `Client`. Every MCP answer
 * is checked to hold the endpoint's sections in the endpoint's order.
 *
 * Figures go to `bench/results/mcp.json`; `mcpSection()` renders them for results.md.
 * Run alone: `npx tsx bench/mcp.ts`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SearchToolResult } from '../packages/docs-assistant-server/src/mcp/tools';
import { createAssistantService } from '../packages/docs-assistant-server/src/service';
import { docsMarkdown, seeded } from './corpus';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const MCP_RESULTS = join(ROOT, 'bench/results/mcp.json');
const KEY = 'svc_dsc_bench_mcp';
const DOMAIN = 'bench';
const PAGES = 1_000;
const SEARCHES = 200;
const WARM_UP = 20;

const QUERY_WORDS =
  'widget panel theme color dark mode launcher keyboard focus token bearer key admin assistant export bundle job status search index retrieval answer stream thread context install configure deploy version language filter error retry'.split(
    ' ',
  );

export type McpWay = 'endpoint' | 'mcpClient' | 'mcpRaw' | 'stdio';

interface Latency {
  p50: number;
  p99: number;
  mean: number;
}

export interface McpBench {
  at: string;
  pages: number;
  searches: number;
  ways: Record<McpWay, Latency>;
  /** Searches whose MCP answer (each way) held other sections than the endpoint's: 0 expected. */
  mismatches: number;
  meanResults: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const latency = (times: number[]): Latency => {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    mean: times.reduce((sum, t) => sum + t, 0) / times.length,
  };
};

async function writeCorpus(dir: string): Promise<void> {
  for (let area = 0; area < PAGES / 100; area++) await mkdir(join(dir, `area-${area}`));
  for (let i = 0; i < PAGES; i++) {
    const body = docsMarkdown(400, 1000 + i).replace(/^# /, `# Page ${i}: `);
    await writeFile(
      join(dir, `area-${Math.floor(i / 100)}`, `page-${i}.md`),
      `---\ntitle: Page ${i}\n---\n\n${body}\n`,
    );
  }
}

const timed = async <T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> => {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
};

const resultsOf = (result: CallToolResult): string[] => {
  if (result.isError) throw new Error(`search failed: ${JSON.stringify(result.content)}`);
  return (result.structuredContent as { results: SearchToolResult[] }).results.map((r) => r.url);
};

/** Runs the benchmark and writes `bench/results/mcp.json`. */
export async function runMcpBench(): Promise<McpBench> {
  console.log(`bench: search through MCP and the search endpoint, ${PAGES} pages…`);
  const dir = await mkdtemp(join(tmpdir(), 'mcp-bench-'));
  try {
    await writeCorpus(dir);
    const service = createAssistantService({
      docs: [dir],
      domain: DOMAIN,
      assistantKey: KEY,
      // The benchmark measures searching, not the limiter.
      rateLimits: { perOrganization: { limit: 1e9 }, perIp: { limit: 1e9 } },
      warn: () => {},
    });
    await service.ready();
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const started = serve({ fetch: service.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(started));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const stdio = new Client({ name: 'bench-stdio', version: '1.0.0' });
    await stdio.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', 'packages/docs-assistant-server/src/cli.ts', 'mcp', '--docs', dir],
        cwd: ROOT,
        stderr: 'ignore',
      }),
    );
    try {
      const random = seeded(PAGES);
      const queries = Array.from({ length: SEARCHES }, () =>
        Array.from(
          { length: 2 + Math.floor(random() * 2) },
          () => QUERY_WORDS[Math.floor(random() * QUERY_WORDS.length)],
        ).join(' '),
      );
      const endpoint = async (query: string) => {
        const response = await fetch(`${base}/discovery/v1/search/${DOMAIN}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ query, pageSize: 10 }),
        });
        const items = (await response.json()) as { metadata: { url: string } }[];
        if (!response.ok) throw new Error(`search answered ${response.status}`);
        return items.map((item) => item.metadata.url);
      };
      const viaClient = async (query: string) =>
        resultsOf(
          (await client.callTool({ name: 'search', arguments: { query, pageSize: 10 } })) as CallToolResult,
        );
      const viaStdio = async (query: string) =>
        resultsOf(
          (await stdio.callTool({ name: 'search', arguments: { query, pageSize: 10 } })) as CallToolResult,
        );
      let id = 0;
      const raw = async (query: string) => {
        const response = await fetch(`${base}/mcp`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            'Mcp-Protocol-Version': '2025-06-18',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: ++id,
            method: 'tools/call',
            params: { name: 'search', arguments: { query, pageSize: 10 } },
          }),
        });
        const body = (await response.json()) as { result: CallToolResult };
        return resultsOf(body.result);
      };
      const ways: Record<McpWay, (query: string) => Promise<string[]>> = {
        endpoint,
        mcpClient: viaClient,
        mcpRaw: raw,
        stdio: viaStdio,
      };
      // Warm-up: the first requests pay for the JIT, not for the search.
      for (const query of queries.slice(0, WARM_UP)) for (const way of Object.values(ways)) await way(query);
      const times: Record<McpWay, number[]> = { endpoint: [], mcpClient: [], mcpRaw: [], stdio: [] };
      let mismatches = 0;
      let results = 0;
      for (const [i, query] of queries.entries()) {
        // A different way first each time, so none always runs on a cache the others warmed.
        const order = (Object.keys(ways) as McpWay[]).map((_, k, all) => all[(i + k) % all.length]!);
        const answers = {} as Record<McpWay, string[]>;
        for (const way of order) {
          const { ms, value } = await timed(() => ways[way](query));
          times[way].push(ms);
          answers[way] = value;
        }
        results += answers.endpoint.length;
        const expected = JSON.stringify(answers.endpoint);
        if (order.some((way) => JSON.stringify(answers[way]) !== expected)) mismatches++;
      }
      const run: McpBench = {
        at: new Date().toISOString(),
        pages: PAGES,
        searches: SEARCHES,
        ways: {
          endpoint: latency(times.endpoint),
          mcpClient: latency(times.mcpClient),
          mcpRaw: latency(times.mcpRaw),
          stdio: latency(times.stdio),
        },
        mismatches,
        meanResults: results / SEARCHES,
      };
      await writeFile(MCP_RESULTS, `${JSON.stringify(run, null, 2)}\n`);
      return run;
    } finally {
      await Promise.all([client.close(), stdio.close()]);
      await new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      });
      await service.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

const WAY_NAMES: Record<McpWay, string> = {
  endpoint: '`POST /discovery/v1/search/{domain}` (fetch)',
  mcpClient: 'MCP `search` over Streamable HTTP (SDK `Client`)',
  mcpRaw: 'MCP `tools/call` as one JSON-RPC POST (fetch)',
  stdio: '`docs-assistant mcp` over stdio (SDK `Client`)',
};

/** The last recorded figures as a results.md section (empty when none were recorded). */
export function mcpSection(): string {
  if (!existsSync(MCP_RESULTS)) return '';
  const run = JSON.parse(readFileSync(MCP_RESULTS, 'utf8')) as McpBench;
  const rows = (Object.keys(WAY_NAMES) as McpWay[]).map(
    (way) =>
      `| ${WAY_NAMES[way]} | ${ms(run.ways[way].p50)} | ${ms(run.ways[way].p99)} | ${ms(run.ways[way].mean)} |`,
  );
  return `## Search through MCP

The reference service over ${run.pages.toLocaleString('en')} generated pages, on 127.0.0.1 (\`bench/mcp.ts\`, ${run.at.slice(0, 10)}):
the same ${run.searches} searches of two or three words (\`pageSize\` 10, ${run.meanResults.toFixed(1)} results on average), one at a time, each way in turn.
Searches whose MCP results differed from the endpoint's: ${run.mismatches}.

| way | p50 | p99 | mean |
| --- | ---: | ---: | ---: |
${rows.join('\n')}
`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runMcpBench();
  console.log(mcpSection());
}
