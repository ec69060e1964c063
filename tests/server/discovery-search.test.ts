/**
 * The search and page endpoints of the discovery API over real HTTP on 127.0.0.1: request and
 * answer bodies against the JSON Schemas written from the issue's shapes
 * (tests/fixtures/schemas/discovery-*), every bad input refused with a 400 in the service's error
 * shape, and the answers read from the same index the assistant answers from.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { discoveryScores } from '../../packages/docs-assistant-server/src/discovery/search';
import { ADMIN_KEY, ASSISTANT_KEY, authHeaders, DOMAIN, type RunningService, startService } from './helpers';

const SCHEMAS = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'schemas');
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
const schema = (name: string): ValidateFunction =>
  ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, `${name}.schema.json`), 'utf8')));

const searchRequest = schema('discovery-search-request');
const searchResponse = schema('discovery-search-response');
const pageRequest = schema('discovery-page-request');
const pageResponse = schema('discovery-page-response');
const pageNotFound = schema('discovery-page-not-found');
const serviceError = schema('service-error');

/** Fails with ajv's words, so a broken answer says which field is wrong. */
function expectValid(validate: ValidateFunction, value: unknown): void {
  const ok = validate(value);
  expect(ok, ajv.errorsText(validate.errors)).toBe(true);
}

let running: RunningService;
const searchUrl = (domain = DOMAIN) => `${running.url}/discovery/v1/search/${domain}`;
const pageUrl = (domain = DOMAIN) => `${running.url}/discovery/v1/page/${domain}`;

const post = (url: string, body: unknown, headers: Record<string, string> = authHeaders()) =>
  fetch(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

interface SearchItem {
  content: string;
  path: string;
  metadata: {
    title: string;
    anchor: string;
    url: string;
    score: number;
    version?: string;
    language?: string;
  };
}

async function search(body: Record<string, unknown>): Promise<SearchItem[]> {
  expectValid(searchRequest, body);
  const response = await post(searchUrl(), body);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const items: unknown = await response.json();
  expectValid(searchResponse, items);
  return items as SearchItem[];
}

beforeAll(async () => {
  running = await startService({ siteUrl: 'https://docs.acme.test' });
});
afterAll(async () => {
  await running.close();
});

describe('POST /discovery/v1/search/{domain}', () => {
  it('answers an array of sections, best first, from the index the assistant uses', async () => {
    const items = await search({ query: 'dark mode' });
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThanOrEqual(10);
    expect(items[0]!.path).toBe('/guides/theming');
    expect(items[0]!.metadata.title).toMatch(/Dark mode/);
    expect(items[0]!.content).toMatch(/dark mode/i);
    expect(items[0]!.metadata.url).toBe(`https://docs.acme.test/guides/theming#${items[0]!.metadata.anchor}`);
    // The same retrieval as the assistant: the index's own first hit is the first result.
    const index = await running.service.index(DOMAIN);
    const hit = index.query({ question: 'dark mode', limit: 1 }).hits[0]!;
    expect(`${items[0]!.path}#${items[0]!.metadata.anchor}`).toBe(hit.section.id);
  });

  it('keeps to pageSize (default 10) and to scoreThreshold on the documented 0–1 score', async () => {
    const all = await search({ query: 'widget', pageSize: 50 });
    expect(all.length).toBeGreaterThan(2);
    expect((await search({ query: 'widget', pageSize: 2 })).length).toBe(2);
    expect((await search({ query: 'widget' })).length).toBe(Math.min(10, all.length));
    const scores = all.map((item) => item.metadata.score);
    expect(Math.max(...scores)).toBeGreaterThan(0.5);
    const threshold = (Math.max(...scores) + Math.min(...scores)) / 2;
    const kept = await search({ query: 'widget', pageSize: 50, scoreThreshold: threshold });
    expect(kept.length).toBe(scores.filter((score) => score >= threshold).length);
    expect(kept.length).toBeLessThan(all.length);
    expect(kept.every((item) => item.metadata.score >= threshold)).toBe(true);
    expect(await search({ query: 'widget', scoreThreshold: 1, pageSize: 50 })).toEqual(
      all.filter((item) => item.metadata.score === 1),
    );
  });

  it('honours filter.version and filter.language', async () => {
    const v1 = await search({ query: 'authentication token', filter: { version: '1' } });
    expect(v1.length).toBeGreaterThan(0);
    expect(v1.some((item) => item.path === '/reference/authentication')).toBe(false);
    expect(v1.some((item) => item.path === '/reference/authentication-v1')).toBe(true);
    const v2 = await search({ query: 'authentication token', filter: { version: '2' } });
    expect(v2.some((item) => item.path === '/reference/authentication-v1')).toBe(false);
    const fr = await search({ query: 'mode sombre', filter: { language: 'fr', tag: 'guides', groups: [] } });
    expect(fr[0]?.path).toBe('/fr/theming');
    expect(fr[0]?.metadata.language).toBe('fr');
    const en = await search({ query: 'mode sombre', filter: { language: 'en' } });
    expect(en.some((item) => item.path === '/fr/theming')).toBe(false);
  });

  it('answers an empty array when nothing matches', async () => {
    expect(await search({ query: 'xylophone quaternion' })).toEqual([]);
  });

  it('sends the rate limit headers and CORS for browsers', async () => {
    const response = await post(
      searchUrl(),
      { query: 'theming' },
      { ...authHeaders(), Origin: 'https://x.test' },
    );
    expect(response.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    await response.body?.cancel();
  });

  const badSearches: [string, unknown, string][] = [
    ['missing query', { pageSize: 5 }, 'query'],
    ['query not a string', { query: 42 }, 'query'],
    ['pageSize 0', { query: 'theming', pageSize: 0 }, 'pageSize'],
    ['pageSize 51', { query: 'theming', pageSize: 51 }, 'pageSize'],
    ['pageSize not whole', { query: 'theming', pageSize: 2.5 }, 'pageSize'],
    ['pageSize a string', { query: 'theming', pageSize: '5' }, 'pageSize'],
    ['scoreThreshold below 0', { query: 'theming', scoreThreshold: -0.1 }, 'scoreThreshold'],
    ['scoreThreshold above 1', { query: 'theming', scoreThreshold: 1.5 }, 'scoreThreshold'],
    ['scoreThreshold a string', { query: 'theming', scoreThreshold: 'high' }, 'scoreThreshold'],
    ['filter an array', { query: 'theming', filter: [] }, 'filter'],
    ['filter.version a number', { query: 'theming', filter: { version: 2 } }, 'filter.version'],
    ['filter.groups not strings', { query: 'theming', filter: { groups: [1] } }, 'filter.groups'],
    ['body an array', [{ query: 'theming' }], '(body)'],
  ];
  it.each(badSearches)('400 for %s, naming the field', async (_name, body, field) => {
    expect(searchRequest(body)).toBe(false);
    const response = await post(searchUrl(), body);
    expect(response.status).toBe(400);
    const error = (await response.json()) as { error: string; code: string; issues: { path: string }[] };
    expectValid(serviceError, error);
    expect(error.code).toBe('invalid_request');
    expect(error.issues.map((issue) => issue.path)).toContain(field);
    expect(error.error).toContain(field);
  });

  it('answers bodies the real schema accepts: an empty or blank query with [], a long one cut, each said in a header', async () => {
    for (const query of ['', '   ']) {
      const response = await post(searchUrl(), { query });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([]);
      expect(response.headers.get('x-request-adjusted')).toBe('query is empty: nothing was searched');
    }
    // The same words, then 4,000 characters more: searched as its first 1,000.
    const long = `dark mode ${'x'.repeat(4990)}`;
    const cut = await post(searchUrl(), { query: long });
    expect(cut.status).toBe(200);
    expect(cut.headers.get('x-request-adjusted')).toBe('query cut to its first 1000 characters (got 5000)');
    const items = (await cut.json()) as SearchItem[];
    expectValid(searchResponse, items);
    const plain = await post(searchUrl(), { query: long.slice(0, 1000) });
    expect(plain.headers.get('x-request-adjusted')).toBeNull();
    expect(items).toEqual(await plain.json());
    // An empty query does not excuse the rest of the body.
    const bad = await post(searchUrl(), { query: '', pageSize: 51 });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { issues: { path: string }[] }).issues.map((issue) => issue.path)).toEqual([
      'pageSize',
    ]);
    // A browser may read the header.
    const cors = await post(searchUrl(), { query: '' }, { ...authHeaders(), Origin: 'https://x.test' });
    expect(cors.headers.get('access-control-expose-headers')).toMatch(/X-Request-Adjusted/i);
    await cors.body?.cancel();
  });

  it('lists every problem of a body at once', async () => {
    const response = await post(searchUrl(), { pageSize: 51, scoreThreshold: 2 });
    const error = (await response.json()) as { issues: { path: string }[] };
    expect(error.issues.map((issue) => issue.path).sort()).toEqual(['pageSize', 'query', 'scoreThreshold']);
  });
});

describe('POST /discovery/v1/page/{domain}', () => {
  async function page(body: Record<string, unknown>) {
    expectValid(pageRequest, body);
    return post(pageUrl(), body);
  }

  it("answers { path, content } with the page's full text", async () => {
    const response = await page({ path: '/guides/theming' });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { path: string; content: string };
    expectValid(pageResponse, answer);
    expect(answer.path).toBe('/guides/theming');
    expect(answer.content).toMatch(/^# Theming\n/);
    expect(answer.content).toContain('## Dark mode');
    expect(answer.content).toContain('### Turning dark mode off');
    expect(answer.content).toMatch(/Set `?--acme-accent`? to change the accent color/);
    expect(answer.content.match(/Colors, fonts and dark mode\./g)).toHaveLength(1);
  });

  it('finds a page however its path is written (no leading slash, trailing slash, anchor)', async () => {
    for (const path of [
      'guides/theming',
      '/guides/theming/',
      '/guides/theming#dark-mode',
      '/guides/theming.html',
    ]) {
      const response = await page({ path, groups: ['public'] });
      expect(response.status, path).toBe(200);
      expect(((await response.json()) as { path: string }).path).toBe('/guides/theming');
    }
    const home = await page({ path: '/' });
    expect(home.status).toBe(200);
    await home.body?.cancel();
  });

  it('keeps each code block after the paragraph it follows', async () => {
    const docs = mkdtempSync(join(tmpdir(), 'discovery-page-'));
    writeFileSync(
      join(docs, 'setup.md'),
      '# Setup\n\n## Install\n\nFirst install it:\n\n```bash\nnpm i acme\n```\n\nThen start it:\n\n```bash\nacme start\n```\n\n| Flag | Meaning |\n| --- | --- |\n| `-v` | verbose |\n',
    );
    const own = await startService({ docs });
    try {
      const response = await post(`${own.url}/discovery/v1/page/${DOMAIN}`, { path: '/setup' });
      const { content } = (await response.json()) as { content: string };
      expect(content).toBe(
        '# Setup\n\n## Install\n\nFirst install it:\n\n```bash\nnpm i acme\n```\n\nThen start it:\n\n```bash\nacme start\n```\n\nFlag — Meaning\n\n`-v` — verbose\n',
      );
    } finally {
      await own.close();
      rmSync(docs, { recursive: true, force: true });
    }
  });

  it("takes a link's path under the domain's siteUrl as the page's", async () => {
    const prefixed = await startService({ siteUrl: 'https://docs.acme.test/docs/' });
    try {
      const at = `${prefixed.url}/discovery/v1/page/${DOMAIN}`;
      const found = await post(at, { path: '/docs/guides/theming' });
      expect(found.status).toBe(200);
      expect(((await found.json()) as { path: string }).path).toBe('/guides/theming');
      expect((await post(at, { path: '/guides/theming' })).status).toBe(200);
      const outside = await post(at, { path: '/docsguides/theming' });
      expect(outside.status).toBe(404);
      await outside.body?.cancel();
    } finally {
      await prefixed.close();
    }
  });

  it('404 { message } for a page that does not exist, and for an unknown domain', async () => {
    const response = await page({ path: '/guides/nowhere' });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { message: string };
    expectValid(pageNotFound, body);
    expect(body.message).toContain('/guides/nowhere');
    const unknown = await post(pageUrl('nope'), { path: '/guides/theming' });
    expect(unknown.status).toBe(404);
    const unknownBody = (await unknown.json()) as { message: string };
    expectValid(pageNotFound, unknownBody);
    expect(unknownBody.message).toContain('"nope"');
  });

  it('reads an empty or blank path as the root page, and says so', async () => {
    for (const path of ['', ' ']) {
      const response = await page({ path });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { path: string }).path).toBe('/');
      expect(response.headers.get('x-request-adjusted')).toBe('empty path read as "/", the root page');
    }
  });

  const badPages: [string, unknown, string][] = [
    ['missing path', { groups: [] }, 'path'],
    ['path not a string', { path: 7 }, 'path'],
    ['path climbing with ..', { path: '/guides/../../etc/passwd' }, 'path'],
    ['path of ..', { path: '..' }, 'path'],
    ['path with a backslash ..', { path: '\\..\\secrets' }, 'path'],
    ['path too long', { path: `/${'a'.repeat(1000)}` }, 'path'],
    ['groups not an array', { path: '/guides/theming', groups: 'public' }, 'groups'],
  ];
  it.each(badPages)('400 for %s, naming the field', async (_name, body, field) => {
    expect(pageRequest(body)).toBe(false);
    const response = await post(pageUrl(), body);
    expect(response.status).toBe(400);
    const error = (await response.json()) as { code: string; issues: { path: string }[] };
    expectValid(serviceError, error);
    expect(error.code).toBe('invalid_request');
    expect(error.issues.map((issue) => issue.path)).toContain(field);
  });
});

describe('keys, domains and media types (both endpoints)', () => {
  const endpoints: [string, () => string, unknown][] = [
    ['search', () => searchUrl(), { query: 'theming' }],
    ['page', () => pageUrl(), { path: '/guides/theming' }],
  ];
  it.each(endpoints)('%s: 401 without a key, 401 for an unknown key', async (_name, url, body) => {
    for (const headers of [{ 'Content-Type': 'application/json' }, authHeaders('svc_dsc_nobody')]) {
      const response = await post(url(), body, headers);
      expect(response.status).toBe(401);
      const error = await response.json();
      expectValid(serviceError, error);
      expect(error).toMatchObject({ code: 'unauthorized' });
    }
  });

  it.each(endpoints)(
    '%s: 403 for an admin key, telling to use the assistant key',
    async (_name, url, body) => {
      const response = await post(url(), body, authHeaders(ADMIN_KEY));
      expect(response.status).toBe(403);
      const error = (await response.json()) as { error: string; code: string };
      expectValid(serviceError, error);
      expect(error.error).toMatch(/admin API key/);
    },
  );

  it.each(endpoints)('%s: 415 for a body that is not JSON', async (_name, url, body) => {
    const response = await post(url(), JSON.stringify(body), {
      Authorization: `Bearer ${ASSISTANT_KEY}`,
      'Content-Type': 'text/plain',
    });
    expect(response.status).toBe(415);
    const error = await response.json();
    expectValid(serviceError, error);
    expect(error).toMatchObject({ code: 'unsupported_media_type' });
  });

  it.each(endpoints)('%s: 400 for JSON that does not parse', async (_name, url) => {
    const response = await post(url(), '{"query": ');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'invalid_json' });
  });

  it('search: 404 in the error shape for an unknown domain', async () => {
    const response = await post(searchUrl('nope'), { query: 'theming' });
    expect(response.status).toBe(404);
    const error = await response.json();
    expectValid(serviceError, error);
    expect(error).toMatchObject({ code: 'not_found' });
  });

  it.each(endpoints)('%s: 405 for GET', async (_name, url) => {
    const response = await fetch(url(), { headers: authHeaders() });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });
});

describe('rate limits', () => {
  it('count search and page requests like assistant requests, 429 with Retry-After past the limit', async () => {
    const limited = await startService({ rateLimits: { perIp: { limit: 2, windowMs: 3_600_000 } } });
    try {
      const at = (path: string) => `${limited.url}/discovery/v1/${path}/${DOMAIN}`;
      expect((await post(at('search'), { query: 'theming' })).status).toBe(200);
      expect((await post(at('page'), { path: '/guides/theming' })).status).toBe(200);
      const refused = await post(at('search'), { query: 'theming' });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      const error = await refused.json();
      expectValid(serviceError, error);
      expect(error).toMatchObject({ code: 'rate_limited' });
    } finally {
      await limited.close();
    }
  });
});

describe('discoveryScores', () => {
  it('scores 1 for the best hit holding every query word, less for weaker ones, never outside 0–1', async () => {
    const index = await running.service.index(DOMAIN);
    const result = index.query({ question: 'dark mode theme', limit: 20 });
    const scores = discoveryScores(result);
    expect(scores.length).toBe(result.hits.length);
    expect(scores.every((score) => score >= 0 && score <= 1)).toBe(true);
    expect(Math.min(...scores)).toBeLessThan(Math.max(...scores));
    expect(discoveryScores({ hits: [], terms: [], confident: false })).toEqual([]);
  });
});
