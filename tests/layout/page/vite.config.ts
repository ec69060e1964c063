/**
 * Builds the layout test's two pages (`react.html`, `embed.html`, written from host.html by
 * tests/layout/site.ts into LAYOUT_PAGES) against the BUILT package in LAYOUT_PACKAGE: the same
 * `dist` files an app installs, not the sources. Run as its own process so the build is a
 * production one whoever starts it (Vitest sets NODE_ENV=test).
 */
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: build the layout pages through tests/layout/site.ts.`);
  return value;
}

const pages = required('LAYOUT_PAGES');
const dist = join(required('LAYOUT_PACKAGE'), 'dist');

export default defineConfig({
  root: pages,
  base: '/',
  logLevel: 'error',
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^docs-assistant$/, replacement: join(dist, 'index.js') },
      { find: /^docs-assistant\/styles\.css$/, replacement: join(dist, 'docs-assistant.css') },
    ],
  },
  build: {
    outDir: join(pages, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: { input: { react: join(pages, 'react.html'), embed: join(pages, 'embed.html') } },
  },
});
