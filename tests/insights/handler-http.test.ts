/**
 * The insights handler mounted as a host does (`/api/insights/...`) on 127.0.0.1, the reference
 * service with recorded traffic behind it: what a signed-in admin's page reads, CSV passed on, and
 * every refusal (not signed in, another site, a write, another route, a parameter of its own).
 */
import {
  createInsightsHandler,
  type InsightsHandlerOptions,
} from '../../packages/docs-assistant/src/insights';
import type { RunningService } from '../server/helpers';
import { listen } from '../static-export/helpers';
import { ADMIN_KEY, DOMAIN, QUESTIONS, seededService, UNANSWERABLE } from './service';

const SESSION = 'session=admin-token';
const authorize = (request: Request) => (request.headers.get('cookie') ?? '').includes(SESSION);

let running: RunningService & { unanswered: string };
/** Requests that reached the service, as the handler sent them. */
const upstream: { url: string; authorization: string | null; method: string }[] = [];
let endpoint: string;
let origin: string;
let closeHost: () => Promise<void>;

async function mount(options: Partial<InsightsHandlerOptions> = {}) {
  const handler = createInsightsHandler({
    baseUrl: running.url,
    adminKey: ADMIN_KEY,
    domain: DOMAIN,
    authorize,
    fetch: (input, init) => {
      const request = new Request(input, init);
      upstream.push({
        url: request.url,
        authorization: request.headers.get('authorization'),
        method: request.method,
      });
      return fetch(request);
    },
    ...options,
  });
  return listen(handler);
}

beforeAll(async () => {
  running = await seededService();
  const host = await mount();
  origin = host.url;
  endpoint = `${host.url}/api/insights`;
  closeHost = host.close;
}, 60_000);
afterAll(async () => {
  await closeHost?.();
  await running?.close();
});
beforeEach(() => {
  upstream.length = 0;
});

/** What the dashboard page's fetch sends: same origin, the session cookie. */
const page = (path: string, headers: Record<string, string> = {}, init: RequestInit = {}) =>
  fetch(`${endpoint}/${path}`, {
    ...init,
    headers: { 'Sec-Fetch-Site': 'same-origin', Cookie: SESSION, ...headers },
  });

describe('insights handler over HTTP, the reference service behind it', () => {
  it('reads the stats of the recorded traffic with the admin key added server-side', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const response = await page(`stats?from=${today}&to=${today}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const stats = (await response.json()) as {
      totals: { questions: number; down: number; searches: number };
    };
    expect(stats.totals.questions).toBe(QUESTIONS.length + 1);
    expect(stats.totals.down).toBe(1);
    expect(stats.totals.searches).toBe(3);
    expect(upstream).toEqual([
      {
        url: `${running.url}/discovery/v1/insights/${DOMAIN}/stats?from=${today}&to=${today}`,
        authorization: `Bearer ${ADMIN_KEY}`,
        method: 'GET',
      },
    ]);
  });

  it('lists conversations and opens a transcript; the unanswerable question is a gap', async () => {
    const list = (await (await page('conversations?vote=down')).json()) as {
      conversations: { threadId: string; first: string }[];
    };
    expect(list.conversations.map((row) => row.threadId)).toEqual([running.unanswered]);
    expect(list.conversations[0]!.first).toBe(UNANSWERABLE);
    const transcript = (await (await page(`conversations/${running.unanswered}`)).json()) as {
      messages: { role: string; text: string }[];
    };
    expect(transcript.messages[0]).toMatchObject({ role: 'user', text: UNANSWERABLE });
    const gaps = (await (await page('gaps')).json()) as { gaps: { examples: string[] }[] };
    expect(gaps.gaps.flatMap((gap) => gap.examples)).toContain(UNANSWERABLE);
  });

  it('passes CSV on with its type and file name', async () => {
    const response = await page('search?format=csv');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toContain('.csv');
    expect(await response.text()).toContain('zebra crossing quota');
  });

  it('passes on only the parameters of the insights API', async () => {
    await page('questions?limit=2&domain=other&adminKey=x&cursor=abc');
    expect(upstream.map((request) => request.url)).toEqual([
      `${running.url}/discovery/v1/insights/${DOMAIN}/questions?limit=2&cursor=abc`,
    ]);
  });

  it('refuses without a session, from another site, writes and other routes, and never calls the service', async () => {
    const unauthorized = await fetch(`${endpoint}/stats`, { headers: { 'Sec-Fetch-Site': 'same-origin' } });
    expect(unauthorized.status).toBe(401);
    const crossSite = await page('stats', { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(((await crossSite.json()) as { error: string }).error).toContain(origin);
    const write = await page('stats', { Origin: origin }, { method: 'POST', body: '{}' });
    expect(write.status).toBe(405);
    expect(write.headers.get('allow')).toBe('GET, HEAD');
    const other = await page('feedback');
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error: string }).error).toContain('conversations/{threadId}');
    expect(upstream).toEqual([]);
  });

  it('lets an allowed origin in', async () => {
    const host = await mount({ allowedOrigins: ['https://admin.example.com'] });
    try {
      const response = await fetch(`${host.url}/api/insights/stats`, {
        headers: { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://admin.example.com', Cookie: SESSION },
      });
      expect(response.status).toBe(200);
    } finally {
      await host.close();
    }
  });

  it('answers 502 when the service cannot be reached', async () => {
    const host = await mount({ baseUrl: 'http://127.0.0.1:9', fetch: undefined });
    try {
      const response = await fetch(`${host.url}/api/insights/stats`, {
        headers: { 'Sec-Fetch-Site': 'same-origin', Cookie: SESSION },
      });
      expect(response.status).toBe(502);
      expect(((await response.json()) as { code: string }).code).toBe('network_error');
    } finally {
      await host.close();
    }
  });
});

describe('createInsightsHandler options', () => {
  const base = { baseUrl: 'http://127.0.0.1:1', adminKey: ADMIN_KEY, domain: DOMAIN, authorize };
  it('says what to change when a required option is wrong', () => {
    expect(() => createInsightsHandler({ ...base, adminKey: 'svc_dsc_reader' })).toThrow(/admin API key/);
    expect(() => createInsightsHandler({ ...base, domain: '' })).toThrow(/domain/);
    expect(() =>
      createInsightsHandler({
        ...base,
        authorize: undefined as unknown as InsightsHandlerOptions['authorize'],
      }),
    ).toThrow(/authorize\(request\)/);
    expect(() => createInsightsHandler({ ...base, allowedOrigins: ['https://admin.example.com/'] })).toThrow(
      /allowedOrigins/,
    );
  });
});
