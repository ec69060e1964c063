import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Builds the demo docs site. It imports `docs-assistant` as a user's app does: the workspace
 * package's built `dist/` through its `exports` (`npm start` runs `npm run build` first), never its
 * sources, so what the demo shows is what the package ships.
 */
export default defineConfig({
  root: here('.'),
  plugins: [react()],
  // The docs pages are bundled into the page's entry as text (about 0.6 MB): no warning for that.
  build: { outDir: here('dist'), emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1500 },
  server: { host: '127.0.0.1' },
});
