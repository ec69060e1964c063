/**
 * The installed `docs-assistant` command: `src/cli.ts` built for Node into `dist/cli.js`
 * (`package.json` `bin`), and the package's entry `src/index.ts` into `dist/index.js` (shared code
 * in `dist/chunks/`). Declarations come from `tsc -p tsconfig.build.json`. Dependencies (the widget package's `docs-assistant/protocol` and
 * `docs-assistant/static-export` among them) stay imports, resolved from the installing project's
 * `node_modules`; only this package's own code is bundled.
 */
import { chmodSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
// Optional ones too (better-sqlite3, needed on Node 20 only): bundled, they would be loaded always.
const packages = [
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.optionalDependencies ?? {}),
  ...Object.keys(pkg.peerDependencies ?? {}),
];
const escapeRegExp = (name: string) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const external = [
  /^node:/,
  new RegExp(`^(${builtinModules.map(escapeRegExp).join('|')})$`),
  // A package and its subpaths (`react-dom/server`, `zod/v4-mini`).
  ...packages.map((name) => new RegExp(`^${escapeRegExp(name)}($|/)`)),
];

/** Makes the built file executable, so `./dist/cli.js` runs as is (npm also sets it on install). */
const executable: Plugin = {
  name: 'docs-assistant:executable-cli',
  writeBundle(options) {
    if (options.dir) chmodSync(join(options.dir, 'cli.js'), 0o755);
  },
};

export default defineConfig({
  plugins: [executable],
  // No public/ copy, no HTML: this is a Node program.
  publicDir: false,
  build: {
    // The command, and `docs-assistant-server` for starting the service from code.
    ssr: true,
    outDir: 'dist',
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: true,
    rolldownOptions: {
      input: { cli: 'src/cli.ts', index: 'src/index.ts' },
      external,
      output: {
        format: 'es',
        entryFileNames: '[name].js',
        chunkFileNames: 'chunks/[name]-[hash].js',
      },
    },
  },
  ssr: {
    // Everything not listed above is the package's own code and goes into the file.
    noExternal: true,
  },
});
