/**
 * `createAssistantProxy` over real HTTP: the proxy mounted in a Node server on 127.0.0.1 as a host
 * mounts it, the reference service (or a recording stand-in where the test needs to see or shape
 * what the service does) behind it on another port.
 */
import {
  type AssistantProxyOptions,
  createAssistantProxy,
  FORWARDED_RESPONSE_HEADERS,
} from 'docs-assistant/proxy';
import { DATA_STREAM_HEADERS, finishLine, serveHttp } from '../chat/helpers';
import {
  ADMIN_KEY,
  ASSISTANT_KEY,
  DOMAIN,
  parseStream,
  type RunningService,
  body as requestBody,
  startService,
} from '../server/helpers';
import { listen } from '../static-export/helpers';

// Windows are aligned to the epoch (routes/rate-limit.ts): a 60 s one restarts the count whenever a
// test's requests straddle a minute, so the limits below are counted in a window no run crosses.
const NO_BOUNDARY_MS = 10 * 365 * 24 * 60 * 60 * 1000;

let reference: RunningService;
/** What reached the reference service through the proxy, headers as received. */
const upstreamRequests: { path: string; headers: Headers }[] = [];
let upstream: { url: string; close: () => Promise<void> };
const toClose: (() => Promise<void>)[] = [];

beforeAll(async () => {
  reference = await startService();
  // The service as the proxy reaches it, with each request recorded on its way in.
  upstream = await listen((request) => {
    upstreamRequests.push({ path: new URL(request.url).pathname, headers: new Headers(request.headers) });
    return reference.service.fetch(request);
  });
});
afterEach(async () => {
  upstreamRequests.length = 0;
  while (toClose.length) await toClose.pop()?.();
});
afterAll(async () => {
  await upstream.close();
  await reference.close();
});

/** Mounts a proxy as a host does and returns its route's URL. */
async function mount(options: Partial<AssistantProxyOptions> = {}): Promise<string> {
  const host = await listen(
    createAssistantProxy({ baseUrl: upstream.url, domain: DOMAIN, apiKey: ASSISTANT_KEY, ...options }),
  );
  toClose.push(host.close);
  return `${host.url}/api/assistant`;
}

/** What the widget's page sends: JSON, and whatever cookies the host's site set. */
function ask(route: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(route, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

async function expectError(response: Response, status: number, code: string, message?: RegExp) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'error']);
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  if (message) expect(body.error).toMatch(message);
}

describe('creating the proxy', () => {
  const base = () => ({ baseUrl: upstream.url, domain: DOMAIN, apiKey: ASSISTANT_KEY });

  it('refuses an admin key, saying only the assistant key belongs there', () => {
    expect(() => createAssistantProxy({ ...base(), apiKey: ADMIN_KEY })).toThrow(
      /apiKey is an admin key \(svc_…\)\. Only the assistant key \(svc_dsc_…\) belongs in this route/,
    );
  });

  it.each([
    ['a missing key', { apiKey: undefined }, /apiKey is missing or not an assistant key/],
    ['a key of no known kind', { apiKey: 'sk-123' }, /apiKey is missing or not an assistant key/],
    ['a key with a line break', { apiKey: 'svc_dsc_a\nX: 1' }, /cannot carry/],
    ['a relative baseUrl', { baseUrl: '/api' }, /baseUrl "\/api" is not an absolute http\(s\) URL/],
    ['a missing domain', { domain: '' }, /domain is missing/],
    ['an authorize that is not a function', { authorize: true }, /authorize must be a function/],
    [
      'a rate limit without a window',
      { rateLimit: { limit: 5 } },
      /rateLimit takes \{ limit, windowMs, key\? \}/,
    ],
    ['a body cap of zero', { maxBodyBytes: 0 }, /maxBodyBytes must be a positive whole number/],
  ])('refuses %s, saying what to change', (_name, overrides, message) => {
    const options = { ...base(), ...overrides } as unknown as AssistantProxyOptions;
    expect(() => createAssistantProxy(options)).toThrow(message);
  });
});

describe('a conversation through the proxy', () => {
  it('keeps its thread over two turns: the thread headers come back, the follow-up is accepted', async () => {
    const route = await mount();
    const first = await ask(route, requestBody('How do I install acme-widgets?'));
    expect(first.status).toBe(200);
    expect(first.headers.get('x-vercel-ai-data-stream')).toBe('v1');
    const threadId = first.headers.get('x-thread-id');
    const threadKey = first.headers.get('x-thread-key');
    expect(threadId).toBeTruthy();
    expect(threadKey).toBeTruthy();
    const one = parseStream(await first.text());
    expect(one.text.length).toBeGreaterThan(0);
    expect(one.finish?.threadId).toBe(threadId);

    const second = await ask(route, requestBody('And how do I configure it?', { threadId, threadKey }));
    expect(second.status).toBe(200);
    const two = parseStream(await second.text());
    expect(two.finish?.threadId).toBe(threadId);
    // A thread key is handed out once, with the thread.
    expect(second.headers.get('x-thread-key')).toBeNull();

    // The same follow-up without the key is refused by the service: the proxy adds no thread access.
    const keyless = await ask(route, requestBody('What did they ask?', { threadId }));
    expect(keyless.status).toBe(404);

    expect(upstreamRequests.map((request) => request.path)).toEqual([
      `/discovery/v1/assistant/${DOMAIN}/message`,
      `/discovery/v1/assistant/${DOMAIN}/message`,
      `/discovery/v1/assistant/${DOMAIN}/message`,
    ]);
    for (const request of upstreamRequests) {
      expect(request.headers.get('authorization')).toBe(`Bearer ${ASSISTANT_KEY}`);
    }
  });

  it("sends none of the reader's cookies or credentials upstream, only its own key", async () => {
    const route = await mount();
    const response = await ask(route, requestBody('How do I install acme-widgets?'), {
      Cookie: 'session=reader-secret',
      Authorization: 'Bearer reader-session-token',
      'X-Custom': 'page-header',
      'X-Forwarded-For': '203.0.113.9',
    });
    expect(response.status).toBe(200);
    await response.text();
    expect(upstreamRequests).toHaveLength(1);
    const sent = upstreamRequests[0]!.headers;
    expect(sent.get('authorization')).toBe(`Bearer ${ASSISTANT_KEY}`);
    expect(sent.get('content-type')).toBe('application/json');
    for (const name of ['cookie', 'x-custom', 'x-forwarded-for']) expect(sent.get(name), name).toBeNull();
  });

  it("passes the service's errors through with their status and body", async () => {
    const route = await mount();
    const response = await ask(route, requestBody('Hi', { threadId: 'no-such-thread', threadKey: 'k' }));
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: unknown };
    expect(typeof body.error).toBe('string');
  });
});

describe('the answer as it streams', () => {
  it('reaches the reader before the service has finished writing it (no buffering)', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let finished = false;
    const holding = await serveHttp(async (_request, response) => {
      response.writeHead(200, { ...DATA_STREAM_HEADERS, 'X-Thread-Id': 't-1', 'X-Thread-Key': 'k-1' });
      response.write('0:"First words"\n');
      // Bounded: the stream ends on its own if the test never releases it.
      await Promise.race([released, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      finished = true;
      response.end(`0:" and the rest."\n${finishLine({ threadId: 't-1' })}`);
    });
    toClose.push(holding.close);
    const route = await mount({ baseUrl: holding.baseUrl });

    const response = await ask(route, requestBody('Stream it?'));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-thread-id')).toBe('t-1');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toBe('0:"First words"\n');
    // The first line arrived while the service still held its stream open.
    expect(finished).toBe(false);

    release();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += decoder.decode(chunk.value, { stream: true });
    }
    expect(finished).toBe(true);
    expect(parseStream(text).text).toBe('First words and the rest.');
  });

  it('passes back only the documented headers, never Set-Cookie', async () => {
    const noisy = await serveHttp((_request, response) => {
      response.writeHead(200, {
        ...DATA_STREAM_HEADERS,
        'X-Thread-Id': 't-2',
        'X-Thread-Key': 'k-2',
        'Set-Cookie': 'upstream=1; Path=/',
        'X-Powered-By': 'upstream',
        'Access-Control-Allow-Origin': '*',
        'X-Internal-Trace': 'abc',
      });
      response.end(`0:"Hi"\n${finishLine({ threadId: 't-2' })}`);
    });
    toClose.push(noisy.close);
    const route = await mount({ baseUrl: noisy.baseUrl });
    const response = await ask(route, requestBody('Headers?'));
    await response.text();
    const allowed = new Set([
      ...FORWARDED_RESPONSE_HEADERS.map((name) => name.toLowerCase()),
      'x-accel-buffering',
      // Set by the host's HTTP server for the stream, not taken from the service.
      'date',
      'connection',
      'keep-alive',
      'transfer-encoding',
    ]);
    const names = [...response.headers.keys()];
    expect(names.filter((name) => !allowed.has(name))).toEqual([]);
    expect(response.headers.get('x-thread-id')).toBe('t-2');
    expect(response.headers.get('x-thread-key')).toBe('k-2');
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('requests the proxy refuses', () => {
  it('answers a GET with 405 and Allow: POST', async () => {
    const response = await fetch(await mount());
    expect(response.headers.get('allow')).toBe('POST');
    await expectError(response, 405, 'method_not_allowed');
    expect(upstreamRequests).toEqual([]);
  });

  it('refuses a body that is not JSON (a cross-site form or text/plain fetch)', async () => {
    const route = await mount();
    const response = await fetch(route, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify(requestBody('Hi')),
    });
    await expectError(response, 415, 'unsupported_media_type', /application\/json/);
    await expectError(
      await fetch(route, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"fp":' }),
      400,
      'invalid_json',
    );
    expect(upstreamRequests).toEqual([]);
  });

  it('stops reading a body past its cap, even one sent without a length', async () => {
    const route = await mount({ maxBodyBytes: 64 * 1024 });
    const chunk = new TextEncoder().encode(`{"fp":"${'x'.repeat(16 * 1024)}`);
    let pulled = 0;
    // 4 MiB offered in 16 KiB chunks; the proxy must give up long before the end.
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled > 256) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const response = await fetch(route, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await expectError(response, 413, 'payload_too_large', /65536 bytes/);
    expect(pulled).toBeLessThan(256);
    expect(upstreamRequests).toEqual([]);
  });

  it('asks authorize first: 401 when it says no, 500 when it throws, never reaching the service', async () => {
    const seen: (string | null)[] = [];
    const route = await mount({
      authorize: (request) => {
        seen.push(request.headers.get('cookie'));
        return request.headers.get('cookie') === 'session=ok';
      },
    });
    await expectError(await ask(route, requestBody('Hi')), 401, 'unauthorized');
    const allowed = await ask(route, requestBody('How do I install acme-widgets?'), { Cookie: 'session=ok' });
    expect(allowed.status).toBe(200);
    await allowed.text();
    expect(seen).toEqual([null, 'session=ok']);
    expect(upstreamRequests).toHaveLength(1);

    const throwing = await mount({
      authorize: () => {
        throw new Error('session store down');
      },
    });
    await expectError(await ask(throwing, requestBody('Hi')), 500, 'internal');
    expect(upstreamRequests).toHaveLength(1);
  });

  it('limits each reader by its key: 429 with Retry-After past the limit, others unaffected', async () => {
    const route = await mount({
      rateLimit: {
        limit: 2,
        windowMs: NO_BOUNDARY_MS,
        key: (request) => request.headers.get('x-user') ?? 'anonymous',
      },
    });
    for (let i = 0; i < 2; i++) {
      const ok = await ask(route, requestBody('How do I install acme-widgets?'), { 'X-User': 'ann' });
      expect(ok.status).toBe(200);
      await ok.text();
    }
    const limited = await ask(route, requestBody('Hi'), { 'X-User': 'ann' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    await expectError(limited, 429, 'rate_limited');
    const other = await ask(route, requestBody('How do I install acme-widgets?'), { 'X-User': 'bob' });
    expect(other.status).toBe(200);
    await other.text();
    expect(upstreamRequests).toHaveLength(3);
  });

  it('counts readers by the address the nearest proxy added when no key is given', async () => {
    const route = await mount({ rateLimit: { limit: 1, windowMs: NO_BOUNDARY_MS } });
    const first = await ask(route, requestBody('How do I install acme-widgets?'), {
      'X-Forwarded-For': '198.51.100.1, 203.0.113.7',
    });
    await first.text();
    // Another claimed client address in front does not make it a new reader.
    const spoofed = await ask(route, requestBody('Hi'), { 'X-Forwarded-For': '192.0.2.99, 203.0.113.7' });
    await expectError(spoofed, 429, 'rate_limited');
    const other = await ask(route, requestBody('How do I install acme-widgets?'), {
      'X-Forwarded-For': '203.0.113.8',
    });
    expect(other.status).toBe(200);
    await other.text();
  });

  it('answers 502 in the service shape when the service cannot be reached', async () => {
    const gone = await listen(() => new Response('never'));
    await gone.close();
    const route = await mount({ baseUrl: gone.url });
    await expectError(await ask(route, requestBody('Hi')), 502, 'network_error');
  });
});
