import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Builds the demo docs site; it uses the package from source, so no library build is needed first. */
export default defineConfig({
  root: here('.'),
  plugins: [react()],
  resolve: {
    alias: [
      {
        find: /^docs-assistant\/styles\.css$/,
        replacement: here('../packages/docs-assistant/src/styles/docs-assistant.css'),
      },
      { find: /^docs-assistant$/, replacement: here('../packages/docs-assistant/src/index.ts') },
    ],
  },
  build: { outDir: here('dist'), emptyOutDir: true, sourcemap: true },
  server: { host: '127.0.0.1' },
});
