/**
 * The admin client reads every error body shape over HTTP (issue 12): the real service's
 * `{ "error": "<message>" }` (no code: the code follows from the status), the reference service's
 * `{ "error": "<message>", "code", "issues"? }`, the older `{ "error": { "code", "message" } }` and a
 * `{ "message" }` as proxies answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticExportClient, StaticExportError } from '../../packages/docs-assistant/src/static-export';
import { ADMIN_KEY, listen } from './helpers';

/** What the service answers for a job id: each id stands for one error shape. */
const ANSWERS: Record<string, { status: number; body: unknown }> = {
  'real-401': { status: 401, body: { error: 'Invalid API key' } },
  'real-404': { status: 404, body: { error: 'Job not found' } },
  'real-409': { status: 409, body: { error: 'Job is not completed yet' } },
  'coded-400': {
    status: 400,
    body: {
      error: 'Invalid static export request: domain: expected a string.',
      code: 'invalid_request',
      issues: [{ path: 'domain', message: 'expected a string' }],
    },
  },
  'object-403': {
    status: 403,
    body: { error: { code: 'forbidden', message: 'Static export needs the Enterprise plan' } },
  },
  'message-429': { status: 429, body: { message: 'Too many requests, retry later' } },
};

let server: { url: string; close: () => Promise<void> };
beforeAll(async () => {
  server = await listen(async (request) => {
    const jobId = decodeURIComponent(new URL(request.url).pathname.split('/')[4] ?? '');
    const answer = ANSWERS[jobId];
    if (!answer) return new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' });
    return Response.json(answer.body, { status: answer.status });
  });
});
afterAll(() => server.close());

async function caught(promise: Promise<unknown>): Promise<StaticExportError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(StaticExportError);
    return error as StaticExportError;
  }
  throw new Error('expected a StaticExportError');
}

describe('createStaticExportClient reads every error body shape', () => {
  const client = () => createStaticExportClient({ baseUrl: server.url, adminKey: ADMIN_KEY });

  it.each([
    ['real-401', 401, 'unauthorized', 'Invalid API key'],
    ['real-404', 404, 'not_found', 'Job not found'],
    ['real-409', 409, 'conflict', 'Job is not completed yet'],
    ['object-403', 403, 'forbidden', 'Static export needs the Enterprise plan'],
    ['message-429', 429, 'rate_limited', 'Too many requests, retry later'],
  ])('%s: status, code and message', async (jobId, status, code, message) => {
    const error = await caught(client().getJob(jobId));
    expect(error).toMatchObject({ status, code, message });
  });

  it('a string error with a code and issues keeps both', async () => {
    const error = await caught(client().generateBundle('coded-400'));
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_request',
      message: 'Invalid static export request: domain: expected a string.',
      issues: [{ path: 'domain', message: 'expected a string' }],
    });
  });

  it('a body that is not JSON is reported with its start', async () => {
    const error = await caught(client().getJob('unknown'));
    expect(error).toMatchObject({ status: 502, code: 'internal' });
    expect(error.message).toBe(
      'The static export service answered 502 Bad Gateway: <html>Bad gateway</html>',
    );
  });
});
