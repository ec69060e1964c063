/**
 * The consumer apps pin exact versions, the ones the root lockfile installs where the root has the
 * package, so the matrix tests the toolchain the repository is built and tested with (and npm's
 * cache already holds it). An app may pin a package apart on purpose (`consumer.ownVersions`).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APPS_DIR, type AppManifest, REPO_ROOT, readManifest } from './harness';

const lock = JSON.parse(await readFile(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string }>;
};
const apps: string[] = [];
for (const entry of await readdir(APPS_DIR, { withFileTypes: true })) {
  const hasManifest = await readFile(join(APPS_DIR, entry.name, 'package.json')).then(
    () => true,
    () => false,
  );
  if (entry.isDirectory() && hasManifest) apps.push(entry.name);
}

describe.each(apps)('apps/%s/package.json', (app) => {
  it('pins exact versions, equal to the root lockfile where the root has the package', async () => {
    const manifest: AppManifest = await readManifest(join(APPS_DIR, app));
    const own = new Set(manifest.consumer?.ownVersions ?? []);
    const wrong: string[] = [];
    for (const [name, spec] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) {
      if (spec.startsWith('file:tarballs/')) continue;
      if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec)) wrong.push(`${name}: "${spec}" is not an exact version`);
      const rootVersion = lock.packages[`node_modules/${name}`]?.version;
      if (rootVersion && !own.has(name) && spec !== rootVersion) {
        wrong.push(`${name}: "${spec}", the root lockfile has ${rootVersion}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
