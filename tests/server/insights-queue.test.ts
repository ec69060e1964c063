/**
 * The recorder's queue (issue 38: recording adds no measurable time to an answer): the hooks on an
 * answer's path never write, not even the one that fills the queue; a queue larger than the
 * timer's slices arrives whole; an answer's event, built only when its batch is written, still
 * carries what the answer said at the time (caller, sources, time to first token).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { InsightEvent } from '../../packages/docs-assistant-server/src/insights/record';
import { openSqlite } from '../../packages/docs-assistant-server/src/storage/sqlite-binding';
import { authHeaders, body, DOMAIN, startService } from './helpers';

const DAY = '2026-11-30';

function question(n: number): InsightEvent {
  return {
    type: 'question',
    domain: DOMAIN,
    at: Date.parse(`${DAY}T12:00:00Z`) + n,
    threadId: `thr_queue_${n}`,
    messageId: `msg_queue_${n}`,
    newThread: true,
    fp: `reader-${n % 7}`,
    caller: 'api',
    text: `How do I install the widget, take ${n}?`,
    answer: 'Run the installer.',
    sources: [{ path: '/getting-started', title: 'Getting started', score: 0.9 }],
    declined: false,
  };
}

describe('insights queue', () => {
  it('writes a full queue on a later turn of the event loop, and every event of it', async () => {
    const running = await startService();
    try {
      const recorder = running.service.insights!;
      const writes = vi.spyOn(recorder, 'recordBatch');
      // The timers held, so only what record() starts itself (and its promises) can run: 2,600
      // events, the 2,000th filling the queue, and every promise chain they start given its turn.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate'] });
      try {
        for (let n = 0; n < 2_600; n++) recorder.record(question(n));
        for (let tick = 0; tick < 1_000; tick++) await Promise.resolve();
        expect(writes).not.toHaveBeenCalled();
      } finally {
        vi.useRealTimers();
      }
      await recorder.flush();
      const rows = await recorder.storage.readInsights((reads) => reads.daily(DOMAIN, DAY, DAY));
      expect(Number(rows[0]?.questions)).toBe(2_600);
      const readers = await recorder.storage.readInsights((reads) => reads.readers(DOMAIN, DAY, DAY));
      expect(readers.total).toBe(7);
    } finally {
      await running.close();
    }
  });

  it("builds an answer's event when it is written, from what the answer's hooks kept", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'da-insights-queue-'));
    const running = await startService({ dataDir });
    try {
      const askAs = async (question: string, headers: Record<string, string>, extra = {}) => {
        const response = await fetch(running.endpoint(), {
          method: 'POST',
          headers: { ...authHeaders(), ...headers },
          body: JSON.stringify(body(question, { fp: 'queue-reader', ...extra })),
        });
        expect(response.status).toBe(200);
        await response.text();
      };
      await askAs(
        'How do I install the widget?',
        { Origin: 'https://docs.example.com' },
        { currentPath: '/guides/theming' },
      );
      await askAs('Kubernetes helm chart values', {});
      await running.service.insights!.flush();
      const db = await openSqlite(join(dataDir, 'docs-assistant.sqlite'));
      const rows = db
        .prepare(
          'SELECT caller, current_path, text, sources, declined, ttft_ms FROM insight_questions ORDER BY at',
        )
        .all([]);
      db.close();
      expect(rows).toHaveLength(2);
      const [widget, api] = rows as Array<Record<string, unknown>>;
      expect(widget).toMatchObject({
        caller: 'widget',
        current_path: '/guides/theming',
        text: 'How do I install the widget?',
        declined: 0,
      });
      expect(JSON.parse(String(widget!.sources)).length).toBeGreaterThan(0);
      expect(typeof widget!.ttft_ms).toBe('number');
      expect(api).toMatchObject({ caller: 'api', current_path: null, declined: 1 });
    } finally {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
