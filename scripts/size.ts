/**
 * What the widget costs a host page, measured the way the reference figures of other widgets were:
 * the package is built for real (the library build of `vite.config.ts`, into a temporary folder),
 * laid out as an installed package (its `package.json`, so `exports` and `sideEffects` apply), then
 * bundled as an app that does `import { DocsAssistant } from 'docs-assistant'` with rolldown (the
 * bundler inside Vite; minified, code splitting, React external) and each emitted file is gzipped
 * at level 9. The same app bundled by esbuild is printed beside it: esbuild's code splitting keeps
 * every module re-exported by the package's barrel in the chunk the entry loads, so under esbuild
 * the whole widget loads up front (a limitation of esbuild, see the report). The app importing
 * from `docs-assistant/widget` (the widget alone) is bundled by esbuild too: that is what an
 * esbuild host loads when it follows the README.
 *
 * - launcher: what the page loads up front: the app's entry and every chunk it imports statically.
 * - whole widget: the entry and every chunk, lazy ones included (panel, chat, every part renderer).
 * - CSS: `docs-assistant/styles.css`, minified.
 *
 * Run: `npm run size` (add `--json` for machine-readable output). `tests/size/` runs the same
 * measurement and fails when a budget is exceeded.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { rolldown } from 'rolldown';
import { build as viteBuild } from 'vite';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WIDGET = join(ROOT, 'packages/docs-assistant');

/** Budgets in bytes of gzip -9 (1 kB = 1,000 bytes, as in the reference figures). */
export const BUDGETS = {
  /** The launcher a page loads before anyone opens the assistant. */
  launcher: 8_000,
  /** The whole widget, every part renderer included, React external. */
  whole: 80_000,
  /** The stylesheet. */
  css: 6_000,
} as const;

export interface SizedFile {
  file: string;
  raw: number;
  gzip: number;
  /** Loaded up front (the entry or a chunk it imports statically), or only on first open. */
  upfront: boolean;
}

export interface SizeReport {
  launcher: number;
  whole: number;
  css: number;
  files: SizedFile[];
  /** The same app bundled by esbuild (not budgeted; see `bundleWithEsbuild`). */
  esbuild: { launcher: number; whole: number };
  /**
   * The app importing from `docs-assistant/widget` instead, bundled by esbuild: what an esbuild
   * host loads when it follows the README. Its launcher is held to the same budget.
   */
  esbuildWidget: { launcher: number; whole: number };
  /** The biggest inputs of the widget (bytes they take in the library build, before minifying). */
  inputs: { path: string; bytes: number }[];
}

const gzip = (data: Uint8Array | string) => gzipSync(data, { level: 9 }).length;

// What the page of a host app looks like: one import, one render.
const app = (from: string) => `
import { DocsAssistant } from '${from}';
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
createRoot(document.getElementById('root')).render(
  createElement(DocsAssistant, { domain: 'acme', apiKey: 'svc_dsc_x', baseUrl: 'https://api.example.com' }),
);
`;

/** Builds the library into a temporary folder and measures it as an app would ship it. */
export async function measureSize(): Promise<SizeReport> {
  // Inside the repository, so the app's bundler resolves the widget's dependencies (now imports of
  // the library build, as a host's bundler sees them) from the workspace's node_modules.
  await mkdir(join(ROOT, 'tests/.artifacts'), { recursive: true });
  const work = await mkdtemp(join(ROOT, 'tests/.artifacts/size-'));
  try {
    // Laid out as an installed package, so the app's bundler reads its `exports` and `sideEffects`.
    const pkg = join(work, 'node_modules', 'docs-assistant');
    const lib = join(pkg, 'dist');
    await mkdir(lib, { recursive: true });
    await copyFile(join(WIDGET, 'package.json'), join(pkg, 'package.json'));
    // Vite resolves packages' `development` builds (micromark's asserts, say) unless NODE_ENV is
    // production, and Vitest sets it to `test`: pin it for the build, as `npm run build` has it.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    const built = await viteBuild({
      root: WIDGET,
      configFile: join(WIDGET, 'vite.config.ts'),
      logLevel: 'silent',
      mode: 'production',
      build: { outDir: lib, emptyOutDir: true, sourcemap: false },
    }).finally(() => {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    });
    const inputs = new Map<string, number>();
    for (const output of Array.isArray(built) ? built : [built]) {
      if (!('output' in output)) continue;
      for (const chunk of output.output) {
        if (chunk.type !== 'chunk' || chunk.name.startsWith('static-export')) continue;
        for (const [id, info] of Object.entries(chunk.modules)) {
          const name = packageOf(id);
          inputs.set(name, (inputs.get(name) ?? 0) + info.renderedLength);
        }
      }
    }
    const entry = join(work, 'app.js');
    await writeFile(entry, app('docs-assistant'));
    const widgetEntry = join(work, 'widget-app.js');
    await writeFile(widgetEntry, app('docs-assistant/widget'));

    const [files, esbuildFiles, esbuildWidgetFiles] = await Promise.all([
      bundleWithRolldown(work, entry),
      bundleWithEsbuild(work, entry, 'esbuild'),
      bundleWithEsbuild(work, widgetEntry, 'esbuild-widget'),
    ]);
    const css = await esbuild.transform(await readFile(join(lib, 'docs-assistant.css'), 'utf8'), {
      loader: 'css',
      minify: true,
    });
    const sum = (list: SizedFile[]) => list.reduce((total, f) => total + f.gzip, 0);
    return {
      launcher: sum(files.filter((f) => f.upfront)),
      whole: sum(files),
      css: gzip(css.code),
      files,
      esbuild: { launcher: sum(esbuildFiles.filter((f) => f.upfront)), whole: sum(esbuildFiles) },
      esbuildWidget: {
        launcher: sum(esbuildWidgetFiles.filter((f) => f.upfront)),
        whole: sum(esbuildWidgetFiles),
      },
      inputs: [...inputs].map(([path, bytes]) => ({ path, bytes })).sort((a, b) => b.bytes - a.bytes),
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

// Resolves the library's own dependencies from this repository, as an app's install would.
const MODULES = join(ROOT, 'node_modules');
const REACT = [/^react($|\/)/, /^react-dom($|\/)/];

/** The budgeted figure: rolldown (the bundler inside Vite), as most hosts build today. */
async function bundleWithRolldown(work: string, entry: string): Promise<SizedFile[]> {
  const bundle = await rolldown({
    input: entry,
    cwd: work,
    platform: 'browser',
    external: REACT,
    resolve: { modules: ['node_modules', MODULES] },
    transform: { define: { 'process.env.NODE_ENV': '"production"' } },
    logLevel: 'silent',
  });
  try {
    const { output } = await bundle.generate({ format: 'esm', minify: true });
    const chunks = output.filter((item) => item.type === 'chunk');
    const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
    const upfront = new Set<string>();
    const visit = (fileName: string) => {
      if (upfront.has(fileName) || !byName.has(fileName)) return;
      upfront.add(fileName);
      for (const imported of byName.get(fileName)!.imports) visit(imported);
    };
    for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);
    return chunks.map((chunk) => ({
      file: chunk.fileName,
      raw: Buffer.byteLength(chunk.code),
      gzip: gzip(chunk.code),
      upfront: upfront.has(chunk.fileName),
    }));
  } finally {
    await bundle.close();
  }
}

/** esbuild, the tool of the reference figures; reported beside the budgeted figure. */
async function bundleWithEsbuild(work: string, entry: string, outName: string): Promise<SizedFile[]> {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: 'es2022',
    platform: 'browser',
    outdir: join(work, outName),
    write: false,
    metafile: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    external: ['react', 'react/*', 'react-dom', 'react-dom/*'],
    nodePaths: [MODULES],
    logLevel: 'silent',
  });
  const outputs = result.metafile.outputs;
  const upfront = new Set<string>();
  const visit = (file: string) => {
    if (upfront.has(file)) return;
    upfront.add(file);
    for (const edge of outputs[file]!.imports)
      if (edge.kind === 'import-statement' && !edge.external) visit(edge.path);
  };
  // The app's own entry only: esbuild marks the chunks of dynamic imports as entry points too.
  for (const [file, info] of Object.entries(outputs)) {
    if (info.entryPoint && resolve(info.entryPoint) === entry) visit(file);
  }
  return result.outputFiles
    .filter((file) => file.path.endsWith('.js'))
    .map((file) => {
      // Metafile keys are paths relative to the working directory; file names are unique (hashed).
      const key = Object.keys(outputs).find((name) => basename(name) === basename(file.path));
      return {
        file: file.path.replace(/^.*\//, ''),
        raw: file.contents.length,
        gzip: gzip(file.contents),
        upfront: key ? upfront.has(key) : false,
      };
    });
}

/** `node_modules/a/...` → `a`, `node_modules/@s/a/...` → `@s/a`; the library's own code as one. */
function packageOf(path: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (match) return match[1]!;
  return path.startsWith(ROOT) ? path.slice(ROOT.length) : path;
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;

async function main() {
  const report = await measureSize();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    const rows: [string, number, number][] = [
      ['launcher (loaded up front)', report.launcher, BUDGETS.launcher],
      ['whole widget (all chunks)', report.whole, BUDGETS.whole],
      ['CSS', report.css, BUDGETS.css],
    ];
    console.log('docs-assistant size — app bundle (rolldown, minified, gzip -9, React external)\n');
    for (const [name, bytes, budget] of rows) {
      const verdict = bytes <= budget ? 'ok' : 'OVER BUDGET';
      console.log(
        `${name.padEnd(28)} ${kB(bytes).padStart(10)}   budget ${kB(budget).padStart(9)}   ${verdict}`,
      );
    }
    console.log('\nfiles (gzip -9):');
    for (const f of report.files) {
      console.log(`  ${f.file.padEnd(28)} ${kB(f.gzip).padStart(10)}  ${f.upfront ? 'up front' : 'lazy'}`);
    }
    console.log(
      `\nesbuild, importing 'docs-assistant/widget': launcher ${kB(report.esbuildWidget.launcher)} (budget ${kB(BUDGETS.launcher)}), whole ${kB(report.esbuildWidget.whole)}`,
    );
    console.log(
      `esbuild, importing 'docs-assistant' (not budgeted): launcher ${kB(report.esbuild.launcher)}, whole ${kB(report.esbuild.whole)}`,
    );
    console.log('\nbiggest inputs (bytes in the library build, before minifying):');
    for (const input of report.inputs.slice(0, 20)) {
      console.log(`  ${input.path.padEnd(40)} ${kB(input.bytes).padStart(10)}`);
    }
  }
  const over =
    report.launcher > BUDGETS.launcher ||
    report.whole > BUDGETS.whole ||
    report.css > BUDGETS.css ||
    report.esbuildWidget.launcher > BUDGETS.launcher;
  if (over) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main();
}
