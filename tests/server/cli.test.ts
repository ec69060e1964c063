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
    const served = await startServe(['--domain', 'acme']);
    try {
      const { output } = served;
      const url = /URL:\s+(\S+)/.exec(output)?.[1];
      const key = /Assistant key:\s+(svc_dsc_\S+)/.exec(output)?.[1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(output).toMatch(/Domain:\s+acme/);
      // No --assistant-key: the output says the key is random and how to keep it.
      expect(output).toContain(`random this run: pass --assistant-key ${key} to keep it`);
      const response = await fetch(`${url}/discovery/v1/assistant/acme/message`, {
        method: 'POST',
        headers: authHeaders(key),
        body: JSON.stringify(body('How do I install it?')),
      });
      expect(response.status).toBe(200);
      expect(parseStream(await response.text()).text).toContain('npm install acme-widgets');
    } finally {
      served.child.kill('SIGTERM');
    }
  });

  it('serve prints a script-tag and a React snippet whose domain, key and URL answer', async () => {
    const pinned = 'svc_dsc_pinned_for_the_snippet';
    const served = await startServe(['--assistant-key', pinned]);
    try {
      const { output } = served;
      const url = /URL:\s+(\S+)/.exec(output)?.[1];
      // The key was given: nothing says it is random, and the snippets carry it.
      expect(output).toMatch(
        /Assistant key:\s+svc_dsc_pinned_for_the_snippet \(public, for the widget; from --assistant-key\)/,
      );
      expect(output).not.toContain('pass --assistant-key');
      const script =
        /<script type="module">\s*import \{ DocsAssistant \} from "([^"]+)";\s*DocsAssistant\.init\((\{[^\n]*\})\);\s*<\/script>/.exec(
          output,
        );
      expect(script, output).not.toBeNull();
      expect(script![1]).toBe(`${url}/embed.js`);
      const init = JSON.parse(script![2]!.replace(/([{,]\s*)(\w+):/g, '$1"$2":')) as Record<string, string>;
      expect(init).toEqual({ domain: 'docs-assistant', apiKey: pinned, baseUrl: url });
      const react = /<DocsAssistant domain="([^"]+)" apiKey="([^"]+)" baseUrl="([^"]+)" \/>/.exec(output);
      expect(react?.slice(1)).toEqual([init.domain, init.apiKey, init.baseUrl]);
      // What the snippet says is what the service answers: its domain, with its key, at its URL.
      const response = await fetch(`${init.baseUrl}/discovery/v1/assistant/${init.domain}/message`, {
        method: 'POST',
        headers: authHeaders(init.apiKey),
        body: JSON.stringify(body('How do I install it?')),
      });
      expect(response.status).toBe(200);
    } finally {
      served.child.kill('SIGTERM');
    }
  });
});

/** `docs-assistant serve` over the fixtures on a free port, as a process; resolves with all it printed. */
async function startServe(extra: string[]): Promise<{ child: ChildProcess; output: string }> {
  const child = spawn(
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
      ...extra,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  try {
    const output = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        // The last thing serve prints once it listens.
        if (/^Recipes for .*$/m.test(text)) resolve(text);
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${text}`)));
    });
    return { child, output };
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
}
