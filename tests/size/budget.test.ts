/**
 * The size budgets of issue 11, measured exactly as `npm run size` does: the real library build,
 * packed and installed, bundled as a host app by Vite (rolldown), esbuild, webpack 5 and Rspack,
 * gzip -9. Sizes are deterministic, so these are plain comparisons of byte counts (nothing here
 * depends on time); the four production builds take about half a minute.
 */
import * as esbuild from 'esbuild';
import { EMBED_BUDGET } from '../../scripts/embed-size';
import {
  BUDGETS,
  BUNDLERS,
  type Cell,
  IMPORTS,
  measureSize,
  type SizeReport,
  splitEsbuildHelpers,
} from '../../scripts/size';

let report: SizeReport;

beforeAll(async () => {
  report = await measureSize();
}, 300_000);

const cell = (bundler: string, from: string): Cell => {
  const found = report.cells.find((item) => item.bundler === bundler && item.import === from);
  if (!found) throw new Error(`no measurement for ${bundler} importing ${from}`);
  return found;
};

const matrix = BUNDLERS.flatMap((bundler) => IMPORTS.map((from) => [bundler, from] as const));

describe.each(matrix)('%s, import { DocsAssistant } from %s (gzip -9, React external)', (bundler, from) => {
  it('splits the app into an up-front launcher and a lazily loaded rest', () => {
    const { files, whole, launcher } = cell(bundler, from);
    expect(files.some((file) => file.upfront)).toBe(true);
    expect(files.some((file) => !file.upfront)).toBe(true);
    expect(whole).toBeGreaterThan(launcher);
  });

  // The same budgets for every bundler, esbuild included (its ceilings went: its pages parse in a
  // worker too, started from parts/worker-chunk.ts, and its launcher is one file, the panel
  // importing none of the launcher's modules; see scripts/size.ts).
  it(`loads at most ${BUDGETS.launcher} bytes before the assistant is opened, bundler runtime apart`, () => {
    expect(cell(bundler, from).launcher).toBeLessThanOrEqual(BUDGETS.launcher);
  });

  it(`ships the whole widget, every part renderer included, in at most ${BUDGETS.whole} bytes`, () => {
    expect(cell(bundler, from).whole).toBeLessThanOrEqual(BUDGETS.whole);
  });

  it(`reports the on-demand views (docs search, dist/views/) apart: lazy chunks of their own, at most ${BUDGETS.search} bytes`, () => {
    const { files, search } = cell(bundler, from);
    const own = files.filter((file) => file.search);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((file) => !file.upfront)).toBe(true);
    expect(search).toBe(own.reduce((total, file) => total + file.gzip, 0));
    expect(search).toBeLessThanOrEqual(BUDGETS.search);
  });

  it("counts the Markdown worker chunk, if the bundler emits one, apart: in neither the launcher nor the whole widget; the page's parser apart only then", () => {
    const { files, worker, whole, parser } = cell(bundler, from);
    const own = files.filter((file) => file.worker);
    expect(own.every((file) => !file.upfront && !file.search)).toBe(true);
    expect(worker).toBe(own.reduce((total, file) => total + file.gzip, 0));
    const withWorker = own.length > 0;
    const page = files.filter((file) => !file.search && !file.worker && !(withWorker && file.parser));
    expect(whole).toBe(page.reduce((total, file) => total + file.gzip, 0));
    expect(parser).toBe(withWorker ? files.filter((file) => file.parser).reduce((t, f) => t + f.gzip, 0) : 0);
  });

  // The page parses only where the worker cannot: its parser (micromark, mdast, GFM) is in lazy
  // chunks of its own (webpack and Rspack split off what the worker shares), not a second copy
  // inside the panel beside the worker's.
  it("puts the page's own Markdown parser in lazy chunks of its own, with the bulk of the parser", () => {
    const own = cell(bundler, from).files.filter((file) => file.parser);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((file) => !file.upfront && !file.search && !file.worker)).toBe(true);
    expect(own.reduce((total, file) => total + file.gzip, 0)).toBeGreaterThan(15_000);
  });

  // Issue 38: the owner's insights dashboard (docs-assistant/insights) never reaches a reader's page;
  // the reader's beacon (dist/views/insights/) does, so the module names are seen.
  it('bundles no module of the insights dashboard, and the beacon as an on-demand view', () => {
    expect(cell(bundler, from).insights).toEqual([]);
    expect(cell(bundler, from).beacon).toBe(true);
  });

  it('keeps the chat client and the Markdown parser out of the launcher', () => {
    const upfront = cell(bundler, from).upfrontModules.map((item) => item.module);
    expect(upfront.some((module) => module.includes('docs-assistant/dist/ui/docs-assistant.js'))).toBe(true);
    for (const lazy of [
      '@ai-sdk/react',
      'swr',
      'micromark',
      'mdast-util-from-markdown',
      'zod',
      'chat/',
      'search/',
      'views/',
    ]) {
      expect(upfront.filter((module) => module.includes(lazy))).toEqual([]);
    }
  });
});

describe('Markdown worker, reported apart', () => {
  it.each(IMPORTS)(
    'is found for every bundler: Vite, webpack and Rspack bundle `new Worker(new URL(…))`, esbuild emits the chunks worker-chunk.js loads in the worker: %s',
    (from) => {
      for (const bundler of BUNDLERS) expect(cell(bundler, from).worker, bundler).toBeGreaterThan(0);
      // esbuild's: the worker's own code (markdown-worker.js, worker-dom.js with its entity table)
      // in chunks no page loads (tests/consumers/esbuild.test.ts runs it in Chromium); its parser
      // chunks are counted as the page's parser, as the other bundlers' are.
      const { files, worker } = cell('esbuild', from);
      expect(files.filter((file) => file.worker).map((file) => file.file)).toContainEqual(
        expect.stringMatching(/^markdown-worker-/),
      );
      expect(worker).toBeGreaterThan(10_000);
    },
  );
});

describe('bundler runtime, reported apart', () => {
  it('finds webpack and Rspack runtime chunks (chunk loading at least)', () => {
    for (const bundler of ['webpack', 'rspack'] as const) {
      for (const from of IMPORTS) expect(cell(bundler, from).runtime).toBeGreaterThan(500);
    }
  });

  it("counts a chunk of esbuild's helpers alone as runtime only when no module of the widget is in it", () => {
    for (const from of IMPORTS) {
      const { runtimeFiles = [], files, runtime } = cell('esbuild', from);
      for (const helpers of runtimeFiles) {
        // The metafile puts no module's bytes there, so no code of the widget hides in the runtime.
        expect(helpers.modules).toEqual([]);
        expect(files.map((file) => file.file)).not.toContain(helpers.file);
      }
      if (runtimeFiles.length > 0) expect(runtime).toBeGreaterThan(0);
    }
  });

  it("cuts esbuild's helpers, and only them, out of the chunk they are printed in", async () => {
    // A CommonJS module behind a dynamic import, and a module shared with the entry: esbuild prints
    // its CommonJS helpers in the shared chunk, which the page loads up front.
    const files: Record<string, string> = {
      'entry.js': "import { label } from './shared.js'; console.log(label); import('./lazy.js');",
      'shared.js': "export const label = 'shared label';",
      'lazy.js': "import add from './cjs.cjs'; import { label } from './shared.js'; console.log(add(label));",
      'cjs.cjs': 'module.exports = function add(x) { return x + 1; };',
    };
    const result = await esbuild.build({
      entryPoints: ['entry.js'],
      bundle: true,
      splitting: true,
      format: 'esm',
      minify: true,
      outdir: 'out',
      write: false,
      sourcemap: 'external',
      logLevel: 'silent',
      plugins: [
        {
          name: 'memory',
          setup(build) {
            build.onResolve({ filter: /.*/ }, (args) => ({
              path: args.path.replace(/^\.\//, ''),
              namespace: 'm',
            }));
            build.onLoad({ filter: /.*/, namespace: 'm' }, (args) => ({
              contents: files[args.path],
              loader: 'js',
            }));
          },
        },
      ],
    });
    const shared = result.outputFiles.find((f) => f.path.endsWith('.js') && f.text.includes('shared label'))!;
    const map = result.outputFiles.find((file) => file.path === `${shared.path}.map`)!;
    const { code, helpers } = splitEsbuildHelpers(shared.text, map.text);
    expect(helpers).toMatch(/^var \w+=Object\.create;/);
    expect(code).toContain('shared label');
    expect(code).not.toContain('Object.create');
    expect(code.length + helpers.length).toBe(shared.text.length);
  });
});

it(`ships at most ${BUDGETS.css} bytes of CSS`, () => {
  expect(report.css).toBeGreaterThan(0);
  expect(report.css).toBeLessThanOrEqual(BUDGETS.css);
});

it(`loads at most ${EMBED_BUDGET} bytes of the script build (docs-assistant/embed) before the assistant is opened, runtime included`, () => {
  const { shipped, flavours } = report.embed;
  expect(shipped.files.filter((file) => file.upfront).map((file) => file.file)).toContain('embed.js');
  // The panel and the chat client are lazy chunks beside it.
  expect(shipped.lazy).toBeGreaterThan(shipped.upfront);
  expect(shipped.upfront).toBeLessThanOrEqual(EMBED_BUDGET);
  // The tarball ships one of the two flavours measured (React's figure is reported beside it); the
  // builds are separate runs, whose chunk names (hashes) may differ by a byte or two.
  const nearest = Math.min(
    ...[flavours.react, flavours.preact].map((built) => Math.abs(built.upfront - shipped.upfront)),
  );
  expect(nearest).toBeLessThan(shipped.upfront / 100);
});

it('measures the packed tarball', () => {
  expect(report.tarball.file).toMatch(/^docs-assistant-.*\.tgz$/);
});

it('keeps the Markdown serializer (mdast-util-to-markdown) out of the widget', () => {
  for (const { packages } of report.cells) {
    expect(packages).toContain('micromark-core-commonmark');
    expect(packages).not.toContain('mdast-util-to-markdown');
  }
});
