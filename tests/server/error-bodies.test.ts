/**
 * Every error of the service over real HTTP has the real service's body: `{ "error": "<message>" }`
 * with `error` a string, and our machine code beside it (`code`), on the assistant endpoint, the
 * static export API and the presigned downloads alike.
 */
import { ServiceErrorBodySchema } from '../../packages/docs-assistant/src/protocol';
import {
  ADMIN_KEY,
  ASSISTANT_KEY,
  authHeaders,
  body,
  FIXTURE_DOCS,
  type RunningService,
  startService,
} from './helpers';

let running: RunningService;
// Holds every export job before its first page, so its bundle is asked for too early (409).
let release: () => void = () => {};
const held = new Promise<void>((resolve) => {
  release = resolve;
});

beforeAll(async () => {
  running = await startService({
    docs: FIXTURE_DOCS,
    adminKey: ADMIN_KEY,
    maxBodyBytes: 4096,
    rateLimits: { perOrganization: { limit: 6, windowMs: 3_600_000 } },
    staticExport: { hooks: { beforePage: () => held } },
  });
});
afterAll(async () => {
  release();
  await running.close();
});

const admin = (extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${ADMIN_KEY}`, ...extra });

describe('error bodies: { error: <message>, code }', () => {
  it('on every status of the assistant endpoint and the static export API', async () => {
    const jobs = `${running.url}/v1/static-export/jobs`;
    const started = await fetch(jobs, {
      method: 'POST',
      headers: admin({ 'Content-Type': 'application/json' }),
      body: JSON.stringify({ domain: 'acme' }),
    });
    expect(started.status).toBe(202);
    const { jobId } = await started.json();

    const cases: [name: string, request: () => Promise<Response>, status: number, code: string][] = [
      [
        'assistant: bad body',
        () => fetch(running.endpoint(), { method: 'POST', headers: authHeaders(), body: '{"fp":1}' }),
        400,
        'invalid_request',
      ],
      [
        'assistant: no key',
        () => fetch(running.endpoint(), { method: 'POST', body: JSON.stringify(body('q')) }),
        401,
        'unauthorized',
      ],
      [
        'assistant: admin key',
        () =>
          fetch(running.endpoint(), {
            method: 'POST',
            headers: authHeaders(ADMIN_KEY),
            body: JSON.stringify(body('q')),
          }),
        403,
        'forbidden',
      ],
      [
        'assistant: thread without its key',
        () =>
          fetch(running.endpoint(), {
            method: 'POST',
            headers: authHeaders(),
            body: JSON.stringify(body('q', { threadId: 'thr_x' })),
          }),
        404,
        'thread_not_found',
      ],
      ['assistant: GET', () => fetch(running.endpoint(), { headers: authHeaders() }), 405, 'invalid_request'],
      [
        'assistant: too large',
        () =>
          fetch(running.endpoint(), {
            method: 'POST',
            headers: authHeaders(),
            body: JSON.stringify(body('x'.repeat(5000))),
          }),
        413,
        'payload_too_large',
      ],
      [
        'static export: bad body',
        () =>
          fetch(jobs, {
            method: 'POST',
            headers: admin({ 'Content-Type': 'application/json' }),
            body: JSON.stringify({ domain: 5 }),
          }),
        400,
        'invalid_request',
      ],
      ['static export: no key', () => fetch(`${jobs}/${jobId}`), 401, 'unauthorized'],
      [
        'static export: assistant key',
        () => fetch(`${jobs}/${jobId}`, { headers: { Authorization: `Bearer ${ASSISTANT_KEY}` } }),
        403,
        'forbidden',
      ],
      [
        'static export: unknown job',
        () => fetch(`${jobs}/exp_000000000000000000000000`, { headers: admin() }),
        404,
        'not_found',
      ],
      [
        'static export: wrong method',
        () => fetch(jobs, { method: 'PUT', headers: admin() }),
        405,
        'invalid_request',
      ],
      [
        'static export: bundle too early',
        () => fetch(`${jobs}/${jobId}/bundle`, { method: 'POST', headers: admin() }),
        409,
        'conflict',
      ],
      [
        'static export: bad bundle link',
        () => fetch(`${running.url}/v1/static-export/bundles/${jobId}/bundle.tar.gz?expires=1&signature=00`),
        403,
        'forbidden',
      ],
    ];
    for (const [name, request, status, code] of cases) {
      const response = await request();
      const json: unknown = await response.json();
      expect({ name, status: response.status }).toEqual({ name, status });
      expect(response.headers.get('content-type'), name).toMatch(/^application\/json/);
      const parsed = ServiceErrorBodySchema.safeParse(json);
      expect(parsed.success, `${name}: ${JSON.stringify(json)}`).toBe(true);
      expect(typeof (json as { error: unknown }).error, name).toBe('string');
      expect(parsed.data?.code, name).toBe(code);
      expect(parsed.data?.error.length, name).toBeGreaterThan(15);
    }
  });

  it('429 with Retry-After once the organization is over its limit', async () => {
    let response: Response | undefined;
    // Bounded: the limit is 6 per hour and the test above used some of it.
    for (let i = 0; i < 7; i++) {
      response = await fetch(running.endpoint(), {
        method: 'POST',
        headers: authHeaders(),
        body: JSON.stringify(body('How do I enable dark mode?')),
      });
      if (response.status === 429) break;
      await response.text();
    }
    expect(response?.status).toBe(429);
    expect(Number(response?.headers.get('retry-after'))).toBeGreaterThan(0);
    const json = await response!.json();
    expect(ServiceErrorBodySchema.safeParse(json).success).toBe(true);
    expect(json).toMatchObject({ error: expect.stringContaining('Too many requests'), code: 'rate_limited' });
  });
});
