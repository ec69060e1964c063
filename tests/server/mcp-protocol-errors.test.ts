/**
 * Malformed JSON-RPC params are the protocol's `-32602 Invalid params` with one line saying what to
 * change, never `-32603 Internal error` with a validation dump: over HTTP (`/mcp`, raw POSTs on
 * 127.0.0.1) and over stdio (`docs-assistant mcp` as a real process, raw lines on its stdin). A
 * stdin line over the size limit is reported on stderr (and answered, when its id can be read) and
 * the server goes on with the next line. Argument values of the wrong type inside a well-formed
 * call stay tool errors (`isError`), as MCP 2025-11-25 (SEP-1303) asks, so a model can correct them.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FIXTURE_DOCS, type RunningService, startService } from './helpers';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface RpcAnswer {
  jsonrpc: string;
  id: number | string | null;
  result?: { isError?: boolean; content?: { type: string; text: string }[] };
  error?: { code: number; message: string };
}

/** Requests whose params do not fit the method, each with what its one-line message must say. */
const MALFORMED: [string, Record<string, unknown>, RegExp][] = [
  [
    'arguments as an array',
    { name: 'search', arguments: ['dark mode'] },
    /params\.arguments must be an object of the tool's arguments.*got an array/,
  ],
  [
    'arguments as a string',
    { name: 'search', arguments: 'dark mode' },
    /params\.arguments must be an object of the tool's arguments.*got a string/,
  ],
  [
    'name as an object',
    { name: { tool: 'search' }, arguments: { query: 'x' } },
    /params\.name must be the tool's name as a string, "search" or "get_page" \(got an object\)/,
  ],
  ['no name', { arguments: { query: 'x' } }, /params\.name must be the tool's name/],
  ['an unknown tool', { name: 'delete_docs', arguments: {} }, /Unknown tool "delete_docs"/],
];

function expectInvalidParams(answer: RpcAnswer, id: number, message: RegExp): void {
  expect(answer.id).toBe(id);
  expect(answer.error?.code, JSON.stringify(answer)).toBe(-32602);
  expect(answer.error?.message).toMatch(message);
  // One line, no validation dump (zod's issue lists are JSON arrays over many lines).
  expect(answer.error?.message).not.toMatch(/\n|"code":|"path":|invalid_type/);
}

describe('malformed params over HTTP (/mcp)', () => {
  let running: RunningService;
  beforeAll(async () => {
    running = await startService();
  });
  afterAll(async () => {
    await running.close();
  });

  const post = async (message: unknown): Promise<{ status: number; answer: RpcAnswer }> => {
    const response = await fetch(`${running.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify(message),
    });
    return { status: response.status, answer: (await response.json()) as RpcAnswer };
  };

  it.each(MALFORMED)('tools/call with %s is -32602 saying what to change', async (_name, params, message) => {
    const { status, answer } = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params });
    expect(status).toBe(200);
    expectInvalidParams(answer, 7, message);
  });

  it('tools/list with a cursor that is no string is -32602 too', async () => {
    const { answer } = await post({ jsonrpc: '2.0', id: 8, method: 'tools/list', params: { cursor: 5 } });
    expectInvalidParams(answer, 8, /Invalid params for tools\/list: params\.cursor: /);
  });

  it('an argument of the wrong type in a well-formed call is a tool error the model can correct', async () => {
    const { answer } = await post({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: 42 } },
    });
    expect(answer.error).toBeUndefined();
    expect(answer.result?.isError).toBe(true);
    expect(answer.result?.content?.[0]?.text).toMatch(/query: expected a string, got a number/);
  });
});

/** `docs-assistant mcp` from sources, read line by line. */
function startMcp(): {
  child: ChildProcessWithoutNullStreams;
  stderr: () => string;
  next: (id: number) => Promise<RpcAnswer>;
} {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'packages/docs-assistant-server/src/cli.ts', 'mcp', '--docs', FIXTURE_DOCS],
    { cwd: ROOT },
  );
  let stderr = '';
  // A write after the process ended must fail the test through `next`, not as an unhandled EPIPE.
  child.stdin.on('error', () => {});
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let pending = '';
  const answers: RpcAnswer[] = [];
  const waiters: (() => void)[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      answers.push(JSON.parse(pending.slice(0, end)) as RpcAnswer);
      pending = pending.slice(end + 1);
    }
    for (const wake of waiters.splice(0)) wake();
  });
  onTestFinished(() => {
    child.kill();
  });
  const next = async (id: number): Promise<RpcAnswer> => {
    for (;;) {
      const found = answers.find((answer) => answer.id === id);
      if (found) return found;
      if (child.exitCode !== null)
        throw new Error(`docs-assistant mcp exited (${child.exitCode}): ${stderr}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        child.once('exit', () => resolve());
      });
    }
  };
  return { child, stderr: () => stderr, next };
}

const line = (message: unknown): string => `${JSON.stringify(message)}\n`;

describe('malformed params and oversized lines over stdio (docs-assistant mcp)', () => {
  it('answers each malformed tools/call with -32602 and keeps serving', async () => {
    const { child, next } = startMcp();
    MALFORMED.forEach(([, params], i) => {
      child.stdin.write(line({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params }));
    });
    for (const [i, [, , message]] of MALFORMED.entries())
      expectInvalidParams(await next(i + 1), i + 1, message);
    child.stdin.write(line({ jsonrpc: '2.0', id: 100, method: 'tools/list' }));
    expect((await next(100)).result).toHaveProperty('tools');
  });

  it('reports a line over 10 MB on stderr, answers its id, and serves the next line', async () => {
    const { child, next, stderr } = startMcp();
    // The SDK's clients write the id last: it is read from the line's end.
    const huge = `{"method":"tools/call","params":{"name":"search","arguments":{"query":"${'x'.repeat(11 * 1024 * 1024)}"}},"jsonrpc":"2.0","id":1}\n`;
    // In pieces, as a pipe delivers it.
    for (let at = 0; at < huge.length; at += 1024 * 1024) child.stdin.write(huge.slice(at, at + 1024 * 1024));
    const refused = await next(1);
    expect(refused.error?.code).toBe(-32600);
    expect(refused.error?.message).toMatch(/larger than 10485760 bytes/);
    child.stdin.write(
      line({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'search', arguments: { query: 'dark mode' } },
      }),
    );
    const answer = await next(2);
    expect(answer.result?.isError).toBeFalsy();
    expect(stderr()).toMatch(/a message of more than 10485760 bytes.*serving the next message/i);
    expect(child.exitCode).toBeNull();

    // One whose id cannot be read is reported on stderr only; the server still serves.
    child.stdin.write(`[${'1,'.repeat(6 * 1024 * 1024)}1]\n`);
    child.stdin.write(line({ jsonrpc: '2.0', id: 3, method: 'tools/list' }));
    expect((await next(3)).result).toHaveProperty('tools');
    expect(stderr().match(/a message of more than 10485760 bytes/g)).toHaveLength(2);
  });
});
