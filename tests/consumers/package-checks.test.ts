/**
 * What npm would publish, checked with the tools users and registries check it with: publint
 * (strict) on both tarballs, Are the Types Wrong on the widget's (ESM-only is the package's
 * promise), and the widget's production install: no server-only package comes with it.
 */
import { lstat, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { prepareApp, REPO_ROOT, run } from './harness';

/** Packages only the reference service needs; none may be installed with the widget. */
const SERVER_ONLY = [
  'docs-assistant-server',
  'hono',
  '@hono/node-server',
  '@ai-sdk/openai-compatible',
  'minisearch',
  'yaml',
  'tar',
];

describe.each(['widget', 'server'] as const)('publint --strict on the %s tarball', (kind) => {
  it('reports nothing', async () => {
    const bytes = await readFile(inject('tarballs')[kind]);
    const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const { messages, pkg } = await publint({ pack: { tarball }, strict: true });
    const report = messages.map(
      (message) => `${message.type} ${message.code}: ${formatMessage(message, pkg, { color: false })}`,
    );
    expect(report).toEqual([]);
  });
});

describe('Are the Types Wrong on the widget tarball', () => {
  it('finds no problem for ESM consumers (node16 from ESM, bundler)', async () => {
    // `./styles.css` is a stylesheet, not a module with types: attw has nothing to resolve there.
    const result = await run(
      join(REPO_ROOT, 'node_modules/.bin/attw'),
      [
        inject('tarballs').widget,
        '--profile',
        'esm-only',
        '--exclude-entrypoints',
        './styles.css',
        '--format',
        'ascii',
      ],
      { cwd: REPO_ROOT, allowFailure: true },
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('"docs-assistant/widget"');
  });
});

/** Bytes of a package folder, without the packages nested in its own node_modules. */
async function packageBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await packageBytes(path);
    else total += (await lstat(path)).size;
  }
  return total;
}

describe("the widget's production install", () => {
  let dir = '';
  let paths: string[] = [];

  beforeAll(async () => {
    // vite-react19 installs the widget alone (plus React, and Vite as a devDependency).
    dir = await prepareApp('vite-react19', inject('tarballs'));
    const { stdout } = await run('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: dir });
    paths = stdout.split('\n').filter((line) => line.startsWith(join(dir, 'node_modules')));
  });

  const names = () => paths.map((path) => /node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(path)?.[1]);

  it('holds the widget and no server-only package', () => {
    expect(names()).toContain('docs-assistant');
    expect(names().filter((name) => SERVER_ONLY.includes(name ?? ''))).toEqual([]);
  });

  it('holds one copy of React', () => {
    expect(
      names()
        .filter((name) => name === 'react' || name === 'react-dom')
        .sort(),
    ).toEqual(['react', 'react-dom']);
  });

  it('ships the script build: docs-assistant/embed is one ES module with its lazy chunks beside it', async () => {
    await writeFile(
      join(dir, 'resolve-embed.mjs'),
      "console.log(import.meta.resolve('docs-assistant/embed'));\n",
    );
    const { stdout } = await run('node', ['resolve-embed.mjs'], { cwd: dir });
    const file = fileURLToPath(stdout.trim());
    expect(file).toBe(join(dir, 'node_modules/docs-assistant/dist/embed/embed.js'));
    const code = await readFile(file, 'utf8');
    // Self-contained: every import is a chunk of its own, beside it.
    const imports = [...code.matchAll(/\bfrom\s*["']([^"']+)["']/g)].map((match) => match[1]);
    expect(imports.filter((specifier) => !specifier?.startsWith('./embed-chunks/'))).toEqual([]);
    expect(code).toContain('customElements');
    const chunks = await readdir(join(dirname(file), 'embed-chunks'));
    expect(chunks.some((name) => name.startsWith('panel-'))).toBe(true);
  });

  it('prints its size', async () => {
    let bytes = 0;
    for (const path of paths) bytes += await packageBytes(path);
    const megabytes = (bytes / 1e6).toFixed(1);
    console.log(
      `widget production install (docs-assistant + react + react-dom): ${paths.length} packages, ${megabytes} MB`,
    );
    expect(paths.length).toBeGreaterThan(2);
  });
});
