/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const external = [/^react($|\/)/, /^react-dom($|\/)/];

/**
 * Chunks kept apart from the widget's shell (what loads before the assistant is opened): the chat
 * hook, the part renderers and their libraries (markdown, AI SDK), loaded by the lazy panel; and
 * the small protocol helpers (paths, keys, stream codes). The zod schemas (request, error body,
 * static export) and zod itself get a chunk of their own: their module-level zod calls cannot be
 * tree-shaken by the host's bundler, and the widget never imports them (it checks stored threads and
 * error bodies by hand), so anywhere else they would ride along into the widget for nothing.
 */
const chunkGroups = [
  {
    name: 'schemas',
    test: /[\\/](node_modules[\\/]zod[\\/]|src[\\/]protocol[\\/](schemas|static-export|errors)\.ts$)/,
    priority: 3,
  },
  { name: 'protocol', test: /[\\/]src[\\/]protocol[\\/]/, priority: 2 },
  { name: 'assistant', test: /[\\/](node_modules|src[\\/](chat|parts))[\\/]/, priority: 1 },
].map((group) => ({ ...group, includeDependenciesRecursively: false }));

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
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    cssCodeSplit: false,
    lib: {
      entry: {
        index: 'src/index.ts',
        // docs-assistant/widget: the widget alone (see src/widget.ts).
        widget: 'src/widget.ts',
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
      // Lets the shell's entry share modules with its lazy panel chunk without pulling the heavy
      // chunk into what loads before the assistant is opened.
      preserveEntrySignatures: 'allow-extension',
      output: {
        chunkFileNames: 'chunks/[name]-[hash].js',
        codeSplitting: { groups: chunkGroups },
      },
    },
  },
  test: {
    globals: true,
    environment: 'node',
    include: ['tests/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}', 'server/**/*.test.ts'],
    setupFiles: ['tests/setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
