/**
 * The dashboard handler attacked over real HTTP: the handler mounted in a Node server on 127.0.0.1,
 * the reference service behind it on another port. Jobs that reach the service are counted there,
 * so "refused" means no job was started, not only an error status.
 */
import { request as httpRequest } from 'node:http';
import {
  createStaticExportHandler,
  type StaticExportHandlerOptions,
} from '../../packages/docs-assistant/src/static-export';
import { createStaticExportRoutes } from '../../packages/docs-assistant-server/src/static-export/routes';
import { authorizeSession as authorize, SESSION_COOKIE as SESSION } from './dashboard-request';
import { ADMIN_KEY, FIXTURE_DOCS, listen, makeConfig } from './helpers';

// Windows are aligned to the epoch (routes/rate-limit.ts): a 60 s one restarts the count whenever a
// test's requests straddle a minute, so the limits below are counted in a window no run crosses.
const NO_BOUNDARY_MS = 10 * 365 * 24 * 60 * 60 * 1000;

let routes: ReturnType<typeof createStaticExportRoutes>;
let reference: { url: string; close: () => Promise<void> };
/** Job starts that reached the reference service. */
let upstreamStarts = 0;
const toClose: (() => Promise<void>)[] = [];

beforeAll(async () => {
  routes = createStaticExportRoutes(makeConfig({ acme: [FIXTURE_DOCS] }));
  reference = await listen((request) => {
    const { pathname } = new URL(request.url);
    if (request.method === 'POST' && pathname === '/v1/static-export/jobs') upstreamStarts += 1;
    return routes.app.fetch(request);
  });
});
afterEach(async () => {
  while (toClose.length) await toClose.pop()?.();
});
afterAll(async () => {
  await reference.close();
  await routes.close();
});

/** Mounts a handler as the docs show (`/api/static-export/...`) and returns its base URL. */
async function mount(options: Partial<StaticExportHandlerOptions> = {}) {
  const host = await listen(
    createStaticExportHandler({
      baseUrl: reference.url,
      adminKey: ADMIN_KEY,
      domain: 'acme',
      authorize,
      ...options,
    }),
  );
  toClose.push(host.close);
  return { origin: host.url, endpoint: `${host.url}/api/static-export` };
}

/** What the dashboard page's `fetch` sends: same origin, the session cookie, JSON. */
function sameOrigin(origin: string, extra: Record<string, string> = {}): Record<string, string> {
  return { Origin: origin, 'Sec-Fetch-Site': 'same-origin', Cookie: SESSION, ...extra };
}

const startBody = JSON.stringify({ domain: 'acme', paths: ['index'] });

async function expectError(response: Response, status: number, code: string, message?: RegExp) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'error']);
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe('string');
  if (message) expect(body.error).toMatch(message);
  return body;
}

describe('mounting the handler', () => {
  it('throws without authorize, saying what to pass', () => {
    const options = { baseUrl: reference.url, adminKey: ADMIN_KEY } as StaticExportHandlerOptions;
    expect(() => createStaticExportHandler(options)).toThrow(/needs an authorize\(request\) option/);
    expect(() => createStaticExportHandler(options)).toThrow(
      /authorize: \(\) => true only if the export is meant to be public/,
    );
  });

  it('refuses options it cannot honour, saying what to change', () => {
    const base = { baseUrl: reference.url, adminKey: ADMIN_KEY, authorize };
    expect(() =>
      createStaticExportHandler({ ...base, allowedOrigins: ['https://admin.example.com/'] }),
    ).toThrow(/allowedOrigins takes origins such as "https:\/\/admin\.example\.com"/);
    expect(() => createStaticExportHandler({ ...base, rateLimit: { limit: 0, windowMs: 1000 } })).toThrow(
      /rateLimit takes \{ limit, windowMs \} as positive whole numbers/,
    );
    expect(() => createStaticExportHandler({ ...base, maxBodyBytes: -1 })).toThrow(
      /maxBodyBytes must be a positive/,
    );
  });

  it('an authorize check that throws refuses the request (500) and starts nothing', async () => {
    const { origin, endpoint } = await mount({
      authorize: () => {
        throw new Error('session store down');
      },
    });
    const before = upstreamStarts;
    const body = await expectError(
      await fetch(`${endpoint}/jobs`, {
        method: 'POST',
        headers: sameOrigin(origin, { 'Content-Type': 'application/json' }),
        body: startBody,
      }),
      500,
      'internal',
    );
    expect(body.error).not.toMatch(/session store/);
    expect(upstreamStarts).toBe(before);
  });
});

describe('an anonymous caller', () => {
  it('cannot start, read or bundle a job (401), even from the same origin', async () => {
    const { origin, endpoint } = await mount();
    const before = upstreamStarts;
    const anonymous = { Origin: origin, 'Sec-Fetch-Site': 'same-origin' };
    await expectError(
      await fetch(`${endpoint}/jobs`, {
        method: 'POST',
        headers: { ...anonymous, 'Content-Type': 'application/json' },
        body: startBody,
      }),
      401,
      'unauthorized',
      /Sign in/,
    );
    // A real job id: the status and the bundle link are as closed as the start.
    const started = await fetch(`${endpoint}/jobs`, {
      method: 'POST',
      headers: sameOrigin(origin, { 'Content-Type': 'application/json' }),
      body: startBody,
    });
    expect(started.status).toBe(202);
    const { jobId } = (await started.json()) as { jobId: string };
    await expectError(await fetch(`${endpoint}/jobs/${jobId}`, { headers: anonymous }), 401, 'unauthorized');
    await expectError(
      await fetch(`${endpoint}/jobs/${jobId}/bundle`, { method: 'POST', headers: anonymous }),
      401,
      'unauthorized',
    );
    expect(upstreamStarts - before).toBe(1);
  });
});

describe('an authorized admin on the dashboard', () => {
  it('starts a job, follows it to completed, gets the bundle link and downloads the bundle', async () => {
    const { origin, endpoint } = await mount();
    const started = await fetch(`${endpoint}/jobs`, {
      method: 'POST',
      headers: sameOrigin(origin, { 'Content-Type': 'application/json; charset=utf-8' }),
      body: startBody,
    });
    expect(started.status).toBe(202);
    const { jobId } = (await started.json()) as { jobId: string };
    let status = '';
    // Bounded: the fixture's one page renders in well under this many polls.
    for (let poll = 0; poll < 400 && status !== 'completed' && status !== 'failed'; poll += 1) {
      if (poll) await new Promise((resolve) => setTimeout(resolve, 25));
      // A GET from the page carries Sec-Fetch-Site but no Origin.
      const response = await fetch(`${endpoint}/jobs/${jobId}`, {
        headers: { 'Sec-Fetch-Site': 'same-origin', Cookie: SESSION },
      });
      expect(response.status).toBe(200);
      status = ((await response.json()) as { status: string }).status;
    }
    expect(status).toBe('completed');
    const link = await fetch(`${endpoint}/jobs/${jobId}/bundle`, {
      method: 'POST',
      headers: sameOrigin(origin),
    });
    expect(link.status).toBe(200);
    const { bundleUrl } = (await link.json()) as { bundleUrl: string };
    const bundle = new Uint8Array(await (await fetch(bundleUrl)).arrayBuffer());
    // gzip magic number
    expect([bundle[0], bundle[1]]).toEqual([0x1f, 0x8b]);
  });
});

describe('requests a page of another origin can make', () => {
  it('a JSON start from another Origin is refused (403) and starts nothing', async () => {
    const { endpoint } = await mount();
    const before = upstreamStarts;
    await expectError(
      await fetch(`${endpoint}/jobs`, {
        method: 'POST',
        headers: {
          Origin: 'http://evil.example',
          'Sec-Fetch-Site': 'cross-site',
          Cookie: SESSION,
          'Content-Type': 'application/json',
        },
        body: startBody,
      }),
      403,
      'forbidden',
      /only takes requests from pages of its own origin .* came from http:\/\/evil\.example/,
    );
    expect(upstreamStarts).toBe(before);
  });

  it("a no-cors text/plain fetch (what a cross-site page can send with the admin's cookie) is refused", async () => {
    const { origin, endpoint } = await mount();
    const attacker = origin.replace(/:\d+$/, ':1');
    const before = upstreamStarts;
    // Exactly what Chromium sends for fetch(url, { mode: 'no-cors', method: 'POST', credentials: 'include', body: '{…}' }).
    await expectError(
      await fetch(`${endpoint}/jobs`, {
        method: 'POST',
        headers: {
          Origin: attacker,
          'Sec-Fetch-Site': 'same-site',
          'Sec-Fetch-Mode': 'no-cors',
          Cookie: SESSION,
          'Content-Type': 'text/plain;charset=UTF-8',
        },
        body: startBody,
      }),
      403,
      'forbidden',
    );
    await expectError(
      await fetch(`${endpoint}/jobs/exp_x/bundle`, {
        method: 'POST',
        headers: { Origin: attacker, 'Sec-Fetch-Site': 'same-site', Cookie: SESSION },
      }),
      403,
      'forbidden',
    );
    expect(upstreamStarts).toBe(before);
  });

  it('a POST with neither Origin nor Sec-Fetch-Site is refused; Sec-Fetch-Site: same-origin alone is enough', async () => {
    const { endpoint } = await mount();
    const before = upstreamStarts;
    await expectError(
      await fetch(`${endpoint}/jobs`, {
        method: 'POST',
        headers: { Cookie: SESSION, 'Content-Type': 'application/json' },
        body: startBody,
      }),
      403,
      'forbidden',
      /send an Origin or Sec-Fetch-Site header/,
    );
    expect(upstreamStarts).toBe(before);
    const viaFetchSite = await fetch(`${endpoint}/jobs`, {
      method: 'POST',
      headers: { 'Sec-Fetch-Site': 'same-origin', Cookie: SESSION, 'Content-Type': 'application/json' },
      body: startBody,
    });
    expect(viaFetchSite.status).toBe(202);
    expect(upstreamStarts).toBe(before + 1);
  });

  it('allowedOrigins lets a dashboard on another origin in, and only that one', async () => {
    const { endpoint } = await mount({ allowedOrigins: ['https://admin.example.com'] });
    const start = (origin: string) =>
      fetch(`${endpoint}/jobs`, {
        method: 'POST',
        headers: { Origin: origin, Cookie: SESSION, 'Content-Type': 'application/json' },
        body: startBody,
      });
    expect((await start('https://admin.example.com')).status).toBe(202);
    await expectError(await start('https://admin.example.com.evil.example'), 403, 'forbidden');
  });
});

describe('the start body', () => {
  it('must be application/json (415), whatever it contains', async () => {
    const { origin, endpoint } = await mount();
    const before = upstreamStarts;
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      await expectError(
        await fetch(`${endpoint}/jobs`, {
          method: 'POST',
          headers: sameOrigin(origin, { 'Content-Type': type }),
          body: startBody,
        }),
        415,
        'unsupported_media_type',
        /Content-Type: application\/json/,
      );
    }
    // No Content-Type at all (a Blob body without a type) is not JSON either.
    await expectError(
      await fetch(`${endpoint}/jobs`, {
        method: 'POST',
        headers: sameOrigin(origin),
        body: new Blob([startBody]),
      }),
      415,
      'unsupported_media_type',
    );
    expect(upstreamStarts).toBe(before);
  });

  it('a 200 MB streamed body is cut off at the cap (413) without the host holding it', async () => {
    const { origin, endpoint } = await mount();
    const before = upstreamStarts;
    const url = new URL(`${endpoint}/jobs`);
    const total = 200 * 1024 * 1024;
    // One 64 KiB chunk sent again and again: the client side allocates almost nothing.
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    chunk.write('{"domain":"acme","x":"');
    globalThis.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 5);
    let sent = 0;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        {
          method: 'POST',
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          // Chunked, no Content-Length: the handler cannot refuse it from a header.
          headers: { ...sameOrigin(origin), 'Content-Type': 'application/json' },
        },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (data: string) => {
            body += data;
          });
          response.on('end', () => {
            request.destroy();
            resolve({ status: response.statusCode ?? 0, body });
          });
          response.on('error', reject);
        },
      );
      let answered = false;
      request.on('response', () => {
        answered = true;
      });
      request.on('error', (error) => {
        if (!answered) reject(error);
      });
      const pump = () => {
        while (!answered && sent < total) {
          sent += chunk.length;
          if (!request.write(chunk)) {
            request.once('drain', pump);
            return;
          }
        }
        if (!answered) request.end();
      };
      pump();
    });
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    const growthMiB = (rssPeak - rssBefore) / 1024 / 1024;
    // Reading the 200 MB whole costs hundreds of MiB; streaming with the cap costs a few chunks.
    expect(growthMiB).toBeLessThan(64);
    // The answer came while the client was still sending: the handler stopped reading at the cap.
    expect(sent).toBeLessThan(total);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      error: expect.stringMatching(/larger than 16384 bytes/),
      code: 'payload_too_large',
    });
    expect(upstreamStarts).toBe(before);
  });

  it('a declared Content-Length over the cap is refused before any of the body is read', async () => {
    const { origin, endpoint } = await mount({ maxBodyBytes: 1024 });
    const before = upstreamStarts;
    await expectError(
      await fetch(`${endpoint}/jobs`, {
        method: 'POST',
        headers: sameOrigin(origin, { 'Content-Type': 'application/json' }),
        body: JSON.stringify({ domain: 'acme', paths: Array.from({ length: 200 }, (_, i) => `page-${i}`) }),
      }),
      413,
      'payload_too_large',
      /larger than 1024 bytes/,
    );
    expect(upstreamStarts).toBe(before);
  });
});

describe('the rate limit on job starts', () => {
  it('20 rapid starts: the default limit lets 5 through and answers the rest 429 with Retry-After', async () => {
    const { origin, endpoint } = await mount();
    const before = upstreamStarts;
    // The default window is a minute aligned to the epoch: the clock is held mid-minute, so the 20
    // starts are counted in one window however slowly a busy machine sends them (they once
    // straddled a minute and 7 got through).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${endpoint}/jobs`, {
          method: 'POST',
          headers: sameOrigin(origin, { 'Content-Type': 'application/json' }),
          body: startBody,
        }),
      ),
    ).finally(() => vi.useRealTimers());
    const statuses = answers.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 202)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    for (const response of answers.filter((answer) => answer.status === 429)) {
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      await expectError(response, 429, 'rate_limited', /try again in \d+ s/);
    }
    expect(upstreamStarts - before).toBe(5);
  });

  it('counts per user when given a key, and never counts status polls', async () => {
    const { origin, endpoint } = await mount({
      rateLimit: {
        limit: 2,
        windowMs: NO_BOUNDARY_MS,
        key: (request) => request.headers.get('x-user') ?? '',
      },
    });
    const start = (user: string) =>
      fetch(`${endpoint}/jobs`, {
        method: 'POST',
        headers: sameOrigin(origin, { 'Content-Type': 'application/json', 'X-User': user }),
        body: startBody,
      });
    const first = await start('ada');
    const { jobId } = (await first.json()) as { jobId: string };
    for (let poll = 0; poll < 5; poll += 1) {
      expect((await fetch(`${endpoint}/jobs/${jobId}`, { headers: sameOrigin(origin) })).status).toBe(200);
    }
    expect((await start('ada')).status).toBe(202);
    await expectError(await start('ada'), 429, 'rate_limited');
    expect((await start('grace')).status).toBe(202);
  });
});
