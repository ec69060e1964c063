/**
 * The share endpoints over real HTTP on 127.0.0.1: the owner shares a thread, anyone with the
 * assistant key reads the transcript (never the thread's id or key), the owner revokes it, and a
 * share id neither continues nor reads the thread.
 */
import { createInMemoryAssistant } from '../../packages/docs-assistant-server/src/in-memory';
import {
  ASSISTANT_KEY,
  authHeaders,
  body,
  DOMAIN,
  parseStream,
  type RunningService,
  startService,
} from '../server/helpers';

let running: RunningService;
beforeAll(async () => {
  running = await startService();
});
afterAll(async () => {
  await running.close();
});

const api = (path: string) => `${running.url}/discovery/v1/assistant/${DOMAIN}${path}`;

async function askOver(question: string, extra: Record<string, unknown> = {}) {
  const response = await fetch(running.endpoint(), {
    method: 'POST',
    headers: authHeaders(),
    body: JSON.stringify(body(question, extra)),
  });
  const raw = await response.text();
  return { status: response.status, raw, ...(response.status === 200 ? parseStream(raw) : {}) };
}

async function startThread() {
  const first = await askOver('How do I change the colours?');
  const { threadId, threadKey } = first.finish ?? {};
  if (!threadId || !threadKey) throw new Error(`no thread in the first answer: ${first.raw}`);
  return { threadId, threadKey, answer: first.text ?? '' };
}

const share = (threadId: string, owner: Record<string, unknown>) =>
  fetch(api(`/threads/${threadId}/share`), {
    method: 'POST',
    headers: authHeaders(),
    body: JSON.stringify(owner),
  });
const read = (shareId: string, key = ASSISTANT_KEY) =>
  fetch(api(`/shares/${shareId}`), { headers: { Authorization: `Bearer ${key}` } });
const revoke = (threadId: string, shareId: string, owner: Record<string, unknown>) =>
  fetch(api(`/threads/${threadId}/share/${shareId}`), {
    method: 'DELETE',
    headers: authHeaders(),
    body: JSON.stringify(owner),
  });

describe('share endpoints', () => {
  it('says in /health that it shares', async () => {
    const health = (await (await fetch(`${running.url}/health`)).json()) as { capabilities?: string[] };
    expect(health.capabilities).toContain('share');
  });

  it('shares a thread read-only, never with its id or key, until the owner revokes it', async () => {
    const { threadId, threadKey, answer } = await startThread();
    const created = await share(threadId, { fp: 'anonymous', threadKey });
    expect(created.status).toBe(201);
    const { shareId } = (await created.json()) as { shareId: string };
    // 192 random bits in base64url after the prefix.
    expect(shareId).toMatch(/^shr_[A-Za-z0-9_-]{32}$/);

    const response = await read(shareId);
    expect(response.status).toBe(200);
    const raw = await response.text();
    expect(raw).not.toContain(threadId);
    expect(raw).not.toContain(threadKey);
    const transcript = JSON.parse(raw) as {
      title: string;
      messages: { role: string; content: string; sources?: { url: string; path: string }[] }[];
    };
    expect(transcript.title).toBe('How do I change the colours?');
    expect(transcript.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(transcript.messages[1]!.content).toBe(answer);
    expect(transcript.messages[1]!.sources?.length).toBeGreaterThan(0);

    // Turns after the share are not shared.
    await askOver('And in dark mode?', { threadId, threadKey });
    const later = (await (await read(shareId)).json()) as { messages: unknown[] };
    expect(later.messages).toHaveLength(2);

    // Only the owner revokes: the wrong key and the wrong fp get the same 404 as no thread.
    expect((await revoke(threadId, shareId, { fp: 'anonymous', threadKey: 'thk_wrong' })).status).toBe(404);
    expect((await revoke(threadId, shareId, { fp: 'someone-else', threadKey })).status).toBe(404);
    expect((await read(shareId)).status).toBe(200);
    expect((await revoke(threadId, shareId, { fp: 'anonymous', threadKey })).status).toBe(204);
    const gone = await read(shareId);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { code: string }).code).toBe('not_found');
  });

  it('only shares for the owner: wrong key, wrong fp or no key get 404 or 400', async () => {
    const { threadId, threadKey } = await startThread();
    expect((await share(threadId, { fp: 'anonymous', threadKey: 'thk_wrong' })).status).toBe(404);
    expect((await share(threadId, { fp: 'other', threadKey })).status).toBe(404);
    const missing = await share(threadId, { fp: 'anonymous' });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain('threadKey');
    const noKey = await fetch(api(`/threads/${threadId}/share`), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ fp: 'anonymous', threadKey }),
    });
    expect(noKey.status).toBe(401);
  });

  it('a share id neither continues nor reads the thread', async () => {
    const { threadId, threadKey } = await startThread();
    const { shareId } = (await (await share(threadId, { fp: 'anonymous', threadKey })).json()) as {
      shareId: string;
    };
    // As a thread id, with or without itself as the key: no such thread.
    const asThread = await askOver('Next?', { threadId: shareId, threadKey: shareId });
    expect(asThread.status).toBe(404);
    expect(asThread.raw).toContain('thread_not_found');
    // As the key of the real thread: the wrong key.
    const asKey = await askOver('Next?', { threadId, threadKey: shareId });
    expect(asKey.status).toBe(404);
    // Nor does it share (or revoke) the thread as its owner would.
    expect((await share(threadId, { fp: 'anonymous', threadKey: shareId })).status).toBe(404);
    expect((await revoke(threadId, shareId, { fp: 'anonymous', threadKey: shareId })).status).toBe(404);
    // An id that is not a share, or a thread's id in the shares path: 404.
    expect((await read(threadId)).status).toBe(404);
    expect((await read(`shr_${'A'.repeat(32)}`)).status).toBe(404);
  });

  it('lets a page of another origin call it (CORS with DELETE)', async () => {
    const preflight = await fetch(api('/threads/thr_x/share/shr_x'), {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://docs.example.com',
        'Access-Control-Request-Method': 'DELETE',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(preflight.headers.get('access-control-allow-methods')).toContain('DELETE');
  });
});

describe('shares in the in-memory service (no Node built-ins, no database)', () => {
  it('shares, reads and revokes as the Node service does', async () => {
    const assistant = createInMemoryAssistant({
      files: { 'guides/theming.md': '# Theming\n\nSet `--accent` to change the colours of the widget.\n' },
      domain: DOMAIN,
      assistantKey: ASSISTANT_KEY,
    });
    const local = (path: string, init: RequestInit = {}) =>
      assistant.fetch(new Request(`http://mock/discovery/v1/assistant/${DOMAIN}${path}`, init));
    const health = (await (await assistant.fetch(new Request('http://mock/health'))).json()) as {
      capabilities: string[];
    };
    expect(health.capabilities).toEqual(['share', 'feedback']);
    const answer = parseStream(
      await (
        await local('/message', {
          method: 'POST',
          headers: authHeaders(),
          body: JSON.stringify(body('How do I change the colours?')),
        })
      ).text(),
    );
    const { threadId, threadKey } = answer.finish!;
    const owner = JSON.stringify({ fp: 'anonymous', threadKey });
    const created = await local(`/threads/${threadId}/share`, {
      method: 'POST',
      headers: authHeaders(),
      body: owner,
    });
    expect(created.status).toBe(201);
    const { shareId } = (await created.json()) as { shareId: string };
    const read = await local(`/shares/${shareId}`, { headers: authHeaders() });
    expect(((await read.json()) as { messages: unknown[] }).messages).toHaveLength(2);
    const revoked = await local(`/threads/${threadId}/share/${shareId}`, {
      method: 'DELETE',
      headers: authHeaders(),
      body: owner,
    });
    expect(revoked.status).toBe(204);
    expect((await local(`/shares/${shareId}`, { headers: authHeaders() })).status).toBe(404);
    await assistant.close();
  });
});
