/**
 * Nothing outside the docs root is ever served. A hostile docs folder (symlinks to a file and a
 * folder outside it and to /etc/passwd, a symlinked snippet and an ignored file imported by a page,
 * a page and a folder swapped for symlinks after start) is served by the real service over HTTP on
 * 127.0.0.1, without and with `watch`, and by `docs-assistant mcp` (with `--watch`) over stdio; every
 * route that gives docs text is fetched (`.md`, `Accept: text/markdown`, llms*.txt per language,
 * search, page, MCP search and get_page, the v1 and v2 answers, the static export bundle unpacked)
 * and no canary placed in a forbidden file shows up in any response. A snippet symlinked inside the
 * root still is inlined.
 */
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadSite } from '../../packages/docs-assistant-server/src/retrieval';
import { readTarGz } from '../../packages/docs-assistant-server/src/static-export/bundle';
import { ADMIN_KEY, authHeaders, body, DOMAIN, type RunningService, startService } from './helpers';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const CANARIES = {
  env: 'CANARY-ENV-9c1e2b',
  ignored: 'CANARY-IGNORED-51d0aa',
  file: 'CANARY-OUTSIDE-FILE-77b4',
  dir: 'CANARY-OUTSIDE-DIR-3f90',
  swap: 'CANARY-SWAPPED-FILE-e02c',
  swapDir: 'CANARY-SWAPPED-DIR-a81d',
} as const;
// The first line of /etc/passwd on any Linux: its own canary.
const PASSWD = /root:[^:\n]*:0:0:/;
const INSIDE_SNIPPET = 'INSIDE-SNIPPET-OK-4411';

interface Hostile {
  base: string;
  docs: string;
  /** Replaces `swap.md` and `swapdir/` by symlinks to files outside the root. */
  swap: () => void;
}

function hostileFolder(): Hostile {
  const base = mkdtempSync(join(tmpdir(), 'da-hostile-'));
  onTestFinished(() => rmSync(base, { recursive: true, force: true }));
  const docs = join(base, 'docs');
  const write = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  write(join(base, '.env'), `API_TOKEN=${CANARIES.env}\n`);
  write(join(base, 'outside', 'secret.md'), `# Outside secret\n\n${CANARIES.file} installing configure\n`);
  write(join(base, 'outside', 'dir', 'page.md'), `# Outside folder page\n\n${CANARIES.dir} installing\n`);
  write(join(base, 'outside', 'swapped.md'), `# Swap page\n\n${CANARIES.swap} installing configure\n`);
  write(join(base, 'outside', 'swapdir', 'page.md'), `# Folder page\n\n${CANARIES.swapDir} installing\n`);

  write(join(docs, '.docsassistantignore'), 'snippets/ignored.mdx\n');
  write(join(docs, 'index.md'), '# Hostile docs\n\nInstalling and configuring the product.\n');
  write(
    join(docs, 'guides', 'uses-snippet.mdx'),
    [
      '---',
      'title: Uses snippet',
      '---',
      "import Leak from '/snippets/leak.mdx';",
      "import Ignored from '/snippets/ignored.mdx';",
      "import Inside from '/snippets/inside-link.mdx';",
      '',
      '# Uses snippet',
      '',
      'Installing the snippet page.',
      '',
      '<Leak />',
      '',
      '<Ignored />',
      '',
      '<Inside />',
      '',
    ].join('\n'),
  );
  write(join(docs, 'snippets', 'ignored.mdx'), `${CANARIES.ignored} installing\n`);
  write(join(docs, 'snippets', 'real-snippet.mdx'), `${INSIDE_SNIPPET} installing\n`);
  symlinkSync('real-snippet.mdx', join(docs, 'snippets', 'inside-link.mdx'));
  symlinkSync(join(base, '.env'), join(docs, 'snippets', 'leak.mdx'));
  symlinkSync('../outside/secret.md', join(docs, 'linked-file.md'));
  symlinkSync('../outside/dir', join(docs, 'linked-dir'));
  symlinkSync('/etc/passwd', join(docs, 'passwd.md'));
  write(join(docs, 'swap.md'), '# Swap page\n\nThe original swap page, installing and configuring.\n');
  write(join(docs, 'swapdir', 'page.md'), '# Folder page\n\nThe original folder page, installing.\n');
  write(join(docs, 'fr', 'index.md'), '# Documentation\n\nInstaller et configurer le produit.\n');
  write(join(docs, 'fr', 'guide.md'), '# Guide\n\nComment installer le produit.\n');
  return {
    base,
    docs,
    swap: () => {
      rmSync(join(docs, 'swap.md'));
      symlinkSync('../outside/swapped.md', join(docs, 'swap.md'));
      renameSync(join(docs, 'swapdir'), join(base, 'swapdir-original'));
      symlinkSync('../outside/swapdir', join(docs, 'swapdir'));
    },
  };
}

/** Every path a page could be asked for, hostile ones included. */
const PAGE_PATHS = [
  '/',
  '/guides/uses-snippet',
  '/swap',
  '/swapdir/page',
  '/linked-file',
  '/linked-dir/page',
  '/passwd',
  '/snippets/leak',
  '/snippets/ignored',
  '/fr',
  '/fr/guide',
];
const QUESTIONS = ['installing', 'configure', 'secret API token', 'root passwd'];

/** The canaries a response holds, as `name in where` lines. */
function canariesIn(text: string, where: string): string[] {
  const found = Object.entries(CANARIES)
    .filter(([, canary]) => text.includes(canary))
    .map(([name]) => `${name} in ${where}`);
  if (PASSWD.test(text)) found.push(`/etc/passwd in ${where}`);
  return found;
}

let hostCount = 0;
/** A GET with a Host header never sent before (caches keyed by host would be bypassed). */
function getText(
  running: RunningService,
  path: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const url = new URL(running.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        headers: { Host: `h${++hostCount}.example`, ...headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve(text));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

async function httpRoutes(running: RunningService, seen: (text: string, where: string) => void) {
  for (const path of PAGE_PATHS) {
    const md = path === '/' ? '/index.md' : `${path}.md`;
    seen(await getText(running, md), `GET ${md}`);
    seen(await getText(running, path, { Accept: 'text/markdown' }), `GET ${path} (Accept: text/markdown)`);
    const page = await fetch(`${running.url}/discovery/v1/page/${DOMAIN}`, {
      method: 'POST',
      headers: authHeaders(),
      body: JSON.stringify({ path }),
    });
    seen(await page.text(), `POST page ${path}`);
  }
  for (const file of ['/llms.txt', '/llms-full.txt', '/fr/llms.txt', '/fr/llms-full.txt']) {
    seen(await getText(running, file), `GET ${file}`);
  }
  for (const query of QUESTIONS) {
    const search = await fetch(`${running.url}/discovery/v1/search/${DOMAIN}`, {
      method: 'POST',
      headers: authHeaders(),
      body: JSON.stringify({ query, pageSize: 50 }),
    });
    seen(await search.text(), `search "${query}"`);
    const v1 = await fetch(running.endpoint(), {
      method: 'POST',
      headers: authHeaders(),
      body: JSON.stringify(body(query)),
    });
    seen(await v1.text(), `v1 answer "${query}"`);
    const v2 = await fetch(`${running.url}/discovery/v2/assistant/${DOMAIN}/message`, {
      method: 'POST',
      headers: authHeaders(),
      body: JSON.stringify({
        fp: 'anonymous',
        messages: [{ id: 'u-1', role: 'user', parts: [{ type: 'text', text: query }] }],
      }),
    });
    seen(await v2.text(), `v2 answer "${query}"`);
  }
  const client = new Client({ name: 'hostile', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${running.url}/mcp`)));
  try {
    await mcpRoutes(client, 'MCP over HTTP', seen);
  } finally {
    await client.close();
  }
}

const textOf = (result: CallToolResult): string => JSON.stringify(result);

async function mcpRoutes(client: Client, how: string, seen: (text: string, where: string) => void) {
  for (const path of PAGE_PATHS) {
    const result = (await client.callTool({ name: 'get_page', arguments: { path } })) as CallToolResult;
    seen(textOf(result), `${how} get_page ${path}`);
  }
  for (const query of QUESTIONS) {
    const result = (await client.callTool({
      name: 'search',
      arguments: { query, pageSize: 50 },
    })) as CallToolResult;
    seen(textOf(result), `${how} search "${query}"`);
  }
}

async function exportedBundle(running: RunningService): Promise<Map<string, string>> {
  const admin = { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' };
  const start = await fetch(`${running.url}/v1/static-export/jobs`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ domain: DOMAIN }),
  });
  expect(start.status).toBe(202);
  const { jobId } = (await start.json()) as { jobId: string };
  let job: { status: string; error?: unknown } = { status: '' };
  // Bounded: the folder renders in well under a second.
  for (let i = 0; i < 1000 && job.status !== 'completed' && job.status !== 'failed'; i++) {
    if (i) await new Promise((resolve) => setTimeout(resolve, 10));
    job = await (await fetch(`${running.url}/v1/static-export/jobs/${jobId}`, { headers: admin })).json();
  }
  expect(job.status, JSON.stringify(job)).toBe('completed');
  const { bundleUrl } = (await (
    await fetch(`${running.url}/v1/static-export/jobs/${jobId}/bundle`, { method: 'POST', headers: admin })
  ).json()) as { bundleUrl: string };
  const archive = new Uint8Array(await (await fetch(bundleUrl)).arrayBuffer());
  return new Map(readTarGz(archive).map((entry) => [entry.path, new TextDecoder().decode(entry.data)]));
}

/**
 * Collects what every response said and the canaries seen, so one run lists every leak (and a
 * test can also check what must be there).
 */
function collector() {
  const texts: string[] = [];
  const leaks: string[] = [];
  onTestFinished(() => {
    expect(leaks).toEqual([]);
  });
  return {
    seen: (text: string, where: string) => {
      leaks.push(...canariesIn(text, where));
      texts.push(text);
    },
    all: () => texts.join('\n'),
  };
}

describe('a hostile docs folder: nothing outside the root is served', () => {
  it('at start: symlinks out, /etc/passwd and an ignored import stay out of every route; an inside symlink is read', async () => {
    expect(PASSWD.test(readFileSync('/etc/passwd', 'utf8'))).toBe(true);
    const hostile = hostileFolder();
    const running = await startService({ docs: hostile.docs, siteUrl: 'https://docs.hostile.test' });
    onTestFinished(() => running.close());
    const { seen, all } = collector();
    await httpRoutes(running, seen);
    for (const [file, text] of await exportedBundle(running)) seen(text, `bundle ${file}`);
    // The routes did serve the docs: the page importing the snippets, with the inside one inlined.
    expect(all()).toContain(INSIDE_SNIPPET);
    expect(all()).toContain('Installing the snippet page.');
  });

  it('a page and a folder swapped for symlinks after start are not read through (no watch)', async () => {
    const hostile = hostileFolder();
    const running = await startService({ docs: hostile.docs });
    onTestFinished(() => running.close());
    hostile.swap();
    const { seen, all } = collector();
    await httpRoutes(running, seen);
    for (const [file, text] of await exportedBundle(running)) seen(text, `bundle ${file}`);
    expect(all()).toContain('Installing the snippet page.');
  });

  it('with watch: the swap is refused before the re-index, and after it', async () => {
    const hostile = hostileFolder();
    let indexed = 0;
    const running = await startService({
      docs: hostile.docs,
      watch: { debounceMs: 50 },
      onIndex: () => {
        indexed++;
      },
    });
    onTestFinished(() => running.close());
    const before = indexed;
    hostile.swap();
    const { seen } = collector();
    await httpRoutes(running, seen);
    // Bounded wait for the watcher's re-index (debounce 50 ms); then every route again.
    for (let i = 0; i < 400 && indexed === before; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(indexed).toBeGreaterThan(before);
    await httpRoutes(running, seen);
    const index = await running.service.index(DOMAIN);
    expect(index.pages.map((page) => page.path)).not.toContain('/swapdir/page');
  });
});

describe('symlinks inside the docs folder', () => {
  it('are followed as the frameworks follow them, each real folder once (a loop ends)', async () => {
    const hostile = hostileFolder();
    symlinkSync('swapdir', join(hostile.docs, 'alias'));
    symlinkSync('..', join(hostile.docs, 'swapdir', 'loop'));
    const { pages, report } = await loadSite(hostile.docs, { warn: () => {} });
    const paths = pages.map((page) => page.path);
    expect(paths).toContain('/alias/page');
    expect(paths).toContain('/swapdir/page');
    expect(paths).not.toContain('/linked-file');
    expect(paths).not.toContain('/passwd');
    const skipped = new Map(report.skipped.map((skip) => [skip.file, skip.reason]));
    expect(skipped.get('linked-file.md')).toBe('symlink to outside the docs folder');
    expect(skipped.get('linked-dir')).toBe('symlink to outside the docs folder');
    expect(skipped.get('snippets/ignored.mdx')).toMatch(/docsassistantignore/);
  });
});

describe('docs-assistant mcp over stdio on a hostile folder', () => {
  for (const watch of [false, true]) {
    it(`${watch ? 'with --watch' : 'without --watch'}: nothing outside the root, before and after a swap`, async () => {
      const hostile = hostileFolder();
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [
          '--import',
          'tsx',
          'packages/docs-assistant-server/src/cli.ts',
          'mcp',
          '--docs',
          hostile.docs,
          ...(watch ? ['--watch'] : []),
        ],
        cwd: ROOT,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'hostile-stdio', version: '1.0.0' });
      await client.connect(transport);
      onTestFinished(() => client.close());
      const { seen, all } = collector();
      await mcpRoutes(client, 'MCP stdio', seen);
      expect(all()).toContain(INSIDE_SNIPPET);
      hostile.swap();
      await mcpRoutes(client, 'MCP stdio after the swap', seen);
    });
  }
});
