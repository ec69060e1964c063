/**
 * `npm start`: serves the built demo docs site and the reference service on one origin, on
 * 127.0.0.1, and prints the one URL to open.
 */
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { isAgentRequest } from '../packages/docs-assistant-server/src/agents/routes';
import { isMcpPath } from '../packages/docs-assistant-server/src/mcp/route';
import { createAssistantService } from '../packages/docs-assistant-server/src/service';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Domain the demo registers its docs under. */
export const DEMO_DOMAIN = 'docs-assistant';

/** Key of the demo: assistant keys are public (spec §5), so a fixed one is fine for a local demo. */
export const DEMO_ASSISTANT_KEY = 'svc_dsc_demo_local_only';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
  '.ico': 'image/x-icon',
};

const HTML_HEADERS = { 'Content-Type': CONTENT_TYPES['.html']!, 'Cache-Control': 'no-cache' };

/** demo/embed.html: a static page (no React, no bundler) with the widget's script tag. */
async function embedPage(origin: string): Promise<string> {
  const html = await readFile(join(ROOT, 'demo', 'embed.html'), 'utf8');
  return html
    .replaceAll('%DOMAIN%', DEMO_DOMAIN)
    .replaceAll('%API_KEY%', DEMO_ASSISTANT_KEY)
    .replaceAll('%ORIGIN%', origin);
}

export interface DemoOptions {
  port?: number;
  host?: string;
  docsDir?: string;
  distDir?: string;
  dataDir?: string;
}

export interface RunningDemo {
  url: string;
  close(): Promise<void>;
}

export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  const host = options.host ?? '127.0.0.1';
  const docsDir = options.docsDir ?? join(ROOT, 'docs');
  const distDir = resolve(options.distDir ?? join(ROOT, 'demo', 'dist'));

  let indexHtml: string;
  try {
    indexHtml = await readFile(join(distDir, 'index.html'), 'utf8');
  } catch {
    throw new Error(
      `The demo is not built: ${join(distDir, 'index.html')} is missing. Run \`npm start\`, which builds it.`,
    );
  }

  const service = createAssistantService({
    docs: [docsDir],
    domain: DEMO_DOMAIN,
    assistantKey: DEMO_ASSISTANT_KEY,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });

  let origin = '';
  const page = () =>
    indexHtml.replace(
      '</head>',
      `<script>window.__DOCS_ASSISTANT_DEMO__=${JSON.stringify({
        domain: DEMO_DOMAIN,
        apiKey: DEMO_ASSISTANT_KEY,
        baseUrl: origin,
      })}</script></head>`,
    );

  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    // The service also serves the docs for agents: llms.txt, `.md` pages, `Accept: text/markdown`,
    // and the MCP server at /mcp. Its `/health` lists what it offers (share, feedback): the widget
    // shows those actions only where the service says so, so the site's HTML must not answer it.
    if (
      url.pathname === '/health' ||
      url.pathname.startsWith('/discovery/') ||
      url.pathname.startsWith('/v1/') ||
      isAgentRequest(request) ||
      isMcpPath(url.pathname)
    )
      return service.fetch(request);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('Method not allowed', { status: 405, headers: { Allow: 'GET, HEAD' } });
    }
    // The script build (`GET /embed.js` and its chunks, from the service) and a plain HTML page using it.
    if (url.pathname === '/embed.js' || url.pathname.startsWith('/embed-chunks/'))
      return service.fetch(request);
    if (url.pathname === '/embed.html')
      return new Response(await embedPage(origin), { headers: HTML_HEADERS });
    const asset = await readAsset(distDir, url.pathname);
    if (asset) return asset;
    // Every other path is a docs page rendered client-side.
    return new Response(page(), {
      headers: { 'Content-Type': CONTENT_TYPES['.html']!, 'Cache-Control': 'no-cache' },
    });
  };

  const server = await new Promise<ReturnType<typeof serve>>((resolveServer, reject) => {
    const s = serve({ fetch: handler, port: options.port ?? 4000, hostname: host }, () => resolveServer(s));
    s.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  origin = `http://${host}:${address.port}`;
  return {
    url: `${origin}/`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        void service.close?.();
      }),
  };
}

async function readAsset(distDir: string, pathname: string): Promise<Response | null> {
  if (pathname === '/' || !/\.[a-z0-9]+$/i.test(pathname)) return null;
  const file = normalize(join(distDir, decodeURIComponent(pathname)));
  if (!file.startsWith(distDir + sep)) return null;
  try {
    const body = await readFile(file);
    const ext = file.slice(file.lastIndexOf('.'));
    return new Response(body, {
      headers: {
        'Content-Type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
        'Cache-Control': pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      },
    });
  } catch {
    return null;
  }
}

function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`PORT must be a whole number from 0 to 65535, got ${JSON.stringify(value)}`);
  }
  return port;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const demo = await startDemo({
      port: parsePort(process.env.PORT) ?? 4000,
      host: process.env.HOST ?? '127.0.0.1',
    });
    console.log(`\n  docs-assistant demo: ${demo.url}\n`);
    console.log('  Open it, press Ctrl+I (⌘I on macOS) or click "Ask AI". Ctrl+C stops it.\n');
    const stop = () => void demo.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      console.error(`The port is in use. Start the demo on another one: PORT=4001 npm start`);
    } else {
      console.error(error instanceof Error ? error.message : error);
    }
    process.exit(1);
  }
}
