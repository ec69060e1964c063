/**
 * The script build as a site would use it: `docs-assistant/embed` built by its own config
 * (packages/docs-assistant/vite.embed.config.ts, React or Preact) into tests/.artifacts, served at
 * `GET /embed.js` and `/embed-chunks/*` by the service's own embed routes, with the real reference
 * service (tests/server/helpers) answering on the same origin, beside plain HTML pages the tests
 * register (no React, no bundler on the page), each with the headers it wants (a CSP).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { Browser } from 'playwright-core';
import { mountEmbedRoutes } from '../../packages/docs-assistant-server/src/embed';
import { buildEmbed, EMBED_FLAVOURS, type EmbedFlavour } from '../../scripts/embed-size';
import { launchChromium } from '../e2e/browser';
import { ASSISTANT_KEY, DOMAIN, type RunningService, startService } from '../server/helpers';

const repo = resolve(import.meta.dirname, '../..');
export const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Builds the script build into tests/.artifacts/embed-<flavour> (not dist/: nothing shared is touched). */
async function buildInto(flavour: EmbedFlavour): Promise<string> {
  const out = resolve(repo, `tests/.artifacts/embed-${flavour}`);
  mkdirSync(out, { recursive: true });
  await buildEmbed(out, flavour);
  if (!existsSync(resolve(out, 'embed.js'))) throw new Error(`the embed build wrote no ${out}/embed.js`);
  return out;
}

export interface Page {
  html: string;
  headers?: Record<string, string>;
}

export interface EmbedSite {
  origin: string;
  browser: Browser;
  /** Serves `html` at `path` (and `.js`/`.css` files the pages load). */
  page(path: string, body: Page | string, type?: string): void;
  close(): Promise<void>;
}

export async function startEmbedSite(flavour: EmbedFlavour): Promise<EmbedSite> {
  const directory = await buildInto(flavour);
  const service: RunningService = await startService();
  const pages = new Map<string, { body: string; type: string; headers: Record<string, string> }>();
  const app = new Hono();
  // As the reference service serves them (its assistant CORS): a module script from another origin
  // is fetched with CORS.
  app.use('/embed*', cors({ origin: '*' }));
  mountEmbedRoutes(app, directory);
  app.all('/discovery/*', (c) => service.service.fetch(c.req.raw));
  app.get('*', (c) => {
    const found = pages.get(c.req.path);
    if (!found) return c.text('not found', 404);
    return new Response(found.body, { headers: { 'Content-Type': found.type, ...found.headers } });
  });
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>((done) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      done({ server, port: info.port }),
    );
  });
  const browser = await launchChromium();
  return {
    origin: `http://127.0.0.1:${port}`,
    browser,
    page(path, body, type = 'text/html; charset=utf-8') {
      const page = typeof body === 'string' ? { html: body } : body;
      pages.set(path, { body: page.html, type, headers: page.headers ?? {} });
    },
    async close() {
      await browser.close();
      await new Promise<void>((done) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => done());
      });
      await service.close();
    },
  };
}

/** The attributes every test page gives `<docs-assistant>`. */
export const elementAttributes = (origin: string, extra = '') =>
  `domain="${DOMAIN}" api-key="${ASSISTANT_KEY}" base-url="${origin}" theme="light" storage="memory" ${extra}`.trim();

export { ASSISTANT_KEY, DOMAIN, EMBED_FLAVOURS, type EmbedFlavour };
