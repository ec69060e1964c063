/**
 * A TypeScript 5.9 consumer type-checks every entry of the installed widget (`apps/ts-types`)
 * with `strict` and `skipLibCheck: false` (so the shipped declarations and every declaration they
 * pull in are checked too), under `moduleResolution: "bundler"` and `"node16"`. The consumer's
 * `@ts-expect-error` lines fail the check if a public type degrades to `any`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { prepareApp, run } from './harness';

let dir = '';

beforeAll(async () => {
  dir = await prepareApp('ts-types', inject('tarballs'));
});

describe.each(['bundler', 'node16'])('moduleResolution %s', (resolution) => {
  it('type-checks every entry with skipLibCheck off', async () => {
    const tsc = join(dir, 'node_modules/.bin/tsc');
    const project = `tsconfig.${resolution}.json`;
    const result = await run(tsc, ['-p', project, '--listFiles'], { cwd: dir, allowFailure: true });
    const lines = result.stdout.split('\n');
    // The declarations come from the installed tarball, every one of the entries' own.
    for (const entry of [
      'index',
      'widget',
      'protocol/entry',
      'static-export/index',
      'static-export/react',
      'proxy/index',
      'labels/de',
      'labels/ar',
    ]) {
      expect(lines).toContain(join(dir, `node_modules/docs-assistant/dist/types/${entry}.d.ts`));
    }
    // Every package the loaded declarations import types from is one the widget declares, so no
    // consumer depends on what npm happened to hoist.
    const widgetDir = join(dir, 'node_modules/docs-assistant');
    const manifest = JSON.parse(await readFile(join(widgetDir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    const declared = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    const undeclared = new Set<string>();
    for (const file of lines.filter((line) => line.startsWith(`${widgetDir}/`) && line.endsWith('.d.ts'))) {
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(/(?:from\s+|import\()['"]([^'".][^'"]*)['"]/g)) {
        const specifier = match[1]!;
        const name = specifier.startsWith('@')
          ? specifier.split('/').slice(0, 2).join('/')
          : specifier.split('/')[0]!;
        const typesName = `@types/${name.replace(/^@/, '').replace('/', '__')}`;
        if (!declared.has(name) && !declared.has(typesName))
          undeclared.add(`${name} (${file.slice(widgetDir.length + 1)})`);
      }
    }
    expect([...undeclared], 'type imports from packages docs-assistant does not declare').toEqual([]);
    const errors = lines.filter((line) => /error TS\d+/.test(line));
    expect(errors, `tsc -p ${project} reported errors`).toEqual([]);
    expect(result.code).toBe(0);
  });
});

describe('docs-assistant-server, as a Node program (node16, types of Node)', () => {
  it('type-checks the entry with skipLibCheck off', async () => {
    const tsc = join(dir, 'node_modules/.bin/tsc');
    const result = await run(tsc, ['-p', 'tsconfig.server.json', '--listFiles'], {
      cwd: dir,
      allowFailure: true,
    });
    const lines = result.stdout.split('\n');
    expect(lines).toContain(join(dir, 'node_modules/docs-assistant-server/dist/types/index.d.ts'));
    const errors = lines.filter((line) => /error TS\d+/.test(line));
    expect(errors, 'tsc -p tsconfig.server.json reported errors').toEqual([]);
    expect(result.code).toBe(0);
  });
});
