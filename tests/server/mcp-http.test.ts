/**
 * The MCP server at /mcp over real HTTP on 127.0.0.1, driven by the SDK's own `Client` and
 * `StreamableHTTPClientTransport`: initialize, the tool list with its schemas, `search` giving the
 * same sections in the same order as `POST /discovery/v1/search/{domain}` for the same query and
 * filters, `get_page` Markdown, and every bad input answered with a tool error or the protocol's
 * JSON-RPC error, never a 500.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, McpError } from '@modelcontextprotocol/sdk/types.js';
import { runCli } from '../../packages/docs-assistant-server/src/cli';
import type { SearchToolResult } from '../../packages/docs-assistant-server/src/mcp/tools';
import type { AssistantServiceOptions } from '../../packages/docs-assistant-server/src/service';
import {
  ASSISTANT_KEY,
  authHeaders,
  DOMAIN,
  FIXTURE_DOCS,
  type RunningService,
  startService,
} from './helpers';
import { corpusDir } from './sites-corpora';

const SITE_URL = 'https://docs.acme.test';

interface EndpointItem {
  path: string;
  metadata: { title: string; url: string; score: number; version?: string; language?: string };
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  onTestFinished(() => client.close());
  return client;
}

async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const textOf = (result: CallToolResult): string =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

async function mcpSearch(client: Client, args: Record<string, unknown>): Promise<SearchToolResult[]> {
  const result = await callTool(client, 'search', args);
  expect(result.isError, textOf(result)).toBeFalsy();
  return (result.structuredContent as { results: SearchToolResult[] }).results;
}

async function endpointSearch(
  running: RunningService,
  body: Record<string, unknown>,
  domain = DOMAIN,
): Promise<EndpointItem[]> {
  const response = await fetch(`${running.url}/discovery/v1/search/${domain}`, {
    method: 'POST',
    headers: authHeaders(),
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as EndpointItem[];
}

/** The tool's arguments as the search endpoint's body. */
function endpointBody(args: Record<string, unknown>): Record<string, unknown> {
  const { version, language, ...rest } = args;
  return {
    ...rest,
    ...(version || language
      ? { filter: { ...(version ? { version } : {}), ...(language ? { language } : {}) } }
      : {}),
  };
}

/** Both ways, for the same query and filters: the same sections, order and scores. */
async function expectSameAsEndpoint(
  running: RunningService,
  client: Client,
  args: Record<string, unknown>,
): Promise<SearchToolResult[]> {
  const [viaMcp, viaHttp] = await Promise.all([
    mcpSearch(client, args),
    endpointSearch(running, endpointBody(args)),
  ]);
  expect(viaMcp.map((r) => [r.path, r.url, r.title, r.score])).toEqual(
    viaHttp.map((item) => [item.path, item.metadata.url, item.metadata.title, item.metadata.score]),
  );
  return viaMcp;
}

describe('MCP over Streamable HTTP (Acme fixture)', () => {
  let running: RunningService;
  beforeAll(async () => {
    running = await startService({ siteUrl: SITE_URL });
  });
  afterAll(async () => {
    await running.close();
  });

  it('initializes statelessly and lists both read-only tools with their schemas', async () => {
    const client = await connect(`${running.url}/mcp`);
    expect(client.getServerVersion()?.name).toBe('docs-assistant');
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toMatch(/search.*get_page/);

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['search', 'get_page']);
    const [search, getPage] = tools;
    for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);
    expect(search!.inputSchema.required).toEqual(['query']);
    expect(search!.inputSchema.properties).toMatchObject({
      query: { type: 'string', maxLength: 1000 },
      pageSize: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
      scoreThreshold: { type: 'number', minimum: 0, maximum: 1 },
      version: { type: 'string' },
      language: { type: 'string' },
    });
    expect(search!.outputSchema?.properties).toHaveProperty('results');
    expect(getPage!.inputSchema.required).toEqual(['path']);

    // Stateless: no session id, so any replica can take the next request.
    const response = await fetch(`${running.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const body = (await response.json()) as { result: { tools: unknown[] } };
    expect(body.result.tools).toHaveLength(2);
  });

  it('search returns the search endpoint’s sections in its order, as text and structured content', async () => {
    const client = await connect(`${running.url}/mcp`);
    const results = await expectSameAsEndpoint(running, client, { query: 'dark mode' });
    expect(results[0]).toMatchObject({
      path: '/guides/theming',
      url: `${SITE_URL}/guides/theming#dark-mode`,
    });
    expect(results[0]!.snippet).toMatch(/dark mode/i);
    for (const result of results) expect(Array.from(result.snippet).length).toBeLessThanOrEqual(301);

    const call = await callTool(client, 'search', { query: 'dark mode' });
    const text = textOf(call);
    // Title, URL and snippet of each result in the text, in order.
    let at = -1;
    for (const result of results) {
      const next = text.indexOf(result.url, at + 1);
      expect(next).toBeGreaterThan(at);
      expect(text).toContain(result.title);
      at = next;
    }
    for (const query of ['install the widget', 'notifications', 'how do I change the accent color']) {
      await expectSameAsEndpoint(running, client, { query });
    }
  });

  it('honours pageSize and scoreThreshold as the endpoint does', async () => {
    const client = await connect(`${running.url}/mcp`);
    const all = await expectSameAsEndpoint(running, client, { query: 'widget theme', pageSize: 50 });
    expect(all.length).toBeGreaterThan(2);
    const two = await expectSameAsEndpoint(running, client, { query: 'widget theme', pageSize: 2 });
    expect(two).toHaveLength(2);
    expect(two).toEqual(all.slice(0, 2));
    const close = await expectSameAsEndpoint(running, client, {
      query: 'widget theme',
      pageSize: 50,
      scoreThreshold: 0.9,
    });
    expect(close.length).toBeGreaterThan(0);
    expect(close.length).toBeLessThan(all.length);
    for (const result of close) expect(result.score).toBeGreaterThanOrEqual(0.9);
    expect(close).toEqual(all.filter((result) => result.score >= 0.9));
  });

  it('get_page returns the page as Markdown, by path or by a result’s URL', async () => {
    const client = await connect(`${running.url}/mcp`);
    const byPath = textOf(await callTool(client, 'get_page', { path: '/guides/theming' }));
    expect(byPath).toMatch(/^# Theming$/m);
    expect(byPath).toContain('## Dark mode');
    // The same text as the page's `.md` URL on the same service (agents/).
    const dotMd = await fetch(`${running.url}/guides/theming.md`);
    expect(dotMd.status).toBe(200);
    expect(byPath).toBe(await dotMd.text());
    const byUrl = await callTool(client, 'get_page', { path: `${SITE_URL}/guides/theming#dark-mode` });
    expect(byUrl.isError).toBeFalsy();
    expect(textOf(byUrl)).toBe(byPath);
    expect(textOf(await callTool(client, 'get_page', { path: 'guides/theming.md' }))).toBe(byPath);
  });

  it.each([
    [
      'pageSize 0',
      'search',
      { query: 'dark mode', pageSize: 0 },
      /pageSize: must be a whole number from 1 to 50 \(got 0\)/,
    ],
    [
      'pageSize 51',
      'search',
      { query: 'dark mode', pageSize: 51 },
      /pageSize: must be a whole number from 1 to 50 \(got 51\)/,
    ],
    [
      'a 10 kB query',
      'search',
      { query: 'dark mode '.repeat(1024) },
      /query: must be at most 1000 characters/,
    ],
    ['an empty query', 'search', { query: '  ' }, /query: must hold at least one word/],
    ['no query', 'search', {}, /query: required/],
    [
      'scoreThreshold 2',
      'search',
      { query: 'x', scoreThreshold: 2 },
      /scoreThreshold: must be a number from 0 to 1/,
    ],
    ['a numeric version', 'search', { query: 'x', version: 2 }, /version: expected a string/],
    [
      'an unknown argument',
      'search',
      { query: 'x', limit: 5 },
      /unknown argument "limit"; search takes "query", "pageSize"/,
    ],
    [
      'a ".." path',
      'get_page',
      { path: '../../etc/passwd' },
      /path: must not contain "\." or "\.\." segments/,
    ],
    [
      'an encoded ".." path',
      'get_page',
      { path: '/guides/%2e%2e/%2E%2E/secret' },
      /must not contain "\." or "\.\." segments/,
    ],
    [
      'a URL climbing out',
      'get_page',
      { path: `${SITE_URL}/guides/../../secret` },
      /must not contain "\." or "\.\." segments/,
    ],
    [
      'an unknown path',
      'get_page',
      { path: '/guides/themeing' },
      /No page "\/guides\/themeing".*Closest existing paths: \/guides\/theming/,
    ],
    [
      'a page moved to another folder',
      'get_page',
      { path: '/theming' },
      /Closest existing paths: [^.]*\/guides\/theming/,
    ],
    ['no path', 'get_page', {}, /path: required/],
  ])('%s is a tool error saying what to change', async (_name, tool, args, message) => {
    const client = await connect(`${running.url}/mcp`);
    const result = await callTool(client, tool, args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
  });

  it('an unknown tool is the protocol’s invalid-params error', async () => {
    const client = await connect(`${running.url}/mcp`);
    const error = await client.callTool({ name: 'delete_docs', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toMatch(
      /Unknown tool "delete_docs"; this server has "search" and "get_page"/,
    );
  });

  const rawPost = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${running.url}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...headers,
      },
      body,
    });

  it.each([
    ['not JSON', '{"jsonrpc": "2.0", "method": ', 400, -32700],
    ['JSON that is no JSON-RPC message', '{"hello": "world"}', 400, -32700],
    [
      'a batch of 200 messages',
      JSON.stringify(Array.from({ length: 200 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'ping' }))),
      400,
      -32600,
    ],
    // Past the service's maxBodyBytes (1 MiB), refused before it is parsed.
    [
      'a 2 MB body',
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search', arguments: { query: 'x'.repeat(2 * 1024 * 1024) } },
      }),
      413,
      -32000,
    ],
  ])('a malformed message (%s) gets the JSON-RPC error', async (_name, body, status, code) => {
    const response = await rawPost(body);
    expect(response.status).toBe(status);
    const answer = (await response.json()) as {
      jsonrpc: string;
      error: { code: number; message: string };
      id: null;
    };
    expect(answer).toMatchObject({ jsonrpc: '2.0', error: { code }, id: null });
  });

  it('refuses a foreign Origin with 403 and a JSON-RPC error, and accepts the site’s own', async () => {
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const foreign = await rawPost(list, { Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const refusal = (await foreign.json()) as { error: { code: number; message: string }; id: null };
    expect(refusal.id).toBeNull();
    expect(refusal.error.message).toMatch(
      /origin "https:\/\/evil\.example" may not call this MCP server.*mcp\.allowedOrigins/,
    );

    // A preflight from a foreign origin is refused too; the docs site's own pages may call.
    const preflight = await fetch(`${running.url}/mcp`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    const own = await rawPost(list, { Origin: SITE_URL });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe(SITE_URL);
    const ownPreflight = await fetch(`${running.url}/mcp`, {
      method: 'OPTIONS',
      headers: { Origin: SITE_URL, 'Access-Control-Request-Method': 'POST' },
    });
    expect(ownPreflight.status).toBe(204);
    expect(ownPreflight.headers.get('access-control-allow-headers')).toMatch(/Mcp-Protocol-Version/);
  });

  it('answers GET (no server stream) with 405, and an unknown domain with 404, both as JSON-RPC errors', async () => {
    const get = await fetch(`${running.url}/mcp`, { headers: { Accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    expect(((await get.json()) as { error: { message: string } }).error.message).toMatch(/stateless/);
    const unknown = await fetch(`${running.url}/mcp/nope`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(
      /Unknown domain "nope"; this service serves "acme": use \/mcp\/\{domain\}/,
    );
    // /mcp/{domain} serves the named domain, as /mcp serves the first.
    const named = await connect(`${running.url}/mcp/${DOMAIN}`);
    expect((await named.listTools()).tools).toHaveLength(2);
    // After all of the above, the service still answers.
    expect((await fetch(`${running.url}/health`)).status).toBe(200);
  });
});

describe('MCP language and version filters (Mintlify fixture)', () => {
  let running: RunningService;
  beforeAll(async () => {
    running = await startService({ docs: corpusDir('mintlify') });
  });
  afterAll(async () => {
    await running.close();
  });

  it('honours language and version as the endpoint’s filter does', async () => {
    const client = await connect(`${running.url}/mcp`);
    const { tools } = await client.listTools();
    const schema = tools[0]!.inputSchema.properties as Record<string, { description: string }>;
    expect(schema.language!.description).toMatch(/"en", "fr", "es"/);
    expect(schema.version!.description).toMatch(/"v2", "v1"/);

    const french = await expectSameAsEndpoint(running, client, { query: 'custom domain', language: 'fr' });
    expect(french.length).toBeGreaterThan(0);
    for (const result of french) {
      expect(result.language).toBe('fr');
      expect(result.path).toMatch(/^\/fr\//);
    }
    const v1 = await expectSameAsEndpoint(running, client, {
      query: 'Which header carries the API key?',
      version: 'v1',
    });
    expect(v1[0]!.path).toBe('/v1/api/api-keys');
    for (const result of v1) expect(result.version).toBe('v1');
    const latest = await expectSameAsEndpoint(running, client, {
      query: 'Which header carries the API key?',
    });
    expect(latest[0]!.path).toBe('/api/api-keys');
    const none = await expectSameAsEndpoint(running, client, { query: 'custom domain', language: 'de' });
    expect(none).toEqual([]);
    const empty = await callTool(client, 'search', { query: 'custom domain', language: 'de' });
    expect(textOf(empty)).toMatch(/No results for "custom domain"/);
  });

  it('get_page turns MDX into Markdown: no JSX, no front matter', async () => {
    const client = await connect(`${running.url}/mcp`);
    for (const path of ['/quickstart', '/introduction', '/fr/guides/custom-domain', '/v1/api/api-keys']) {
      const result = await callTool(client, 'get_page', { path });
      expect(result.isError, textOf(result)).toBeFalsy();
      const markdown = textOf(result);
      expect(markdown).toMatch(/^# \S/m);
      // The same text as the page's `.md` URL, versioned pages (`/v1/…`) included.
      expect(markdown).toBe(await (await fetch(`${running.url}${path}.md`)).text());
      expect(markdown).not.toMatch(/^---$/m);
      expect(markdown).not.toMatch(/^(title|description):/m);
      expect(markdown).not.toMatch(/<\/?[A-Z][A-Za-z]*[\s>/]/);
    }
    const quickstart = textOf(await callTool(client, 'get_page', { path: '/quickstart' }));
    expect(quickstart).toContain('five minutes');
    expect(quickstart).toContain('npm install -g lumen-cli');
  });
});

describe('MCP access: the assistant key and the rate limits', () => {
  it('requireKey asks for the assistant key of the domain’s organization', async () => {
    const running = await startService({ mcp: { requireKey: true } });
    onTestFinished(() => running.close());
    const anonymous = new Client({ name: 'anonymous', version: '1.0.0' });
    const refused = await anonymous
      .connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`)))
      .catch((e: unknown) => e);
    expect(String(refused)).toMatch(/Missing API key/);
    const raw = await fetch(`${running.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toBe('Bearer');
    expect(((await raw.json()) as { error: { message: string } }).error.message).toMatch(/Missing API key/);

    const client = await connect(`${running.url}/mcp`, { Authorization: `Bearer ${ASSISTANT_KEY}` });
    expect((await mcpSearch(client, { query: 'dark mode' })).length).toBeGreaterThan(0);
  });

  it('counts tool calls against the service’s limits and says when to retry', async () => {
    const running = await startService({ rateLimits: { perIp: { limit: 3 } } });
    onTestFinished(() => running.close());
    const client = await connect(`${running.url}/mcp`);
    // Listing tools is not a search: only tool calls count.
    await client.listTools();
    for (let i = 0; i < 3; i++) await mcpSearch(client, { query: 'dark mode' });
    const limited = await callTool(client, 'search', { query: 'dark mode' });
    expect(limited.isError).toBe(true);
    expect(textOf(limited)).toMatch(
      /Too many requests from this IP address \(limit 3\); retry in \d+ seconds/,
    );
    // The search endpoint shares the count.
    const response = await fetch(`${running.url}/discovery/v1/search/${DOMAIN}`, {
      method: 'POST',
      headers: authHeaders(),
      body: JSON.stringify({ query: 'dark mode' }),
    });
    expect(response.status).toBe(429);
  });

  it('/mcp serves the first domain and /mcp/{domain} the one it names, each with its own key', async () => {
    const otherKey = 'svc_dsc_test_other_org';
    const running = await startService({
      organizations: [
        { id: 'acme-org', plan: 'enterprise', assistantKeys: [ASSISTANT_KEY], adminKeys: [] },
        { id: 'lumen-org', plan: 'enterprise', assistantKeys: [otherKey], adminKeys: [] },
      ],
      domains: [
        { domain: DOMAIN, organization: 'acme-org', docs: [FIXTURE_DOCS] },
        { domain: 'lumen', organization: 'lumen-org', docs: [corpusDir('mintlify')] },
      ],
      mcp: { requireKey: true },
    } as Partial<AssistantServiceOptions>);
    onTestFinished(() => running.close());
    const first = await connect(`${running.url}/mcp`, { Authorization: `Bearer ${ASSISTANT_KEY}` });
    expect((await mcpSearch(first, { query: 'dark mode' }))[0]!.path).toBe('/guides/theming');
    const lumen = await connect(`${running.url}/mcp/lumen`, { Authorization: `Bearer ${otherKey}` });
    expect((await mcpSearch(lumen, { query: 'custom domain' }))[0]!.path).toBe('/guides/custom-domain');
    // Another organization's key opens nothing here.
    const crossed = await fetch(`${running.url}/mcp/lumen`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        Authorization: `Bearer ${ASSISTANT_KEY}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(crossed.status).toBe(403);
    expect(((await crossed.json()) as { error: { message: string } }).error.message).toMatch(
      /not valid for domain "lumen"/,
    );
  });

  it('an allowed origin that is no origin stops the start with what to write', async () => {
    const err: string[] = [];
    const io = { out: () => {}, err: (line: string) => err.push(line) };
    const code = await runCli(
      ['serve', '--docs', FIXTURE_DOCS, '--port', '0', '--mcp-allowed-origin', 'docs.example.com'],
      io,
    );
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(
      /mcp\.allowedOrigins: "docs\.example\.com" is not an origin; write scheme, host and port only, like https:\/\/docs\.example\.com/,
    );
    // Allowed by the option, a page of that origin may call.
    const running = await startService({ mcp: { allowedOrigins: ['http://localhost:3000'] } });
    onTestFinished(() => running.close());
    const response = await fetch(`${running.url}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        Origin: 'http://localhost:3000',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
  });

  it('mcp.enabled false leaves /mcp out', async () => {
    const running = await startService({ mcp: { enabled: false } });
    onTestFinished(() => running.close());
    const response = await fetch(`${running.url}/mcp`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
  });
});
