// Imports every entry of an installed package's `exports` (`node entries.mjs <package>`, default
// docs-assistant) with plain Node (no bundler) and prints, as JSON, each entry's export names or
// the error it threw.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const name = process.argv[2] ?? 'docs-assistant';
const require = createRequire(import.meta.url);
const manifestPath = require.resolve(`${name}/package.json`);
const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));

const results = {};
for (const [subpath, target] of Object.entries(manifest.exports)) {
  const specifier = subpath === '.' ? name : `${name}${subpath.slice(1)}`;
  const file = typeof target === 'string' ? target : (target.import ?? target.default);
  try {
    if (file.endsWith('.css')) {
      // Node cannot import CSS; a bundler does. The file must be there.
      await readFile(new URL(file, `file://${manifestPath}`));
      results[subpath] = { specifier, css: true };
    } else if (file.endsWith('.json')) {
      const module = await import(specifier, { with: { type: 'json' } });
      results[subpath] = { specifier, exports: Object.keys(module.default) };
    } else {
      const module = await import(specifier);
      results[subpath] = { specifier, exports: Object.keys(module).sort() };
    }
  } catch (error) {
    results[subpath] = { specifier, error: String(error?.stack ?? error) };
  }
}
console.log(JSON.stringify(results));
