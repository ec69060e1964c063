/**
 * The widget in a Docusaurus 3 site, from the packed tarballs, the way a docs team adds it: a
 * classic-preset site (latest 3.x, React 19) whose `src/theme/Root.tsx` renders `<DocsAssistant>`
 * around every page. Generates the site in a folder outside the repository, installs it with both
 * tarballs, runs the installed reference service over the fixture docs, `docusaurus build`s the site
 * with the service's address, serves the build and drives it in Chromium: every page renders (no
 * "This page crashed"), no uncaught error or hydration error, and a question gets an answer with a
 * source. Prints the result and how long each step took; exits 1 when a check fails.
 *
 * Too slow for `npm test` (a Docusaurus install and build take minutes); run it by hand:
 *
 *   npx tsx scripts/consumer-docusaurus.ts
 *
 * Environment: `DOCS_ASSISTANT_TARBALLS_DIR` reuses tarballs packed there (else the packages are
 * built and packed), `DOCS_ASSISTANT_DOCUSAURUS_DIR` is the site's folder (kept between runs, so a
 * second run reinstalls only the tarballs) [default: <tmp>/docs-assistant-docusaurus].
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { launchChromium } from '../tests/e2e/browser';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURE_DOCS = join(REPO_ROOT, 'tests/fixtures/docs');
const SITE_DIR = resolve(
  process.env.DOCS_ASSISTANT_DOCUSAURUS_DIR ?? join(tmpdir(), 'docs-assistant-docusaurus'),
);
/** The React the workspace pins (root lockfile), as the other consumers use. */
const REACT_VERSION = '19.3.1';
/** Longest wait for a server to print its address, and for an answer (in ms). */
const WAIT_MS = 60_000;

// --- processes -------------------------------------------------------------------------------

/** This process's environment without npm's and Node's settings of an outer `npm run`. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|NODE_ENV$|NODE_OPTIONS$|INIT_CWD$)/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, FORCE_COLOR: '0', NO_COLOR: '1', NO_UPDATE_NOTIFIER: '1', ...extra };
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return new Promise<string>((done, fail) => {
    const child = spawn(command, args, { cwd, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', fail);
    child.once('close', (code) =>
      code === 0
        ? done(output)
        : fail(new Error(`\`${command} ${args.join(' ')}\` in ${cwd} exited with ${code}:\n${output}`)),
    );
  });
}

interface Server {
  output(): string;
  close(): Promise<void>;
}

/** Starts a long-running command in its own process group; resolves once `ready` matches its output. */
function start(
  command: string,
  args: string[],
  cwd: string,
  ready: RegExp,
  env: Record<string, string> = {},
) {
  const child: ChildProcess = spawn(command, args, {
    cwd,
    env: childEnv(env),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const close = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null || !child.pid) return done();
      child.once('exit', () => done());
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        done();
      }
    });
  return new Promise<Server & { match: RegExpExecArray }>((done, fail) => {
    const timer = setTimeout(() => {
      void close();
      fail(new Error(`\`${command} ${args.join(' ')}\` was not ready in time:\n${output}`));
    }, WAIT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        done({ match, output: () => output, close });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`\`${command} ${args.join(' ')}\` exited with ${code}:\n${output}`));
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? done(address.port) : fail()));
    });
  });
}

// --- the site --------------------------------------------------------------------------------

async function packTarballs(): Promise<{ widget: string; server: string }> {
  const reuse = process.env.DOCS_ASSISTANT_TARBALLS_DIR;
  let dir: string;
  if (reuse) {
    dir = resolve(reuse);
  } else {
    await run('npm', ['run', 'build'], REPO_ROOT, { NODE_ENV: 'production' });
    dir = await mkdtemp(join(tmpdir(), 'docs-assistant-tarballs-'));
    await run(
      'npm',
      ['pack', '-w', 'docs-assistant', '-w', 'docs-assistant-server', '--pack-destination', dir],
      REPO_ROOT,
    );
  }
  const files = await readdir(dir);
  const widget = files.find((file) => /^docs-assistant-\d.*\.tgz$/.test(file));
  const server = files.find((file) => /^docs-assistant-server-\d.*\.tgz$/.test(file));
  if (!widget || !server) {
    throw new Error(`${dir} holds no docs-assistant-<version>.tgz and docs-assistant-server-<version>.tgz.`);
  }
  return { widget: join(dir, widget), server: join(dir, server) };
}

const FILES: Record<string, string> = {
  'package.json': `${JSON.stringify(
    {
      name: 'consumer-docusaurus',
      private: true,
      scripts: { build: 'docusaurus build', serve: 'docusaurus serve' },
      dependencies: {
        '@docusaurus/core': '^3.10.2',
        '@docusaurus/preset-classic': '^3.10.2',
        '@mdx-js/react': '^3.1.0',
        clsx: '^2.1.1',
        'docs-assistant': 'file:tarballs/docs-assistant.tgz',
        'docs-assistant-server': 'file:tarballs/docs-assistant-server.tgz',
        'prism-react-renderer': '^2.4.1',
        react: REACT_VERSION,
        'react-dom': REACT_VERSION,
      },
      devDependencies: {
        '@docusaurus/module-type-aliases': '^3.10.2',
        '@docusaurus/tsconfig': '^3.10.2',
        '@docusaurus/types': '^3.10.2',
        typescript: '5.9.3',
      },
      browserslist: { production: ['>0.5%', 'not dead'], development: ['last 1 chrome version'] },
      engines: { node: '>=20.0' },
    },
    null,
    2,
  )}\n`,
  'tsconfig.json': `${JSON.stringify({ extends: '@docusaurus/tsconfig', compilerOptions: { baseUrl: '.' } }, null, 2)}\n`,
  'docusaurus.config.ts': `import type { Config } from '@docusaurus/types';

const config: Config = {
  title: 'Acme Widgets',
  url: 'http://127.0.0.1',
  baseUrl: '/',
  favicon: 'img/favicon.svg',
  onBrokenLinks: 'throw',
  customFields: {
    assistant: {
      baseUrl: process.env.DOCS_ASSISTANT_URL,
      apiKey: process.env.DOCS_ASSISTANT_KEY,
      domain: process.env.DOCS_ASSISTANT_DOMAIN,
    },
  },
  presets: [
    [
      'classic',
      {
        docs: { routeBasePath: '/' },
        blog: false,
        theme: {},
      },
    ],
  ],
  themeConfig: {
    navbar: {
      title: 'Acme Widgets',
      items: [
        { to: '/', label: 'Getting started', position: 'left' },
        { to: '/theming', label: 'Theming', position: 'left' },
      ],
    },
  },
};

export default config;
`,
  'src/theme/Root.tsx': `import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import { DocsAssistant } from 'docs-assistant';
import 'docs-assistant/styles.css';
import type { ReactNode } from 'react';

interface AssistantConfig {
  baseUrl: string;
  apiKey: string;
  domain: string;
}

export default function Root({ children }: { children: ReactNode }) {
  const { siteConfig } = useDocusaurusContext();
  const assistant = siteConfig.customFields?.assistant as AssistantConfig;
  return (
    <>
      {children}
      <DocsAssistant domain={assistant.domain} apiKey={assistant.apiKey} baseUrl={assistant.baseUrl} />
    </>
  );
}
`,
  'static/img/favicon.svg':
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#4f46e5"/></svg>\n',
  'docs/index.md': `---
slug: /
title: Getting started
---

# Getting started

## Installation

Install the package with npm. It needs Node 20 or later.

\`\`\`bash
npm install acme-widgets
\`\`\`

## First widget

Import the component and render it once near the root of your app.

\`\`\`tsx
import { Widget } from 'acme-widgets';

export function App() {
  return <Widget apiKey="pk_live_123" />;
}
\`\`\`
`,
  'docs/theming.md': `---
title: Theming
---

# Theming

Colours come from CSS variables that the widget reads at run time.

\`\`\`css
:root {
  --acme-accent: #4f46e5;
}
\`\`\`
`,
};

async function writeSite(tarballs: { widget: string; server: string }): Promise<void> {
  await mkdir(SITE_DIR, { recursive: true });
  // node_modules/.cache is webpack's: it takes a package as unchanged while its version is, and
  // every tarball of a working tree is 0.1.0.
  for (const entry of ['docs', 'src', 'static', 'build', '.docusaurus', 'node_modules/.cache']) {
    await rm(join(SITE_DIR, entry), { recursive: true, force: true });
  }
  for (const [path, text] of Object.entries(FILES)) {
    await mkdir(join(SITE_DIR, path, '..'), { recursive: true });
    await writeFile(join(SITE_DIR, path), text);
  }
  await mkdir(join(SITE_DIR, 'tarballs'), { recursive: true });
  await copyFile(tarballs.widget, join(SITE_DIR, 'tarballs/docs-assistant.tgz'));
  await copyFile(tarballs.server, join(SITE_DIR, 'tarballs/docs-assistant-server.tgz'));
}

// --- the browser -----------------------------------------------------------------------------

/** Messages by which React reports a hydration mismatch (production and development). */
const HYDRATION_ERROR = /#418|#423|#425|hydrat|did not match|didn't match/i;

async function askAndExpectAnswer(page: Page, question: string) {
  const input = page.getByRole('textbox', { name: /question/i });
  if (!(await input.isVisible())) await page.getByRole('button', { name: 'Ask AI', exact: true }).click();
  await input.fill(question);
  await input.press('Enter');
  const answer = page.locator('[data-docs-assistant="message"][data-role="assistant"]').last();
  const source = answer.locator('[data-docs-assistant="source"]').first();
  await source.waitFor({ timeout: WAIT_MS });
  // Complete: status ready, the message no longer streaming and none of its Markdown pending.
  await page.waitForFunction(
    () => {
      const root = document.querySelector('[data-docs-assistant="root"]');
      const messages = document.querySelectorAll('[data-docs-assistant="message"][data-role="assistant"]');
      const last = messages[messages.length - 1];
      return (
        root?.getAttribute('data-status') === 'ready' &&
        !!last &&
        !last.hasAttribute('data-streaming') &&
        !last.querySelector('[data-pending]')
      );
    },
    undefined,
    { timeout: WAIT_MS },
  );
  return { text: (await answer.innerText()).trim(), source: await source.getAttribute('href') };
}

// --- main ------------------------------------------------------------------------------------

async function main(): Promise<boolean> {
  const timings: Record<string, number> = {};
  const time = async <T>(name: string, step: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await step();
    } finally {
      timings[name] = Math.round((performance.now() - started) / 100) / 10;
    }
  };
  const failures: string[] = [];
  const check = (ok: boolean, what: string) => {
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
    if (!ok) failures.push(what);
  };
  const servers: Server[] = [];
  try {
    const tarballs = await time('pack', packTarballs);
    await writeSite(tarballs);
    // Naming the tarballs makes npm replace a changed one of the same version.
    await time('install', () =>
      run(
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          './tarballs/docs-assistant.tgz',
          './tarballs/docs-assistant-server.tgz',
        ],
        SITE_DIR,
      ),
    );
    const installed = await run('npm', ['ls', '@docusaurus/core', 'react', '--depth=0'], SITE_DIR);
    console.log(installed.trim());

    const service = await start(
      join(SITE_DIR, 'node_modules/.bin/docs-assistant'),
      ['serve', '--docs', FIXTURE_DOCS, '--port', '0', '--assistant-key', 'svc_dsc_docusaurus_consumer'],
      SITE_DIR,
      /URL:\s+(http:\/\/127\.0\.0\.1:\d+)[\s\S]*Domain:\s+(\S+)/,
    );
    servers.push(service);
    const [, serviceUrl = '', domain = ''] = service.match;

    const buildOutput = await time('build', () =>
      run(join(SITE_DIR, 'node_modules/.bin/docusaurus'), ['build'], SITE_DIR, {
        DOCS_ASSISTANT_URL: serviceUrl,
        DOCS_ASSISTANT_KEY: 'svc_dsc_docusaurus_consumer',
        DOCS_ASSISTANT_DOMAIN: domain,
      }),
    );
    const warnings = buildOutput
      .split('\n')
      .filter((line) => /warn|error|dynamic usage of require/i.test(line));
    check(
      warnings.length === 0,
      `docusaurus build without warnings${warnings.length ? `:\n${warnings.join('\n')}` : ''}`,
    );

    const port = await freePort();
    const site = await start(
      join(SITE_DIR, 'node_modules/.bin/docusaurus'),
      ['serve', '--dir', 'build', '--host', '127.0.0.1', '--port', String(port), '--no-open'],
      SITE_DIR,
      /Serving "build" directory at:\s*(http:\/\/\S+)/,
    );
    servers.push(site);
    const siteUrl = `http://127.0.0.1:${port}`;

    const browser = await launchChromium();
    try {
      await time('browser', async () => {
        for (const path of ['/', '/theming']) {
          const page = await browser.newPage();
          const problems: string[] = [];
          page.on('console', (message) => {
            if (message.type() === 'error' || message.type() === 'warning') {
              problems.push(`console.${message.type()}: ${message.text()}`);
            }
          });
          page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
          page.on('response', (response) => {
            if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
          });
          await page.goto(`${siteUrl}${path}`);
          const html = await (await fetch(`${siteUrl}${path}`)).text();
          check(
            html.includes('data-docs-assistant="launcher"'),
            `${path}: the built HTML holds the launcher`,
          );
          await page.getByRole('heading', { level: 1 }).waitFor({ timeout: WAIT_MS });
          const crashed = await page.getByText('This page crashed').count();
          check(crashed === 0, `${path}: no "This page crashed"`);
          // The launcher answers once React owns the page; by then the widget's effects have run.
          await page.getByRole('button', { name: 'Ask AI', exact: true }).click();
          await page.getByRole('textbox', { name: /question/i }).waitFor({ timeout: WAIT_MS });
          const touched = await page
            .locator('main pre')
            .evaluateAll((pres) => pres.filter((pre) => pre.querySelector('[data-docs-assistant]')).length);
          check(touched === 0, `${path}: code blocks hold nothing of the widget's (${touched} do)`);
          const hydration = problems.filter((line) => HYDRATION_ERROR.test(line));
          check(
            hydration.length === 0,
            `${path}: no hydration error${hydration.length ? `:\n${hydration.join('\n')}` : ''}`,
          );
          if (path === '/') {
            const answer = await askAndExpectAnswer(page, 'How do I install acme-widgets?');
            check(
              answer.text.length > 20 && !!answer.source,
              `${path}: answer with a source (${answer.source})`,
            );
            await page.reload();
            await page.getByRole('button', { name: 'Ask AI', exact: true }).click();
            const kept = page
              .locator('[data-docs-assistant="message"][data-role="user"]')
              .filter({ hasText: 'How do I install acme-widgets?' });
            await kept.first().waitFor({ timeout: WAIT_MS });
            check(true, `${path}: conversation kept after a reload`);
          }
          // Point at a code block: the collector's one button shows over it.
          await page.locator('main pre').first().hover();
          await page.getByRole('button', { name: 'Ask AI about this code' }).waitFor({ timeout: WAIT_MS });
          check(
            problems.length === 0,
            `${path}: silent console${problems.length ? `:\n${problems.join('\n')}` : ''}`,
          );
          await page.close();
        }
      });
    } finally {
      await browser.close();
    }
  } catch (error) {
    failures.push(error instanceof Error ? error.message : String(error));
    console.error(error);
  } finally {
    for (const server of servers) await server.close();
  }
  console.log(`\nSite: ${SITE_DIR}`);
  console.log(
    `Timings (s): ${Object.entries(timings)
      .map(([name, seconds]) => `${name} ${seconds}`)
      .join(', ')}`,
  );
  console.log(failures.length ? `FAILED (${failures.length})` : 'PASSED');
  return failures.length === 0;
}

main().then((ok) => {
  process.exitCode = ok ? 0 : 1;
});
