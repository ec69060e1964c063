/**
 * `docs-assistant mcp` over stdio, started as a real process (the CLI from sources, through tsx)
 * and driven by the SDK's own `Client` with `StdioClientTransport`: the same tools as /mcp, the
 * same results as the search endpoint over the same folder, bad input as tool errors, and
 * standard output left to the protocol (the start-up line goes to standard error).
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { runCli } from '../../packages/docs-assistant-server/src/cli';
import type { SearchToolResult } from '../../packages/docs-assistant-server/src/mcp/tools';
import { authHeaders, DOMAIN, FIXTURE_DOCS, type RunningService, startService } from './helpers';
import { corpusDir } from './sites-corpora';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Started {
  client: Client;
  stderr: () => string;
}

/** Starts `docs-assistant mcp` with `args` and connects a client to its stdin and stdout. */
async function startStdio(args: string[]): Promise<Started> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'packages/docs-assistant-server/src/cli.ts', 'mcp', ...args],
    cwd: ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  // Anything but JSON-RPC on stdout would surface here.
  const protocolErrors: Error[] = [];
  client.onerror = (error) => protocolErrors.push(error);
  await client.connect(transport);
  onTestFinished(async () => {
    await client.close();
    expect(protocolErrors).toEqual([]);
  });
  return { client, stderr: () => stderr };
}

const textOf = (result: CallToolResult): string =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

async function endpointPaths(running: RunningService, body: Record<string, unknown>): Promise<string[][]> {
  const response = await fetch(`${running.url}/discovery/v1/search/${DOMAIN}`, {
    method: 'POST',
    headers: authHeaders(),
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  const items = (await response.json()) as { path: string; metadata: { url: string; score: number } }[];
  return items.map((item) => [item.path, item.metadata.url, String(item.metadata.score)]);
}

describe('docs-assistant mcp (stdio)', () => {
  it('serves search and get_page for a docs folder, with the search endpoint’s results', async () => {
    const running = await startService({ siteUrl: 'https://docs.acme.test' });
    onTestFinished(() => running.close());
    const { client, stderr } = await startStdio([
      '--docs',
      FIXTURE_DOCS,
      '--site-url',
      'https://docs.acme.test',
    ]);
    expect(client.getServerVersion()?.name).toBe('docs-assistant');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['search', 'get_page']);
    expect(tools[0]!.outputSchema?.properties).toHaveProperty('results');
    for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);

    for (const args of [
      { query: 'dark mode' },
      { query: 'widget theme', pageSize: 3 },
      { query: 'widget theme', pageSize: 50, scoreThreshold: 0.8 },
    ]) {
      const result = await call(client, 'search', args);
      const results = (result.structuredContent as { results: SearchToolResult[] }).results;
      expect(results.length).toBeGreaterThan(0);
      expect(results.map((r) => [r.path, r.url, String(r.score)])).toEqual(
        await endpointPaths(running, args),
      );
    }

    const page = textOf(await call(client, 'get_page', { path: '/guides/theming' }));
    expect(page).toMatch(/^# Theming$/m);
    expect(stderr()).toMatch(/docs-assistant mcp: \d+ pages .* tools search and get_page on stdio/);
  });

  it('honours language and version over the Mintlify fixture, and MDX pages come without JSX', async () => {
    const { client } = await startStdio(['--docs', corpusDir('mintlify')]);
    const french = (await call(client, 'search', { query: 'custom domain', language: 'fr' }))
      .structuredContent as {
      results: SearchToolResult[];
    };
    expect(french.results.length).toBeGreaterThan(0);
    for (const result of french.results) expect(result.path).toMatch(/^\/fr\//);
    const v1 = (await call(client, 'search', { query: 'Which header carries the API key?', version: 'v1' }))
      .structuredContent as { results: SearchToolResult[] };
    expect(v1.results[0]!.path).toBe('/v1/api/api-keys');
    const quickstart = textOf(await call(client, 'get_page', { path: '/quickstart' }));
    expect(quickstart).toContain('npm install -g lumen-cli');
    expect(quickstart).not.toMatch(/<\/?[A-Z][A-Za-z]*[\s>/]|^---$/m);
  });

  it('answers bad input with tool errors and keeps running', async () => {
    const { client } = await startStdio(['--docs', FIXTURE_DOCS]);
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['search', { query: 'x', pageSize: 0 }, /pageSize: must be a whole number from 1 to 50/],
      ['search', { query: 'x', pageSize: 51 }, /pageSize: must be a whole number from 1 to 50/],
      ['search', { query: 'a'.repeat(10 * 1024) }, /query: must be at most 1000 characters/],
      ['get_page', { path: '../secrets' }, /must not contain "\." or "\.\." segments/],
      ['get_page', { path: '/guides/themeing' }, /Closest existing paths: \/guides\/theming/],
    ];
    for (const [tool, args, message] of cases) {
      const result = await call(client, tool, args);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(message);
    }
    expect((await client.listTools()).tools).toHaveLength(2);
  });

  it('refuses a missing docs folder and bad flags before starting', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
    expect(await runCli(['mcp', '--docs', '/no/such/folder'], io)).toBe(2);
    expect(err.join('\n')).toMatch(/Docs folder .* does not exist/);
    expect(await runCli(['mcp', '--site-url', 'docs.example.com'], io)).toBe(2);
    expect(err.join('\n')).toMatch(/--site-url must be an http\(s\) URL/);
    expect(await runCli(['mcp', '--help'], io)).toBe(0);
    expect(out.join('\n')).toMatch(/claude mcp add docs -- npx docs-assistant mcp --docs \.\/docs/);
  });
});
