/**
 * `docs-assistant insights …` against a running service: each report as a table, JSON and CSV,
 * and the mistakes it explains (no key, a wrong key, an unknown report, a bad date).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../packages/docs-assistant-server/src/cli';
import { ADMIN_KEY, ASSISTANT_KEY, DOMAIN, type RunningService, startService } from './helpers';
import { generateTraffic } from './insights-traffic';

let running: RunningService;
const RANGE = ['--from', '2026-11-01', '--to', '2026-11-30'];

beforeAll(async () => {
  running = await startService();
  const traffic = generateTraffic({
    questions: 2_000,
    days: 30,
    lastDay: '2026-11-30',
    seed: 5,
    domain: DOMAIN,
  });
  await running.service.insights!.recordBatch(traffic.events);
}, 120_000);
afterAll(() => running.close());

async function cli(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['insights', ...args], {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out, err };
}

const base = () => ['--url', running.url, '--key', ADMIN_KEY, '--domain', DOMAIN, ...RANGE];

describe('docs-assistant insights', () => {
  it('prints stats as a table, JSON and CSV that agree', async () => {
    const json = await cli('stats', ...base(), '--format', 'json');
    expect(json.code).toBe(0);
    const stats = JSON.parse(json.out.join('\n')) as { totals: { questions: number }; daily: unknown[] };
    expect(stats.totals.questions).toBe(2_000);
    const table = await cli('stats', ...base());
    expect(table.code).toBe(0);
    expect(table.out[0]).toBe('2026-11-01 to 2026-11-30');
    expect(table.out[1]).toContain('questions: 2,000');
    expect(table.out.find((line) => line.startsWith('date'))).toMatch(/^date\s+questions\s+conversations/);
    expect(table.out.filter((line) => /^2026-11-\d\d\s+\d/.test(line))).toHaveLength(30);
    const csv = await cli('stats', ...base(), '--format', 'csv');
    const lines = csv.out.join('\n').split('\n');
    expect(lines[0]).toBe('date,questions,conversations,readers,searches,agentCalls,uncertain,up,down');
    expect(lines).toHaveLength(31);
  });

  it.each(['questions', 'gaps', 'search', 'feedback', 'conversations'])(
    'prints %s as a table',
    async (report) => {
      const result = await cli(report, ...base(), '--limit', '5');
      expect(result.err).toEqual([]);
      expect(result.code).toBe(0);
      expect(result.out.length).toBeGreaterThan(2);
      // A header, its rule, then rows.
      const rule = result.out.findIndex((line) => /^-+( +-+)*$/.test(line));
      expect(rule).toBeGreaterThan(0);
      expect(result.out[rule + 1]).toBeTruthy();
    },
  );

  it('explains what is wrong', async () => {
    const noKey = await cli('stats', '--url', running.url, '--domain', DOMAIN);
    expect(noKey.code).toBe(2);
    expect(noKey.err.join('\n')).toContain('--key');
    const readerKey = await cli('stats', '--url', running.url, '--key', ASSISTANT_KEY, '--domain', DOMAIN);
    expect(readerKey.code).toBe(1);
    expect(readerKey.err.join('\n')).toMatch(/403 .*admin API key/);
    const unknown = await cli('visitors', '--key', ADMIN_KEY);
    expect(unknown.code).toBe(2);
    expect(unknown.err.join('\n')).toContain('Unknown report "visitors"');
    const badDay = await cli('stats', ...base().slice(0, 6), '--from', '2026-13-01');
    expect(badDay.code).toBe(1);
    expect(badDay.err.join('\n')).toContain('from: must be a UTC day as YYYY-MM-DD');
  });
});
