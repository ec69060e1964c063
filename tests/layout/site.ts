/**
 * The site the layout test reads: the widget package built by its own configs (the library build
 * and the script build, as `npm run build -w docs-assistant` makes `dist/`, written under
 * tests/.artifacts so the shared `dist/` is left alone), two docs pages bundled against that build
 * (page/react-page.tsx, page/embed-page.ts), and the real reference service answering on the same
 * origin on 127.0.0.1.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { Browser } from 'playwright-core';
import { mountEmbedRoutes } from '../../packages/docs-assistant-server/src/embed';
import { launchChromium } from '../e2e/browser';
import { authHeaders, body, DOMAIN, parseStream, startService } from '../server/helpers';

const REPO = resolve(import.meta.dirname, '../..');
const WIDGET = join(REPO, 'packages/docs-assistant');
const VITE = join(REPO, 'node_modules/vite/bin/vite.js');
const run = promisify(execFile);

export interface LayoutSite {
  origin: string;
  browser: Browser;
  /** A shared conversation on the service (`?assistant-share=<id>` opens it). */
  shareId: string;
  close(): Promise<void>;
}

/** `vite build` in a process of its own, as a production build. */
async function viteBuild(cwd: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  await run(process.execPath, [VITE, 'build', '--logLevel', 'error', ...args], {
    cwd,
    env: { ...process.env, NODE_ENV: 'production', ...env },
  });
}

/**
 * The widget's sources at a commit (`git archive`), for measuring what main had rather than the
 * working tree (LAYOUT_SOURCE=HEAD): a working tree shared with others may be mid-edit. Dependencies
 * still resolve from the repository's node_modules, up the folder tree.
 */
async function sourcesAt(revision: string, dir: string): Promise<string> {
  const out = join(dir, 'source');
  await mkdir(out, { recursive: true });
  const archive = join(dir, 'source.tar');
  await run('git', ['archive', '--output', archive, revision, 'packages/docs-assistant'], { cwd: REPO });
  await run('tar', ['-xf', archive, '-C', out]);
  return join(out, 'packages/docs-assistant');
}

/**
 * Builds the package into `<dir>/package/dist` (the library, then the script build into
 * `dist/embed`, as the package's `build` script does) and the pages into `<dir>/pages/dist`.
 * `revision`: build the sources of that commit instead of the working tree.
 */
export async function buildSite(dir: string, revision?: string): Promise<{ pages: string; embed: string }> {
  const pkg = join(dir, 'package');
  const pages = join(dir, 'pages');
  await rm(dir, { recursive: true, force: true });
  await mkdir(pages, { recursive: true });
  const widget = revision ? await sourcesAt(revision, dir) : WIDGET;
  await viteBuild(widget, ['--outDir', join(pkg, 'dist')]);
  const embed = join(pkg, 'dist/embed');
  await viteBuild(widget, ['-c', 'vite.embed.config.ts'], { DOCS_ASSISTANT_EMBED_OUT: embed });
  const template = readFileSync(join(import.meta.dirname, 'page/host.html'), 'utf8');
  for (const [name, script] of [
    ['react.html', 'react-page.tsx'],
    ['embed.html', 'embed-page.ts'],
  ]) {
    const src = relative(pages, join(import.meta.dirname, 'page', script!));
    writeFileSync(join(pages, name!), template.replace('./PAGE_SCRIPT', src));
  }
  await viteBuild(REPO, ['--config', join(import.meta.dirname, 'page/vite.config.ts')], {
    LAYOUT_PAGES: pages,
    LAYOUT_PACKAGE: pkg,
  });
  return { pages: join(pages, 'dist'), embed };
}

/** Asks the service one question and shares the thread, as the widget's "Share" does. */
async function shareConversation(url: string): Promise<string> {
  const api = `${url}/discovery/v1/assistant/${DOMAIN}`;
  const asked = await fetch(`${api}/message`, {
    method: 'POST',
    headers: authHeaders(),
    body: JSON.stringify(body('How do I change the colours?')),
  });
  const { threadId, threadKey } = parseStream(await asked.text()).finish ?? {};
  if (!threadId || !threadKey) throw new Error('the reference service started no thread to share');
  const shared = await fetch(`${api}/threads/${threadId}/share`, {
    method: 'POST',
    headers: authHeaders(),
    body: JSON.stringify({ fp: 'anonymous', threadKey }),
  });
  if (shared.status !== 201) throw new Error(`sharing a thread answered ${shared.status}`);
  return ((await shared.json()) as { shareId: string }).shareId;
}

export async function startLayoutSite(dir: string, revision?: string): Promise<LayoutSite> {
  const built = await buildSite(dir, revision);
  const service = await startService();
  const app = new Hono();
  mountEmbedRoutes(app, built.embed);
  app.all('/discovery/*', (c) => service.service.fetch(c.req.raw));
  app.get('/health', (c) => service.service.fetch(c.req.raw));
  app.use('/*', serveStatic({ root: relative(process.cwd(), built.pages) }));
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((done) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      done({ server, port: info.port }),
    );
  });
  const closeServers = async () => {
    await new Promise<void>((done) => {
      if ('closeAllConnections' in server) server.closeAllConnections();
      server.close(() => done());
    });
    await service.close();
  };
  let browser: Browser;
  let shareId: string;
  try {
    shareId = await shareConversation(service.url);
    browser = await launchChromium();
  } catch (error) {
    await closeServers();
    throw error;
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    browser,
    shareId,
    close: async () => {
      await browser.close();
      await closeServers();
    },
  };
}
