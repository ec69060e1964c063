/**
 * Every storage operation, on both implementations of the one schema: SQLite (the embedded
 * default, in a data folder) and PostgreSQL (a throwaway server started here from Debian's
 * binaries). One suite, two backends.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStorage } from '../../packages/docs-assistant-server/src/storage/index';
import type { SqlStorage } from '../../packages/docs-assistant-server/src/storage/sql';
import type { JobRecord, ThreadTurn } from '../../packages/docs-assistant-server/src/storage/types';
import { startTestPostgres, type TestPostgres } from './storage-postgres';

let server: TestPostgres | undefined;
const folders: string[] = [];
let databases = 0;

beforeAll(async () => {
  server = await startTestPostgres();
});
afterAll(async () => {
  server?.stop();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

type Backend = 'sqlite' | 'postgres';

/** A fresh, empty storage of the backend (its own folder or database). */
async function fresh(backend: Backend): Promise<SqlStorage> {
  if (backend === 'postgres') {
    databases += 1;
    return createStorage({ databaseUrl: await server!.createDatabase(`suite_${process.pid}_${databases}`) });
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'da-storage-'));
  folders.push(dataDir);
  return createStorage({ dataDir });
}

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const turn = (question: string, answer = 'a'): ThreadTurn => ({
  question,
  answer,
  sources: ['/guides/theming'],
  at: '2026-03-01T00:00:00.000Z',
});
const thread = (id: string) => ({
  id,
  keyHash: 'f'.repeat(64),
  domain: 'acme',
  fp: 'reader',
  createdAt: '2026-03-01T00:00:00.000Z',
});
const job = (jobId: string, createdAt: string): JobRecord => ({
  jobId,
  organization: 'acme-org',
  domain: 'acme',
  status: 'queued',
  progress: 0,
  pageCount: 0,
  createdAt,
  updatedAt: createdAt,
  attempts: 0,
  paths: ['/guides'],
  version: 'v2',
});
const caps = { maxThreadBytes: 1_000_000, maxTurns: 20 };

describe.each<Backend>(['sqlite', 'postgres'])('storage on %s', (backend) => {
  let storage: SqlStorage;
  beforeEach(async () => {
    storage = await fresh(backend);
    await storage.open();
  });
  afterEach(async () => {
    await storage.close();
  });

  it('migrates once: opening again leaves the schema as it is, and answers health', async () => {
    expect(await storage.health()).toEqual({ ok: true });
    await storage.open();
    await storage.createThread(thread('thr_a'), T0);
    expect(storage.mode).toBe(backend === 'sqlite' ? 'embedded' : 'postgres');
    expect(storage.description).not.toMatch(/password/);
  });

  it('creates a thread and reads it back with its turns, oldest first, the newest maxTurns of them', async () => {
    expect(await storage.getThread('thr_a', 20)).toBeUndefined();
    await storage.createThread(thread('thr_a'), T0);
    await expect(storage.createThread(thread('thr_a'), T0)).rejects.toThrow();
    expect(await storage.getThread('thr_a', 20)).toEqual({ ...thread('thr_a'), turns: [] });
    for (let n = 0; n < 5; n++)
      expect(await storage.appendTurn('thr_a', turn(`q${n}`), caps, T0 + n)).toBe(true);
    const read = await storage.getThread('thr_a', 3);
    expect(read?.turns.map((t) => t.question)).toEqual(['q2', 'q3', 'q4']);
    expect(read?.turns[0]).toEqual(turn('q2'));
  });

  it('keeps a thread within maxTurns and maxThreadBytes, dropping the oldest turns and always the newest kept', async () => {
    await storage.createThread(thread('thr_a'), T0);
    for (let n = 0; n < 25; n++) await storage.appendTurn('thr_a', turn(`q${n}`), caps, T0 + n);
    expect((await storage.getThread('thr_a', 100))?.turns.map((t) => t.question)).toEqual(
      Array.from({ length: 20 }, (_, i) => `q${i + 5}`),
    );
    await storage.createThread(thread('thr_b'), T0);
    const small = { maxThreadBytes: 2500, maxTurns: 20 };
    for (let n = 0; n < 6; n++) await storage.appendTurn('thr_b', turn(`b${n}`, 'x'.repeat(1000)), small, T0);
    expect((await storage.getThread('thr_b', 100))?.turns.map((t) => t.question)).toEqual(['b4', 'b5']);
    // A turn larger than the cap alone still stays: the newest is never dropped.
    await storage.appendTurn('thr_b', turn('huge', 'x'.repeat(5000)), small, T0);
    expect((await storage.getThread('thr_b', 100))?.turns.map((t) => t.question)).toEqual(['huge']);
    const stats = await storage.threadStats();
    expect(stats.threads).toBe(2);
    expect(stats.bytes).toBeGreaterThan(5000);
  });

  it('does not store a turn for a thread that is gone', async () => {
    expect(await storage.appendTurn('thr_missing', turn('q'), caps, T0)).toBe(false);
    expect(await storage.threadStats()).toEqual({ threads: 0, bytes: 0 });
  });

  it('sweeps threads idle past the retention, then the least recently used past the byte and count caps', async () => {
    for (const [n, id] of ['thr_1', 'thr_2', 'thr_3', 'thr_4'].entries()) {
      await storage.createThread(thread(id), T0 + n);
      await storage.appendTurn(id, turn(id, 'x'.repeat(1000)), caps, T0 + n * 1000);
    }
    // thr_1 is used again: now the most recent.
    await storage.appendTurn('thr_1', turn('again'), caps, T0 + 10_000);
    const byAge = await storage.sweep({ olderThan: T0 + 500 }, T0 + 20_000);
    expect(byAge.threadsRemoved).toBe(0);
    const idle = await storage.sweep({ olderThan: T0 + 1500 }, T0 + 20_000);
    // thr_2 (last used at +1000) is idle; thr_1 was used at +10000.
    expect(idle.threadsRemoved).toBe(1);
    expect(await storage.getThread('thr_2', 20)).toBeUndefined();
    const byCount = await storage.sweep({ maxThreads: 2 }, T0 + 20_000);
    expect(byCount.threadsRemoved).toBe(1);
    expect(await storage.getThread('thr_3', 20)).toBeUndefined();
    const { bytes } = await storage.threadStats();
    const byBytes = await storage.sweep({ maxStoredBytes: bytes - 1 }, T0 + 20_000);
    expect(byBytes.threadsRemoved).toBe(1);
    expect(await storage.getThread('thr_4', 20)).toBeUndefined();
    expect((await storage.getThread('thr_1', 20))?.turns.map((t) => t.question)).toEqual(['thr_1', 'again']);
  });

  it('imports the threads of an old threads.jsonl once, within the caps', async () => {
    const old = {
      ...thread('thr_old'),
      turns: Array.from({ length: 25 }, (_, n) => turn(`o${n}`)),
    };
    expect(await storage.importThreads([old], { ...caps, marker: 'threads.jsonl' })).toBe(1);
    expect(await storage.importThreads([old], { ...caps, marker: 'threads.jsonl' })).toBeUndefined();
    const read = await storage.getThread('thr_old', 100);
    expect(read?.turns.map((t) => t.question)).toEqual(Array.from({ length: 20 }, (_, n) => `o${n + 5}`));
    // Turns appended after the import follow the imported ones.
    await storage.appendTurn('thr_old', turn('new'), caps, T0);
    expect((await storage.getThread('thr_old', 1))?.turns.map((t) => t.question)).toEqual(['new']);
  });

  it('records one feedback vote per (thread, message), changeable, and lists a domain’s votes newest first', async () => {
    const first = await storage.recordFeedback(
      { threadId: 'thr_a', messageId: 'msg_1', domain: 'acme', vote: 'up' },
      T0,
    );
    expect(first).toEqual({
      threadId: 'thr_a',
      messageId: 'msg_1',
      domain: 'acme',
      vote: 'up',
      createdAt: new Date(T0).toISOString(),
      updatedAt: new Date(T0).toISOString(),
    });
    await storage.recordFeedback(
      { threadId: 'thr_a', messageId: 'msg_2', domain: 'acme', vote: 'up' },
      T0 + 1,
    );
    await storage.recordFeedback(
      { threadId: 'thr_x', messageId: 'msg_1', domain: 'other', vote: 'down' },
      T0 + 2,
    );
    const changed = await storage.recordFeedback(
      { threadId: 'thr_a', messageId: 'msg_1', domain: 'acme', vote: 'down', comment: 'wrong page' },
      T0 + 3,
    );
    expect(changed).toMatchObject({
      vote: 'down',
      comment: 'wrong page',
      createdAt: new Date(T0).toISOString(),
    });
    const listed = await storage.listFeedback('acme');
    expect(listed.map((f) => [f.messageId, f.vote])).toEqual([
      ['msg_1', 'down'],
      ['msg_2', 'up'],
    ]);
    expect(await storage.listFeedback('acme', { limit: 1 })).toHaveLength(1);
    expect(await storage.listFeedback('acme', { since: new Date(T0 + 2).toISOString() })).toHaveLength(1);
    expect(await storage.listFeedback('nobody')).toEqual([]);
  });

  it('counts requests per key in fixed windows, atomically under concurrent increments', async () => {
    const windowMs = 60_000;
    const start = Math.floor(T0 / windowMs) * windowMs;
    const counts = await Promise.all(
      Array.from({ length: 40 }, () => storage.incrementCounter('ip:1.2.3.4', windowMs, start + 10)),
    );
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    expect(counts.every((c) => c.windowStart === start)).toBe(true);
    expect((await storage.incrementCounter('ip:5.6.7.8', windowMs, start + 20)).count).toBe(1);
    // The next window counts afresh.
    expect(await storage.incrementCounter('ip:1.2.3.4', windowMs, start + windowMs)).toEqual({
      count: 1,
      windowStart: start + windowMs,
    });
    // A sweep removes the counters of windows that ended.
    const swept = await storage.sweep({}, start + 2 * windowMs + 1);
    expect(swept.rateLimitRowsRemoved).toBe(2);
  });

  it('stores export jobs, and hands each to one runner at a time under a lease', async () => {
    await storage.insertJob(job('exp_b', '2026-03-01T00:00:02.000Z'));
    await storage.insertJob(job('exp_a', '2026-03-01T00:00:01.000Z'));
    expect(await storage.getJob('exp_a')).toEqual(job('exp_a', '2026-03-01T00:00:01.000Z'));
    expect(await storage.getJob('exp_none')).toBeUndefined();
    // The oldest first.
    const claimed = await storage.claimJob('runner_1', T0, 1000, 3);
    expect(claimed).toMatchObject({ jobId: 'exp_a', status: 'running', attempts: 1 });
    expect((await storage.claimJob('runner_2', T0, 1000, 3))?.jobId).toBe('exp_b');
    expect(await storage.claimJob('runner_3', T0, 1000, 3)).toBeUndefined();
    // Only the holder updates it; an update extends the lease.
    expect(await storage.updateJob('exp_a', 'runner_2', { progress: 50, updatedAt: 'x' }, T0 + 1000)).toBe(
      false,
    );
    expect(
      await storage.updateJob(
        'exp_a',
        'runner_1',
        { progress: 50, pageCount: 3, updatedAt: '2026-03-01T00:00:05.000Z' },
        T0 + 5000,
      ),
    ).toBe(true);
    expect(await storage.getJob('exp_a')).toMatchObject({
      progress: 50,
      pageCount: 3,
      updatedAt: '2026-03-01T00:00:05.000Z',
    });
    // runner_2 stops renewing: after its lease, exp_b goes to another runner, which starts it afresh.
    await storage.renewLeases('runner_1', T0 + 10_000);
    const taken = await storage.claimJob('runner_3', T0 + 2000, 1000, 3);
    expect(taken).toMatchObject({ jobId: 'exp_b', attempts: 2, progress: 0 });
    expect(await storage.updateJob('exp_b', 'runner_2', { progress: 10, updatedAt: 'x' }, T0)).toBe(false);
    // A clean stop releases at once.
    await storage.releaseJobs('runner_1');
    expect((await storage.claimJob('runner_4', T0 + 2000, 1000, 3))?.jobId).toBe('exp_a');
    expect(
      await storage.updateJob(
        'exp_a',
        'runner_4',
        { status: 'completed', progress: 100, sizeBytes: 1234, updatedAt: 'y' },
        T0,
      ),
    ).toBe(true);
    expect(await storage.getJob('exp_a')).toMatchObject({ status: 'completed', sizeBytes: 1234 });
    // A finished job is not claimed again.
    expect(await storage.claimJob('runner_5', T0 + 100_000, 1000, 3)).toMatchObject({ jobId: 'exp_b' });
  });

  it('marks a job failed once its runners stopped maxAttempts times', async () => {
    await storage.insertJob(job('exp_c', '2026-03-01T00:00:01.000Z'));
    let now = T0;
    for (let attempt = 1; attempt <= 2; attempt++) {
      expect((await storage.claimJob(`runner_${attempt}`, now, 1000, 2))?.attempts).toBe(attempt);
      now += 2000;
    }
    expect(await storage.claimJob('runner_x', now, 1000, 2)).toBeUndefined();
    expect(await storage.getJob('exp_c')).toMatchObject({
      status: 'failed',
      error: 'the service stopped while this job was running, 2 times; start a new export job',
    });
  });

  it('keeps bundles (a file in the data folder, or in the database) that the job row points at', async () => {
    await storage.insertJob(job('exp_d', '2026-03-01T00:00:01.000Z'));
    expect(await storage.getBundle('exp_d')).toBeUndefined();
    const bytes = new Uint8Array(Array.from({ length: 70_000 }, (_, i) => i % 251));
    await storage.putBundle('exp_d', bytes);
    expect(Buffer.from((await storage.getBundle('exp_d'))!).equals(Buffer.from(bytes))).toBe(true);
    // Retention removes finished jobs with their bundles.
    await storage.claimJob('r', T0, 1000, 3);
    await storage.updateJob('exp_d', 'r', { status: 'completed', updatedAt: '2026-03-01T00:00:02.000Z' }, T0);
    expect((await storage.sweep({ olderThan: Date.parse('2026-03-02T00:00:00.000Z') }, T0)).jobsRemoved).toBe(
      1,
    );
    expect(await storage.getJob('exp_d')).toBeUndefined();
    expect(await storage.getBundle('exp_d')).toBeUndefined();
  });

  it('keeps a setting: the first value written stays', async () => {
    expect(await storage.setting('secret', 'one')).toBe('one');
    expect(await storage.setting('secret', 'two')).toBe('one');
  });
});

describe('PostgreSQL with several replicas', () => {
  it('migrates once when two replicas open an empty database at the same time', async () => {
    const url = await server!.createDatabase(`suite_${process.pid}_race`);
    const a = createStorage({ databaseUrl: url });
    const b = createStorage({ databaseUrl: url });
    await Promise.all([a.open(), b.open()]);
    await a.createThread(thread('thr_shared'), T0);
    expect((await b.getThread('thr_shared', 20))?.id).toBe('thr_shared');
    await Promise.all([a.close(), b.close()]);
  });

  it('refuses a URL that is not PostgreSQL, and never shows the password', () => {
    expect(() => createStorage({ databaseUrl: 'mysql://x@y/z' })).toThrow(/must start with postgres:\/\//);
    const storage = createStorage({ databaseUrl: 'postgres://user:hunter2@127.0.0.1:1/db' });
    expect(storage.description).toBe('PostgreSQL at postgres://user:***@127.0.0.1:1/db');
  });
});
