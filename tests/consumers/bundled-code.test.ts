/**
 * What the tarballs carry besides our own code: nothing. Every dependency is an import the user's
 * bundler or Node resolves (the widget renders Markdown's tree itself, without mdast-util-to-hast,
 * which it once bundled under `dist/vendor/`). The source maps name where every byte of each file
 * came from: a file of this repository's `src/`.
 * Each tarball carries the MIT licence, and its package.json the metadata npm shows
 * (repository, homepage, bugs).
 */
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { run } from './harness';

const unpacked: Record<string, string> = {};
let work = '';

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'docs-assistant-bundled-'));
  for (const [kind, tarball] of Object.entries(inject('tarballs'))) {
    const dir = join(work, kind);
    await mkdir(dir, { recursive: true });
    await run('tar', ['-xzf', tarball, '-C', dir], { cwd: work });
    unpacked[kind] = join(dir, 'package');
  }
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe.each(['widget', 'server'])('the %s tarball', (kind) => {
  it('bundles only its own sources: what each source map names', async () => {
    const dir = unpacked[kind]!;
    const maps = (await filesUnder(join(dir, 'dist'))).filter((file) => file.endsWith('.js.map'));
    expect(maps.length).toBeGreaterThan(0);
    const foreign: string[] = [];
    for (const map of maps) {
      const { sources } = JSON.parse(await readFile(map, 'utf8')) as { sources: string[] };
      for (const source of sources) {
        // Source paths are relative to the map; inside the repository they reach packages/<name>/src.
        const path = resolve(dirname(map), source);
        const inSrc = relative(dir, path).startsWith(`src${sep}`) && !source.includes('node_modules');
        if (!inSrc) foreign.push(`${relative(dir, map)}: ${source}`);
      }
    }
    expect(foreign).toEqual([]);
  });

  it('ships the MIT licence and the metadata npm shows', async () => {
    const dir = unpacked[kind]!;
    expect(await readFile(join(dir, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.license).toBe('MIT');
    for (const field of ['repository', 'homepage', 'bugs']) expect(manifest[field], field).toBeTruthy();
    // The README's links must work from the npm page, where no repository file sits beside it.
    const readme = await readFile(join(dir, 'README.md'), 'utf8');
    const relativeLinks = [...readme.matchAll(/\]\((?!https?:|#|mailto:)([^)]+)\)/g)].map(
      (match) => match[1],
    );
    expect(relativeLinks).toEqual([]);
  });

  it('has no declaration file that imports a stylesheet', async () => {
    const declarations = (await filesUnder(unpacked[kind]!)).filter((file) => file.endsWith('.d.ts'));
    const withCss: string[] = [];
    for (const file of declarations) {
      if (/import\s+['"][^'"]+\.css['"]/.test(await readFile(file, 'utf8'))) withCss.push(file);
    }
    expect(withCss).toEqual([]);
  });
});

describe('the widget tarball', () => {
  it('bundles no third-party code: no dist/vendor/, no @ungap/structured-clone or mdast-util-to-hast import', async () => {
    const dir = unpacked.widget!;
    expect(await readdir(join(dir, 'dist'))).not.toContain('vendor');
    const code = (await filesUnder(join(dir, 'dist'))).filter((file) => file.endsWith('.js'));
    const withDropped: string[] = [];
    for (const file of code) {
      // The specifier in any import form.
      if (/["'](?:@ungap\/structured-clone|mdast-util-to-hast)["']/.test(await readFile(file, 'utf8'))) {
        withDropped.push(file);
      }
    }
    expect(withDropped).toEqual([]);
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
      devDependencies?: Record<string, string>;
    };
    expect(manifest.devDependencies?.['mdast-util-to-hast']).toBeUndefined();
    expect(await readFile(join(dir, 'THIRD_PARTY_LICENSES'), 'utf8')).toMatch(/bundles no third-party code/);
  });

  it('declares every package its files import as a dependency or peer', async () => {
    const dir = unpacked.widget!;
    const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    const declared = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    const undeclared = new Set<string>();
    for (const file of (await filesUnder(join(dir, 'dist'))).filter((path) => path.endsWith('.js'))) {
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(
        /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*["']([^"'.][^"']*)["']/g,
      )) {
        const name = /^(@[^/]+\/[^/]+|[^/]+)/.exec(match[1]!)![1]!;
        if (!declared.has(name)) undeclared.add(`${relative(dir, file)}: ${name}`);
      }
    }
    expect([...undeclared]).toEqual([]);
  });
});
