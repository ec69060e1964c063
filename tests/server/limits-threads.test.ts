import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixedWindowLimiter } from '../../packages/docs-assistant-server/src/rate-limit';
import { createAssistantService } from '../../packages/docs-assistant-server/src/service';
import { createStorage } from '../../packages/docs-assistant-server/src/storage/index';
import {
  type CreatedThread,
  constantTimeEqual,
  hashThreadKey,
  THREADS_FILE,
  ThreadStore,
} from '../../packages/docs-assistant-server/src/threads';
import { ASSISTANT_KEY, ask, authHeaders, body, DOMAIN, FIXTURE_DOCS, startService } from './helpers';

// Windows are aligned to the epoch (routes/rate-limit.ts): a 60 s one restarts the count whenever a
// test's requests straddle a minute, so the limits below are counted in a window no run crosses.
const NO_BOUNDARY_MS = 10 * 365 * 24 * 60 * 60 * 1000;

describe('rate limits (spec §8)', () => {
  it('answers 429 with Retry-After once an organization is over its limit', async () => {
    const running = await startService({
      rateLimits: { perOrganization: { limit: 2, windowMs: NO_BOUNDARY_MS } },
    });
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
      expect(retryAfter).toBeLessThanOrEqual(NO_BOUNDARY_MS / 1000);
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
      const before = Date.now();
      const second = await fetch(running.endpoint(), { method: 'POST', headers: authHeaders(), body: '{}' });
      const after = Date.now();
      expect(second.status).toBe(429);
      expect(second.headers.get('x-ratelimit-limit')).toBe('1');
      expect(second.headers.get('x-ratelimit-remaining')).toBe('0');
      // Windows start at multiples of the window since the epoch (the same on every replica), so a
      // day's window ends at midnight UTC: Retry-After counts the seconds until then.
      const day = 86_400_000;
      const untilEnd = (at: number) => Math.ceil((Math.floor(at / day) * day + day - at) / 1000);
      const retryAfter = Number(second.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(Math.min(untilEnd(before), untilEnd(after)));
      expect(retryAfter).toBeLessThanOrEqual(Math.max(untilEnd(before), untilEnd(after)));
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

  it('survives a restart in the embedded database, which keeps only the hash of the key', async () => {
    const first = newService();
    const turn1 = await ask(first, 'How do I enable dark mode?', { fp: 'reader-1' });
    const threadId = turn1.finish?.threadId;
    const threadKey = turn1.finish?.threadKey;
    expect(threadId).toMatch(/^thr_/);
    expect(threadKey).toMatch(/^thk_/);
    await first.close();
    // Only a hash of the key is stored: the database cannot give the key away.
    const stored = await databaseText(dataDir);
    expect(stored).toContain(threadId!);
    expect(stored).toContain(await hashThreadKey(threadKey!));
    expect(stored).not.toContain(threadKey!);

    const restarted = newService();
    const turn2 = await ask(restarted, 'How do I turn it off?', { fp: 'reader-1', threadId, threadKey });
    expect(turn2.finish?.threadId).toBe(threadId);
    // The earlier turn, read back from the database, still informs retrieval.
    expect(turn2.searchResults[0]?.url).toBe('/guides/theming#turning-dark-mode-off');
    await restarted.close();

    const again = newService();
    await again.ready();
    const found = await again.threads.find(threadId!, { domain: DOMAIN, fp: 'reader-1', key: threadKey! });
    expect(found.ok && found.thread.turns.map((turn) => turn.question)).toEqual([
      'How do I enable dark mode?',
      'How do I turn it off?',
    ]);
    await again.close();
  });

  it('moves an old threads.jsonl (plain keys, a torn last line) into the database once, then renames it', async () => {
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
    // A crash in the middle of a write of the old store left half a line.
    await appendFile(file, '{"v":1,"threadId":"thr_torn","threadKey":"k","dom');
    const warnings: string[] = [];
    const service = newService((message) => warnings.push(message));
    await service.ready();
    expect(warnings.join('\n')).toMatch(/incomplete last line/);
    expect(warnings.join('\n')).toMatch(/moved 1 thread\(s\)/);
    const owner = { domain: DOMAIN, fp: 'f' };
    const found = await service.threads.find('thr_old', { ...owner, key: 'thk_old_secret' });
    expect(found.ok && found.thread.turns.map((turn) => turn.question)).toEqual(['q']);
    expect((await service.threads.find('thr_old', { ...owner, key: 'thk_old_secreT' })).ok).toBe(false);
    expect((await service.threads.find('thr_old', owner)).ok).toBe(false);
    await service.close();
    expect(await databaseText(dataDir)).not.toContain('thk_old_secret');
    expect(await readdir(dataDir)).not.toContain(THREADS_FILE);
    expect(await readFile(`${file}.migrated`, 'utf8')).toContain('thk_old_secret');

    // A restart does not read the renamed file again (a copy put back is not imported twice either).
    const quiet: string[] = [];
    const restarted = newService((message) => quiet.push(message));
    await restarted.ready();
    expect(quiet.join('\n')).not.toMatch(/moved/);
    expect((await restarted.threads.find('thr_old', { ...owner, key: 'thk_old_secret' })).ok).toBe(true);
    await restarted.close();
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
    await store.flush();
    const find = ({ thread, key }: CreatedThread) => store.find(thread.id, { ...owner, key });
    expect((await find(a)).ok).toBe(true);
    expect((await find(b)).ok).toBe(false);
    expect((await find(c)).ok).toBe(true);
  });

  it('keeps the most recently used threads past maxThreads and the last 20 turns, across a restart', async () => {
    let now = Date.parse('2026-01-01T00:00:00.000Z');
    const clock = () => now++;
    const storage = createStorage({ dataDir });
    const store = new ThreadStore({ storage, maxThreads: 3, now: clock, warn: () => {} });
    const owner = { domain: DOMAIN, fp: 'f' };
    const turn = (n: number) => ({
      question: `q${n}`,
      answer: `a${n}`,
      sources: [],
      at: '2026-01-01T00:00:00.000Z',
    });
    const threads = [];
    for (let n = 0; n < 8; n++) threads.push(await store.create(owner));
    for (const { thread } of threads) for (let n = 0; n < 4; n++) await store.append(thread, turn(n));
    const last = threads.at(-1)!;
    for (let n = 4; n < 30; n++) await store.append(last.thread, turn(n));
    await store.flush();
    await store.sweep();
    await storage.close();

    const reopened = createStorage({ dataDir });
    const restarted = new ThreadStore({ storage: reopened });
    for (const [index, { thread, key }] of threads.entries()) {
      const found = await restarted.find(thread.id, { ...owner, key });
      expect(found.ok).toBe(index >= 5);
      if (found.ok && index < 7)
        expect(found.thread.turns.map((t) => t.question)).toEqual(['q0', 'q1', 'q2', 'q3']);
      if (found.ok && index === 7)
        expect(found.thread.turns.map((t) => t.question)).toEqual(
          Array.from({ length: 20 }, (_, i) => `q${i + 10}`),
        );
    }
    await reopened.close();
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

/** The embedded database's files as text, to look for a string anywhere in them. */
async function databaseText(dir: string): Promise<string> {
  let text = '';
  for (const name of await readdir(dir)) {
    if (name.startsWith('docs-assistant.sqlite'))
      text += (await readFile(join(dir, name))).toString('latin1');
  }
  return text;
}
