/**
 * Over real HTTP on 127.0.0.1 against the reference service: validation messages that say what to
 * change, threads that exist from the moment their id is sent, 405 on static export paths, code
 * point lengths of currentPath, and no CORS on the admin routes.
 */
import { formatDataStreamPart } from 'ai';
import {
  clampCurrentPath,
  THREAD_ID_HEADER,
  THREAD_KEY_HEADER,
} from '../../packages/docs-assistant/src/protocol';
import type { AnswerEngine } from '../../packages/docs-assistant-server/src/engines/types';
import {
  ADMIN_KEY,
  authHeaders,
  body,
  parseStream,
  type RunningService,
  startService,
  userMessage,
} from './helpers';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The real service's error shape: the message in `error`, the machine code beside it. */
interface ErrorJson {
  error: string;
  code: string;
  issues?: { path: string; message: string }[];
}

describe('validation messages say what to change', () => {
  let running: RunningService;
  beforeAll(async () => {
    running = await startService();
  });
  afterAll(() => running.close());

  const post = async (payload: unknown): Promise<{ status: number; json: ErrorJson }> => {
    const response = await fetch(running.endpoint(), {
      method: 'POST',
      headers: authHeaders(),
      body: JSON.stringify(payload),
    });
    return { status: response.status, json: (await response.json()) as ErrorJson };
  };
  const question = userMessage('How do I enable dark mode?');
  const withMessage = (patch: Record<string, unknown>) => ({
    fp: 'anonymous',
    messages: [{ ...question, ...patch }],
  });

  const cases: [name: string, payload: unknown, path: string, words: RegExp][] = [
    [
      'no fp',
      { messages: [question] },
      'fp',
      /^required, a string \(the reader's fingerprint, or "anonymous"\)$/,
    ],
    ['fp as a number', { fp: 5, messages: [question] }, 'fp', /^expected a string .*, got a number \(5\)$/],
    ['no messages', { fp: 'anonymous' }, 'messages', /^required, an array of messages/],
    [
      'messages as a string',
      { fp: 'a', messages: 'hi' },
      'messages',
      /^expected an array of messages.*, got the string "hi"$/,
    ],
    [
      'a message without parts',
      withMessage({ parts: undefined }),
      'messages.0.parts',
      /^required, an array of parts/,
    ],
    ['a message without id', withMessage({ id: undefined }), 'messages.0.id', /^required, a string/],
    [
      'a message without content',
      withMessage({ content: undefined }),
      'messages.0.content',
      /^required, a string/,
    ],
    [
      'an unknown part type',
      withMessage({ parts: [{ type: 'image', url: 'x' }] }),
      'messages.0.parts.0.type',
      /^one of: text, reasoning, step-start, source, tool-invocation, file \(got the string "image"\)$/,
    ],
    [
      'an unknown tool state',
      withMessage({
        parts: [
          {
            type: 'tool-invocation',
            toolInvocation: { state: 'done', toolCallId: 'c', toolName: 's', args: {} },
          },
        ],
      }),
      'messages.0.parts.0.toolInvocation.state',
      /^one of: partial-call, call, result \(got the string "done"\)$/,
    ],
    [
      'a date that is not one',
      withMessage({ createdAt: 'yesterday' }),
      'messages.0.createdAt',
      /^expected an ISO 8601 date-time.*got the string "yesterday"$/,
    ],
    [
      'retrievalPageSize as a string',
      { ...body('q'), retrievalPageSize: '5' },
      'retrievalPageSize',
      /^expected a whole number from 1 to 50.*, got the string "5"$/,
    ],
    ['retrievalPageSize null', { ...body('q'), retrievalPageSize: null }, 'retrievalPageSize', /got null$/],
    [
      'filter.version as a number',
      { ...body('q'), filter: { version: 2 } },
      'filter.version',
      /^expected a string .*got a number \(2\)$/,
    ],
    [
      'currentPath null',
      { ...body('q'), currentPath: null },
      'currentPath',
      /^expected a string of at most 200 characters.*got null$/,
    ],
    ['context null', { ...body('q'), context: null }, 'context', /^expected an array of .*got null$/],
    ['a body that is an array', [], '(body)', /^expected a JSON object .*got an array$/],
    ['a body that is null', null, '(body)', /^expected a JSON object .*got null$/],
  ];

  it.each(cases)('%s', async (_name, payload, path, words) => {
    const { status, json } = await post(payload);
    expect(status).toBe(400);
    expect(json.code).toBe('invalid_request');
    expect(json.error).not.toContain('Invalid input');
    const issue = json.issues?.find((i) => i.path === path);
    expect(issue?.message).toMatch(words);
    expect(json.error).toContain(`${path}: ${issue?.message}`);
  });

  it('static export: a domain that is not a string', async () => {
    const response = await fetch(`${running.url}/v1/static-export/jobs`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ domain: 5 }),
    });
    expect(response.status).toBe(400);
    const json = (await response.json()) as ErrorJson;
    expect(json.error).not.toContain('Invalid input');
    expect(json.issues).toEqual([
      { path: 'domain', message: 'expected a string (the domain to export), got a number (5)' },
    ]);
  });
});

describe('currentPath is counted in characters (code points), spec §2.1', () => {
  let running: RunningService;
  beforeAll(async () => {
    running = await startService();
  });
  afterAll(() => running.close());

  const send = (currentPath: string) =>
    fetch(running.endpoint(), {
      method: 'POST',
      headers: authHeaders(),
      body: JSON.stringify(body('How do I enable dark mode?', { currentPath })),
    });

  it('accepts "/" and 150 emoji (151 characters, 301 UTF-16 units)', async () => {
    const path = `/${'😀'.repeat(150)}`;
    expect(path.length).toBe(301);
    const response = await send(path);
    expect(response.status).toBe(200);
    await response.text();
  });

  it('cuts 201 characters to 200 (the real schema accepts them) and says so', async () => {
    const response = await send(`/${'😀'.repeat(200)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-adjusted')).toBe(
      'currentPath cut to its first 200 characters (got 201)',
    );
    await response.text();
  });

  it('clampCurrentPath cuts by code points and never leaves a lone surrogate', () => {
    const clamped = clampCurrentPath(`/${'😀'.repeat(250)}`);
    expect(Array.from(clamped)).toHaveLength(200);
    expect(clamped.endsWith('😀')).toBe(true);
    expect(clamped).not.toMatch(LONE_SURROGATE);
    const mixed = `${'a'.repeat(199)}😀😀`;
    expect(clampCurrentPath(mixed)).toBe(`${'a'.repeat(199)}😀`);
    expect(clampCurrentPath(mixed)).not.toMatch(LONE_SURROGATE);
    expect(clampCurrentPath('/short')).toBe('/short');
  });
});

describe('a thread exists from the moment its id is sent', () => {
  /** Writes part of an answer, then fails (throws) or waits to be stopped. */
  function flakyEngine(mode: { fail: boolean }): AnswerEngine {
    return {
      name: 'flaky',
      async answer(context, stream) {
        stream.write(formatDataStreamPart('start_step', { messageId: context.messageId }));
        stream.write(formatDataStreamPart('text', 'Dark mode is '));
        if (mode.fail) throw new Error('model went away');
        await new Promise<void>((resolve) => {
          if (context.abortSignal?.aborted) return resolve();
          context.abortSignal?.addEventListener('abort', () => resolve(), { once: true });
        });
        return { text: '', cited: [], finishReason: 'stop', usage: { promptTokens: 0, completionTokens: 0 } };
      },
    };
  }

  it('after the engine fails mid-answer, a retry with the X-Thread-Id is answered', async () => {
    const mode = { fail: true };
    const running = await startService({ engine: flakyEngine(mode) });
    try {
      const first = await fetch(running.endpoint(), {
        method: 'POST',
        headers: authHeaders(),
        body: JSON.stringify(body('How do I enable dark mode?')),
      });
      expect(first.status).toBe(200);
      const threadId = first.headers.get(THREAD_ID_HEADER);
      const threadKey = first.headers.get(THREAD_KEY_HEADER);
      expect(threadId).toMatch(/^thr_/);
      const stream = parseStream(await first.text());
      // Like the AI SDK's server helpers: the error part, then the step's end and the finish part,
      // which still names the thread (and, as it was created here, its key).
      const names = stream.parts.map((p) => p.name);
      expect(names.slice(names.indexOf('error'))).toEqual(['error', 'finishStep', 'finishMessage']);
      expect(stream.finish).toEqual({
        finishReason: 'error',
        usage: { promptTokens: 0, completionTokens: 0 },
        threadId,
        threadKey,
      });

      mode.fail = false;
      const controller = new AbortController();
      const retry = await fetch(running.endpoint(), {
        method: 'POST',
        headers: authHeaders(),
        body: JSON.stringify(body('How do I enable dark mode?', { threadId, threadKey })),
        signal: controller.signal,
      });
      // 200, not 404: the thread was found. Its id and key are not sent again (only on creation).
      expect(retry.status).toBe(200);
      expect(retry.headers.get(THREAD_ID_HEADER)).toBeNull();
      expect(retry.headers.get(THREAD_KEY_HEADER)).toBeNull();
      controller.abort();
      await retry.text().catch(() => {});
    } finally {
      await running.close();
    }
  });

  it('after the client stops the first answer, a follow-up with that id is answered', async () => {
    const running = await startService({ engine: flakyEngine({ fail: false }) });
    try {
      const controller = new AbortController();
      const first = await fetch(running.endpoint(), {
        method: 'POST',
        headers: authHeaders(),
        body: JSON.stringify(body('How do I enable dark mode?')),
        signal: controller.signal,
      });
      const threadId = first.headers.get(THREAD_ID_HEADER);
      const threadKey = first.headers.get(THREAD_KEY_HEADER);
      // Read up to the partial text, then stop, as the widget's stop button does.
      const reader = first.body!.getReader();
      let seen = '';
      while (!seen.includes('Dark mode is')) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += new TextDecoder().decode(value);
      }
      controller.abort();
      await reader.cancel().catch(() => {});

      const followUpController = new AbortController();
      const followUp = await fetch(running.endpoint(), {
        method: 'POST',
        headers: authHeaders(),
        body: JSON.stringify(body('And how do I turn it off?', { threadId, threadKey })),
        signal: followUpController.signal,
      });
      // 200, not 404: the thread was found.
      expect(followUp.status).toBe(200);
      followUpController.abort();
      await followUp.text().catch(() => {});
    } finally {
      await running.close();
    }
  });
});

describe('static export paths with the wrong method', () => {
  let running: RunningService;
  beforeAll(async () => {
    running = await startService();
  });
  afterAll(() => running.close());

  it.each([
    [
      'GET',
      '/v1/static-export/jobs/exp_000000000000000000000000/bundle',
      'POST',
      /POST \/v1\/static-export\/jobs\/\{jobId\}\/bundle/,
    ],
    [
      'POST',
      '/v1/static-export/jobs/exp_000000000000000000000000',
      'GET, HEAD',
      /GET \/v1\/static-export\/jobs\/\{jobId\}/,
    ],
    ['PUT', '/v1/static-export/jobs', 'POST', /POST \/v1\/static-export\/jobs to start/],
    ['DELETE', '/v1/static-export/bundles/exp_000000000000000000000000.tar.gz', 'GET, HEAD', /bundleUrl/],
  ])('%s %s is 405 with Allow: %s', async (method, path, allow, words) => {
    const response = await fetch(`${running.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${ADMIN_KEY}` },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    const json = (await response.json()) as ErrorJson;
    expect(json.code).toBe('invalid_request');
    expect(json.error).toMatch(words);
    expect(json.error).toContain(`${method} is not allowed here`);
    expect(json.error).not.toContain('assistant');
  });

  it('an unknown static export path is 404 naming the static export routes', async () => {
    const response = await fetch(`${running.url}/v1/static-export/keys`, {
      headers: { Authorization: `Bearer ${ADMIN_KEY}` },
    });
    expect(response.status).toBe(404);
    const json = (await response.json()) as ErrorJson;
    expect(json.code).toBe('not_found');
    expect(json.error).toContain('POST /v1/static-export/jobs');
    expect(json.error).not.toContain('assistant');
  });
});

describe('CORS: the assistant endpoint only', () => {
  let running: RunningService;
  beforeAll(async () => {
    running = await startService();
  });
  afterAll(() => running.close());

  const preflight = (path: string, method: string) =>
    fetch(`${running.url}${path}`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://evil.example',
        'Access-Control-Request-Method': method,
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });

  it('the assistant endpoint allows any origin', async () => {
    const response = await preflight('/discovery/v1/assistant/acme/message', 'POST');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it.each([
    ['/v1/static-export/jobs', 'POST'],
    ['/v1/static-export/jobs/exp_000000000000000000000000', 'GET'],
    ['/v1/static-export/jobs/exp_000000000000000000000000/bundle', 'POST'],
  ])('a preflight of %s does not let the origin in', async (path, method) => {
    const response = await preflight(path, method);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-allow-headers')).toBeNull();
    expect(response.headers.get('access-control-allow-methods')).toBeNull();
    await response.arrayBuffer();
  });

  it('admin responses carry no CORS header', async () => {
    const response = await fetch(`${running.url}/v1/static-export/jobs`, {
      method: 'POST',
      headers: {
        Origin: 'https://evil.example',
        Authorization: `Bearer ${ADMIN_KEY}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ domain: 'acme' }),
    });
    expect(response.status).toBe(202);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('access-control-expose-headers')).toBeNull();
    await response.arrayBuffer();
  });
});
