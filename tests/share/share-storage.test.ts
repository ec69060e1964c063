/**
 * Shares in every storage backend the service has: SQLite (a data folder), PostgreSQL (a throwaway
 * server) and the in-memory `Map` of the in-memory service. One suite, three backends.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStorage } from '../../packages/docs-assistant-server/src/storage/index';
import { MemoryThreadStorage } from '../../packages/docs-assistant-server/src/storage/memory';
import type {
  ShareStorage,
  ThreadStorage,
  ThreadTurn,
} from '../../packages/docs-assistant-server/src/storage/types';
import { startTestPostgres, type TestPostgres } from '../server/storage-postgres';

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

type Backend = 'sqlite' | 'postgres' | 'memory';
type Both = ThreadStorage & ShareStorage & { close?: () => Promise<void>; open?: () => Promise<void> };

async function fresh(backend: Backend): Promise<Both> {
  if (backend === 'memory') return new MemoryThreadStorage();
  if (backend === 'postgres') {
    databases += 1;
    return createStorage({ databaseUrl: await server!.createDatabase(`share_${process.pid}_${databases}`) });
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'da-share-'));
  folders.push(dataDir);
  return createStorage({ dataDir });
}

const turn = (question: string): ThreadTurn => ({
  question,
  answer: `answer to ${question}`,
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
const share = (idHash: string, threadId: string) => ({
  idHash,
  threadId,
  createdAt: '2026-03-01T00:01:00.000Z',
});
const caps = { maxThreadBytes: 1_000_000, maxTurns: 20 };

describe.each<Backend>(['sqlite', 'postgres', 'memory'])('shares on %s', (backend) => {
  let storage: Both;
  beforeEach(async () => {
    storage = await fresh(backend);
    await storage.open?.();
  });
  afterEach(async () => {
    await storage.close?.();
  });

  it('shows the turns finished when it was shared, not later ones', async () => {
    await storage.createThread(thread('thr_a'), 1);
    await storage.appendTurn('thr_a', turn('one'), caps, 2);
    await storage.appendTurn('thr_a', turn('two'), caps, 3);
    expect(await storage.createShare(share('h1', 'thr_a'), 5)).toBe(true);
    await storage.appendTurn('thr_a', turn('three'), caps, 4);
    const found = await storage.getShare('h1', 20);
    expect(found?.share).toEqual(share('h1', 'thr_a'));
    expect(found?.thread.turns.map((t) => t.question)).toEqual(['one', 'two']);
    expect(found?.thread.turns[0]).toEqual(turn('one'));
    expect(await storage.getShare('h2', 20)).toBeUndefined();
  });

  it('keeps what the thread keeps: trimmed turns are not shown', async () => {
    await storage.createThread(thread('thr_a'), 1);
    for (const q of ['one', 'two', 'three']) await storage.appendTurn('thr_a', turn(q), caps, 2);
    expect(await storage.createShare(share('h1', 'thr_a'), 5)).toBe(true);
    // Two newer turns with a cap of 3: "one" and "two" go from the thread.
    await storage.appendTurn('thr_a', turn('four'), { ...caps, maxTurns: 3 }, 3);
    await storage.appendTurn('thr_a', turn('five'), { ...caps, maxTurns: 3 }, 4);
    const found = await storage.getShare('h1', 20);
    expect(found?.thread.turns.map((t) => t.question)).toEqual(['three']);
  });

  it('refuses a share of an unknown thread and past the per-thread cap', async () => {
    expect(await storage.createShare(share('h1', 'thr_none'), 5)).toBe(false);
    await storage.createThread(thread('thr_a'), 1);
    expect(await storage.createShare(share('h1', 'thr_a'), 2)).toBe(true);
    expect(await storage.createShare(share('h2', 'thr_a'), 2)).toBe(true);
    expect(await storage.createShare(share('h3', 'thr_a'), 2)).toBe(false);
    expect(await storage.getShare('h3', 20)).toBeUndefined();
  });

  it('revokes a share of its own thread only', async () => {
    await storage.createThread(thread('thr_a'), 1);
    await storage.createThread(thread('thr_b'), 1);
    await storage.createShare(share('h1', 'thr_a'), 5);
    expect(await storage.deleteShare('h1', 'thr_b')).toBe(false);
    expect(await storage.getShare('h1', 20)).toBeDefined();
    expect(await storage.deleteShare('h1', 'thr_a')).toBe(true);
    expect(await storage.getShare('h1', 20)).toBeUndefined();
    expect(await storage.deleteShare('h1', 'thr_a')).toBe(false);
  });

  it('goes with its thread when retention removes the thread', async () => {
    await storage.createThread(thread('thr_old'), 1);
    await storage.createThread(thread('thr_new'), 100);
    await storage.createShare(share('h_old', 'thr_old'), 5);
    await storage.createShare(share('h_new', 'thr_new'), 5);
    const result = await storage.sweep({ olderThan: 50 }, 200);
    expect(result.threadsRemoved).toBe(1);
    expect(await storage.getShare('h_old', 20)).toBeUndefined();
    expect(await storage.getShare('h_new', 20)).toBeDefined();
    // A thread of the same id later does not bring the old share back.
    await storage.createThread(thread('thr_old'), 300);
    expect(await storage.getShare('h_old', 20)).toBeUndefined();
  });
});
