/**
 * The installed command: `server/cli.ts` built with `vite.config.cli.ts` into a temporary
 * "installed package" (`node_modules/docs-assistant/dist/cli/cli.js` behind npm's
 * `node_modules/.bin/docs-assistant` symlink), with only the package's declared dependencies
 * beside it. Then `--help` and `serve` run from a project folder whose `./docs` is the default.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { authHeaders, body, FIXTURE_DOCS, parseStream } from './helpers';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Longest wait for the built server to print its URL (in ms); it prints in well under a second.
const START_TIMEOUT_MS = 15_000;

interface PackageJson {
  bin: Record<string, string>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
}

let project: string;
let bin: string;
let pkg: PackageJson;
let imported: string[];

beforeAll(async () => {
  pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as PackageJson;
  project = await mkdtemp(join(tmpdir(), 'docs-assistant-cli-'));
  const installed = join(project, 'node_modules', 'docs-assistant');
  const target = pkg.bin['docs-assistant'];
  if (!target) throw new Error('package.json has no bin "docs-assistant"');
  const builtFile = join(installed, target);
  await run(
    process.execPath,
    [
      join(ROOT, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      join(ROOT, 'vite.config.cli.ts'),
      '--outDir',
      dirname(builtFile),
      '--logLevel',
      'error',
    ],
    { cwd: ROOT },
  );
  await writeFile(
    join(installed, 'package.json'),
    JSON.stringify({ name: 'docs-assistant', type: 'module' }),
  );

  // Only the packages the built file imports are put beside it, each from this repo's node_modules.
  const source = await readFile(builtFile, 'utf8');
  imported = [
    ...new Set(
      Array.from(source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s*["']([^"']+)["']/gm), (m) => m[1]!)
        .filter((specifier) => !specifier.startsWith('node:') && !specifier.startsWith('.'))
        .map((specifier) =>
          specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!,
        ),
    ),
  ];
  for (const name of imported) {
    await mkdir(dirname(join(project, 'node_modules', name)), { recursive: true });
    await symlink(join(ROOT, 'node_modules', name), join(project, 'node_modules', name), 'dir');
  }
  await mkdir(join(project, 'node_modules', '.bin'));
  bin = join(project, 'node_modules', '.bin', 'docs-assistant');
  await symlink(join('..', 'docs-assistant', target), bin);
  await cp(FIXTURE_DOCS, join(project, 'docs'), { recursive: true });
});

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe('the built docs-assistant command', () => {
  it('is one executable file with a shebang that imports only declared dependencies', async () => {
    const file = join(project, 'node_modules', 'docs-assistant', pkg.bin['docs-assistant']!);
    expect((await readFile(file, 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect((await stat(file)).mode & 0o111).not.toBe(0);
    const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)]);
    expect(imported.length).toBeGreaterThan(0);
    expect(imported.filter((name) => !declared.has(name))).toEqual([]);
  });

  it('prints its help through the .bin symlink', async () => {
    const { stdout } = await run(bin, ['--help'], { cwd: project });
    expect(stdout).toMatch(/Usage: docs-assistant <command>/);
    for (const command of ['serve', 'export', 'serve-bundle'])
      expect(stdout).toMatch(new RegExp(`\\n  ${command}\\s`));
    const serveHelp = await run(bin, ['serve', '--help'], { cwd: project });
    expect(serveHelp.stdout).toContain('--docs <dir>');
  });

  it('serves ./docs of the current folder by default and answers', async () => {
    let child: ChildProcess | undefined;
    try {
      child = spawn(bin, ['serve', '--port', '0', '--domain', 'acme'], {
        cwd: project,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output = await new Promise<string>((resolve, reject) => {
        let text = '';
        const timer = setTimeout(
          () => reject(new Error(`no URL within ${START_TIMEOUT_MS} ms: ${text}`)),
          START_TIMEOUT_MS,
        );
        child!.stdout!.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (/Engine:/.test(text)) {
            clearTimeout(timer);
            resolve(text);
          }
        });
        child!.stderr!.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        child!.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`serve exited with ${code}: ${text}`));
        });
      });
      expect(output).toContain(join(project, 'docs'));
      const url = /URL:\s+(\S+)/.exec(output)?.[1];
      const key = /Assistant key:\s+(svc_dsc_\S+)/.exec(output)?.[1];
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const response = await fetch(`${url}/discovery/v1/assistant/acme/message`, {
        method: 'POST',
        headers: authHeaders(key),
        body: JSON.stringify(body('How do I install it?')),
      });
      expect(response.status).toBe(200);
      const answer = parseStream(await response.text());
      expect(answer.text).toContain('npm install acme-widgets');
      expect(answer.finish?.threadId).toMatch(/^thr_/);
    } finally {
      if (child && child.exitCode === null) {
        const exited = new Promise((resolve) => child!.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    }
  });
});
