/**
 * The MCP Inspector's CLI mode against the reference service: starts the service over a docs
 * folder on 127.0.0.1, then runs the Inspector (from the npm registry, through npx) for
 * `tools/list` and `tools/call` of both tools over Streamable HTTP, and `tools/list` against
 * `docs-assistant mcp` over stdio. Prints each command and its output; exits non-zero when one
 * fails. Not part of `npm test` (it downloads the Inspector).
 *
 *   npx tsx scripts/mcp-inspector.ts [--docs <dir>]   (default: tests/fixtures/docs)
 */
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createAssistantService } from '../packages/docs-assistant-server/src/service';

/** The Inspector release these flags were checked against (`--cli --help`). */
const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const docsFlag = process.argv.indexOf('--docs');
const docs = resolve(docsFlag > 0 ? process.argv[docsFlag + 1]! : `${ROOT}/tests/fixtures/docs`);

/** Runs a command to its end, echoing it and its output; resolves with its exit code and output. */
function run(args: string[]): Promise<{ code: number; output: string }> {
  console.log(`\n$ npx -y ${args.join(' ')}`);
  return new Promise((done, fail) => {
    const child = spawn('npx', ['-y', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const echo = (chunk: Buffer) => {
      const text = chunk.toString();
      // npm's own notices about the user's config are not the Inspector's.
      const kept = text
        .split('\n')
        .filter((line) => !line.startsWith('npm warn'))
        .join('\n');
      output += kept;
      process.stdout.write(kept);
    };
    child.stdout.on('data', echo);
    child.stderr.on('data', echo);
    child.once('error', fail);
    child.once('exit', (code) => done({ code: code ?? 1, output }));
  });
}

const service = createAssistantService({ docs, domain: 'docs', warn: (message) => console.error(message) });
await service.ready();
const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((ready) => {
  const server = serve({ fetch: service.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
    ready({ server, port: info.port }),
  );
});
const url = `http://127.0.0.1:${port}/mcp`;
console.log(`docs-assistant service over ${docs}; MCP endpoint ${url}`);

const failures: string[] = [];
try {
  const runs: string[][] = [
    [INSPECTOR, '--cli', url, '--transport', 'http', '--method', 'tools/list', '--strict'],
    [
      INSPECTOR,
      '--cli',
      url,
      '--transport',
      'http',
      '--method',
      'tools/call',
      '--tool-name',
      'search',
      '--tool-arg',
      'query=dark mode',
      'pageSize=3',
    ],
    [
      INSPECTOR,
      '--cli',
      url,
      '--transport',
      'http',
      '--method',
      'tools/call',
      '--tool-name',
      'get_page',
      '--tool-arg',
      'path=/guides/theming',
    ],
    // A bad argument: a tool error (the Inspector exits 5, "tool_is_error"), not a failed request.
    [
      INSPECTOR,
      '--cli',
      url,
      '--transport',
      'http',
      '--method',
      'tools/call',
      '--tool-name',
      'search',
      '--tool-arg',
      'query=dark mode',
      'pageSize=51',
    ],
    // The same tools over stdio, from the CLI's sources.
    [
      INSPECTOR,
      '--cli',
      process.execPath,
      '--import',
      'tsx',
      'packages/docs-assistant-server/src/cli.ts',
      'mcp',
      '--docs',
      docs,
      '--method',
      'tools/list',
    ],
  ];
  for (const args of runs) {
    const { code, output } = await run(args);
    const toolError = args.includes('pageSize=51');
    const expected = toolError ? 5 : 0;
    if (code !== expected || (toolError && !output.includes('must be a whole number from 1 to 50'))) {
      failures.push(`exit ${code} (expected ${expected}): ${args.slice(1).join(' ')}`);
    }
  }
} finally {
  if ('closeAllConnections' in server) server.closeAllConnections();
  server.close();
  await service.close();
}
if (failures.length) {
  console.error(`\n${failures.length} Inspector run(s) failed:\n${failures.join('\n')}`);
  process.exitCode = 1;
} else {
  console.log('\nEvery Inspector run succeeded.');
}
