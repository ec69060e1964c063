import { ServiceErrorBodySchema } from '../../packages/docs-assistant/src/protocol';
import {
  ADMIN_KEY,
  ASSISTANT_KEY,
  authHeaders,
  body,
  parseStream,
  type RunningService,
  startService,
  userMessage,
} from './helpers';

const OTHER_ORG_KEY = 'svc_dsc_other_org';
const MAX_BODY = 64 * 1024;

let running: RunningService;
beforeAll(async () => {
  running = await startService({
    organizations: [
      { id: 'acme-org', plan: 'enterprise', assistantKeys: [ASSISTANT_KEY], adminKeys: [ADMIN_KEY] },
      { id: 'other-org', plan: 'free', assistantKeys: [OTHER_ORG_KEY], adminKeys: [] },
    ],
    domains: [
      { domain: 'acme', organization: 'acme-org', docs: [(await import('./helpers')).FIXTURE_DOCS] },
      { domain: 'other', organization: 'other-org', docs: [(await import('./helpers')).FIXTURE_DOCS] },
    ],
    maxBodyBytes: MAX_BODY,
  });
});
afterAll(async () => {
  await running.close();
});

const good = () => body('How do I enable dark mode?');
const withMessage = (message: Record<string, unknown>) => ({ ...good(), messages: [message] });
const message = userMessage('How do I enable dark mode?');

interface Case {
  name: string;
  payload: unknown;
  /** The path the error must name. */
  path: string;
}

// Spec §2.1–2.4, one field wrong at a time. (A retrievalPageSize of 0 or 1.5 and a currentPath over
// 200 characters fit the real schema and are answered: real-schema-bodies.test.ts.)
const fieldCases: Case[] = [
  { name: 'fp missing', payload: { messages: [message] }, path: 'fp' },
  { name: 'fp empty', payload: { ...good(), fp: '' }, path: 'fp' },
  { name: 'fp a number', payload: { ...good(), fp: 42 }, path: 'fp' },
  { name: 'messages missing', payload: { fp: 'anonymous' }, path: 'messages' },
  { name: 'messages empty', payload: { ...good(), messages: [] }, path: 'messages' },
  { name: 'messages not an array', payload: { ...good(), messages: 'hi' }, path: 'messages' },
  { name: 'unknown role', payload: withMessage({ ...message, role: 'robot' }), path: 'messages.0.role' },
  { name: 'message without id', payload: withMessage({ ...message, id: undefined }), path: 'messages.0.id' },
  {
    name: 'message without content',
    payload: withMessage({ ...message, content: undefined }),
    path: 'messages.0.content',
  },
  {
    name: 'message without parts',
    payload: withMessage({ ...message, parts: undefined }),
    path: 'messages.0.parts',
  },
  {
    name: 'bad part type',
    payload: withMessage({ ...message, parts: [{ type: 'video', url: 'x' }] }),
    path: 'messages.0.parts.0.type',
  },
  {
    name: 'reasoning part without details',
    payload: withMessage({ ...message, parts: [{ type: 'reasoning', reasoning: 'hmm' }] }),
    path: 'messages.0.parts.0.details',
  },
  {
    name: 'source with sourceType other than url',
    payload: withMessage({
      ...message,
      parts: [{ type: 'source', source: { sourceType: 'file', id: 's', url: '/x' } }],
    }),
    path: 'messages.0.parts.0.source.sourceType',
  },
  {
    name: 'tool-invocation with unknown state',
    payload: withMessage({
      ...message,
      parts: [
        {
          type: 'tool-invocation',
          toolInvocation: { state: 'done', toolCallId: 'c', toolName: 'search', args: {} },
        },
      ],
    }),
    path: 'messages.0.parts.0.toolInvocation.state',
  },
  {
    name: 'retrievalPageSize "5"',
    payload: { ...good(), retrievalPageSize: '5' },
    path: 'retrievalPageSize',
  },
  { name: 'filter not an object', payload: { ...good(), filter: 'v2' }, path: 'filter' },
  {
    name: 'context with a bad type',
    payload: { ...good(), context: [{ type: 'image', value: 'x' }] },
    path: 'context.0.type',
  },
  { name: 'body not an object', payload: ['How?'], path: '(body)' },
  {
    name: 'last message not from the user',
    payload: { ...good(), messages: [message, { id: 'a', role: 'assistant', content: 'Hi', parts: [] }] },
    path: 'messages.1.role',
  },
];

async function post(init: RequestInit & { url?: string }): Promise<Response> {
  return fetch(init.url ?? running.endpoint(), { method: 'POST', ...init });
}

async function expectError(response: Response, status: number, code: string) {
  const json: unknown = await response.json();
  // The real service's shape: `error` is the message, a string; `code` is beside it.
  const parsed = ServiceErrorBodySchema.safeParse(json);
  expect(parsed.success, JSON.stringify(json)).toBe(true);
  expect({ status: response.status, code: parsed.data?.code }).toEqual({ status, code });
  expect(parsed.data?.error.length).toBeGreaterThan(10);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  return { ...parsed.data!, message: parsed.data!.error };
}

describe('bad requests get a JSON error with the right status', () => {
  it.each(fieldCases)('400 invalid_request: $name', async ({ payload, path }) => {
    const response = await post({ headers: authHeaders(), body: JSON.stringify(payload) });
    const error = await expectError(response, 400, 'invalid_request');
    expect(error.issues?.map((issue) => issue.path)).toContain(path);
    // The message names each problem's path so a developer sees it without reading `issues`.
    expect(error.message).toContain(path);
  });

  it('400 invalid_json for a body that does not parse', async () => {
    const response = await post({ headers: authHeaders(), body: '{"fp": "anonymous", messages: [' });
    await expectError(response, 400, 'invalid_json');
  });

  it('415 for a body that is not JSON', async () => {
    const response = await post({
      headers: { Authorization: `Bearer ${ASSISTANT_KEY}`, 'Content-Type': 'text/plain' },
      body: JSON.stringify(good()),
    });
    await expectError(response, 415, 'unsupported_media_type');
  });

  it('413 for a huge body with Content-Length', async () => {
    const response = await post({ headers: authHeaders(), body: 'x'.repeat(MAX_BODY + 1) });
    await expectError(response, 413, 'payload_too_large');
  });

  it('413 for a huge chunked body (no Content-Length)', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Bounded: stops after 4× the limit whether or not the server reads on.
        if (sent >= MAX_BODY * 4) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const response = await post({
      headers: authHeaders(),
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await expectError(response, 413, 'payload_too_large');
    expect(response.headers.get('connection')).toBe('close');
  });

  it('413 counts the bytes of a body that declares no length (in-process)', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`{"fp":"${'x'.repeat(MAX_BODY)}"}`));
        controller.close();
      },
    });
    const request = new Request(running.endpoint(), {
      method: 'POST',
      headers: authHeaders(),
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(request.headers.get('content-length')).toBeNull();
    await expectError(await running.service.fetch(request), 413, 'payload_too_large');
  });

  it('401 without a key, with a Bearer challenge', async () => {
    const response = await post({
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(good()),
    });
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    await expectError(response, 401, 'unauthorized');
  });

  it('401 for an unknown key', async () => {
    const response = await post({ headers: authHeaders('svc_dsc_nobody'), body: JSON.stringify(good()) });
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    await expectError(response, 401, 'unauthorized');
  });

  it('403 for an admin key, saying to use the svc_dsc_ key', async () => {
    const response = await post({ headers: authHeaders(ADMIN_KEY), body: JSON.stringify(good()) });
    const error = await expectError(response, 403, 'forbidden');
    expect(error.message).toContain('svc_dsc_');
  });

  it("403 for another organization's key", async () => {
    const response = await post({ headers: authHeaders(OTHER_ORG_KEY), body: JSON.stringify(good()) });
    await expectError(response, 403, 'forbidden');
  });

  it('404 for an unknown domain', async () => {
    const response = await post({
      url: running.endpoint('nowhere'),
      headers: authHeaders(),
      body: JSON.stringify(good()),
    });
    await expectError(response, 404, 'not_found');
  });

  it("404 thread_not_found for an unknown thread and for another fp's or domain's thread", async () => {
    const unknown = await post({
      headers: authHeaders(),
      body: JSON.stringify({ ...good(), threadId: 'thr_does_not_exist' }),
    });
    await expectError(unknown, 404, 'thread_not_found');

    const created = await post({ headers: authHeaders(), body: JSON.stringify(good()) });
    const { threadId, threadKey } = parseStream(await created.text()).finish ?? {};
    expect(threadId).toBeTruthy();
    expect(threadKey).toBeTruthy();

    const otherFp = await post({
      headers: authHeaders(),
      body: JSON.stringify({ ...good(), fp: 'someone-else', threadId, threadKey }),
    });
    await expectError(otherFp, 404, 'thread_not_found');

    const otherDomain = await post({
      url: running.endpoint('other'),
      headers: authHeaders(OTHER_ORG_KEY),
      body: JSON.stringify({ ...good(), threadId, threadKey }),
    });
    await expectError(otherDomain, 404, 'thread_not_found');

    const wrongKey = await post({
      headers: authHeaders(),
      body: JSON.stringify({ ...good(), threadId, threadKey: 'thk_wrong' }),
    });
    await expectError(wrongKey, 404, 'thread_not_found');

    const noKey = await post({ headers: authHeaders(), body: JSON.stringify({ ...good(), threadId }) });
    expect((await expectError(noKey, 404, 'thread_not_found')).message).toContain('without its threadKey');

    const owner = await post({
      headers: authHeaders(),
      body: JSON.stringify({ ...good(), threadId, threadKey }),
    });
    expect(owner.status).toBe(200);
    expect(parseStream(await owner.text()).finish?.threadId).toBe(threadId);
  });

  it('errors carry CORS headers so a browser can read them', async () => {
    const response = await post({
      headers: { ...authHeaders('svc_dsc_nobody'), Origin: 'https://docs.example.com' },
      body: JSON.stringify(good()),
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    await expectError(response, 401, 'unauthorized');
  });

  it('405 for another method and 404 JSON for unknown paths', async () => {
    const get = await fetch(running.endpoint(), { headers: authHeaders() });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toContain('POST');
    const missing = await fetch(`${running.url}/nope`);
    await expectError(missing, 404, 'not_found');
  });

  it('never answers 500 to generated junk (bounded, seeded)', async () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
    const leaf = (): unknown =>
      pick<unknown>([
        null,
        true,
        0,
        -1,
        1.5,
        Number.MAX_SAFE_INTEGER,
        '',
        'x',
        '🙂'.repeat(3),
        'a'.repeat(3000),
        [],
        {},
      ]);
    const mutate = (value: unknown, depth: number): unknown => {
      if (depth > 3 || random() < 0.2) return leaf();
      if (Array.isArray(value)) return value.map((item) => (random() < 0.3 ? mutate(item, depth + 1) : item));
      if (value && typeof value === 'object') {
        const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
        for (const key of Object.keys(copy)) if (random() < 0.3) copy[key] = mutate(copy[key], depth + 1);
        if (random() < 0.2) copy[pick(['extra', '__proto__', 'constructor', 'threadId'])] = leaf();
        return copy;
      }
      return leaf();
    };
    const template = {
      ...good(),
      threadId: null,
      filter: { version: '2', language: 'en' },
      context: [{ type: 'code', value: 'theme="dark"', path: '/guides/theming' }],
      currentPath: '/guides/theming',
    };
    const statuses = new Set<number>();
    for (let i = 0; i < 150; i++) {
      const response = await running.service.fetch(
        new Request(running.endpoint(), {
          method: 'POST',
          headers: authHeaders(),
          body: JSON.stringify(mutate(template, 0)),
        }),
      );
      statuses.add(response.status);
      await response.text();
      expect(response.status).not.toBe(500);
    }
    // Both outcomes happened: the generator is not trivially all-valid or all-broken.
    expect(statuses.has(200) && statuses.has(400)).toBe(true);
  });

  it('still answers a good request after all of that', async () => {
    const response = await post({ headers: authHeaders(), body: JSON.stringify(good()) });
    expect(response.status).toBe(200);
    const parsed = parseStream(await response.text());
    expect(parsed.text).toContain('theme="dark"');
    expect(parsed.finish?.threadId).toMatch(/^thr_/);
  });
});
