/**
 * Vitest globalSetup of the "consumers" project: builds and packs both packages once per run and
 * hands the tarball paths to the tests (`inject('tarballs')`).
 */
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packTarballs } from './harness';

export default async function setup(project: TestProject) {
  const tarballs = await packTarballs();
  project.provide('tarballs', tarballs);
  return async () => {
    // A folder this run packed into (not one DOCS_ASSISTANT_TARBALLS_DIR pointed at).
    if (!process.env.DOCS_ASSISTANT_TARBALLS_DIR) {
      await rm(dirname(tarballs.widget), { recursive: true, force: true });
    }
  };
}
