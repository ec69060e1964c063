/**
 * What insights keep of readers, read from the database file itself: no raw fp in any insights
 * table (salted hashes only), e-mail addresses, keys and tokens masked before storage (questions,
 * answers, search queries), nothing at all with insights off (and its routes answer 404
 * `insights_off`, `/health` leaves the capability out), and text gone after the retention window
 * while every figure stays.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { maskSecrets } from '../../packages/docs-assistant-server/src/insights/text';
import { openSqlite } from '../../packages/docs-assistant-server/src/storage/sqlite-binding';
import { ADMIN_KEY, authHeaders, body, DOMAIN, type RunningService, startService } from './helpers';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const INSIGHT_TABLES = [
  'insight_questions',
  'insight_daily',
  'insight_readers',
  'insight_counts',
  'insight_forms',
  'insight_threads',
];

async function withData(options: Parameters<typeof startService>[0] = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'da-insights-privacy-'));
  folders.push(dataDir);
  const running = await startService({ dataDir, ...options });
  return { running, dataDir };
}

/** Every value of every insights table, as text, read from the file. */
async function storedValues(dataDir: string): Promise<{ rows: Record<string, number>; values: string[] }> {
  const db = await openSqlite(join(dataDir, 'docs-assistant.sqlite'));
  try {
    const rows: Record<string, number> = {};
    const values: string[] = [];
    for (const table of INSIGHT_TABLES) {
      const all = db.prepare(`SELECT * FROM ${table}`).all([]);
      rows[table] = all.length;
      for (const row of all)
        for (const value of Object.values(row)) if (value !== null) values.push(String(value));
    }
    return { rows, values };
  } finally {
    db.close();
  }
}

const ask = (running: RunningService, question: string, fp: string) =>
  fetch(running.endpoint(), {
    method: 'POST',
    headers: authHeaders(),
    body: JSON.stringify(body(question, { fp })),
  }).then((response) => response.text());

const admin = (running: RunningService, path: string) =>
  fetch(`${running.url}/discovery/v1/insights/${DOMAIN}${path}`, {
    headers: { Authorization: `Bearer ${ADMIN_KEY}` },
  });

const SECRETS = {
  email: 'jane.doe+docs@example.co.uk',
  adminKey: 'svc_live_9f8e7d6c5b4a39281706',
  openai: 'sk-proj-abcdefghijklmnopqrstuvwx',
  bearer: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
  hex: '4f9a0c3be2d17a88c5e6f0b1d2c3e4f5a6b7c8d9',
  base64: 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkw',
};

describe('insights privacy', () => {
  it('masks e-mail addresses, keys, bearer tokens and long hex or base64 strings', () => {
    const text = `mail ${SECRETS.email}, key ${SECRETS.adminKey} and ${SECRETS.openai}, header ${SECRETS.bearer}, id ${SECRETS.hex}, blob ${SECRETS.base64}`;
    const masked = maskSecrets(text);
    for (const secret of Object.values(SECRETS)) expect(masked).not.toContain(secret.replace(/^Bearer /, ''));
    expect(masked).toBe('mail [email], key [key] and [key], header Bearer [token], id [token], blob [token]');
    // Ordinary words, paths and short numbers stay.
    expect(maskSecrets('How do I set retrievalPageSize to 20 on /guides/theming?')).toBe(
      'How do I set retrievalPageSize to 20 on /guides/theming?',
    );
  });

  it('stores no raw fp and no secret in any insights table, over real answers and searches', async () => {
    const { running, dataDir } = await withData();
    try {
      const fp = 'fp-of-a-reader-7c1e';
      await ask(
        running,
        `How do I install the widget? my mail is ${SECRETS.email} and key ${SECRETS.adminKey}`,
        fp,
      );
      await ask(running, `theme colors with ${SECRETS.bearer} and ${SECRETS.hex}`, fp);
      await fetch(`${running.url}/discovery/v1/search/${DOMAIN}`, {
        method: 'POST',
        headers: authHeaders(),
        body: JSON.stringify({ query: `theme ${SECRETS.openai}` }),
      });
      await fetch(`${running.url}/discovery/v1/assistant/${DOMAIN}/events`, {
        method: 'POST',
        headers: authHeaders(),
        body: JSON.stringify({ fp, events: [{ type: 'search', path: '/', query: `x ${SECRETS.base64}` }] }),
      });
      await running.service.insights!.flush();
      const { rows, values } = await storedValues(dataDir);
      expect(rows.insight_questions).toBe(2);
      expect(rows.insight_readers).toBe(1);
      const all = values.join('\n');
      expect(all).not.toContain(fp);
      for (const secret of Object.values(SECRETS)) expect(all).not.toContain(secret.replace(/^Bearer /, ''));
      expect(all).toContain('[email]');
      expect(all).toContain('theme [key]');
      // The reader is a 32-hex-digit salted hash, not a hash anyone could compute from fp alone.
      const db = await openSqlite(join(dataDir, 'docs-assistant.sqlite'));
      const [reader] = db.prepare('SELECT reader FROM insight_readers').all([]);
      db.close();
      expect(String(reader?.reader)).toMatch(/^[0-9a-f]{32}$/);
      const stats = (await (await admin(running, '/stats')).json()) as { totals: Record<string, number> };
      expect(stats.totals).toMatchObject({ questions: 2, readers: 1, searches: 2 });
    } finally {
      await running.close();
    }
  });

  it('records nothing with insights off: no rows, no capability, 404 insights_off on every route', async () => {
    const { running, dataDir } = await withData({ insights: { enabled: false } });
    try {
      expect(running.service.insights).toBeUndefined();
      await ask(running, 'How do I install the widget?', 'reader-off');
      await fetch(`${running.url}/discovery/v1/search/${DOMAIN}`, {
        method: 'POST',
        headers: authHeaders(),
        body: JSON.stringify({ query: 'theme' }),
      });
      const health = (await (await fetch(`${running.url}/health`)).json()) as { capabilities: string[] };
      expect(health.capabilities).not.toContain('insights');
      for (const path of [
        '/stats',
        '/questions',
        '/gaps',
        '/search',
        '/pages',
        '/conversations',
        '/conversations/thr_x',
      ]) {
        const response = await admin(running, path);
        expect(response.status).toBe(404);
        expect(await response.json()).toMatchObject({ code: 'insights_off' });
      }
      const beacon = await fetch(`${running.url}/discovery/v1/assistant/${DOMAIN}/events`, {
        method: 'POST',
        headers: authHeaders(),
        body: JSON.stringify({ events: [{ type: 'source-click', path: '/' }] }),
      });
      expect(beacon.status).toBe(404);
      expect(await beacon.json()).toMatchObject({ code: 'insights_off' });
      const { rows } = await storedValues(dataDir);
      expect(Object.values(rows).every((n) => n === 0)).toBe(true);
    } finally {
      await running.close();
    }
  });

  it('removes text after the retention window and keeps every figure', async () => {
    const { running, dataDir } = await withData({ insights: { retentionDays: 30 } });
    try {
      const recorder = running.service.insights!;
      const now = Date.parse('2026-12-06T12:00:00Z');
      const old = now - 40 * 24 * 60 * 60 * 1000;
      const question = (at: number, n: number) => ({
        type: 'question' as const,
        domain: DOMAIN,
        at,
        threadId: `thr_ret_${n}`,
        messageId: `msg_${n}`,
        newThread: true,
        fp: `reader-${n}`,
        caller: 'widget' as const,
        text: n % 2 ? 'How do I rotate the admin key?' : 'Kubernetes helm chart values',
        answer: 'An answer.',
        sources: [{ path: '/guides/keys', title: 'Keys', score: 3 }],
        declined: n % 2 === 0,
      });
      await recorder.recordBatch([
        question(old, 1),
        question(old, 2),
        question(now, 3),
        { type: 'search', domain: DOMAIN, at: old, query: 'old query', results: 0 },
        { type: 'search', domain: DOMAIN, at: now, query: 'new query', results: 3 },
      ]);
      const range = '?from=2026-10-01&to=2026-12-06';
      const before = await (await admin(running, `/stats${range}`)).json();
      const forgotten = await recorder.sweep(now);
      expect(forgotten).toBe(2);
      expect(await (await admin(running, `/stats${range}`)).json()).toEqual(before);
      const transcript = (await (await admin(running, '/conversations/thr_ret_1')).json()) as {
        messages: Array<{ text: string | null; sources: unknown[] }>;
      };
      expect(transcript.messages.map((m) => m.text)).toEqual([null, null]);
      expect(transcript.messages[1]!.sources).toHaveLength(1);
      const recent = (await (await admin(running, '/conversations/thr_ret_3')).json()) as {
        messages: Array<{ text: string }>;
      };
      expect(recent.messages[0]!.text).toBe('How do I rotate the admin key?');
      const search = (await (await admin(running, `/search${range}`)).json()) as {
        totals: Record<string, number>;
        top: Array<{ query: string }>;
      };
      expect(search.totals).toMatchObject({ searches: 2, noResults: 1 });
      expect(search.top.map((row) => row.query)).toEqual(['new query']);
      const { values } = await storedValues(dataDir);
      expect(values.join('\n')).not.toContain('old query');
      // The old questions still count in their groups, without an example.
      const questions = (await (await admin(running, `/questions${range}`)).json()) as {
        groups: Array<{ questions: number; examples: string[] }>;
      };
      expect(questions.groups.reduce((n, g) => n + g.questions, 0)).toBe(3);
    } finally {
      await running.close();
    }
  });
});
