/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const external = [/^react($|\/)/, /^react-dom($|\/)/];

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    cssCodeSplit: false,
    lib: {
      entry: {
        index: 'src/index.ts',
        // docs-assistant/static-export (server-side admin client) and its dashboard panel.
        'static-export': 'src/static-export/index.ts',
        'static-export-react': 'src/static-export/react.ts',
      },
      formats: ['es'],
      cssFileName: 'docs-assistant',
    },
    rolldownOptions: {
      external,
      output: { chunkFileNames: 'chunks/[name]-[hash].js' },
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
