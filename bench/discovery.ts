/**
 * The discovery API's search and page endpoints under load: the reference service over generated
 * docs (1,000 and 10,000 pages, as the service benchmark's corpus), served on 127.0.0.1, asked
 * over HTTP. Per corpus: search latency one request at a time and at 20 concurrent requests
 * (p50/p99, requests per second), and the page endpoint one at a time. A search generates no
 * answer, so it should cost a small part of an assistant request.
 *
 * Figures go to `bench/results/discovery.json`; `discoverySection()` renders them for results.md.
 * Run alone: `npx tsx bench/discovery.ts [--quick]` (quick: the 1,000-page corpus only).
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createAssistantService } from '../packages/docs-assistant-server/src/service';
import { docsMarkdown, seeded } from './corpus';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DISCOVERY_RESULTS = join(ROOT, 'bench/results/discovery.json');
const KEY = 'svc_dsc_bench_discovery';
const DOMAIN = 'bench';
const SEARCHES = 300;
const PAGES_READ = 100;
const CONCURRENCY = 20;

// Words of the generated docs, two or three to a query, as a reader types them.
const QUERY_WORDS =
  'widget panel theme color dark mode launcher keyboard focus token bearer key admin assistant export bundle job status search index retrieval answer stream thread context install configure deploy version language filter error retry'.split(
    ' ',
  );

export interface DiscoveryRun {
  pages: number;
  search: { sequential: Latency; concurrent: Latency & { perSecond: number } };
  page: Latency;
  /** Results per search, on average (pageSize 10). */
  meanResults: number;
}

interface Latency {
  p50: number;
  p99: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const latency = (times: number[]): Latency => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
};

async function writeCorpus(dir: string, pages: number): Promise<void> {
  for (let area = 0; area < Math.ceil(pages / 100); area++) await mkdir(join(dir, `area-${area}`));
  for (let i = 0; i < pages; i++) {
    const body = docsMarkdown(400, 1000 + i).replace(/^# /, `# Page ${i}: `);
    await writeFile(
      join(dir, `area-${Math.floor(i / 100)}`, `page-${i}.md`),
      `---\ntitle: Page ${i}\n---\n\n${body}\n`,
    );
  }
}

async function measure(pages: number): Promise<DiscoveryRun> {
  const dir = await mkdtemp(join(tmpdir(), 'discovery-bench-'));
  try {
    await writeCorpus(dir, pages);
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
    const post = async (path: string, body: unknown) => {
      const start = performance.now();
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const json: unknown = await response.json();
      if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(json)}`);
      return { ms: performance.now() - start, json };
    };
    const random = seeded(pages);
    const queries = Array.from({ length: SEARCHES }, () =>
      Array.from(
        { length: 2 + Math.floor(random() * 2) },
        () => QUERY_WORDS[Math.floor(random() * QUERY_WORDS.length)],
      ).join(' '),
    );
    const search = (query: string) => post(`/discovery/v1/search/${DOMAIN}`, { query, pageSize: 10 });
    try {
      // Warm-up: the first requests pay for the JIT, not for the search.
      for (const query of queries.slice(0, 20)) await search(query);
      const sequential: number[] = [];
      let results = 0;
      for (const query of queries) {
        const { ms, json } = await search(query);
        sequential.push(ms);
        results += (json as unknown[]).length;
      }
      const concurrent: number[] = [];
      const start = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < queries.length) {
            const query = queries[next++]!;
            concurrent.push((await search(query)).ms);
          }
        }),
      );
      const seconds = (performance.now() - start) / 1000;
      const page: number[] = [];
      for (let i = 0; i < PAGES_READ; i++) {
        const n = Math.floor(random() * pages);
        page.push(
          (await post(`/discovery/v1/page/${DOMAIN}`, { path: `/area-${Math.floor(n / 100)}/page-${n}` })).ms,
        );
      }
      return {
        pages,
        search: {
          sequential: latency(sequential),
          concurrent: { ...latency(concurrent), perSecond: queries.length / seconds },
        },
        page: latency(page),
        meanResults: results / queries.length,
      };
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await service.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Measures every corpus size and writes `bench/results/discovery.json`. */
export async function runDiscoveryBench(options: { quick?: boolean } = {}): Promise<DiscoveryRun[]> {
  const runs: DiscoveryRun[] = [];
  for (const pages of options.quick ? [1_000] : [1_000, 10_000]) {
    console.log(`bench: discovery search and page endpoints, ${pages} pages…`);
    runs.push(await measure(pages));
  }
  await writeFile(
    DISCOVERY_RESULTS,
    `${JSON.stringify({ at: new Date().toISOString(), quick: !!options.quick, runs }, null, 2)}\n`,
  );
  return runs;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** The last recorded figures as a results.md section (empty when none were recorded). */
export function discoverySection(): string {
  if (!existsSync(DISCOVERY_RESULTS)) return '';
  const { at, runs } = JSON.parse(readFileSync(DISCOVERY_RESULTS, 'utf8')) as {
    at: string;
    runs: DiscoveryRun[];
  };
  const rows = runs.map(
    (run) =>
      `| ${run.pages.toLocaleString('en')} | ${ms(run.search.sequential.p50)} / ${ms(run.search.sequential.p99)} | ${ms(run.search.concurrent.p50)} / ${ms(run.search.concurrent.p99)} | ${Math.round(run.search.concurrent.perSecond)} | ${ms(run.page.p50)} / ${ms(run.page.p99)} | ${run.meanResults.toFixed(1)} |`,
  );
  return `## Discovery API: search and page endpoints

The reference service over generated docs, on 127.0.0.1, over HTTP (\`bench/discovery.ts\`, ${at.slice(0, 10)}):
${SEARCHES} searches of two or three words (\`pageSize\` 10) one at a time and ${CONCURRENCY} at a time, then ${PAGES_READ} page requests.

| pages | search p50 / p99, one at a time | search p50 / p99, ${CONCURRENCY} concurrent | searches per second | page p50 / p99 | results per search |
| ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}
`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runDiscoveryBench({ quick: process.argv.includes('--quick') });
  console.log(discoverySection());
}
