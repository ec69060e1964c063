/**
 * An app built with esbuild (`apps/esbuild-react19`: the Vite consumer's page, bundled with
 * splitting and ES modules as esbuild's users run it) from the widget's tarball, driven in
 * Chromium against the installed reference service. esbuild does not bundle workers: it leaves
 * `new Worker(new URL('./markdown-worker.js', import.meta.url))` naming a file its output does not
 * have. The widget must still parse an answer's Markdown in a worker, started from a chunk esbuild
 * did emit (`parts/worker-chunk.ts`), with no 404 and nothing logged, and the page itself must never
 * load the parser's chunk (which `npm run size` counts apart on that ground). Where that worker
 * cannot load its code, the page parses instead.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  askAndExpectAnswer,
  launchChromium,
  openPage,
  prepareApp,
  type ReferenceService,
  run,
  type StaticServer,
  serveStatic,
  startReferenceService,
} from './harness';

let service: ReferenceService | undefined;
let browser: Browser | undefined;
let site: StaticServer | undefined;
let dir = '';

beforeAll(async () => {
  const tarballs = inject('tarballs');
  service = await startReferenceService(await prepareApp('node-esm', tarballs));
  dir = await prepareApp('esbuild-react19', tarballs);
  await run('node', ['build.mjs'], { cwd: dir });
  site = await serveStatic(join(dir, 'dist'));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await service?.close();
});

/** esbuild's output files (`assets/…`) that hold a module whose path matches `input`. */
async function outputsWith(input: RegExp): Promise<string[]> {
  const meta = JSON.parse(await readFile(join(dir, 'dist/meta.json'), 'utf8')) as {
    outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
  };
  return Object.entries(meta.outputs)
    .filter(([, output]) =>
      Object.entries(output.inputs).some(
        ([path, { bytesInOutput }]) => bytesInOutput > 0 && input.test(path),
      ),
    )
    .map(([file]) => file.replace(/^dist\//, ''));
}

describe('esbuild-react19: an esbuild production build with React 19', () => {
  it('parses the answer in a worker started from its own chunk, and the page never loads the parser', async () => {
    const parserFiles = await outputsWith(/node_modules\/micromark\//);
    const workerChunk = await outputsWith(/docs-assistant\/dist\/parts\/worker-chunk\.js$/);
    expect(parserFiles).toHaveLength(1);
    expect(workerChunk).toHaveLength(1);

    const query = new URLSearchParams({
      service: service!.url,
      key: service!.assistantKey,
      domain: service!.domain,
    });
    const opened = await openPage(browser!, `${site!.origin}/?${query}`);
    const { page } = opened;
    const failed: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    const answer = await askAndExpectAnswer(page, 'How do I install the package?');
    expect(answer.sources.map((source) => source.href)).toContainEqual(
      expect.stringContaining('getting-started'),
    );

    // One worker, its script the chunk of worker-chunk.js: the URL as written was never tried.
    const workers = page.workers();
    expect(workers.map((worker) => new URL(worker.url()).pathname)).toEqual([`/${workerChunk[0]}`]);
    const loadedBy = (resources: string[]) => resources.map((url) => new URL(url).pathname.slice(1));
    const workerLoaded = loadedBy(
      await workers[0]!.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name)),
    );
    const pageLoaded = loadedBy(
      await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name)),
    );
    expect(workerLoaded).toContain(parserFiles[0]);
    expect(pageLoaded).toContain(workerChunk[0]);
    expect(pageLoaded).not.toContain(parserFiles[0]);
    // The answer's Markdown was rendered: a list or a code block of the fixture's getting-started page.
    expect(
      await page.locator('[data-docs-assistant="message"][data-role="assistant"] p').count(),
    ).toBeGreaterThan(0);

    expect(failed).toEqual([]);
    expect(opened.pageErrors.map(String)).toEqual([]);
    expect(opened.console).toEqual([]);
    await page.close();
  });

  it('parses on the page, with the same answer and nothing thrown, when the worker cannot load its code', async () => {
    const workerCode = await outputsWith(/docs-assistant\/dist\/parts\/markdown-worker\.js$/);
    const parserFiles = await outputsWith(/node_modules\/micromark\//);
    expect(workerCode).toHaveLength(1);
    const query = new URLSearchParams({
      service: service!.url,
      key: service!.assistantKey,
      domain: service!.domain,
    });
    const context = await browser!.newContext();
    // The worker's own code is missing (a deploy that dropped it): the worker gives up, the page parses.
    await context.route(`**/${workerCode[0]}`, (route) => route.fulfill({ status: 404, body: 'gone' }));
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${site!.origin}/?${query}`);
    const answer = await askAndExpectAnswer(page, 'How do I install the package?');
    expect(answer.sources.length).toBeGreaterThan(0);
    const pageLoaded = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname.slice(1)),
    );
    expect(pageLoaded).toContain(parserFiles[0]);
    expect(page.workers()).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
