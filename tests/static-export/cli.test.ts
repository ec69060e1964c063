import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { readTarGz } from '../../packages/docs-assistant-server/src/static-export/bundle';
import {
  type CliIO,
  exportCommand,
  serveBundleCommand,
} from '../../packages/docs-assistant-server/src/static-export/cli';
import { createStaticExportRoutes } from '../../packages/docs-assistant-server/src/static-export/routes';
import { ADMIN_KEY, ASSISTANT_KEY, FIXTURE_DOCS, listen, makeConfig, tempDir } from './helpers';

class FakeStream {
  chunks: string[] = [];
  constructor(readonly isTTY: boolean) {}
  write(chunk: string) {
    this.chunks.push(chunk);
    return true;
  }
  get text() {
    return this.chunks.join('');
  }
}

let server: { url: string; close: () => Promise<void> };
let routes: ReturnType<typeof createStaticExportRoutes>;
let dir: ReturnType<typeof tempDir>;

beforeAll(async () => {
  routes = createStaticExportRoutes(makeConfig({ acme: [FIXTURE_DOCS], gone: ['/nonexistent/docs'] }));
  server = await listen(routes.app.fetch);
});
afterAll(async () => {
  await server.close();
  await routes.close();
});
beforeEach(() => {
  dir = tempDir('da-cli-');
});
afterEach(() => dir.remove());

function io(tty: boolean, env: Record<string, string> = { DOCS_ASSISTANT_ADMIN_KEY: ADMIN_KEY }) {
  const stdout = new FakeStream(tty);
  const stderr = new FakeStream(tty);
  let interrupt: (() => void) | undefined;
  const value: CliIO = {
    stdout,
    stderr,
    env,
    cwd: dir.path,
    pollIntervalMs: 2,
    onInterrupt: (handler) => {
      interrupt = handler;
      return () => {
        interrupt = undefined;
      };
    },
  };
  return { io: value, stdout, stderr, interrupt: () => interrupt?.() };
}

const args = (...extra: string[]) => ['--domain', 'acme', '--base-url', server.url, ...extra];

describe('docs-assistant export', () => {
  it('on a TTY: redraws one progress bar, saves the bundle and writes Helm values', async () => {
    const t = io(true);
    const code = await exportCommand(args('--out', 'site.tar.gz', '--helm-values', 'values.yaml'), t.io);
    expect(t.stderr.text).toBe('');
    expect(code).toBe(0);
    const bars = t.stdout.chunks.filter((c) => c.startsWith('\r['));
    expect(bars.length).toBeGreaterThan(0);
    expect(bars.at(-1)).toMatch(/^\r\[#{30}\] 100% 5 pages \(completed\)$/);
    expect(t.stdout.text).toMatch(/Saved .*site\.tar\.gz \(\d+ files, 5 pages\)/);
    const entries = readTarGz(readFileSync(join(dir.path, 'site.tar.gz')));
    expect(entries.map((e) => e.path)).toContain('guides/setup.html');
    const values = parseYaml(readFileSync(join(dir.path, 'values.yaml'), 'utf8'));
    expect(values.staticExport.enabled).toBe(true);
    expect(values.staticExport.bundleUrl).toMatch(
      /\/v1\/static-export\/bundles\/exp_[0-9a-f]{24}\/bundle\.tar\.gz\?expires=/,
    );
    expect(values.staticExport.version).toMatch(/^exp_[0-9a-f]{24}$/);
    expect(readdirSync(dir.path).sort()).toEqual(['site.tar.gz', 'values.yaml']);
  });

  it('in a pipe: prints plain progress lines and pins --version in the values', async () => {
    const t = io(false);
    const code = await exportCommand(args('--version', '2.0', '--helm-values', 'v.yaml'), t.io);
    expect(code).toBe(0);
    expect(t.stdout.text).not.toContain('\r');
    const lines = t.stdout.text.split('\n');
    expect(lines).toContain(`[${'#'.repeat(30)}] 100% 5 pages (completed)`);
    expect(lines.some((l) => /^\[-{30}\] {3}0% 0 pages \(queued\)$/.test(l))).toBe(true);
    expect(readdirSync(dir.path)).toContain('acme-static-export.tar.gz');
    expect(parseYaml(readFileSync(join(dir.path, 'v.yaml'), 'utf8')).staticExport.version).toBe('2.0');
  });

  it('exits 2 with a clear message without an admin key or with an assistant key', async () => {
    const missing = io(false, {});
    expect(await exportCommand(args(), missing.io)).toBe(2);
    expect(missing.stderr.text).toContain('set DOCS_ASSISTANT_ADMIN_KEY to an admin API key');
    const assistant = io(false, { DOCS_ASSISTANT_ADMIN_KEY: ASSISTANT_KEY });
    expect(await exportCommand(args(), assistant.io)).toBe(2);
    expect(assistant.stderr.text).toContain('holds an assistant API key (svc_dsc_…)');
    const noDomain = io(false);
    expect(await exportCommand(['--base-url', server.url], noDomain.io)).toBe(2);
    expect(noDomain.stderr.text).toContain('--domain is required');
  });

  it("exits 1 with the job's reason when the job fails, saving nothing", async () => {
    const t = io(false);
    const code = await exportCommand(['--domain', 'gone', '--base-url', server.url], t.io);
    expect(code).toBe(1);
    expect(t.stderr.text).toMatch(
      /export: Static export job exp_\w+ failed: docs folder \/nonexistent\/docs does not exist/,
    );
    expect(readdirSync(dir.path)).toEqual([]);
  });

  it('exits 1 with the service message on an HTTP error', async () => {
    const t = io(false);
    expect(await exportCommand(['--domain', 'other-site', '--base-url', server.url], t.io)).toBe(1);
    // Another organization's domain: 403 naming the domains this key can export.
    expect(t.stderr.text).toContain('has no domain "other-site" to export. Its domains: "acme"');
    expect(t.stderr.text).toContain('(HTTP 403, forbidden)');
  });

  it('on Ctrl-C during the download: removes the partial file and exits 130', async () => {
    const t = io(false);
    let started = false;
    t.io.fetch = async (input, init) => {
      const url = String(input);
      if (!url.includes('/v1/static-export/bundles/')) return fetch(input, init);
      started = true;
      // Half a bundle arrives, then the user presses Ctrl-C while the rest is pending.
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(4096).fill(1));
          setTimeout(() => t.interrupt(), 20);
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'application/gzip' } });
    };
    const code = await exportCommand(args('--out', 'site.tar.gz'), t.io);
    expect(started).toBe(true);
    expect(code).toBe(130);
    expect(t.stderr.text).toContain('interrupted; nothing was saved');
    expect(readdirSync(dir.path)).toEqual([]);
  });

  it('runs as `npx tsx packages/docs-assistant-server/src/cli.ts export` in a pipe with its exit code', async () => {
    const run = (env: Record<string, string>) =>
      new Promise<{ code: number | null; out: string; err: string }>((done) => {
        const child = spawn(
          'npx',
          [
            'tsx',
            'packages/docs-assistant-server/src/cli.ts',
            'export',
            ...args('--out', join(dir.path, 'b.tar.gz')),
          ],
          {
            cwd: fileURLToPath(new URL('../..', import.meta.url)),
            env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => {
          out += d;
        });
        child.stderr.on('data', (d) => {
          err += d;
        });
        child.on('close', (code) => done({ code, out, err }));
      });
    const ok = await run({ DOCS_ASSISTANT_ADMIN_KEY: ADMIN_KEY });
    expect(ok.err.replace(/npm warn.*\n/g, '')).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('100% 5 pages (completed)\n');
    expect(readdirSync(dir.path)).toEqual(['b.tar.gz']);
    const bad = await run({});
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('set DOCS_ASSISTANT_ADMIN_KEY');
  }, 60_000);
});

describe('docs-assistant export, Ctrl-C in a real process', () => {
  it('exits 130 on SIGINT mid-download and leaves no file behind', async () => {
    // A front for the service whose bundle download sends a first chunk and then stalls.
    let release: () => void = () => {};
    const stalled = new Promise<void>((r) => {
      release = r;
    });
    const front = await listen(async (request) => {
      if (!new URL(request.url).pathname.startsWith('/v1/static-export/bundles/'))
        return routes.app.fetch(request);
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(new Uint8Array(8192).fill(7));
          await stalled;
          controller.close();
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'application/gzip' } });
    });
    try {
      // One Node process with tsx as a loader (not the tsx wrapper, which relays signals to a
      // second process), so Ctrl-C reaches the CLI the way it does once installed.
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'packages/docs-assistant-server/src/cli.ts',
          'export',
          '--domain',
          'acme',
          '--base-url',
          front.url,
          '--out',
          join(dir.path, 'site.tar.gz'),
        ],
        {
          cwd: fileURLToPath(new URL('../..', import.meta.url)),
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? '',
            DOCS_ASSISTANT_ADMIN_KEY: ADMIN_KEY,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let err = '';
      child.stderr.on('data', (d) => {
        err += d;
      });
      const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
      // Wait (bounded) until the partial download is on disk, then press Ctrl-C.
      for (let i = 0; i < 1000 && !readdirSync(dir.path).some((f) => f.endsWith('.part')); i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(readdirSync(dir.path).some((f) => f.endsWith('.part'))).toBe(true);
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      expect(err).toContain('interrupted; nothing was saved');
      expect(readdirSync(dir.path)).toEqual([]);
    } finally {
      release();
      await front.close();
    }
  }, 60_000);
});

describe('docs-assistant serve-bundle', () => {
  it('stops with a clear error and exit 1 when the bundle cannot be fetched or unpacked', async () => {
    const missing = io(false);
    expect(await serveBundleCommand(['nope.tar.gz', '--port', '0'], missing.io)).toBe(1);
    expect(missing.stderr.text).toContain('cannot read the bundle file');
    writeFileSync(join(dir.path, 'junk.tar.gz'), 'not a bundle');
    const junk = io(false);
    expect(await serveBundleCommand(['junk.tar.gz', '--port', '0'], junk.io)).toBe(1);
    expect(junk.stderr.text).toContain('the bundle cannot be unpacked: not a gzip archive');
    const forbidden = io(false);
    const url = `${server.url}/v1/static-export/bundles/exp_000000000000000000000000.tar.gz?expires=1&signature=00`;
    expect(await serveBundleCommand([url, '--port', '0'], forbidden.io)).toBe(1);
    expect(forbidden.stderr.text).toContain('HTTP 403');
  });

  it('serves a saved bundle until Ctrl-C, then exits 0', async () => {
    const exported = io(false);
    expect(await exportCommand(args('--out', 'site.tar.gz'), exported.io)).toBe(0);
    const t = io(false);
    const running = serveBundleCommand(['site.tar.gz', '--port', '0'], t.io);
    for (let i = 0; i < 200 && !t.stdout.text.includes('Serving'); i++)
      await new Promise((r) => setTimeout(r, 10));
    const url = /at (http:\/\/[^\s]+)/.exec(t.stdout.text)?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const page = await fetch(`${url}/guides/setup`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<h1 id="setup">Setup</h1>');
    t.interrupt();
    expect(await running).toBe(0);
  });
});
