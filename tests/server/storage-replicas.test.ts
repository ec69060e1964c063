/**
 * Two service processes on one PostgreSQL, as two replicas behind a load balancer: a conversation
 * alternates between them and keeps its thread, an export job started on one is polled and
 * bundled on the other, a burst from one address is limited across both, and a replica killed
 * with SIGKILL mid-stream loses nothing (its job is taken over once its lease runs out).
 */
import { THREAD_ID_HEADER, THREAD_KEY_HEADER } from '../../packages/docs-assistant/src/protocol';
import { createStorage } from '../../packages/docs-assistant-server/src/storage/index';
import { ADMIN_KEY, ASSISTANT_KEY, authHeaders, body, DOMAIN, FIXTURE_DOCS, parseStream } from './helpers';
import { startTestPostgres, type TestPostgres } from './storage-postgres';
import { type ServiceProcess, startServiceProcess } from './storage-process';

let server: TestPostgres;
const processes: ServiceProcess[] = [];
beforeAll(async () => {
  server = await startTestPostgres();
}, 60_000);
afterAll(async () => {
  for (const running of processes) await running.kill9();
  server?.stop();
});

const admin = { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' };
const replica = (databaseUrl: string, extra: Record<string, unknown> = {}) => {
  const running = startServiceProcess({
    docs: FIXTURE_DOCS,
    domain: DOMAIN,
    assistantKey: ASSISTANT_KEY,
    adminKey: ADMIN_KEY,
    databaseUrl,
    // Behind the load balancer: the address is the first X-Forwarded-For entry.
    trustProxy: true,
    // Windows start at multiples of their length since the epoch: ten years, so no test run straddles two.
    rateLimits: { perIp: { limit: 6, windowMs: 10 * 365 * 24 * 60 * 60 * 1000 } },
    staticExport: { leaseMs: 1500, pollMs: 200 },
    ...extra,
  });
  processes.push(running);
  return running;
};
let addresses = 0;
/** A client address of its own, so each test counts against its own limit. */
const newAddress = () => `198.51.100.${++addresses}`;
const ask = (url: string, payload: unknown, address: string) =>
  fetch(`${url}/discovery/v1/assistant/${DOMAIN}/message`, {
    method: 'POST',
    headers: { ...authHeaders(), 'X-Forwarded-For': address },
    body: JSON.stringify(payload),
  });

async function waitForJob(url: string, jobId: string): Promise<{ status: string; error?: string }> {
  for (;;) {
    const job = (await (await fetch(`${url}/v1/static-export/jobs/${jobId}`, { headers: admin })).json()) as {
      status: string;
      error?: string;
    };
    if (job.status === 'completed' || job.status === 'failed') return job;
  }
}

async function storedQuestions(databaseUrl: string, threadId: string): Promise<string[] | undefined> {
  const storage = createStorage({ databaseUrl });
  try {
    return (await storage.getThread(threadId, 100))?.turns.map((turn) => turn.question);
  } finally {
    await storage.close();
  }
}

describe('two replicas on one PostgreSQL', () => {
  let databaseUrl: string;
  let a: string;
  let b: string;
  beforeAll(async () => {
    databaseUrl = await server.createDatabase('replicas');
    const [first, second] = [replica(databaseUrl), replica(databaseUrl)];
    [a, b] = await Promise.all([first.url(), second.url()]);
  }, 60_000);

  it('continue one conversation turn by turn on either replica', async () => {
    const address = newAddress();
    const opened = await ask(a, body('How do I enable dark mode?'), address);
    const threadId = opened.headers.get(THREAD_ID_HEADER)!;
    const threadKey = opened.headers.get(THREAD_KEY_HEADER)!;
    await opened.text();
    const onB = await ask(b, body('How do I turn it off?', { threadId, threadKey }), address);
    expect(onB.status).toBe(200);
    const second = parseStream(await onB.text());
    expect(second.finish?.threadId).toBe(threadId);
    // B read the first turn (asked on A) for retrieval: the follow-up lands on the right section.
    expect(second.searchResults[0]?.url).toBe('/guides/theming#turning-dark-mode-off');
    const onA = await ask(a, body('And the default?', { threadId, threadKey }), address);
    expect(parseStream(await onA.text()).finish?.threadId).toBe(threadId);
    expect(await storedQuestions(databaseUrl, threadId)).toEqual([
      'How do I enable dark mode?',
      'How do I turn it off?',
      'And the default?',
    ]);
    // A wrong key is refused on both.
    for (const url of [a, b]) {
      const refused = await ask(url, body('?', { threadId, threadKey: `${threadKey}x` }), address);
      expect(refused.status).toBe(404);
    }
  });

  it('run an export job started on one, polled, bundled and downloaded on the other', async () => {
    const started = await fetch(`${a}/v1/static-export/jobs`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ domain: DOMAIN }),
    });
    expect(started.status).toBe(202);
    const { jobId } = (await started.json()) as { jobId: string };
    expect(await waitForJob(b, jobId)).toMatchObject({ status: 'completed' });
    const link = (await (
      await fetch(`${b}/v1/static-export/jobs/${jobId}/bundle`, { method: 'POST', headers: admin })
    ).json()) as {
      bundleUrl: string;
      sizeBytes: number;
    };
    expect(link.bundleUrl.startsWith(b)).toBe(true);
    // Both replicas sign with the one secret kept in the database: the link works on either.
    for (const url of [b, a]) {
      const download = await fetch(link.bundleUrl.replace(b, url));
      expect(download.status).toBe(200);
      expect((await download.arrayBuffer()).byteLength).toBe(link.sizeBytes);
    }
  });

  it('limit a burst from one address across both (one counter, not one per replica)', async () => {
    const address = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await ask(i % 2 ? b : a, body('How do I enable dark mode?'), address);
      statuses.push(response.status);
      await response.text();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    // Another address is not affected.
    expect((await ask(b, body('How do I enable dark mode?'), newAddress())).status).toBe(200);
  });
});

describe('a replica killed with SIGKILL mid-stream', () => {
  it('loses no finished turn, leaves no partial one, and its export job completes on the other replica', async () => {
    const databaseUrl = await server.createDatabase('replicas_kill');
    const doomed = replica(databaseUrl, { holdExport: true });
    const doomedUrl = await doomed.url();
    const address = newAddress();

    const opened = await ask(doomedUrl, body('How do I enable dark mode?'), address);
    const threadId = opened.headers.get(THREAD_ID_HEADER)!;
    const threadKey = opened.headers.get(THREAD_KEY_HEADER)!;
    await opened.text();
    const started = await fetch(`${doomedUrl}/v1/static-export/jobs`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ domain: DOMAIN }),
    });
    const { jobId } = (await started.json()) as { jobId: string };
    expect((await doomed.waitFor(/holding-export (\S+)/))[1]).toBe(jobId);
    // The other replica starts while the doomed one holds the job (and keeps renewing its lease).
    const survivor = replica(databaseUrl);
    const survivorUrl = await survivor.url();
    const held = await ask(doomedUrl, body('HOLD how do I turn it off?', { threadId, threadKey }), address);
    const reader = held.body!.getReader();
    await reader.read();
    await doomed.waitFor(/holding-answer/);
    await doomed.kill9();
    await reader.read().catch(() => undefined);

    expect(await storedQuestions(databaseUrl, threadId)).toEqual(['How do I enable dark mode?']);
    const next = await ask(survivorUrl, body('How do I turn it off?', { threadId, threadKey }), address);
    expect(parseStream(await next.text()).finish?.threadId).toBe(threadId);
    expect(await storedQuestions(databaseUrl, threadId)).toEqual([
      'How do I enable dark mode?',
      'How do I turn it off?',
    ]);
    // Once the dead replica's lease runs out, the survivor runs the job again and bundles it.
    expect(await waitForJob(survivorUrl, jobId)).toMatchObject({ status: 'completed' });
    const link = await fetch(`${survivorUrl}/v1/static-export/jobs/${jobId}/bundle`, {
      method: 'POST',
      headers: admin,
    });
    expect(link.status).toBe(200);
    const storage = createStorage({ databaseUrl });
    expect(await storage.getJob(jobId)).toMatchObject({ status: 'completed', attempts: 2 });
    await storage.close();
  }, 90_000);
});
