/**
 * The adapter docs/security.md shows for Express, written against `node:http` (Express's `req` and
 * `res` are these objects): the Node request becomes a `Request` with its body as a stream, the
 * `Response` is piped back. Over real HTTP against the reference service.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { type AssistantProxy, createAssistantProxy } from 'docs-assistant/proxy';
import { DATA_STREAM_HEADERS, finishLine, serveHttp } from '../chat/helpers';
import {
  ASSISTANT_KEY,
  DOMAIN,
  parseStream,
  type RunningService,
  body as requestBody,
  startService,
} from '../server/helpers';

let reference: RunningService;
const toClose: (() => Promise<void>)[] = [];

beforeAll(async () => {
  reference = await startService();
});
afterEach(async () => {
  while (toClose.length) await toClose.pop()?.();
});
afterAll(async () => {
  await reference.close();
});

/** The docs' adapter, with `req.socket.remoteAddress` where Express has `req.ip`. */
function adapter(proxy: AssistantProxy) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const aborted = new AbortController();
    res.on('close', () => aborted.abort());
    const response = await proxy(
      new Request(new URL(req.url ?? '/', `http://${req.headers.host}`), {
        method: req.method,
        headers: {
          'content-type': req.headers['content-type'] ?? '',
          cookie: req.headers.cookie ?? '',
          'x-client-ip': req.socket.remoteAddress ?? '',
        },
        body: Readable.toWeb(req) as ReadableStream,
        duplex: 'half',
        signal: aborted.signal,
      } as RequestInit),
    );
    res.statusCode = response.status;
    for (const [name, value] of response.headers) res.setHeader(name, value);
    if (response.body) Readable.fromWeb(response.body as NodeReadableStream).pipe(res);
    else res.end();
  };
}

async function mountAdapter(baseUrl: string): Promise<string> {
  const proxy = createAssistantProxy({
    baseUrl,
    domain: DOMAIN,
    apiKey: ASSISTANT_KEY,
    maxBodyBytes: 64 * 1024,
    rateLimit: { limit: 100, windowMs: 60_000, key: (request) => request.headers.get('x-client-ip') ?? '' },
  });
  const server = createServer(adapter(proxy));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  toClose.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/assistant`;
}

const post = (route: string, body: unknown) =>
  fetch(route, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

it('keeps a thread over two turns through the Node adapter', async () => {
  const route = await mountAdapter(reference.url);
  const first = await post(route, requestBody('How do I install acme-widgets?'));
  expect(first.status).toBe(200);
  const threadId = first.headers.get('x-thread-id');
  const threadKey = first.headers.get('x-thread-key');
  expect(parseStream(await first.text()).finish?.threadId).toBe(threadId);
  const second = await post(route, requestBody('And then?', { threadId, threadKey }));
  expect(second.status).toBe(200);
  expect(parseStream(await second.text()).finish?.threadId).toBe(threadId);
});

it('streams through the adapter before the service has finished', async () => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let finished = false;
  const holding = await serveHttp(async (_request, response) => {
    response.writeHead(200, DATA_STREAM_HEADERS);
    response.write('0:"Early"\n');
    await Promise.race([released, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    finished = true;
    response.end(finishLine({ threadId: 't' }));
  });
  toClose.push(holding.close);
  const route = await mountAdapter(holding.baseUrl);
  const response = await post(route, requestBody('Stream?'));
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  expect(new TextDecoder().decode(value)).toBe('0:"Early"\n');
  expect(finished).toBe(false);
  release();
  while (!(await reader.read()).done) {
    // Drain to the end.
  }
  expect(finished).toBe(true);
});

it('answers an oversized body with 413 through the adapter', async () => {
  const route = await mountAdapter(reference.url);
  const response = await post(route, { fp: 'x'.repeat(100 * 1024), messages: [] });
  expect(response.status).toBe(413);
  expect(await response.json()).toMatchObject({ code: 'payload_too_large' });
});
