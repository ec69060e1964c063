/**
 * Least recently used threads go first, also when many are written within one millisecond (a
 * burst of new conversations): the order of use, not the random thread id, decides.
 */
import { createStorage } from '../../packages/docs-assistant-server/src/storage/index';
import { type CreatedThread, ThreadStore } from '../../packages/docs-assistant-server/src/threads';

it('removes the threads used first, in order, when all were used in the same millisecond', async () => {
  const storage = createStorage({});
  onTestFinished(() => storage.close());
  // A clock that never moves: every write lands in the same millisecond.
  const store = new ThreadStore({ storage, maxThreads: 10, now: () => 1_700_000_000_000, warn: () => {} });
  const owner = { domain: 'acme', fp: 'anonymous' };
  const turn = (question: string) => ({ question, answer: 'a', sources: [], at: '2026-01-01T00:00:00.000Z' });
  const created: CreatedThread[] = [];
  const open = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const next = await store.create(owner);
      await store.append(next.thread, turn(`q${created.length}`));
      created.push(next);
    }
  };
  await open(10);
  // The first thread is used again: it becomes the most recent of the ten.
  await store.append(created[0]!.thread, turn('again'));
  await open(5);
  await store.flush();
  await store.sweep();
  const kept: number[] = [];
  for (const [index, { thread, key }] of created.entries())
    if ((await store.find(thread.id, { ...owner, key })).ok) kept.push(index);
  expect(kept).toEqual([0, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
});
