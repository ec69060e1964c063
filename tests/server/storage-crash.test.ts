/**
 * Crash safety comes from the database's transactions: a service killed with SIGKILL mid-answer,
 * mid-export or mid-migration loses no finished turn and leaves no partial row; a full disk gives
 * a clear error while the assistant keeps answering; a database that is down at start-up or goes
 * away gives 503 with a message and recovers when it is back.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { THREAD_ID_HEADER, THREAD_KEY_HEADER } from '../../packages/docs-assistant/src/protocol';
import { createAssistantService } from '../../packages/docs-assistant-server/src/service';
import { createStorage, SQLITE_FILE } from '../../packages/docs-assistant-server/src/storage/index';
import { openSqlite } from '../../packages/docs-assistant-server/src/storage/sqlite-binding';
import { hashThreadKey, THREADS_FILE } from '../../packages/docs-assistant-server/src/threads';
import {
  ADMIN_KEY,
  ASSISTANT_KEY,
  authHeaders,
  body,
  DOMAIN,
  FIXTURE_DOCS,
  mcpSearch,
  parseStream,
} from './helpers';
import { startTestPostgres } from './storage-postgres';
import { type ServiceProcess, startServiceProcess } from './storage-process';

let dataDir: string;
const processes: ServiceProcess[] = [];
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'da-crash-'));
});
afterEach(async () => {
  for (const running of processes.splice(0)) await running.kill9();
  await rm(dataDir, { recursive: true, force: true });
});

const serviceOptions = () => ({
  docs: FIXTURE_DOCS,
  domain: DOMAIN,
  assistantKey: ASSISTANT_KEY,
  adminKey: ADMIN_KEY,
  dataDir,
});
const spawnService = (extra: Record<string, unknown> = {}) => {
  const running = startServiceProcess({ ...serviceOptions(), ...extra });
  processes.push(running);
  return running;
};
const endpoint = (url: string) => `${url}/discovery/v1/assistant/${DOMAIN}/message`;
const post = (url: string, payload: unknown) =>
  fetch(endpoint(url), { method: 'POST', headers: authHeaders(), body: JSON.stringify(payload) });
const admin = { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' };

/** The thread's questions as stored in the data folder's database (read after the process is gone). */
async function storedQuestions(threadId: string): Promise<string[] | undefined> {
  const storage = createStorage({ dataDir });
  try {
    return (await storage.getThread(threadId, 100))?.turns.map((turn) => turn.question);
  } finally {
    await storage.close();
  }
}

/**
 * SQLite's own check of the file, and whether the thread's row agrees with its turn rows (its turn
 * count and bytes are updated in the same transaction as each turn is added).
 */
async function consistency(threadId: string): Promise<{ integrity: unknown; counted: boolean }> {
  // The library the service itself opens the file with on this Node (node:sqlite or better-sqlite3).
  const db = await openSqlite(join(dataDir, SQLITE_FILE));
  try {
    const [check] = db.prepare('PRAGMA integrity_check').all([]);
    const [thread] = db.prepare('SELECT turn_count, bytes FROM threads WHERE id = ?').all([threadId]);
    const [turns] = db
      .prepare('SELECT COUNT(*) AS n, SUM(bytes) AS bytes FROM turns WHERE thread_id = ?')
      .all([threadId]);
    return {
      integrity: check?.integrity_check,
      counted: thread?.turn_count === turns?.n && thread?.bytes === turns?.bytes,
    };
  } finally {
    db.close();
  }
}

describe('kill -9 of an embedded service', () => {
  it('mid-answer: the finished turn stays, the half-streamed one leaves nothing, the thread goes on', async () => {
    const first = spawnService();
    const url = await first.url();
    const opened = await post(url, body('How do I enable dark mode?'));
    const threadId = opened.headers.get(THREAD_ID_HEADER)!;
    const threadKey = opened.headers.get(THREAD_KEY_HEADER)!;
    expect(parseStream(await opened.text()).finish?.threadId).toBe(threadId);

    const held = await post(url, body('HOLD and then how do I turn it off?', { threadId, threadKey }));
    expect(held.status).toBe(200);
    const reader = held.body!.getReader();
    const firstChunk = new TextDecoder().decode((await reader.read()).value);
    await first.waitFor(/holding-answer/);
    expect(firstChunk.length).toBeGreaterThan(0);
    await first.kill9();
    await reader.read().catch(() => undefined);

    expect(await storedQuestions(threadId)).toEqual(['How do I enable dark mode?']);
    expect(await consistency(threadId)).toEqual({ integrity: 'ok', counted: true });

    const second = spawnService();
    const next = await post(await second.url(), body('How do I turn it off?', { threadId, threadKey }));
    expect(parseStream(await next.text()).finish?.threadId).toBe(threadId);
    await second.kill9();
    expect(await storedQuestions(threadId)).toEqual(['How do I enable dark mode?', 'How do I turn it off?']);
  }, 60_000);

  it('mid-export: the job is run again at the next start and completes with its bundle; no partial file stays', async () => {
    const first = spawnService({ holdExport: true });
    const url = await first.url();
    const started = await fetch(`${url}/v1/static-export/jobs`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ domain: DOMAIN }),
    });
    expect(started.status).toBe(202);
    const { jobId } = (await started.json()) as { jobId: string };
    expect((await first.waitFor(/holding-export (\S+)/))[1]).toBe(jobId);
    await first.kill9();

    const second = spawnService();
    const again = await second.url();
    let status = '';
    // Waits for the state, polling the service (no clock involved).
    while (status !== 'completed' && status !== 'failed') {
      const job = (await (
        await fetch(`${again}/v1/static-export/jobs/${jobId}`, { headers: admin })
      ).json()) as {
        status: string;
        error?: string;
      };
      status = job.status;
      if (status === 'failed') throw new Error(`the resumed job failed: ${job.error}`);
    }
    const link = (await (
      await fetch(`${again}/v1/static-export/jobs/${jobId}/bundle`, { method: 'POST', headers: admin })
    ).json()) as { bundleUrl: string; sizeBytes: number };
    const download = await fetch(link.bundleUrl);
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBe(link.sizeBytes);
    const bundles = await readdir(join(dataDir, 'static-export', 'bundles'));
    expect(bundles).toEqual([`${jobId}.tar.gz`]);
  }, 60_000);

  it('mid-migration of threads.jsonl: nothing is imported, the file stays, and the next start imports it whole', async () => {
    const at = '2026-01-01T00:00:00.000Z';
    const lines: string[] = [];
    for (let n = 0; n < 3; n++) {
      const record = {
        v: 1,
        threadId: `thr_m${n}`,
        threadKeyHash: await hashThreadKey(`thk_m${n}`),
        domain: DOMAIN,
        fp: 'f',
        createdAt: at,
      };
      lines.push(JSON.stringify(record));
      lines.push(
        JSON.stringify({ ...record, turn: { question: `question ${n}`, answer: 'a', sources: [], at } }),
      );
    }
    await writeFile(join(dataDir, THREADS_FILE), `${lines.join('\n')}\n`);
    const migrating = spawnService({ holdMigration: true });
    await migrating.waitFor(/holding-migration/);
    await migrating.kill9();

    expect(await readdir(dataDir)).toContain(THREADS_FILE);
    const storage = createStorage({ dataDir });
    expect(await storage.threadStats()).toEqual({ threads: 0, bytes: 0 });
    await storage.close();

    const service = createAssistantService({ ...serviceOptions(), warn: () => {} });
    await service.ready();
    expect(await service.threads.stats()).toMatchObject({ threads: 3 });
    const found = await service.threads.find('thr_m2', { domain: DOMAIN, fp: 'f', key: 'thk_m2' });
    expect(found.ok && found.thread.turns.map((turn) => turn.question)).toEqual(['question 2']);
    expect(await readdir(dataDir)).toContain(`${THREADS_FILE}.migrated`);
    await service.close();
  }, 60_000);
});

describe('a full disk', () => {
  it('is a clear error in the log, and the assistant keeps answering without saving the turn', async () => {
    // The database may not grow past 64 pages of 4 KiB: SQLite answers "database or disk is full".
    // The storage says it in the log, once (the service's threads no longer repeat it per thread).
    const warnings: string[] = [];
    const storage = createStorage({ dataDir, maxPages: 64, warn: (message) => warnings.push(message) });
    const service = createAssistantService({
      ...serviceOptions(),
      storage,
      warn: (message) => warnings.push(message),
    });
    await service.ready();
    const big = 'x'.repeat(20_000);
    let threadId: string | undefined;
    let threadKey: string | undefined;
    const statuses: number[] = [];
    let answered = 0;
    // Each request opens a thread and stores a ~40 kB turn: the database is full within 10.
    for (let i = 0; i < 12; i++) {
      const response = await service.fetch(
        new Request(endpoint('http://local'), {
          method: 'POST',
          headers: authHeaders(),
          body: JSON.stringify(body(`How do I enable dark mode? ${i} ${big}`, { fp: `reader-${i}` })),
        }),
      );
      statuses.push(response.status);
      const parsed = parseStream(await response.text());
      if (parsed.text.includes('dark')) answered += 1;
      threadId ??= parsed.finish?.threadId;
      threadKey ??= parsed.finish?.threadKey;
    }
    expect(statuses).toEqual(Array(12).fill(200));
    expect(answered).toBe(12);
    const full = warnings.filter((w) => /is full/.test(w));
    expect(full.length).toBeGreaterThan(0);
    expect(full[0]).toMatch(/database or disk is full/);
    expect(full[0]).toMatch(/answers without saving/);
    // Said once each time the database fills: a small write may still fit (a new thread's row),
    // which the log says, but never "full" twice in a row, and not once per request.
    const episodes = warnings.filter((w) => /is full|accepts writes again/.test(w));
    for (const [i, w] of episodes.entries()) {
      expect(w).toMatch(i % 2 === 0 ? /is full/ : /accepts writes again/);
    }
    expect(full.length).toBeLessThan(statuses.length);
    // What was stored before the disk filled is still there.
    const found = await service.threads.find(threadId!, { domain: DOMAIN, fp: 'reader-0', key: threadKey! });
    expect(found.ok).toBe(true);
    await service.close();
    await storage.close();
  }, 60_000);
});

describe('PostgreSQL that is down at start-up or goes away', () => {
  it('answers 503 with a message while it is unreachable, reports it in /health, and recovers by itself', async () => {
    // Durable: this server is stopped like a crash, and what was committed must still be there.
    const server = await startTestPostgres({ durable: true });
    try {
      const databaseUrl = await server.createDatabase('availability');
      server.stopServer();
      const warnings: string[] = [];
      const service = createAssistantService({
        docs: FIXTURE_DOCS,
        domain: DOMAIN,
        assistantKey: ASSISTANT_KEY,
        adminKey: ADMIN_KEY,
        databaseUrl,
        warn: (message) => warnings.push(message),
      });
      const startJob = () =>
        service.fetch(
          new Request('http://local/v1/static-export/jobs', {
            method: 'POST',
            headers: admin,
            body: JSON.stringify({ domain: DOMAIN }),
          }),
        );
      // Starts anyway, saying why requests will get 503.
      await service.ready();
      expect(warnings.join('\n')).toMatch(/unreachable.*503/s);
      const ask = () =>
        service.fetch(
          new Request(endpoint('http://local'), {
            method: 'POST',
            headers: authHeaders(),
            body: JSON.stringify(body('How do I enable dark mode?')),
          }),
        );
      const down = await ask();
      expect(down.status).toBe(503);
      expect(down.headers.get('Retry-After')).toBe('5');
      const error = (await down.json()) as { error: string; code: string };
      expect(error.code).toBe('unavailable');
      expect(error.error).toMatch(
        /database \(PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:\d+\/availability\) is unreachable/,
      );
      const health = await service.fetch(new Request('http://local/health'));
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({
        ok: false,
        storage: { mode: 'postgres', reachable: false },
      });
      const noJob = await startJob();
      expect(noJob.status).toBe(503);
      expect(((await noJob.json()) as { code: string }).code).toBe('unavailable');
      // MCP over HTTP counts its callers in the database too: while it is away, a tool call is
      // told so in JSON-RPC (a tool's error, the transport's status 200), not as a rate limit.
      const tool = await service.fetch(mcpSearch('http://local', 'dark mode'));
      expect(tool.status).toBe(200);
      const rpc = (await tool.json()) as { error?: { code: number; message: string } };
      expect(rpc.error?.message).toMatch(/database \(PostgreSQL at .*\) is unreachable.*Try again shortly/);

      server.startServer();
      const up = await ask();
      expect(up.status, warnings.join('\n')).toBe(200);
      const { threadId, threadKey } = parseStream(await up.text()).finish!;
      // The static export routes recover too (their start-up failed with the database down).
      expect((await startJob()).status).toBe(202);
      expect(await (await service.fetch(new Request('http://local/health'))).json()).toMatchObject({
        ok: true,
        storage: { mode: 'postgres', reachable: true },
      });

      // It goes away mid-life: 503 again, then back.
      server.stopServer();
      const again = await ask();
      expect(again.status).toBe(503);
      expect(((await again.json()) as { code: string }).code).toBe('unavailable');
      server.startServer();
      const back = await service.fetch(
        new Request(endpoint('http://local'), {
          method: 'POST',
          headers: authHeaders(),
          body: JSON.stringify(body('How do I turn it off?', { threadId, threadKey })),
        }),
      );
      expect(back.status, await back.clone().text()).toBe(200);
      expect(parseStream(await back.text()).finish?.threadId).toBe(threadId);
      await service.close();
    } finally {
      server.stop();
    }
  }, 90_000);
});
