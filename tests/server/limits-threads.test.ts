import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixedWindowLimiter } from '../../packages/docs-assistant-server/src/rate-limit';
import { createAssistantService } from '../../packages/docs-assistant-server/src/service';
import {
  type CreatedThread,
  constantTimeEqual,
  hashThreadKey,
  THREADS_FILE,
  ThreadStore,
} from '../../packages/docs-assistant-server/src/threads';
import { ASSISTANT_KEY, ask, authHeaders, body, DOMAIN, FIXTURE_DOCS, startService } from './helpers';

describe('rate limits (spec §8)', () => {
  it('answers 429 with Retry-After once an organization is over its limit', async () => {
    const running = await startService({ rateLimits: { perOrganization: { limit: 2, windowMs: 60_000 } } });
    try {
      const send = () =>
        fetch(running.endpoint(), {
          method: 'POST',
          headers: authHeaders(),
          body: JSON.stringify(body('dark mode')),
        });
      for (let i = 0; i < 2; i++) {
        const ok = await send();
        expect(ok.status).toBe(200);
        // The organization's 2 per window is tighter than the address's 10,000 per day.
        expect(ok.headers.get('x-ratelimit-limit')).toBe('2');
        expect(ok.headers.get('x-ratelimit-remaining')).toBe(String(1 - i));
        await ok.text();
      }
      const limited = await send();
      expect(limited.status).toBe(429);
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const json = (await limited.json()) as { error: string; code: string };
      expect(json.code).toBe('rate_limited');
      expect(json.error).toContain('organization');
    } finally {
      await running.close();
    }
  });

  it('limits per IP address, before the key is even checked', async () => {
    const running = await startService({ rateLimits: { perIp: { limit: 1, windowMs: 86_400_000 } } });
    try {
      const first = await fetch(running.endpoint(), {
        method: 'POST',
        headers: authHeaders('svc_dsc_nobody'),
        body: '{}',
      });
      expect(first.status).toBe(401);
      const second = await fetch(running.endpoint(), { method: 'POST', headers: authHeaders(), body: '{}' });
      expect(second.status).toBe(429);
      expect(second.headers.get('x-ratelimit-limit')).toBe('1');
      expect(second.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(3600);
    } finally {
      await running.close();
    }
  });

  it('uses the spec defaults: 10,000 per organization per hour, 10,000 per IP per day', () => {
    const service = createAssistantService({ docs: FIXTURE_DOCS });
    expect(service.config.rateLimits).toEqual({
      perOrganization: { limit: 10_000, windowMs: 3_600_000 },
      perIp: { limit: 10_000, windowMs: 86_400_000 },
    });
  });

  it('frees the window after it ends and keeps memory bounded', () => {
    let now = 0;
    const limiter = new FixedWindowLimiter({ limit: 1, windowMs: 1000, maxKeys: 3, now: () => now });
    expect(limiter.hit('a').allowed).toBe(true);
    const denied = limiter.hit('a');
    expect(denied).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    now = 1000;
    expect(limiter.hit('a').allowed).toBe(true);
    for (const key of ['b', 'c', 'd', 'e']) limiter.hit(key);
    expect(limiter.size).toBeLessThanOrEqual(3);
  });
});

describe('threads persisted in a data folder', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'docs-assistant-threads-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  const newService = (warn: (message: string) => void = () => {}) =>
    createAssistantService({
      docs: FIXTURE_DOCS,
      domain: DOMAIN,
      assistantKey: ASSISTANT_KEY,
      dataDir,
      warn,
    });

  it('survives a restart, and a torn last line is skipped with a warning', async () => {
    const first = newService();
    const turn1 = await ask(first, 'How do I enable dark mode?', { fp: 'reader-1' });
    const threadId = turn1.finish?.threadId;
    const threadKey = turn1.finish?.threadKey;
    expect(threadId).toMatch(/^thr_/);
    expect(threadKey).toMatch(/^thk_/);
    await first.close();

    const file = join(dataDir, THREADS_FILE);
    const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
    // The thread, stored when it was created, then its finished turn.
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ threadId, fp: 'reader-1', domain: DOMAIN });
    expect(JSON.parse(lines[0]!)).not.toHaveProperty('turn');
    // Only a hash of the key is stored: the file cannot give the key away.
    expect(lines.join('\n')).not.toContain(threadKey!);
    expect(JSON.parse(lines[0]!).threadKeyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(lines[1]!)).toMatchObject({
      threadId,
      turn: { question: 'How do I enable dark mode?' },
    });

    // A crash in the middle of a write leaves half a line.
    await appendFile(file, '{"v":1,"threadId":"thr_torn","threadKey":"k","dom');
    const warnings: string[] = [];
    const restarted = newService((message) => warnings.push(message));
    const turn2 = await ask(restarted, 'How do I turn it off?', { fp: 'reader-1', threadId, threadKey });
    expect(turn2.finish?.threadId).toBe(threadId);
    // The earlier turn, read back from disk, still informs retrieval.
    expect(turn2.searchResults[0]?.url).toBe('/guides/theming#turning-dark-mode-off');
    expect(warnings.join('\n')).toMatch(/incomplete last line/);
    await restarted.close();

    // The torn line did not swallow the new record: a third start sees both turns.
    const again = newService();
    await again.ready();
    const found = await again.threads.find(threadId!, { domain: DOMAIN, fp: 'reader-1', key: threadKey! });
    expect(found.ok && found.thread.turns.map((turn) => turn.question)).toEqual([
      'How do I enable dark mode?',
      'How do I turn it off?',
    ]);
    await again.close();
  });

  it('rewrites a file of plain keys (an older version) with their hashes; the keys still work', async () => {
    const file = join(dataDir, THREADS_FILE);
    const at = '2026-01-01T00:00:00.000Z';
    const base = {
      v: 1,
      threadId: 'thr_old',
      threadKey: 'thk_old_secret',
      domain: DOMAIN,
      fp: 'f',
      createdAt: at,
    };
    await writeFile(
      file,
      `${JSON.stringify(base)}\n${JSON.stringify({ ...base, turn: { question: 'q', answer: 'a', sources: [], at } })}\n`,
    );
    const store = new ThreadStore({ dataDir });
    const owner = { domain: DOMAIN, fp: 'f' };
    const found = await store.find('thr_old', { ...owner, key: 'thk_old_secret' });
    expect(found.ok && found.thread.turns.map((turn) => turn.question)).toEqual(['q']);
    expect((await store.find('thr_old', { ...owner, key: 'thk_old_secreT' })).ok).toBe(false);
    expect((await store.find('thr_old', owner)).ok).toBe(false);
    await store.flush();
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('thk_old_secret');
    expect(JSON.parse(text.split('\n')[0]!).threadKeyHash).toBe(await hashThreadKey('thk_old_secret'));
    // And a restart reads the rewritten file the same way.
    const restarted = new ThreadStore({ dataDir });
    expect((await restarted.find('thr_old', { ...owner, key: 'thk_old_secret' })).ok).toBe(true);
  });

  it('forgets the least recently used thread past maxThreads', async () => {
    const store = new ThreadStore({ maxThreads: 2 });
    const owner = { domain: DOMAIN, fp: 'f' };
    const turn = { question: 'q', answer: 'a', sources: [], at: '2026-01-01T00:00:00.000Z' };
    const a = await store.create(owner);
    await store.append(a.thread, turn);
    const b = await store.create(owner);
    await store.append(b.thread, turn);
    await store.append(a.thread, turn);
    // A new thread counts as used: it pushes out b, the least recently used.
    const c = await store.create(owner);
    const find = ({ thread, key }: CreatedThread) => store.find(thread.id, { ...owner, key });
    expect((await find(a)).ok).toBe(true);
    expect((await find(b)).ok).toBe(false);
    expect((await find(c)).ok).toBe(true);
  });

  it('compacts the file to the threads and turns it still holds, and a restart finds the same ones', async () => {
    const warnings: string[] = [];
    const options = { dataDir, maxThreads: 3, compactAfter: 10, warn: (m: string) => warnings.push(m) };
    const store = new ThreadStore(options);
    const owner = { domain: DOMAIN, fp: 'f' };
    const turn = (n: number) => ({
      question: `q${n}`,
      answer: `a${n}`,
      sources: [],
      at: '2026-01-01T00:00:00.000Z',
    });
    const threads = [];
    for (let n = 0; n < 8; n++) threads.push(await store.create(owner));
    // 8 threads of 4 turns each (32 records), but only the last 3 threads are kept.
    for (const { thread } of threads) for (let n = 0; n < 4; n++) await store.append(thread, turn(n));
    await store.flush();
    const lines = (await readFile(join(dataDir, THREADS_FILE), 'utf8')).split('\n').filter(Boolean);
    // Never more than twice what is live (12 records) once past the threshold.
    expect(lines.length).toBeLessThanOrEqual(24);
    expect(lines.every((line) => JSON.parse(line).v === 1)).toBe(true);
    // No temporary file is left behind.
    expect((await readdir(dataDir)).filter((name) => name !== THREADS_FILE)).toEqual([]);

    const restarted = new ThreadStore(options);
    for (const [index, { thread, key }] of threads.entries()) {
      const found = await restarted.find(thread.id, { ...owner, key });
      expect(found.ok).toBe(index >= 5);
      if (found.ok) expect(found.thread.turns.map((t) => t.question)).toEqual(['q0', 'q1', 'q2', 'q3']);
    }
    expect(warnings).toEqual([]);
  });

  it('compacts an oversized file when it loads it, keeping a torn line out', async () => {
    const owner = { domain: DOMAIN, fp: 'f' };
    const store = new ThreadStore({ dataDir, maxThreads: 1_000 });
    const { thread, key } = await store.create(owner);
    // 50 records, of which the store keeps the last 20 turns: more than twice what is live.
    for (let n = 0; n < 50; n++) {
      await store.append(thread, {
        question: `q${n}`,
        answer: 'a',
        sources: [],
        at: '2026-01-01T00:00:00.000Z',
      });
    }
    const file = join(dataDir, THREADS_FILE);
    await writeFile(file, `${await readFile(file, 'utf8')}{"v":1,"threadId":"torn`);
    const warnings: string[] = [];
    const reloaded = new ThreadStore({ dataDir, compactAfter: 10, warn: (m) => warnings.push(m) });
    const found = await reloaded.find(thread.id, { ...owner, key });
    expect(found.ok && found.thread.turns.length).toBe(20);
    await reloaded.flush();
    const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
    // The last 20 turns, each a whole record; the torn line is gone.
    expect(lines.map((line) => JSON.parse(line).turn.question)).toEqual(
      Array.from({ length: 20 }, (_, i) => `q${i + 30}`),
    );
    expect(warnings).toEqual([expect.stringContaining('incomplete last line')]);
  });

  it('keeps threads in memory only without a data folder', async () => {
    const service = createAssistantService({
      docs: FIXTURE_DOCS,
      domain: DOMAIN,
      assistantKey: ASSISTANT_KEY,
    });
    const turn = await ask(service, 'How do I enable dark mode?');
    const restarted = createAssistantService({
      docs: FIXTURE_DOCS,
      domain: DOMAIN,
      assistantKey: ASSISTANT_KEY,
    });
    const found = await restarted.threads.find(turn.finish!.threadId!, {
      domain: DOMAIN,
      fp: 'anonymous',
      key: turn.finish!.threadKey!,
    });
    expect(found.ok).toBe(false);
  });
});

describe('thread keys', () => {
  it('are compared by hash, equal only when every character is', async () => {
    const hash = await hashThreadKey('thk_a');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(constantTimeEqual(hash, await hashThreadKey('thk_a'))).toBe(true);
    expect(constantTimeEqual(hash, await hashThreadKey('thk_b'))).toBe(false);
    // The last character differs: a loop that stopped early would still say "equal" here.
    expect(constantTimeEqual('abcd', 'abce')).toBe(false);
    expect(constantTimeEqual('abcd', 'abc')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });

  it('are required: the store never finds a thread without its key, and keeps only the hash', async () => {
    const store = new ThreadStore();
    const owner = { domain: DOMAIN, fp: 'f' };
    const { thread, key } = await store.create(owner);
    expect(key).toMatch(/^thk_[0-9a-f]{32}$/);
    expect(JSON.stringify(thread)).not.toContain(key);
    expect(thread.keyHash).toBe(await hashThreadKey(key));
    expect((await store.find(thread.id, owner)).ok).toBe(false);
    expect((await store.find(thread.id, { ...owner, key: null })).ok).toBe(false);
    expect((await store.find(thread.id, { ...owner, key: `${key}x` })).ok).toBe(false);
    expect((await store.find(thread.id, { ...owner, key: thread.keyHash })).ok).toBe(false);
    expect((await store.find(thread.id, { ...owner, key })).ok).toBe(true);
  });
});
