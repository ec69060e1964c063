/**
 * Assistant bodies the real service's OpenAPI accepts are answered, not refused, over HTTP on
 * 127.0.0.1: a `retrievalPageSize` of 2.5 or 100, a `currentPath` of 300 characters and an empty
 * message `id`, on v1 and v2, each read the way this service can answer it and named in the
 * `X-Request-Adjusted` header. `messages: []` stays a 400 (spec §2.1: "at least the latest user
 * message"), as docs/discovery-api.md says. (Search and page bodies: discovery-search.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { authHeaders, parseStream, type RunningService, startService, userMessage } from './helpers';

const SCHEMAS = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'schemas');
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
const realV2Request = ajv.compile(
  JSON.parse(readFileSync(join(SCHEMAS, 'discovery-v2-message-request.schema.json'), 'utf8')),
);

let running: RunningService;
beforeAll(async () => {
  running = await startService();
});
afterAll(async () => {
  await running.close();
});

const QUESTION = 'How do I enable dark mode?';
const LONG_PATH = `/guides/${'a'.repeat(292)}`;

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: authHeaders(), body: JSON.stringify(body) });

const v1Body = (extra: Record<string, unknown>, id = 'q1') => ({
  fp: 'anonymous',
  messages: [{ ...userMessage(QUESTION), id }],
  ...extra,
});
const v2Body = (extra: Record<string, unknown>, id = 'q1') => ({
  fp: 'anonymous',
  messages: [{ id, role: 'user', parts: [{ type: 'text', text: QUESTION }] }],
  ...extra,
});

/** Each body, what the header must say about it, and the search it must have made. */
const CASES: [string, Record<string, unknown>, string, { results?: number; currentPath?: number }][] = [
  [
    'retrievalPageSize 2.5',
    { retrievalPageSize: 2.5 },
    'retrievalPageSize 2.5 read as 3 (a whole number from 1 to 50)',
    { results: 3 },
  ],
  [
    'retrievalPageSize 100',
    { retrievalPageSize: 100 },
    'retrievalPageSize 100 read as 50 (a whole number from 1 to 50)',
    {},
  ],
  [
    'a 300-character currentPath',
    { currentPath: LONG_PATH },
    'currentPath cut to its first 200 characters (got 300)',
    { currentPath: 200 },
  ],
];

describe('v1: POST /discovery/v1/assistant/{domain}/message', () => {
  it.each(CASES)('answers %s and says how it read it', async (_name, extra, said, search) => {
    const response = await post(running.endpoint(), v1Body(extra));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-adjusted')).toBe(said);
    const stream = parseStream(await response.text());
    expect(stream.text).toMatch(/theme="dark"/);
    if (search.results) expect(stream.searchResults).toHaveLength(search.results);
    if (search.currentPath) {
      const call = stream.parts.find((part) => part.name === 'toolCall')?.value as {
        args: { currentPath: string };
      };
      expect(call.args.currentPath).toBe(LONG_PATH.slice(0, search.currentPath));
    }
  });

  it('answers an empty message id', async () => {
    const response = await post(running.endpoint(), v1Body({}, ''));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-adjusted')).toBe('empty message id given one (messages 0)');
    expect(parseStream(await response.text()).text).toMatch(/theme="dark"/);
  });

  it('a well-formed body gets no header', async () => {
    const response = await post(running.endpoint(), v1Body({ retrievalPageSize: 5 }));
    expect(response.headers.get('x-request-adjusted')).toBeNull();
    await response.body?.cancel();
  });

  it('refuses messages: [] with a 400 saying a question is needed (stricter, documented)', async () => {
    const response = await post(running.endpoint(), { fp: 'anonymous', messages: [] });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(
      /messages: must hold at least the latest user message/,
    );
  });
});

describe('v2: POST /discovery/v2/assistant/{domain}/message', () => {
  const v2Url = () => `${running.url}/discovery/v2/assistant/acme/message`;

  it.each([
    ...CASES.map(([name, extra, said]) => [name, v2Body(extra), said] as const),
    ['an empty message id', v2Body({}, ''), 'empty message id given one (messages 0)'] as const,
  ])('answers %s, which the real v2 schema accepts, and says how it read it', async (_name, body, said) => {
    expect(realV2Request(body), ajv.errorsText(realV2Request.errors)).toBe(true);
    const response = await post(v2Url(), body);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-adjusted')).toBe(said);
    const events = await response.text();
    expect(events).toMatch(/"type":"text-delta"/);
    expect(events).toMatch(/"type":"finish"/);
  });

  it('refuses messages: [] with a 400 (stricter, documented)', async () => {
    const body = { fp: 'anonymous', messages: [] };
    expect(realV2Request(body)).toBe(true);
    const response = await post(v2Url(), body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/at least the latest user message/);
  });
});
