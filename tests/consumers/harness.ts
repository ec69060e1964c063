/**
 * The consumer matrix: real apps that install the PACKED tarballs of `docs-assistant` and
 * `docs-assistant-server`, the way users get them, outside this repository (so nothing resolves
 * from the workspace's node_modules), and drive them in Node, TypeScript and Chromium.
 *
 * - `packTarballs()` builds both packages and packs them (once per run: `global-setup.ts`).
 * - `prepareApp(name, tarballs)` copies `apps/<name>/` to a work folder and installs it.
 * - `startReferenceService(appDir)` runs the installed server package's CLI over the fixture docs.
 * - `openPage`, `askAndExpectAnswer`, `expectConversationAfterReload` drive the widget in a page.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';

export { launchChromium } from '../e2e/browser';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const APPS_DIR = fileURLToPath(new URL('./apps', import.meta.url));
/** The docs every consumer's reference service answers from. */
export const FIXTURE_DOCS = join(REPO_ROOT, 'tests/fixtures/docs');

/** Where apps are installed and built: outside the repository, so Node cannot walk up into it. */
export const CONSUMERS_DIR = resolve(
  process.env.DOCS_ASSISTANT_CONSUMERS_DIR ?? join(tmpdir(), 'docs-assistant-consumers'),
);

/** Absolute paths of the packed `.tgz` files. */
export interface Tarballs {
  widget: string;
  server: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    tarballs: Tarballs;
  }
}

/** File names of the tarballs inside an app's `tarballs/` folder, as its package.json refers to them. */
export const TARBALL_FILES = {
  widget: 'docs-assistant.tgz',
  server: 'docs-assistant-server.tgz',
} as const;

const TARBALL_PACKAGES = { widget: 'docs-assistant', server: 'docs-assistant-server' } as const;

// --- processes -------------------------------------------------------------------------------

/**
 * The environment of child processes, without what Vitest and an outer `npm test` set that would
 * change what they do: `NODE_ENV=test` (Vite would build React's development bundle; `production`
 * would make npm skip devDependencies), npm's lifecycle variables and the workspace's prefix and
 * omit/include settings (a child `npm install` would act on the workspace). The user's own npm
 * settings (registry, cache, proxy) stay.
 */
const PARENT_ONLY =
  /^(npm_(package_|lifecycle_|command$)|npm_config_(local_prefix|workspaces?|include_workspace_root|omit|include|production|dev|only)$|VITEST|NODE_ENV$|NODE_OPTIONS$|INIT_CWD$|TEST$)/i;

export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (PARENT_ONLY.test(key)) continue;
    env[key] = value;
  }
  return { ...env, FORCE_COLOR: '0', NO_COLOR: '1', ...extra };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; rejects with its output when it exits non-zero (unless `allowFailure`). */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; allowFailure?: boolean },
): Promise<RunResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: childEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => {
      const result = { code: code ?? 1, stdout, stderr };
      if (result.code !== 0 && !options.allowFailure) {
        reject(
          new Error(
            `\`${command} ${args.join(' ')}\` in ${options.cwd} exited with ${result.code}:\n${stdout}\n${stderr}`,
          ),
        );
      } else {
        resolveRun(result);
      }
    });
  });
}

// --- tarballs --------------------------------------------------------------------------------

async function findTarballs(dir: string): Promise<Tarballs | undefined> {
  const files = await readdir(dir).catch(() => [] as string[]);
  const widget = files.find((file) => /^docs-assistant-\d.*\.tgz$/.test(file));
  const server = files.find((file) => /^docs-assistant-server-\d.*\.tgz$/.test(file));
  return widget && server ? { widget: join(dir, widget), server: join(dir, server) } : undefined;
}

/**
 * Builds both packages (`npm run build` at the root) and packs them into a new folder under
 * `CONSUMERS_DIR`. With `DOCS_ASSISTANT_TARBALLS_DIR` set, reuses the tarballs found there instead
 * (for iterating on a test without rebuilding).
 */
export async function packTarballs(): Promise<Tarballs> {
  const reuse = process.env.DOCS_ASSISTANT_TARBALLS_DIR;
  if (reuse) {
    const found = await findTarballs(resolve(reuse));
    if (!found) {
      throw new Error(
        `DOCS_ASSISTANT_TARBALLS_DIR=${reuse} holds no docs-assistant-<version>.tgz and docs-assistant-server-<version>.tgz; pack them with \`npm pack -w docs-assistant -w docs-assistant-server --pack-destination ${reuse}\` or unset it.`,
      );
    }
    return found;
  }
  await run('npm', ['run', 'build'], { cwd: REPO_ROOT, env: { NODE_ENV: 'production' } });
  await mkdir(CONSUMERS_DIR, { recursive: true });
  const destination = await mkdtemp(join(CONSUMERS_DIR, 'tarballs-'));
  await run(
    'npm',
    ['pack', '-w', 'docs-assistant', '-w', 'docs-assistant-server', '--pack-destination', destination],
    { cwd: REPO_ROOT },
  );
  const found = await findTarballs(destination);
  if (!found) throw new Error(`npm pack left no tarballs in ${destination}.`);
  return found;
}

// --- apps ------------------------------------------------------------------------------------

/** Fields of an app's package.json that the harness reads. */
export interface AppManifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  consumer?: {
    /** Folders under `apps/` copied into the app before its own files (shared sources). */
    copy?: string[];
    /** Dependencies pinned apart from the root lockfile on purpose (React 18 in a React 19 repo). */
    ownVersions?: string[];
    /**
     * Installed with `--omit=optional`, as a user on Node 22.16+ may: for an app that runs nothing
     * of the service (it only type-checks), so no better-sqlite3 is compiled for it (a minute of a
     * core on a machine that reaches no prebuilt binary).
     */
    omitOptional?: boolean;
  };
}

/** Files in an app's work folder that survive from run to run: its installed dependencies. */
const KEPT = new Set(['node_modules', 'package-lock.json', 'tarballs', '.install-stamp']);

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
/** npm's `integrity` of a tarball. */
const integrityOf = (data: Buffer) => `sha512-${createHash('sha512').update(data).digest('base64')}`;

/** Which tarballs the app's package.json installs (`file:tarballs/<file>`). */
function tarballDependencies(manifest: AppManifest): (keyof Tarballs)[] {
  const all = { ...manifest.dependencies, ...manifest.devDependencies };
  return (Object.keys(TARBALL_FILES) as (keyof Tarballs)[]).filter(
    (kind) => all[TARBALL_PACKAGES[kind]] === `file:tarballs/${TARBALL_FILES[kind]}`,
  );
}

export async function readManifest(dir: string): Promise<AppManifest> {
  return JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as AppManifest;
}

/**
 * Copies `apps/<name>/` (after the shared folders its package.json's `consumer.copy` names) to
 * `CONSUMERS_DIR/<name>` and installs it: third-party dependencies only when the app's
 * package.json changed since the last install (a stamp file), the current tarballs always (an
 * explicit `npm install ./tarballs/…`, which replaces a changed tarball where a plain
 * `npm install` would call it up to date). Checks that what is installed is the tarball's bytes.
 * Returns the app's work folder.
 */
export async function prepareApp(name: string, tarballs: Tarballs): Promise<string> {
  const source = join(APPS_DIR, name);
  const manifestText = await readFile(join(source, 'package.json'), 'utf8').catch(() => {
    throw new Error(`No consumer app "${name}": ${source}/package.json does not exist.`);
  });
  const manifest = JSON.parse(manifestText) as AppManifest;
  const dir = join(CONSUMERS_DIR, name);
  await mkdir(dir, { recursive: true });
  for (const entry of await readdir(dir)) {
    if (!KEPT.has(entry)) await rm(join(dir, entry), { recursive: true, force: true });
  }
  for (const shared of manifest.consumer?.copy ?? []) {
    await cp(join(APPS_DIR, shared), dir, { recursive: true });
  }
  await cp(source, dir, { recursive: true });

  const used = tarballDependencies(manifest);
  await mkdir(join(dir, 'tarballs'), { recursive: true });
  const tarballHashes: string[] = [];
  for (const kind of used) {
    const bytes = await readFile(tarballs[kind]);
    tarballHashes.push(sha256(bytes));
    await writeFile(join(dir, 'tarballs', TARBALL_FILES[kind]), bytes);
  }

  const stampFile = join(dir, '.install-stamp');
  const stamp = await readFile(stampFile, 'utf8').catch(() => '');
  const [depsStamp, tarballStamp] = stamp.split('\n');
  const depsHash = sha256(manifestText);
  const tarballHash = sha256(tarballHashes.join(','));
  const hasModules = (await readdir(join(dir, 'node_modules')).catch(() => [])).length > 0;
  // DOCS_ASSISTANT_CONSUMERS_OMIT_OPTIONAL=1 installs as a user on Node 22.16+ or 24 may
  // (`--omit=optional`): no better-sqlite3 to compile, the service on node:sqlite (.ci/run does).
  const omitOptional =
    process.env.DOCS_ASSISTANT_CONSUMERS_OMIT_OPTIONAL === '1' || manifest.consumer?.omitOptional
      ? ['--omit=optional']
      : [];
  const npmInstall = ['install', '--no-audit', '--no-fund', '--prefer-offline', ...omitOptional];
  if (!hasModules || depsStamp !== depsHash) {
    await rm(join(dir, 'node_modules'), { recursive: true, force: true });
    await rm(join(dir, 'package-lock.json'), { force: true });
    await writeFile(stampFile, '');
    await run('npm', npmInstall, { cwd: dir });
  } else if (tarballStamp !== tarballHash && used.length > 0) {
    await run('npm', [...npmInstall, ...used.map((kind) => `./tarballs/${TARBALL_FILES[kind]}`)], {
      cwd: dir,
    });
  }
  await expectInstalledTarballs(dir, used);
  await writeFile(stampFile, `${depsHash}\n${tarballHash}\n`);
  return dir;
}

/** npm's record of what it installed (`node_modules/.package-lock.json`) must match the tarballs. */
async function expectInstalledTarballs(dir: string, used: (keyof Tarballs)[]): Promise<void> {
  const lock = JSON.parse(await readFile(join(dir, 'node_modules/.package-lock.json'), 'utf8')) as {
    packages: Record<string, { integrity?: string; resolved?: string }>;
  };
  for (const kind of used) {
    const bytes = await readFile(join(dir, 'tarballs', TARBALL_FILES[kind]));
    const integrity = integrityOf(bytes);
    const installed = lock.packages[`node_modules/${TARBALL_PACKAGES[kind]}`];
    if (installed?.integrity !== integrity) {
      throw new Error(
        `${dir}: node_modules/${TARBALL_PACKAGES[kind]} is not the current tarball (installed ${installed?.integrity ?? 'nothing'}, tarball ${integrity}).`,
      );
    }
  }
  // The server depends on `docs-assistant`: it must use the installed widget tarball, never a
  // second copy (from the registry or nested).
  for (const path of Object.keys(lock.packages)) {
    if (/node_modules\/.+\/node_modules\/docs-assistant$/.test(path)) {
      throw new Error(`${dir}: npm installed a second docs-assistant at ${path}.`);
    }
  }
}

// --- the reference service -------------------------------------------------------------------

export interface ReferenceService {
  /** `http://127.0.0.1:<port>` */
  url: string;
  assistantKey: string;
  domain: string;
  /** Everything the service printed so far (for failure messages). */
  output(): string;
  close(): Promise<void>;
}

export interface ReferenceServiceOptions {
  /** Docs folder to answer from. @default FIXTURE_DOCS */
  docs?: string;
  /** @default 'svc_dsc_consumer_matrix_key' */
  assistantKey?: string;
  /** @default the service's default domain */
  domain?: string;
}

/** Longest wait for the service to print its URL (in ms). */
const SERVICE_START_TIMEOUT_MS = 60_000;

/** Stops a child started with `detached: true` and everything it started (its process group). */
export function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      done();
    }
  });
}

/**
 * Runs the installed server package's bin (`<appDir>/node_modules/.bin/docs-assistant serve`) on
 * 127.0.0.1 and a free port. The app must install the server tarball.
 */
export function startReferenceService(
  appDir: string,
  options: ReferenceServiceOptions = {},
): Promise<ReferenceService> {
  const assistantKey = options.assistantKey ?? 'svc_dsc_consumer_matrix_key';
  const args = [
    'serve',
    '--docs',
    options.docs ?? FIXTURE_DOCS,
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--assistant-key',
    assistantKey,
    ...(options.domain ? ['--domain', options.domain] : []),
  ];
  const child = spawn(join(appDir, 'node_modules/.bin/docs-assistant'), args, {
    cwd: appDir,
    env: childEnv(),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolveService, reject) => {
    const timer = setTimeout(() => {
      void stopGroup(child);
      reject(new Error(`docs-assistant serve printed no URL in time:\n${output}`));
    }, SERVICE_START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /URL:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      const domain = /Domain:\s+(\S+)/.exec(output)?.[1];
      if (url && domain) {
        clearTimeout(timer);
        resolveService({
          url,
          assistantKey,
          domain,
          output: () => output,
          close: () => stopGroup(child),
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`docs-assistant serve exited with ${code} before printing its URL:\n${output}`));
    });
  });
}

// --- static files ----------------------------------------------------------------------------

export { type StaticServer, serveStatic } from './static-server';

// --- the browser -----------------------------------------------------------------------------

export interface ConsoleEntry {
  type: 'error' | 'warning';
  text: string;
}

export interface OpenedPage {
  page: Page;
  /** Console errors and warnings, in order. */
  console: ConsoleEntry[];
  /** Uncaught errors and unhandled rejections in the page. */
  pageErrors: Error[];
}

/** Opens `url` in a new page that records console errors/warnings and uncaught page errors. */
export async function openPage(browser: Browser, url: string): Promise<OpenedPage> {
  const page = await browser.newPage();
  const opened: OpenedPage = { page, console: [], pageErrors: [] };
  page.on('console', (message) => {
    const type = message.type();
    if (type === 'error' || type === 'warning') opened.console.push({ type, text: message.text() });
  });
  page.on('pageerror', (error) => opened.pageErrors.push(error));
  recordings.set(page, opened);
  await page.goto(url);
  return opened;
}

/** What `openPage` recorded for each page, for failure messages. */
const recordings = new WeakMap<Page, OpenedPage>();

/**
 * Runs `step`; when it fails, fails with what the page said: uncaught errors, console errors and
 * the widget's own error and launcher text (a widget that cannot load its panel says so there).
 */
async function explained<T>(page: Page, what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const recorded = recordings.get(page);
    const widgetText = await page
      .locator(`${selectors.launcher}, [data-docs-assistant="error"]`)
      .allInnerTexts()
      .catch(() => []);
    const lines = [
      `${what}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      `  page errors: ${recorded ? JSON.stringify(recorded.pageErrors.map(String)) : '(page not opened with openPage)'}`,
      `  console: ${recorded ? JSON.stringify(recorded.console) : '(page not opened with openPage)'}`,
      `  widget says: ${JSON.stringify(widgetText)}`,
    ];
    throw new Error(lines.join('\n'), { cause: error });
  }
}

export interface Answer {
  /** The assistant message's visible text. */
  text: string;
  sources: { href: string; text: string }[];
}

/** Longest wait for an answer to be complete on screen (in ms); two shared cores. */
const ANSWER_TIMEOUT_MS = 30_000;

const selectors = {
  root: '[data-docs-assistant="root"]',
  launcher: '[data-docs-assistant="launcher"]',
  panel: '[data-docs-assistant="panel"]',
  assistant: '[data-docs-assistant="message"][data-role="assistant"]',
  user: '[data-docs-assistant="message"][data-role="user"]',
  source: '[data-docs-assistant="source"]',
} as const;

/** The launcher button, "Ask AI" (exactly: code blocks get "Ask AI about this code" buttons). */
export const assistantLauncher = (page: Page) => page.getByRole('button', { name: 'Ask AI', exact: true });

/** Opens the assistant ("Ask AI") unless its panel is already open; resolves with the question box. */
export async function openAssistant(page: Page) {
  const launcher = assistantLauncher(page);
  await explained(page, 'No "Ask AI" launcher', () => launcher.waitFor({ timeout: ANSWER_TIMEOUT_MS }));
  if ((await page.locator(selectors.panel).count()) === 0) await launcher.click();
  const input = page.getByRole('textbox', { name: /question/i });
  await explained(page, 'The assistant did not open', () => input.waitFor({ timeout: ANSWER_TIMEOUT_MS }));
  return input;
}

/**
 * Opens the assistant, asks `question`, waits until the answer is fully on screen (status ready,
 * the message no longer streaming and none of its Markdown pending) and returns its text and
 * source links. Fails when no answer or no source arrives.
 */
export async function askAndExpectAnswer(page: Page, question: string): Promise<Answer> {
  const input = await openAssistant(page);
  const before = await page.locator(selectors.assistant).count();
  await input.fill(question);
  await input.press('Enter');
  const answer = page.locator(selectors.assistant).nth(before);
  const poll = { timeout: ANSWER_TIMEOUT_MS };
  await explained(page, 'No complete answer with a source', async () => {
    await answer.waitFor({ timeout: ANSWER_TIMEOUT_MS });
    await expect
      .poll(() => page.locator(selectors.root).first().getAttribute('data-status'), poll)
      .toBe('ready');
    await expect.poll(() => answer.getAttribute('data-streaming'), poll).toBeNull();
    await expect.poll(() => answer.locator('[data-pending]').count(), poll).toBe(0);
    await expect.poll(() => answer.locator(selectors.source).count(), poll).toBeGreaterThan(0);
  });
  const sources = await answer
    .locator(selectors.source)
    .evaluateAll((links) =>
      links.map((link) => ({ href: link.getAttribute('href') ?? '', text: link.textContent ?? '' })),
    );
  const text = (await answer.innerText()).trim();
  expect(text.length, 'the answer has text').toBeGreaterThan(20);
  return { text, sources };
}

/**
 * The answer's Markdown was parsed by the widget's worker, bundled by the app's bundler from the
 * installed package, and the worker is still running (one that failed to load or to parse is ended,
 * and the widget parses on the page instead, with no error to see).
 */
export function expectMarkdownWorker(page: Page): void {
  expect(
    page.workers().map((worker) => decodeURIComponent(worker.url())),
    'the Markdown worker runs',
  ).toEqual([expect.stringMatching(/markdown/)]);
}

/**
 * Reloads the page, opens the assistant, and expects the conversation to be there: the question
 * as a user message and the answer's first line in an assistant message.
 */
export async function expectConversationAfterReload(
  page: Page,
  asked: { question: string; answer: Answer },
): Promise<void> {
  await page.reload();
  await openAssistant(page);
  const poll = { timeout: ANSWER_TIMEOUT_MS };
  await expect
    .poll(() => page.locator(selectors.user).allInnerTexts(), poll)
    .toContainEqual(expect.stringContaining(asked.question));
  const firstLine = asked.answer.text.split('\n')[0]!.trim();
  await expect
    .poll(() => page.locator(selectors.assistant).allInnerTexts(), poll)
    .toContainEqual(expect.stringContaining(firstLine));
}
