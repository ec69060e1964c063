/**
 * The script build, `docs-assistant/embed` (src/embed/): one ES module for any page, React and
 * every dependency inside, minified, plus the chunks it loads from beside itself on demand
 * (`dist/embed/embed.js`, `dist/embed/embed-chunks/*.js`). The lazy splits of the library build
 * (the panel, the collectors, search and the views) stay lazy chunks here, so what a page loads
 * before the assistant is opened is the entry alone. Run after the library build (which empties
 * dist/).
 *
 * Shipped on Preact's compat layer (`react`, `react-dom` aliased to `preact/compat`): every test
 * of tests/embed passes on both, and Preact puts what a page loads before the assistant is opened
 * at a fraction of React 19's 60 kB runtime (see `npm run size`). `DOCS_ASSISTANT_EMBED=react`
 * builds it on React, to compare (scripts/embed-size.ts); `DOCS_ASSISTANT_EMBED_OUT` builds
 * elsewhere than dist/embed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// A production artifact whoever runs the build (Vitest sets NODE_ENV=test, which would make the
// React plugin emit development JSX calls that React's production runtime lacks).
process.env.NODE_ENV = 'production';

const preact = process.env.DOCS_ASSISTANT_EMBED !== 'react';
const outDir =
  process.env.DOCS_ASSISTANT_EMBED_OUT ?? fileURLToPath(new URL('./dist/embed', import.meta.url));

/** The root font size `rem` stood for before the widget moved into a shadow root. */
const ROOT_FONT_SIZE = 16;

/**
 * Inside a shadow root `rem` still follows the page's `html { font-size }`: a site with
 * `html { font-size: 62.5% }` would shrink the widget. The stylesheets the embed inlines get `px`.
 */
const remToPx: Plugin = {
  name: 'docs-assistant:embed-rem-to-px',
  enforce: 'post',
  transform(code, id) {
    if (!/\.css\?inline$/.test(id)) return undefined;
    return {
      code: code.replace(
        /(^|[^\w.#-])(-?(?:\d+\.?\d*|\.\d+))rem\b/g,
        (_match, before: string, value: string) => {
          const px = Math.round(Number(value) * ROOT_FONT_SIZE * 100) / 100;
          return `${before}${px}px`;
        },
      ),
      map: null,
    };
  },
};

/**
 * The build bundles third-party code (Preact or React, the AI SDK, the Markdown packages…): their
 * licences ship beside it as `embed-chunks/THIRD_PARTY_LICENSES.txt`, each package's licence file
 * (or its package.json licence field), listed from the modules the build actually took.
 */
const roots = new Set<string>();

/** Every package a bundle took code from, into `roots`. */
const packagesOf = (bundle: Parameters<NonNullable<Plugin['generateBundle']>>[1]) => {
  for (const item of Object.values(bundle)) {
    if (item.type !== 'chunk') continue;
    for (const id of Object.keys(item.modules)) {
      const match = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(id.replace(/\\/g, '/'));
      if (match) roots.add(match[1]!);
    }
  }
};

/** The Markdown worker is a bundle of its own, built before the page's is written out. */
const workerLicenses: Plugin = {
  name: 'docs-assistant:embed-worker-licenses',
  generateBundle(_options, bundle) {
    packagesOf(bundle);
  },
};

const licenses: Plugin = {
  name: 'docs-assistant:embed-licenses',
  generateBundle(_options, bundle) {
    packagesOf(bundle);
    const sections = [...roots].sort().map((root) => {
      const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
        license?: string;
      };
      const file = readdirSync(root).find((name) => /^(licen[cs]e|copying)(\.|$)/i.test(name));
      const text = file
        ? readFileSync(join(root, file), 'utf8').trim()
        : `License: ${pkg.license ?? 'see the package'}`;
      return `${pkg.name}@${pkg.version} (${pkg.license ?? 'unknown'})\n${'-'.repeat(72)}\n${text}\n`;
    });
    this.emitFile({
      type: 'asset',
      fileName: 'embed-chunks/THIRD_PARTY_LICENSES.txt',
      source: `The docs-assistant script build (embed.js and embed-chunks/, the Markdown worker included) bundles the following packages.\n\n${sections.join('\n')}`,
    });
  },
};

export default defineConfig({
  plugins: [react(), remToPx, licenses],
  resolve: {
    alias: [
      ...(preact
        ? [
            { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
            { find: /^react\/jsx-(dev-)?runtime$/, replacement: 'preact/jsx-runtime' },
            { find: /^react-dom$/, replacement: 'preact/compat' },
            { find: /^react$/, replacement: 'preact/compat' },
          ]
        : []),
    ],
  },
  // React reads it to drop its development build; a library build leaves it alone otherwise.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  publicDir: false,
  // Chunks and the Markdown worker are found from the script's own URL, wherever it is served.
  base: './',
  worker: {
    format: 'es',
    plugins: () => [workerLicenses],
    rolldownOptions: { output: { entryFileNames: 'embed-chunks/[name]-[hash].js' } },
  },
  logLevel: 'warn',
  build: {
    outDir,
    emptyOutDir: true,
    // No source maps: they would triple the tarball for a file debugged from src/ anyway.
    sourcemap: false,
    minify: true,
    cssCodeSplit: false,
    target: 'es2022',
    lib: {
      entry: { embed: 'src/embed/index.ts' },
      formats: ['es'],
    },
    rolldownOptions: {
      output: {
        entryFileNames: '[name].js',
        chunkFileNames: 'embed-chunks/[name]-[hash].js',
        assetFileNames: 'embed-chunks/[name]-[hash][extname]',
      },
    },
  },
});
