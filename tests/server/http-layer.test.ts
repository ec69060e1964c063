/**
 * The one HTTP layer (packages/docs-assistant-server/src/http/), family by family, over real HTTP on
 * 127.0.0.1: a wrong method is 405 with the `Allow` hono computes from the family's routes, a body
 * over the cap is 413 (declared, and counted while a chunked body arrives), and a missing, unknown
 * or wrong-kind key is 401/403 from the one admission middleware, all in the service's error shape
 * (MCP's in JSON-RPC's). CORS goes with the public families, never with the admin ones.
 */

import * as widgetProxy from '../../packages/docs-assistant/src/proxy';
import { createRateLimiter } from '../../packages/docs-assistant/src/routes/route-kit';
import { createAssistantApp } from '../../packages/docs-assistant-server/src/app';
import { createExtractiveEngine } from '../../packages/docs-assistant-server/src/engines/extractive';
import { resolveServiceConfig } from '../../packages/docs-assistant-server/src/options';
import { FixedWindowLimiter, StoredLimiter } from '../../packages/docs-assistant-server/src/rate-limit';
import { createStorage } from '../../packages/docs-assistant-server/src/storage/index';
import { ThreadStore } from '../../packages/docs-assistant-server/src/threads';
import { ADMIN_KEY, ASSISTANT_KEY, DOMAIN, type RunningService, startService } from './helpers';

const MAX_BODY = 4096;

let running: RunningService;
beforeAll(async () => {
  running = await startService({ maxBodyBytes: MAX_BODY, mcp: { requireKey: true } });
});
afterAll(async () => {
  await running.close();
});

interface Family {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** The methods a wrong one is told to use, as `Allow` says them. */
  allow: string;
  /** The kind of key the family takes; none for public ones. */
  key?: 'assistant' | 'admin';
  /** Whether browsers may call it (public CORS). */
  cors: boolean;
  /** Whether it takes a body (and so has a cap). */
  body: boolean;
  /** Its own body cap where it has one (feedback: 16 KiB), else the service's `maxBodyBytes`. */
  cap?: number;
  /**
   * Whether a wrong method's 405 carries public CORS, when that differs from `cors`: the feedback
   * list shares its path with the public vote, so the path's 405 is readable by browsers.
   */
  corsOn405?: boolean;
}

const FAMILIES: Family[] = [
  {
    name: 'assistant v1',
    method: 'POST',
    path: `/discovery/v1/assistant/${DOMAIN}/message`,
    allow: 'POST, OPTIONS',
    key: 'assistant',
    cors: true,
    body: true,
  },
  {
    name: 'assistant v2',
    method: 'POST',
    path: `/discovery/v2/assistant/${DOMAIN}/message`,
    allow: 'POST, OPTIONS',
    key: 'assistant',
    cors: true,
    body: true,
  },
  {
    name: 'search',
    method: 'POST',
    path: `/discovery/v1/search/${DOMAIN}`,
    allow: 'POST, OPTIONS',
    key: 'assistant',
    cors: true,
    body: true,
  },
  {
    name: 'page',
    method: 'POST',
    path: `/discovery/v1/page/${DOMAIN}`,
    allow: 'POST, OPTIONS',
    key: 'assistant',
    cors: true,
    body: true,
  },
  {
    name: 'feedback vote',
    method: 'POST',
    path: `/discovery/v1/assistant/${DOMAIN}/feedback`,
    allow: 'POST, GET, HEAD, OPTIONS',
    key: 'assistant',
    cors: true,
    body: true,
    cap: 16 * 1024,
  },
  {
    name: 'feedback list',
    method: 'GET',
    path: `/discovery/v1/assistant/${DOMAIN}/feedback`,
    allow: 'POST, GET, HEAD, OPTIONS',
    key: 'admin',
    cors: false,
    body: false,
    corsOn405: true,
  },
  {
    name: 'threads: share',
    method: 'POST',
    path: `/discovery/v1/assistant/${DOMAIN}/threads/thr_x/share`,
    allow: 'POST, OPTIONS',
    key: 'assistant',
    cors: true,
    body: true,
  },
  {
    name: 'static export',
    method: 'POST',
    path: '/v1/static-export/jobs',
    allow: 'POST',
    key: 'admin',
    cors: false,
    body: true,
  },
  { name: 'health', method: 'GET', path: '/health', allow: 'GET, HEAD, OPTIONS', cors: true, body: false },
  { name: 'embed', method: 'GET', path: '/embed.js', allow: 'GET, HEAD, OPTIONS', cors: true, body: false },
];

const url = (path: string) => `${running.url}${path}`;
const keyOf = (kind: 'assistant' | 'admin') => (kind === 'assistant' ? ASSISTANT_KEY : ADMIN_KEY);
const otherKey = (kind: 'assistant' | 'admin') => (kind === 'assistant' ? ADMIN_KEY : ASSISTANT_KEY);

async function expectServiceError(response: Response, status: number, code: string): Promise<string> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as { error: unknown; code: unknown };
  expect(typeof body.error).toBe('string');
  expect(body.code).toBe(code);
  return body.error as string;
}

describe.each(FAMILIES)('$name ($method $path)', (family) => {
  it('a wrong method is 405 with Allow from the routes and a sentence naming the right call', async () => {
    const wrong = family.method === 'GET' ? 'PUT' : 'PATCH';
    const response = await fetch(url(family.path), { method: wrong, headers: { Origin: 'https://x.test' } });
    const message = await expectServiceError(response, 405, 'invalid_request');
    expect(response.headers.get('allow')).toBe(family.allow);
    expect(message).toMatch(/\b(Use|GET|POST)\b/);
    expect(response.headers.get('access-control-allow-origin')).toBe(
      (family.corsOn405 ?? family.cors) ? '*' : null,
    );
  });

  it.runIf(family.key)('a missing key is 401, an unknown one 401, the other kind 403', async () => {
    const kind = family.key!;
    const send = (authorization?: string) =>
      fetch(url(family.path), {
        method: family.method,
        headers: {
          'Content-Type': 'application/json',
          ...(authorization ? { Authorization: authorization } : {}),
        },
        ...(family.body ? { body: '{}' } : {}),
      });
    const missing = await send();
    expect(await expectServiceError(missing, 401, 'unauthorized')).toMatch(/Missing API key/);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    // hono's bearer parsing refuses a header that is no bearer credential; the layer answers 401.
    const basic = await send('Basic dXNlcjpwYXNz');
    expect(await expectServiceError(basic, 401, 'unauthorized')).toMatch(/Missing API key/);
    const unknown = await send('Bearer svc_dsc_nobody');
    expect(await expectServiceError(unknown, 401, 'unauthorized')).toMatch(/Invalid API key/);
    const odd = await send('Bearer not-a-key!');
    expect(await expectServiceError(odd, 401, 'unauthorized')).toMatch(
      /does not look like a svc_dsc_ or svc_ key/,
    );
    const other = await send(`Bearer ${otherKey(kind)}`);
    await expectServiceError(other, 403, 'forbidden');
  });

  it.runIf(family.body)('a body over the cap is 413, declared or counted as it arrives', async () => {
    const headers = { Authorization: `Bearer ${keyOf(family.key!)}`, 'Content-Type': 'application/json' };
    const cap = family.cap ?? MAX_BODY;
    const padding = 'x'.repeat(cap * 2);
    const declared = await fetch(url(family.path), {
      method: family.method,
      headers,
      body: JSON.stringify({ padding }),
    });
    expect(await expectServiceError(declared, 413, 'payload_too_large')).toMatch(
      new RegExp(`larger than ${cap} bytes`),
    );
    expect(declared.headers.get('connection')).toBe('close');

    // No Content-Length: the cap counts the bytes while they arrive (bounded: at most 4x the cap).
    let sent = 0;
    const chunk = new TextEncoder().encode(`{"padding":"${'y'.repeat(1024)}`);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= cap * 4) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const chunked = await fetch(url(family.path), {
      method: family.method,
      headers,
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await expectServiceError(chunked, 413, 'payload_too_large');
  });
});

describe('MCP (its own family: JSON-RPC errors)', () => {
  const rpc = async (response: Response, status: number) => {
    expect(response.status).toBe(status);
    return (await response.json()) as { error: { code: number; message: string }; id: null };
  };

  it('a wrong method is 405 with Allow: POST, OPTIONS', async () => {
    const response = await fetch(url('/mcp'), { method: 'PUT' });
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    expect((await rpc(response, 405)).error.message).toMatch(/stateless/);
  });

  it('refuses a missing, unknown or admin key through the service’s admission, in JSON-RPC', async () => {
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const post = (headers: Record<string, string>) =>
      fetch(url('/mcp'), {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: list,
      });
    const missing = await post({});
    expect((await rpc(missing, 401)).error.message).toMatch(/Missing API key/);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect((await rpc(await post({ Authorization: 'Bearer svc_dsc_nobody' }), 401)).error.message).toMatch(
      /Invalid API key/,
    );
    expect((await rpc(await post({ Authorization: `Bearer ${ADMIN_KEY}` }), 403)).error.message).toMatch(
      /admin API key/,
    );
    const ok = await post({ Authorization: `Bearer ${ASSISTANT_KEY}` });
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
  });

  it('a body over the cap is 413 as a JSON-RPC error', async () => {
    const response = await fetch(url('/mcp'), {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${ASSISTANT_KEY}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'ping',
        params: { pad: 'x'.repeat(MAX_BODY * 2) },
      }),
    });
    expect((await rpc(response, 413)).error.code).toBe(-32000);
  });
});

describe("agents' Markdown (public, GET only)", () => {
  it('answers GET with CORS and passes other methods on (404), counting like search', async () => {
    const llms = await fetch(url('/llms.txt'), { headers: { Origin: 'https://x.test' } });
    expect(llms.status).toBe(200);
    expect(llms.headers.get('access-control-allow-origin')).toBe('*');
    await llms.body?.cancel();
    const post = await fetch(url('/llms.txt'), { method: 'POST' });
    await expectServiceError(post, 404, 'not_found');
  });
});

it('one onError: an unexpected failure is a 500 in the service’s shape, logged through its logger', async () => {
  const logged: string[] = [];
  const config = resolveServiceConfig({ docs: ['memory:'], domain: DOMAIN, assistantKey: ASSISTANT_KEY });
  const app = createAssistantApp({
    config,
    threads: new ThreadStore({ maxThreadBytes: 1 << 16, maxStoredBytes: 1 << 20, warn: () => {} }),
    engine: createExtractiveEngine(),
    limiters: {
      perOrganization: new FixedWindowLimiter(config.rateLimits.perOrganization),
      perIp: new FixedWindowLimiter(config.rateLimits.perIp),
    },
    // A docs index that cannot be read: the search handler fails after admission.
    index: () => Promise.reject(new Error('disk on fire')),
    trustProxy: false,
    warn: (message) => logged.push(message),
  });
  const response = await app.fetch(
    new Request(`http://local/discovery/v1/search/${DOMAIN}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ASSISTANT_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'theming' }),
    }),
  );
  expect(await expectServiceError(response, 500, 'internal')).toBe(
    'The service failed to handle this request; try again later.',
  );
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatch(/^unexpected error: Error: disk on fire/);
});

describe('one rate limiter: the service, the proxy and the route kit count alike', () => {
  // Times inside and across windows of 1 s: 1.2 s and 1.9 s share the window [1 s, 2 s).
  const times = [1200, 1500, 1900, 2000, 2999, 3000];

  it('the service counts in memory with the widget package’s limiter, windows aligned to the epoch', () => {
    expect(FixedWindowLimiter).toBe(widgetProxy.FixedWindowLimiter);
    let now = 0;
    const limiter = new FixedWindowLimiter({ limit: 2, windowMs: 1000, now: () => now });
    const seen = times.map((at) => {
      now = at;
      const { allowed, remaining, retryAfterSeconds } = limiter.hit('k');
      return [allowed, remaining, retryAfterSeconds];
    });
    expect(seen).toEqual([
      [true, 1, 1],
      [true, 0, 1],
      [false, 0, 1],
      [true, 1, 1],
      [true, 0, 1],
      [true, 1, 1],
    ]);
  });

  it('counted in the storage (replicas), the decisions are the same as in memory', async () => {
    const storage = createStorage({});
    try {
      let now = 0;
      const stored = new StoredLimiter(storage, { scope: 'ip', limit: 2, windowMs: 1000, now: () => now });
      const memory = new FixedWindowLimiter({ limit: 2, windowMs: 1000, now: () => now });
      for (const at of times) {
        now = at;
        expect(await stored.hit('k')).toEqual(memory.hit('k'));
      }
    } finally {
      await storage.close();
    }
  });

  it('the route kit’s take (proxy, static export handler) refuses with the seconds left of the window', () => {
    const limiter = createRateLimiter(1, 60_000);
    expect(limiter.take('reader')).toBeUndefined();
    const wait = limiter.take('reader');
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(limiter.take('another reader')).toBeUndefined();
  });
});
