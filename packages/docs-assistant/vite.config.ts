/**
 * The library build of `docs-assistant`: ES modules for the host's bundler, one file per source
 * module (`preserveModules`), with every dependency and peer left as an import. The host resolves
 * `react`, `@ai-sdk/react` and the Markdown packages itself, so an app that already uses them ships
 * one copy, and no CommonJS ever lands in `dist` (a bundled CommonJS dependency needs a `require`
 * shim that breaks in ESM-only hosts). One file per module also keeps the lazy panel a real split
 * point for every bundler: what the launcher imports is all that loads before first open.
 */
import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

export default defineConfig({
  plugins: [react(), cssOnlyEntry],
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
        // docs-assistant/protocol: the wire contract, for the reference service.
        protocol: 'src/protocol/entry.ts',
        // docs-assistant/static-export (server-side admin client) and its dashboard panel.
        'static-export': 'src/static-export/index.ts',
        'static-export-react': 'src/static-export/react.ts',
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
        preserveModulesRoot: 'src',
        entryFileNames: '[name].js',
      },
    },
  },
});
