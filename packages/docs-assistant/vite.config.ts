/**
 * The library build of `docs-assistant`: ES modules for the host's bundler, one file per source
 * module (`preserveModules`), with every dependency and peer left as an import. The host resolves
 * `react`, `@ai-sdk/react` and the Markdown packages itself, so an app that already uses them ships
 * one copy, and no CommonJS ever lands in `dist` (a bundled CommonJS dependency needs a `require`
 * shim that breaks in ESM-only hosts). One file per module also keeps the lazy panel a real split
 * point for every bundler: what the launcher imports is all that loads before first open.
 */
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, transformWithOxc } from 'vite';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const packages = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})];
const escapeRegExp = (name: string) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** A package and its subpaths (`react/jsx-runtime`, `zod/v4-mini`). */
const external = packages.map((name) => new RegExp(`^${escapeRegExp(name)}($|/)`));

/** `src/styles/entry.ts` exists only to emit `docs-assistant.css`; drop its empty JS file. */
const cssOnlyEntry: Plugin = {
  name: 'docs-assistant:css-only-entry',
  // After Vite's CSS plugin has collected the entry's styles.
  enforce: 'post',
  generateBundle(_options, bundle) {
    for (const [fileName, output] of Object.entries(bundle)) {
      if (output.type === 'chunk' && output.isEntry && output.name === 'styles') delete bundle[fileName];
    }
  },
};

/**
 * Entry files that only re-export (`src/index.ts`, `src/widget.ts`, `src/headless.ts`, …) ship as
 * written, types dropped, instead of the `import { A } from './a.js'; export { A }` rolldown prints
 * for them. The form matters to esbuild: its code splitting follows every import of a module whose
 * exports the app uses, so through the printed `index.js`, `import { DocsAssistant } from
 * 'docs-assistant'` put the hook, the part renderers and all they import (the whole chat and
 * Markdown stack) in the chunk the page loads first (79 kB instead of 9). As written, `index.js`
 * is `export * from './widget.js'` and `export * from './headless.js'` (see src/index.ts).
 */
const reExportBarrels: Plugin = {
  name: 'docs-assistant:re-export-barrels',
  enforce: 'post',
  async generateBundle(_options, bundle) {
    for (const [fileName, output] of Object.entries(bundle)) {
      if (output.type !== 'chunk' || !output.isEntry || !output.facadeModuleId?.endsWith('.ts')) continue;
      const source = readFileSync(output.facadeModuleId, 'utf8');
      const { code } = await transformWithOxc(source, output.facadeModuleId, { lang: 'ts' });
      const program = this.parse(code);
      const onlyReExports = program.body.every(
        (node) =>
          node.type === 'ExportAllDeclaration' ||
          (node.type === 'ExportNamedDeclaration' && node.source) ||
          (node.type === 'ExpressionStatement' && 'directive' in node),
      );
      if (!onlyReExports) continue;
      // Specifiers are relative to the source file; the entry may sit elsewhere in dist
      // (src/protocol/entry.ts is dist/protocol.js): point each at the file its module became.
      const fileOf = new Map<string, string>();
      for (const item of Object.values(bundle)) {
        if (item.type === 'chunk' && item.facadeModuleId) fileOf.set(item.facadeModuleId, item.fileName);
      }
      const sources = program.body.flatMap((node) => ('source' in node && node.source ? [node.source] : []));
      const targets = await Promise.all(
        sources.map(async (node) => {
          const resolved = await this.resolve(String(node.value), output.facadeModuleId!);
          return resolved ? fileOf.get(resolved.id) : undefined;
        }),
      );
      // A barrel re-exporting a barrel (protocol/entry.ts → protocol/index.ts, merged away by the
      // build) keeps rolldown's form; tests/size holds the widget's entries to the budget.
      if (targets.some((target) => target === undefined)) continue;
      let rewritten = code;
      for (let i = sources.length - 1; i >= 0; i--) {
        const node = sources[i]!;
        let path = posix.relative(posix.dirname(fileName), targets[i]!);
        if (!path.startsWith('.')) path = `./${path}`;
        rewritten = `${rewritten.slice(0, node.start)}${JSON.stringify(path)}${rewritten.slice(node.end)}`;
      }
      output.code = rewritten;
      // A file of re-exports needs no source map.
      delete bundle[`${fileName}.map`];
      output.map = null;
    }
  },
};

/**
 * `new Worker(new URL('./markdown-worker.ts', import.meta.url))` (src/parts/parse-off-thread.ts)
 * ships as written, naming `./markdown-worker.js`, the worker's own entry in dist: the host's
 * bundler bundles the worker with the host's copies of its dependencies. Left to Vite, the library
 * build would bundle it into an asset, a second copy of the Markdown parser in the package.
 */
const WORKER_PLACEHOLDER = '__DA_MARKDOWN_WORKER__';
const keepWorkerUrl: Plugin = {
  name: 'docs-assistant:keep-worker-url',
  enforce: 'pre',
  // In `load`, not `transform`: the file as loaded is the source its map points at, and a
  // placeholder as long as the string it stands for moves no column.
  load(id) {
    if (!id.endsWith('/parse-off-thread.ts')) return;
    const code = readFileSync(id, 'utf8');
    const form = "new URL('./markdown-worker.ts', import.meta.url)";
    if (!code.includes(form)) this.error(`${id} no longer has ${form}: update keepWorkerUrl`);
    return code.replace(form, form.replace("'./markdown-worker.ts'", WORKER_PLACEHOLDER));
  },
  renderChunk(code) {
    if (!code.includes(WORKER_PLACEHOLDER)) return;
    return { code: code.replace(WORKER_PLACEHOLDER, "'./markdown-worker.js'"), map: null };
  },
};

export default defineConfig({
  plugins: [react(), cssOnlyEntry, reExportBarrels, keepWorkerUrl],
  // No public/ folder to copy: everything the package ships comes from src/.
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The host minifies; readable files are easier to debug and diff, and gzip sizes barely move.
    minify: false,
    cssCodeSplit: false,
    target: 'es2022',
    lib: {
      entry: {
        index: 'src/index.ts',
        // docs-assistant/widget: the widget alone (see src/widget.ts).
        widget: 'src/widget.ts',
        // Not an export of its own: `index.js` re-exports the hook and the part renderers through it
        // (see src/headless.ts); as an entry it stays a file of its own.
        headless: 'src/headless.ts',
        // docs-assistant/protocol: the wire contract, for the reference service.
        protocol: 'src/protocol/entry.ts',
        // docs-assistant/static-export (server-side admin client) and its dashboard panel.
        'static-export': 'src/static-export/index.ts',
        'static-export-react': 'src/static-export/react.ts',
        // docs-assistant/insights (the handler a host mounts, server-side) and its dashboard panel.
        insights: 'src/insights/index.ts',
        'insights-react': 'src/insights/react.ts',
        // docs-assistant/proxy: the server-side route that keeps the assistant key off the page.
        proxy: 'src/proxy/index.ts',
        // docs-assistant/labels/de and /ar: label packs, plain data for the `labels` prop.
        'labels/de': 'src/labels/de.ts',
        'labels/ar': 'src/labels/ar.ts',
        // The Markdown worker (src/parts/parse-off-thread.ts starts it with `new Worker(new URL(...))`,
        // which the host's bundler follows): a file of its own beside the module that starts it.
        'parts/markdown-worker': 'src/parts/markdown-worker.ts',
        // Emits dist/docs-assistant.css (the `./styles.css` export); the JS never imports CSS.
        styles: 'src/styles/entry.ts',
      },
      formats: ['es'],
      cssFileName: 'docs-assistant',
    },
    rolldownOptions: {
      external,
      preserveEntrySignatures: 'strict',
      output: {
        preserveModules: true,
        // Absolute: a relative root is taken from the working directory, and scripts/size.ts builds
        // from the repository's root.
        preserveModulesRoot: fileURLToPath(new URL('./src', import.meta.url)),
      },
    },
  },
});
