// The Vite consumer's page (vite-shared: index.html, src/main.tsx) built with esbuild as its users
// run it: bundle, code splitting, ES modules, minified, production React. esbuild does not bundle
// workers, so this is the app where the widget must start its Markdown worker another way.
import { readFile, rm, writeFile } from 'node:fs/promises';
import * as esbuild from 'esbuild';

await rm('dist', { recursive: true, force: true });
const result = await esbuild.build({
  entryPoints: ['src/main.tsx'],
  bundle: true,
  splitting: true,
  format: 'esm',
  minify: true,
  jsx: 'automatic',
  outdir: 'dist/assets',
  entryNames: '[name]',
  metafile: true,
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});
await writeFile('dist/meta.json', JSON.stringify(result.metafile));
const html = (await readFile('index.html', 'utf8')).replace(
  '<script type="module" src="/src/main.tsx"></script>',
  '<link rel="stylesheet" href="/assets/main.css" />\n    <script type="module" src="/assets/main.js"></script>',
);
if (!html.includes('/assets/main.js'))
  throw new Error('index.html no longer has the script this build replaces');
await writeFile('dist/index.html', html);
