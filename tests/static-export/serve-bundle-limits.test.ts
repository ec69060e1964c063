/**
 * Issue 14, row 7: `serve-bundle` against the bundle it is given. Bombs are built here, small (a
 * gzip of 4 MiB of zeros, repeated as concatenated gzip members, inflates 1000-fold), and the real
 * command runs in a process of its own whose peak memory is measured. Nothing big is written to
 * disk or held by the test process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createGzip, gunzipSync, gzipSync } from 'node:zlib';
import { createTarGz } from '../../packages/docs-assistant-server/src/static-export/bundle';
import {
  DEFAULT_BUNDLE_LIMITS,
  parseByteSize,
  unpackBundle,
} from '../../packages/docs-assistant-server/src/static-export/bundle-reader';
import { exportCommand } from '../../packages/docs-assistant-server/src/static-export/cli';
import { createStaticExportRoutes } from '../../packages/docs-assistant-server/src/static-export/routes';
import { ADMIN_KEY, FIXTURE_DOCS, listen as listenFetch, makeConfig } from './helpers';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'da-bombs-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A ustar header for a regular file of `size` bytes (the data is not part of it). */
function tarHeader(path: string, size: number): Buffer {
  const block = Buffer.alloc(512);
  block.write(path, 0, 100, 'utf8');
  block.write('0000644\0', 100);
  block.write('0000000\0', 108);
  block.write('0000000\0', 116);
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  block.write('00000000000\0', 136);
  block.fill(0x20, 148, 156);
  block[156] = 0x30;
  block.write('ustar\0', 257);
  block.write('00', 263);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

// 4 MiB of zeros as one gzip member (~4 kB); gunzip reads concatenated members as one stream.
const ZEROS = 4 * MiB;
const gzippedZeros = gzipSync(Buffer.alloc(ZEROS), { level: 9 });
const endOfArchive = gzipSync(Buffer.alloc(1024));

/** A `.tar.gz` of `count` files of 4 MiB of zeros each. */
function manyFilesBomb(count: number): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < count; i++) parts.push(gzipSync(tarHeader(`page-${i}.html`, ZEROS)), gzippedZeros);
  parts.push(endOfArchive);
  return Buffer.concat(parts);
}

/** A `.tar.gz` of one `index.html` of `size` bytes of zeros (a multiple of 4 MiB). */
function oneFileBomb(size: number): Buffer {
  const parts: Buffer[] = [gzipSync(tarHeader('index.html', size))];
  for (let done = 0; done < size; done += ZEROS) parts.push(gzippedZeros);
  parts.push(endOfArchive);
  return Buffer.concat(parts);
}

// Reports the process's own peak RSS (KiB) as it exits, whatever the exit code.
const PEAK_HOOK = `data:text/javascript,${encodeURIComponent(
  "process.on('exit', () => process.stderr.write('peak-rss-kib ' + process.resourceUsage().maxRSS + '\\n'));",
)}`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak RSS of the command's process (MiB): its own report at exit, or VmHWM polled from /proc. */
  peakMiB: number;
}

/**
 * Runs `docs-assistant serve-bundle` as its own Node process (tsx as a loader, so the pid is the
 * command's own and /proc shows its memory). A command that starts serving is stopped: that is the
 * failure these tests look for.
 */
function runServeBundle(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        PEAK_HOOK,
        'packages/docs-assistant-server/src/cli.ts',
        'serve-bundle',
        ...args,
        '--port',
        '0',
      ],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    let polledKiB = 0;
    const poll = setInterval(() => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        polledKiB = Math.max(polledKiB, Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0));
      } catch {
        // Exited between two polls.
      }
    }, 25);
    child.stdout.on('data', (data) => {
      stdout += data;
      if (stdout.includes('Serving')) child.kill('SIGKILL');
    });
    child.stderr.on('data', (data) => {
      stderr += data;
    });
    child.on('close', (code) => {
      clearInterval(poll);
      const reportedKiB = Number(/peak-rss-kib (\d+)/.exec(stderr)?.[1] ?? 0);
      resolve({ code, stdout, stderr, peakMiB: Math.max(polledKiB, reportedKiB) / 1024 });
    });
  });
}

/** A server on 127.0.0.1 for the duration of one test. */
async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const close = (server: Server) =>
  new Promise<void>((done) => {
    server.closeAllConnections();
    server.close(() => done());
  });

describe('serve-bundle against a hostile bundle (real command, its own process)', () => {
  it('refuses a 1 MB .tar.gz that inflates to 1 GiB: exit 1, within bounded memory', async () => {
    const bomb = manyFilesBomb(GiB / ZEROS);
    expect(bomb.byteLength).toBeLessThan(1.5 * MiB);
    writeFileSync(join(dir, 'gigabyte.tar.gz'), bomb);
    const run = await runServeBundle([join(dir, 'gigabyte.tar.gz')]);
    expect(run.stdout).not.toContain('Serving');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'serve-bundle: the bundle unpacks to more than 512 MiB; refusing it (a decompression bomb? raise --max-unpacked-bytes if it is genuine)',
    );
    // At most the 512 MiB cap held, plus Node and tsx; the old command peaked at 3.2 GB.
    expect(run.peakMiB, `peak RSS ${run.peakMiB.toFixed(0)} MiB`).toBeLessThan(512 + 256);
  }, 120_000);

  it('refuses a 5 GiB file inside a 5 MB .tar.gz before inflating it, with a lower cap on the whole as well', async () => {
    writeFileSync(join(dir, 'five.tar.gz'), oneFileBomb(5 * GiB));
    const run = await runServeBundle([join(dir, 'five.tar.gz')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `serve-bundle: the bundle's entry "index.html" is 5 GiB, over the limit of 64 MiB per file; refusing the bundle (raise --max-file-bytes if it is genuine)`,
    );
    expect(run.peakMiB, `peak RSS ${run.peakMiB.toFixed(0)} MiB`).toBeLessThan(256);

    // The same 1 GiB bomb under smaller caps given as flags: refused as early, in less memory.
    writeFileSync(join(dir, 'small-caps.tar.gz'), manyFilesBomb(64));
    const capped = await runServeBundle([join(dir, 'small-caps.tar.gz'), '--max-unpacked-bytes', '32MiB']);
    expect(capped.code).toBe(1);
    expect(capped.stderr).toContain('the bundle unpacks to more than 32 MiB');
    expect(capped.peakMiB, `peak RSS ${capped.peakMiB.toFixed(0)} MiB`).toBeLessThan(32 + 256);
    const files = await runServeBundle([join(dir, 'small-caps.tar.gz'), '--max-files', '3']);
    expect(files.code).toBe(1);
    expect(files.stderr).toContain(
      'the bundle holds more than 3 files; refusing it (raise --max-files if it is genuine)',
    );
  }, 120_000);

  it('stops reading a bundle URL that answers 1.5 GiB once 256 MiB have come, within bounded memory', async () => {
    // A valid .tar.gz of 32 MiB files of incompressible bytes (stored, level 0), made as it is sent:
    // the loop ends at 1.5 GiB or when the client hangs up, whichever is first.
    const noise = Buffer.alloc(64 * 1024);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    let produced = 0;
    async function* tarOfNoise(): AsyncGenerator<Buffer> {
      for (let file = 0; produced < 1.5 * GiB; file++) {
        yield tarHeader(`asset-${file}.bin`, 32 * MiB);
        for (let sent = 0; sent < 32 * MiB; sent += noise.length) {
          produced += noise.length;
          yield noise;
        }
      }
    }
    let hungUp = false;
    const { url, server } = await listen((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/gzip' });
      const source = Readable.from(tarOfNoise());
      response.on('close', () => {
        hungUp = true;
        source.destroy();
      });
      source.pipe(createGzip({ level: 0 })).pipe(response);
    });
    try {
      const run = await runServeBundle([`${url}/bundle.tar.gz?signature=secret`]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        `serve-bundle: the bundle at ${url}/bundle.tar.gz is larger than 256 MiB; refusing it after reading that much (raise --max-bundle-bytes if it is genuine)`,
      );
      expect(run.stderr).not.toContain('secret');
      expect(hungUp).toBe(true);
      expect(produced).toBeLessThan(1.5 * GiB);
      // The old command read all 1.5 GiB into one buffer, then inflated it into another.
      expect(run.peakMiB, `peak RSS ${run.peakMiB.toFixed(0)} MiB`).toBeLessThan(256 + 256);
    } finally {
      await close(server);
    }
  }, 120_000);

  it('fails start-up, instead of hanging, on a URL that stalls after 10 bytes or never answers', async () => {
    const { url, server } = await listen((request, response) => {
      if (request.url === '/silent') return; // headers never sent
      response.writeHead(200, { 'Content-Type': 'application/gzip' });
      response.write(Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]));
    });
    try {
      const stalled = await runServeBundle([`${url}/stall.tar.gz`, '--timeout', '2']);
      expect(stalled.code).toBe(1);
      expect(stalled.stderr).toContain(
        `serve-bundle: the bundle download from ${url}/stall.tar.gz stalled: no data for 2 s after 10 bytes (raise --timeout if the server is just slow)`,
      );
      const silent = await runServeBundle([`${url}/silent`, '--timeout', '2']);
      expect(silent.code).toBe(1);
      expect(silent.stderr).toContain(
        `serve-bundle: cannot fetch the bundle from ${url}/silent: no response within 2 s`,
      );
    } finally {
      await close(server);
    }
  }, 60_000);
});

describe('the streaming reader', () => {
  const chunks = async function* (data: Uint8Array, size = 1000): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
  };

  it('reads what createTarGz writes, fed in chunks of any size', async () => {
    const entries = [
      { path: 'index.html', data: new TextEncoder().encode('<h1>Home</h1>') },
      { path: 'guides/setup.html', data: new Uint8Array(70_000).fill(65) },
      { path: 'empty.txt', data: new Uint8Array(0) },
    ];
    for (const size of [1, 511, 512, 4096]) {
      const files = await unpackBundle(chunks(createTarGz(entries), size));
      expect([...files.keys()].sort()).toEqual(['empty.txt', 'guides/setup.html', 'index.html']);
      expect(new TextDecoder().decode(files.get('index.html'))).toBe('<h1>Home</h1>');
      expect(files.get('guides/setup.html')).toEqual(entries[1]!.data);
    }
  });

  it('refuses a truncated archive and an entry path that leaves the bundle', async () => {
    const archive = createTarGz([{ path: 'index.html', data: new Uint8Array(2000) }]);
    const tar = gunzipSync(archive);
    await expect(unpackBundle(chunks(gzipSync(tar.subarray(0, 1024))))).rejects.toThrow(/truncated tar/);
    const leaving = Buffer.concat([tarHeader('../etc/passwd', 0), Buffer.alloc(1024)]);
    await expect(unpackBundle(chunks(gzipSync(leaving)))).rejects.toThrow(/unsafe bundle entry path/);
  });

  it('has documented defaults and reads sizes as flags give them', () => {
    expect(DEFAULT_BUNDLE_LIMITS).toEqual({
      maxBundleBytes: 256 * MiB,
      maxUnpackedBytes: 512 * MiB,
      maxFiles: 50_000,
      maxFileBytes: 64 * MiB,
      connectTimeoutMs: 30_000,
      idleTimeoutMs: 30_000,
    });
    expect(parseByteSize('64MiB')).toBe(64 * MiB);
    expect(parseByteSize('1g')).toBe(GiB);
    expect(parseByteSize('1.5 GiB')).toBe(1.5 * GiB);
    expect(parseByteSize('1048576')).toBe(MiB);
    expect(parseByteSize('lots')).toBeUndefined();
    expect(parseByteSize('0')).toBeUndefined();
  });
});

describe('docs-assistant export checks the bundle it downloads the same way', () => {
  it('refuses a bundle with a 5 GiB entry without inflating it, and saves nothing', async () => {
    const routes = createStaticExportRoutes(makeConfig({ acme: [FIXTURE_DOCS] }));
    const server = await listenFetch(routes.app.fetch);
    const out = mkdtempSync(join(tmpdir(), 'da-export-bomb-'));
    try {
      const stdout: string[] = [];
      const stderr: string[] = [];
      const bomb = oneFileBomb(5 * GiB);
      const code = await exportCommand(
        ['--domain', 'acme', '--base-url', server.url, '--out', 'site.tar.gz'],
        {
          stdout: { write: (chunk: string) => stdout.push(chunk) },
          stderr: { write: (chunk: string) => stderr.push(chunk) },
          env: { DOCS_ASSISTANT_ADMIN_KEY: ADMIN_KEY },
          cwd: out,
          pollIntervalMs: 2,
          onInterrupt: () => () => {},
          // The service's bundle download answers with the bomb.
          fetch: async (input, init) =>
            String(input).includes('/v1/static-export/bundles/')
              ? new Response(new Uint8Array(bomb), { headers: { 'Content-Type': 'application/gzip' } })
              : fetch(input, init),
        },
      );
      expect(code).toBe(1);
      expect(stderr.join('')).toContain(
        `export: the downloaded bundle is not one serve-bundle can serve: the bundle's entry "index.html" is 5 GiB, over the limit of 64 MiB per file; refusing the bundle\n`,
      );
      expect(readdirSync(out)).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
      await server.close();
      await routes.close();
    }
  }, 60_000);
});
