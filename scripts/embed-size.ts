/**
 * The script build's size (`docs-assistant/embed`, issue 13), for `npm run size` and tests/size:
 * what a page loads before the assistant is opened is `embed.js` and every chunk it imports
 * statically (runtime included: it is all in these files), gzip -9; the rest loads on demand.
 * Measured on the build the tarball ships, and on both flavours built afresh (React, and Preact's
 * compat layer), to compare.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

/** Bytes of gzip -9 a page loads before the assistant is opened. */
export const EMBED_BUDGET = 70_000;

export const EMBED_FLAVOURS = ['react', 'preact'] as const;
export type EmbedFlavour = (typeof EMBED_FLAVOURS)[number];

export interface EmbedBuildSize {
  /** embed.js and its static imports, gzip -9. */
  upfront: number;
  /** Every other chunk (loaded on first open, on first selection…), gzip -9. */
  lazy: number;
  files: { file: string; gzip: number; upfront: boolean }[];
}

export interface EmbedSize {
  /** The build in the packed tarball (`dist/embed/`). */
  shipped: EmbedBuildSize;
  /** Each flavour built afresh from the sources. */
  flavours: Record<EmbedFlavour, EmbedBuildSize>;
}

const WIDGET = fileURLToPath(new URL('../packages/docs-assistant', import.meta.url));
const gzip = (data: Uint8Array) => gzipSync(data, { level: 9 }).length;
const STATIC_IMPORT = /(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]+from\s*)?["']([^"']+)["']/g;

/** Sizes a script build directory: `embed.js`, its static import graph, and the other chunks. */
export async function measureEmbedBuild(directory: string): Promise<EmbedBuildSize> {
  const chunks = (await readdir(join(directory, 'embed-chunks'))).filter((name) => name.endsWith('.js'));
  const all = ['embed.js', ...chunks.map((name) => `embed-chunks/${name}`)];
  const code = new Map<string, Buffer>();
  for (const file of all) code.set(file, await readFile(join(directory, file)));
  const upfront = new Set<string>();
  const visit = (file: string) => {
    if (upfront.has(file)) return;
    upfront.add(file);
    for (const [, specifier] of code.get(file)!.toString('utf8').matchAll(STATIC_IMPORT)) {
      if (!specifier!.startsWith('.')) continue;
      const target = relative(directory, resolve(directory, dirname(file), specifier!));
      if (!code.has(target)) throw new Error(`${file} imports ${specifier}, which the build does not have`);
      visit(target);
    }
  };
  visit('embed.js');
  const files = all.map((file) => ({ file, gzip: gzip(code.get(file)!), upfront: upfront.has(file) }));
  const sum = (list: typeof files) => list.reduce((total, item) => total + item.gzip, 0);
  return { upfront: sum(files.filter((f) => f.upfront)), lazy: sum(files.filter((f) => !f.upfront)), files };
}

/** Runs the script build (packages/docs-assistant/vite.embed.config.ts) into `out`; its default flavour without one. */
export async function buildEmbed(out: string, flavour?: EmbedFlavour): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, DOCS_ASSISTANT_EMBED_OUT: out };
  if (flavour) env.DOCS_ASSISTANT_EMBED = flavour;
  else delete env.DOCS_ASSISTANT_EMBED;
  await promisify(execFile)(
    process.execPath,
    [
      join(WIDGET, '../../node_modules/vite/bin/vite.js'),
      'build',
      '-c',
      'vite.embed.config.ts',
      '--logLevel',
      'error',
    ],
    { cwd: WIDGET, env },
  );
}

/** Measures the shipped build, then builds and measures both flavours under `work`. */
export async function measureEmbed(shipped: string, work: string): Promise<EmbedSize> {
  const flavours = {} as Record<EmbedFlavour, EmbedBuildSize>;
  for (const flavour of EMBED_FLAVOURS) {
    const out = join(work, `embed-${flavour}`);
    await buildEmbed(out, flavour);
    flavours[flavour] = await measureEmbedBuild(out);
  }
  return { shipped: await measureEmbedBuild(shipped), flavours };
}
