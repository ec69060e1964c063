/**
 * Two replicas of the service on one PostgreSQL record into the same figures: generated traffic
 * split between them by conversation (a vote goes where its question went), written at the same
 * time in concurrent batches; each replica then answers the same totals and daily series, equal to
 * what the generator counted.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { InsightEvent } from '../../packages/docs-assistant-server/src/insights/record';
import { ADMIN_KEY, DOMAIN, type RunningService, startService } from './helpers';
import { expectedDaily, generateTraffic } from './insights-traffic';
import { startTestPostgres, type TestPostgres } from './storage-postgres';

let postgres: TestPostgres;
let replicas: RunningService[] = [];

beforeAll(async () => {
  postgres = await startTestPostgres();
  const databaseUrl = await postgres.createDatabase('insights_replicas');
  // One after the other: the second finds the schema the first made.
  for (let n = 0; n < 2; n++) replicas.push(await startService({ databaseUrl }));
}, 120_000);
afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  replicas = [];
  postgres?.stop();
});

const replicaOf = (event: InsightEvent, index: number): number =>
  'threadId' in event ? Number(event.threadId.split('_').at(-1)) % 2 : index % 2;

it('adds up what two replicas record at the same time', { timeout: 300_000 }, async () => {
  const traffic = generateTraffic({
    questions: 20_000,
    days: 7,
    lastDay: '2026-11-30',
    seed: 77,
    domain: DOMAIN,
  });
  const shares: InsightEvent[][] = [[], []];
  traffic.events.forEach((event, index) => {
    shares[replicaOf(event, index)]!.push(event);
  });
  expect(shares[0]!.length).toBeGreaterThan(5_000);
  expect(shares[1]!.length).toBeGreaterThan(5_000);
  await Promise.all(
    replicas.map(async (replica, n) => {
      const events = shares[n]!;
      for (let start = 0; start < events.length; start += 500) {
        await replica.service.insights!.recordBatch(events.slice(start, start + 500));
      }
    }),
  );
  const days = expectedDaily(traffic.expected);
  for (const replica of replicas) {
    const response = await fetch(
      `${replica.url}/discovery/v1/insights/${DOMAIN}/stats?from=${traffic.expected.days[0]}&to=2026-11-30`,
      { headers: { Authorization: `Bearer ${ADMIN_KEY}` } },
    );
    const stats = (await response.json()) as { totals: Record<string, number>; daily: unknown[] };
    expect(stats.daily).toEqual(days);
    expect(stats.totals.questions).toBe(20_000);
    expect(stats.totals.readers).toBe(traffic.expected.readers.size);
  }
});
