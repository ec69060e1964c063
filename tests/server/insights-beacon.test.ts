/**
 * The reader's beacon and the owner's API at their edges: the beacon takes the assistant key with
 * the public CORS of the reader routes, at most 50 events and 16 kB, and says what is wrong with a
 * body; the API takes only an admin key, sends no CORS header, and refuses bad ranges and cursors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, ASSISTANT_KEY, authHeaders, DOMAIN, type RunningService, startService } from './helpers';

let running: RunningService;
beforeAll(async () => {
  running = await startService();
});
afterAll(() => running.close());

const beacon = (payload: unknown, headers: Record<string, string> = authHeaders()) =>
  fetch(`${running.url}/discovery/v1/assistant/${DOMAIN}/events`, {
    method: 'POST',
    headers,
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

const admin = (path: string, key = ADMIN_KEY) =>
  fetch(`${running.url}/discovery/v1/insights/${DOMAIN}${path}`, {
    headers: { Authorization: `Bearer ${key}`, Origin: 'https://docs.example.com' },
  });

describe('insights edges', () => {
  it('lists the capability in /health', async () => {
    const health = (await (await fetch(`${running.url}/health`)).json()) as { capabilities: string[] };
    expect(health.capabilities).toContain('insights');
  });

  it('takes the beacon with the assistant key and the reader routes’ CORS', async () => {
    const preflight = await fetch(`${running.url}/discovery/v1/assistant/${DOMAIN}/events`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://docs.example.com',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const ok = await beacon({ events: [{ type: 'source-click', path: '/guides/theming' }] });
    expect(ok.status).toBe(202);
    expect(await ok.json()).toEqual({ accepted: 1 });
    expect((await beacon({ events: [] }, { 'Content-Type': 'application/json' })).status).toBe(401);
  });

  it('says what is wrong with a beacon body', async () => {
    const tooMany = await beacon({
      events: Array.from({ length: 51 }, () => ({ type: 'source-click', path: '/' })),
    });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { error: string }).error).toContain('1 to 50 events');
    const bad = await beacon({
      events: [
        { type: 'hover', path: 'guides' },
        { type: 'search', path: '/' },
      ],
    });
    expect(bad.status).toBe(400);
    const { issues } = (await bad.json()) as { issues: Array<{ path: string }> };
    expect(issues.map((issue) => issue.path)).toEqual(['events.0.type', 'events.0.path', 'events.1.query']);
    const big = await beacon({ events: [{ type: 'search', path: '/', query: 'x'.repeat(17_000) }] });
    expect(big.status).toBe(413);
  });

  it('answers the API to an admin key only, without CORS, and refuses bad queries', async () => {
    const ok = await admin('/stats?from=2026-11-01&to=2026-11-30');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBeNull();
    const reader = await admin('/stats', ASSISTANT_KEY);
    expect(reader.status).toBe(403);
    expect(((await reader.json()) as { error: string }).error).toContain('admin API key');
    for (const [query, path] of [
      ['?from=2026-11-31', 'from'],
      ['?from=2026-12-02&to=2026-12-01', 'from'],
      ['?limit=0', 'limit'],
      ['?cursor=nope', 'cursor'],
      ['?format=xml', 'format'],
    ] as const) {
      const response = await admin(`/questions${query}`);
      expect(response.status, query).toBe(400);
      const { issues } = (await response.json()) as { issues: Array<{ path: string }> };
      expect(issues[0]!.path).toBe(path);
    }
    const missing = await admin('/conversations/thr_none');
    expect(missing.status).toBe(404);
    const wrongMethod = await fetch(`${running.url}/discovery/v1/insights/${DOMAIN}/stats`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_KEY}` },
    });
    expect(wrongMethod.status).toBe(405);
  });
});
