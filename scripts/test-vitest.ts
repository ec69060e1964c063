/**
 * `npm test`'s Vitest step: the `unit` project and the `consumers` matrix (tests/consumers/) in two
 * processes side by side, where one `vitest run` runs them one after the other.
 *
 * Vitest runs a project whose files go one at a time (`fileParallelism: false`, as the matrix's
 * must: its files share installed apps) after every other project, never beside one. On a fresh
 * machine the matrix is some 400 s of mostly one core's work (npm installs, better-sqlite3
 * compiled, `next build`) that then ran alone after the unit project's. Side by side, on two cores
 * (2026-12-07, clean checkout, `.ci/run`): unit project 694 s with the matrix's 468 s beside it,
 * where one `vitest run` of both had taken 1,176 s on CI.
 *
 * Both packages are built and packed first, once (what the matrix's global setup does on its own),
 * and the matrix installs those tarballs (`DOCS_ASSISTANT_TARBALLS_DIR`): the unit project's e2e
 * test runs `npm start`, which builds the packages' `dist/` again while the matrix runs.
 *
 * The unit project prints as it runs; the matrix's output is kept in
 * tests/.artifacts/consumers.log and printed when both are done. The exit code is the first
 * failure's, or 0. Filtered runs: `npx vitest run --project unit <paths>`.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packTarballs } from '../tests/consumers/harness';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LOG = join(ROOT, 'tests/.artifacts/consumers.log');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');

/** Runs Vitest on one project; its output to the terminal, or to `log`. Resolves with its exit code. */
function vitest(project: string, env: NodeJS.ProcessEnv, log?: string): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [VITEST, 'run', '--project', project], {
      cwd: ROOT,
      env,
      stdio: log ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (log) {
      const file = createWriteStream(log);
      child.stdout?.pipe(file, { end: false });
      child.stderr?.pipe(file, { end: false });
      child.once('close', () => file.end());
    }
    child.once('error', fail);
    child.once('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

const given = process.env.DOCS_ASSISTANT_TARBALLS_DIR;
const tarballs = await packTarballs();
const tarballsDir = dirname(tarballs.widget);
await mkdir(dirname(LOG), { recursive: true });
let codes: number[];
try {
  codes = await Promise.all([
    vitest('unit', process.env),
    vitest('consumers', { ...process.env, DOCS_ASSISTANT_TARBALLS_DIR: tarballsDir }, LOG),
  ]);
} finally {
  // A folder this run packed into (not one DOCS_ASSISTANT_TARBALLS_DIR pointed at).
  if (!given) await rm(tarballsDir, { recursive: true, force: true });
}
console.log(`\n── the consumer matrix (tests/consumers/), run beside the unit project: ${LOG} ──\n`);
process.stdout.write(await readFile(LOG, 'utf8'));
const failed = codes.find((code) => code !== 0);
if (failed !== undefined) {
  console.error(
    `\nVitest failed: unit project exit ${codes[0]}, consumer matrix exit ${codes[1]} (its output above).`,
  );
}
process.exit(failed ?? 0);
