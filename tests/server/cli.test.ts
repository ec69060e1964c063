import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../packages/docs-assistant-server/src/cli';
import { authHeaders, body, FIXTURE_DOCS, parseStream } from './helpers';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('docs-assistant CLI', () => {
  it('lists commands and shows help', async () => {
    const overview = await run(['--help']);
    expect(overview.code).toBe(0);
    expect(overview.out).toMatch(/serve\s+Serve the assistant endpoint/);
    const help = await run(['serve', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('--docs <dir>');
  });

  it.each([
    [['serve', '--docs', '/no/such/folder'], /Docs folder .* does not exist/],
    [['serve', '--port', 'eighty'], /--port must be a whole number/],
    [['serve', '--engine', 'magic'], /--engine must be "extractive" or "openai"/],
    [['serve', '--colour'], /Unknown flag --colour/],
    [['serve', '--port'], /--port needs a value/],
    [
      ['serve', '--docs', FIXTURE_DOCS, '--assistant-key', 'svc_oops'],
      /assistant keys must start with "svc_dsc_"/,
    ],
    [['frobnicate'], /Unknown command "frobnicate"/],
  ])('%j fails with a clear error', async (argv, message) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });

  it('says so when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const result = await run(['serve', '--docs', FIXTURE_DOCS, '--port', String(port)]);
      expect(result.code).toBe(2);
      expect(result.err).toContain(`Port ${port} on 127.0.0.1 is in use`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('serve starts a server that prints its URL, domain and key, and answers', async () => {
    let child: ChildProcess | undefined;
    try {
      child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'packages/docs-assistant-server/src/cli.ts',
          'serve',
          '--docs',
          FIXTURE_DOCS,
          '--port',
          '0',
          '--domain',
          'acme',
        ],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const output = await new Promise<string>((resolve, reject) => {
        let text = '';
        child!.stdout!.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (/Engine:/.test(text)) resolve(text);
        });
        child!.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${text}`)));
      });
      const url = /URL:\s+(\S+)/.exec(output)?.[1];
      const key = /Assistant key:\s+(svc_dsc_\S+)/.exec(output)?.[1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(output).toMatch(/Domain:\s+acme/);
      const response = await fetch(`${url}/discovery/v1/assistant/acme/message`, {
        method: 'POST',
        headers: authHeaders(key),
        body: JSON.stringify(body('How do I install it?')),
      });
      expect(response.status).toBe(200);
      expect(parseStream(await response.text()).text).toContain('npm install acme-widgets');
    } finally {
      child?.kill('SIGTERM');
    }
  });
});
