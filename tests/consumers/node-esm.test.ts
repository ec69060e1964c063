/**
 * Plain Node ESM on the installed tarballs: every entry of `docs-assistant`'s `exports` imports
 * with no bundler, the widget renders on the server with react-dom/server, and the server
 * package's `docs-assistant` bin runs and answers over HTTP.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FIXTURE_DOCS, prepareApp, type ReferenceService, run, startReferenceService } from './harness';

/** Names each known entry must export (more may follow; a new entry must export something). */
const EXPECTED: Record<string, Record<string, string[]>> = {
  'docs-assistant': {
    '.': ['DocsAssistant', 'useDocsAssistant', 'MessageParts', 'defaultLabels', 'createContextStore'],
    './widget': ['DocsAssistant', 'createContextStore', 'defaultLabels'],
    './protocol': ['AssistantRequestSchema', 'parseStreamLine', 'isAssistantKey', 'STREAM_PART_CODE'],
    './static-export': ['createStaticExportClient', 'createStaticExportHandler', 'StaticExportError'],
    './static-export/react': ['StaticExportPanel', 'defaultStaticExportLabels'],
    './proxy': ['createAssistantProxy', 'FORWARDED_RESPONSE_HEADERS'],
    './labels/de': ['labelsDe'],
    './labels/ar': ['labelsAr'],
    // The script build imports in Node too (server rendering, tools reading the package) without
    // defining anything: the element and window.DocsAssistant exist in browsers only.
    './embed': ['DocsAssistant', 'DocsAssistantElement'],
    './package.json': ['name', 'version', 'exports'],
  },
  'docs-assistant-server': {
    '.': ['createAssistantService', 'createAssistantApp', 'generateAssistantKey'],
    './package.json': ['name', 'version', 'exports', 'bin'],
  },
};

interface EntryResult {
  specifier: string;
  exports?: string[];
  css?: true;
  error?: string;
}

let dir = '';

beforeAll(async () => {
  dir = await prepareApp('node-esm', inject('tarballs'));
});

describe('plain Node ESM', () => {
  it.each(['docs-assistant', 'docs-assistant-server'])(
    'imports every entry of the %s exports with its named exports',
    async (name) => {
      const expected = EXPECTED[name] ?? {};
      const { stdout } = await run('node', ['entries.mjs', name], { cwd: dir });
      const results = JSON.parse(stdout) as Record<string, EntryResult>;
      // The list comes from the installed package.json: the known entries must all be there.
      expect(Object.keys(results)).toEqual(expect.arrayContaining(Object.keys(expected)));
      for (const [subpath, result] of Object.entries(results)) {
        expect(result.error, `import('${result.specifier}') threw`).toBeUndefined();
        if (result.css) continue;
        expect(result.exports?.length, `${result.specifier} exports nothing`).toBeGreaterThan(0);
        expect(result.exports, result.specifier).toEqual(expect.arrayContaining(expected[subpath] ?? []));
        // Minified single-letter names would mean a bundler's internals leaked into the API.
        expect(
          result.exports?.filter((key) => key.length <= 2),
          result.specifier,
        ).toEqual([]);
      }
    },
  );

  it('renders the widget to a string with react-dom/server', async () => {
    const { stdout, stderr } = await run('node', ['ssr.mjs'], { cwd: dir });
    expect(stdout).toContain('data-docs-assistant="root"');
    expect(stdout).toContain('Ask AI');
    expect(stderr).toBe('');
  });
});

describe('the docs-assistant bin', () => {
  let service: ReferenceService | undefined;

  afterAll(async () => {
    await service?.close();
  });

  it('prints its commands with --help', async () => {
    const { stdout } = await run(join(dir, 'node_modules/.bin/docs-assistant'), ['--help'], { cwd: dir });
    for (const command of ['serve', 'export', 'serve-bundle']) expect(stdout).toContain(command);
  });

  it('serves the assistant endpoint, which answers a question over HTTP with sources', async () => {
    service = await startReferenceService(dir);
    const response = await fetch(`${service.url}/discovery/v1/assistant/${service.domain}/message`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${service.assistantKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        fp: 'anonymous',
        messages: [
          {
            id: 'q1',
            role: 'user',
            content: 'How do I install the package?',
            parts: [{ type: 'text', text: 'How do I install the package?' }],
          },
        ],
      }),
    });
    expect(response.status).toBe(200);
    const body = await response.text();
    // The v4 data stream: text parts (0:) and at least one source (h:) or search result (a:).
    expect(body).toMatch(/^0:/m);
    expect(body).toMatch(/getting-started/);
    expect(response.headers.get('x-thread-id')).toBeTruthy();
  });

  it('serves the search endpoint and the v2 (AI SDK 5) message endpoint', async () => {
    service ??= await startReferenceService(dir);
    const headers = { Authorization: `Bearer ${service.assistantKey}`, 'Content-Type': 'application/json' };
    const search = await fetch(`${service.url}/discovery/v1/search/${service.domain}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: 'install the package', pageSize: 3 }),
    });
    expect(search.status).toBe(200);
    const results = (await search.json()) as { path: string; content: string }[];
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(3);
    expect(results.map((r) => r.path).join(' ')).toMatch(/getting-started/);
    const badPageSize = await fetch(`${service.url}/discovery/v1/search/${service.domain}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: 'install', pageSize: 51 }),
    });
    expect(badPageSize.status).toBe(400);
    expect(((await badPageSize.json()) as { error: string }).error).toMatch(/pageSize/);

    const v2 = await fetch(`${service.url}/discovery/v2/assistant/${service.domain}/message`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        fp: 'anonymous',
        messages: [
          { id: 'q1', role: 'user', parts: [{ type: 'text', text: 'How do I install the package?' }] },
        ],
      }),
    });
    expect(v2.status).toBe(200);
    expect(v2.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events = (await v2.text())
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice('data: '.length)) as { type: string; messageMetadata?: unknown });
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('start');
    expect(types).toContain('text-delta');
    const finish = events.find((event) => event.type === 'finish');
    expect(JSON.stringify(finish?.messageMetadata)).toMatch(/threadId/);
  });

  it('serves the script build, llms.txt with its Markdown pages, and the MCP server', async () => {
    service ??= await startReferenceService(dir);
    const embed = await fetch(`${service.url}/embed.js`);
    expect(embed.status).toBe(200);
    expect(embed.headers.get('content-type')).toMatch(/javascript/);
    expect(await embed.text()).toMatch(/customElements/);

    const llms = await fetch(`${service.url}/llms.txt`);
    expect(llms.status).toBe(200);
    expect(llms.headers.get('content-type')).toMatch(/text\/markdown/);
    const index = await llms.text();
    expect(index).toMatch(/^# /);
    // Root-relative without a configured site URL: never the request's Host (issue 39, point 2).
    const link = /\]\((\/[^)]+\.md)\)/.exec(index)?.[1];
    expect(link, 'llms.txt links a Markdown page').toBeTruthy();
    const page = await fetch(new URL(link ?? '', service.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/markdown/);

    const client = new Client({ name: 'consumer-node-esm', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`)));
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['get_page', 'search']);
      const result = await client.callTool({
        name: 'search',
        arguments: { query: 'install the package', pageSize: 3 },
      });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.structuredContent)).toMatch(/getting-started/);
    } finally {
      await client.close();
    }
  });

  it('runs the MCP server over stdio for a local docs folder (docs-assistant mcp)', async () => {
    const client = new Client({ name: 'consumer-node-esm-stdio', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: join(dir, 'node_modules/.bin/docs-assistant'),
        args: ['mcp', '--docs', FIXTURE_DOCS],
        cwd: dir,
        stderr: 'pipe',
      }),
    );
    try {
      const result = await client.callTool({ name: 'get_page', arguments: { path: '/getting-started' } });
      expect(result.isError).toBeFalsy();
      const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
      expect(text).toMatch(/^# /m);
      expect(text).not.toMatch(/^---$/m);
    } finally {
      await client.close();
    }
  });
});
