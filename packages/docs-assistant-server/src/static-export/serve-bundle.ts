/**
 * What the Helm chart does with `staticExport.bundleUrl`: fetch the bundle at startup, unpack it
 * in memory (streamed, within the caps of `BundleLimits`, see `bundle-reader.ts`) and serve it as
 * the active version; a bundle over a cap, or a download that stalls, stops start-up with an error. Extensionless URLs resolve to their `.html` file,
 * `/` to `index.html`, a folder (`/guides`) redirects to `/guides/` and serves its `index.html`, so
 * the page's relative links resolve from the folder; paths that try to leave the bundle are refused.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { acceptsMarkdown } from '../agents/accept.js';
import {
  BundleError,
  type BundleLimits,
  downloadBundle,
  readBundleFile,
  resolveBundleLimits,
  shownUrl,
  unpackBundle,
} from './bundle-reader.js';

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
};

export interface LoadBundleOptions extends Partial<BundleLimits> {
  fetch?: typeof fetch;
}

/**
 * Reads a bundle from an http(s) URL or a file, streaming it through gunzip and the tar reader
 * within the caps of `BundleLimits`; throws a clear error when it cannot or when a cap is hit.
 */
export async function loadBundle(
  source: string,
  options: LoadBundleOptions | typeof fetch = {},
): Promise<Map<string, Uint8Array>> {
  const { fetch: fetchImpl, ...limitOptions } = typeof options === 'function' ? { fetch: options } : options;
  const limits = resolveBundleLimits(limitOptions);
  const remote = /^https?:\/\//i.test(source);
  let files: Map<string, Uint8Array>;
  try {
    files = await unpackBundle(
      remote ? downloadBundle(source, limits, fetchImpl) : readBundleFile(source, limits),
      limits,
    );
  } catch (error) {
    const message = (error as Error).message;
    if (!(error instanceof BundleError)) {
      throw new Error(
        remote
          ? `cannot fetch the bundle from ${shownUrl(source)}: ${message}`
          : `cannot read the bundle file ${source}: ${message}`,
      );
    }
    // Refusals of the content say so; those of the transfer already name the URL or file.
    if (/^(not a gzip|corrupt tar|truncated tar|unsafe bundle)/.test(message)) {
      throw new Error(`the bundle cannot be unpacked: ${message}`);
    }
    throw error;
  }
  if (!files.has('index.html'))
    throw new Error('the bundle has no index.html; is it a static export bundle?');
  return files;
}

const notFound = (files: ReadonlyMap<string, Uint8Array>): Response => {
  const page = files.get('404.html');
  return page
    ? new Response(new Uint8Array(page), { status: 404, headers: { 'Content-Type': CONTENT_TYPES.html! } })
    : new Response('Not found\n', { status: 404, headers: { 'Content-Type': CONTENT_TYPES.txt! } });
};

/** A fetch handler serving the unpacked bundle. */
export function createBundleSiteHandler(
  files: ReadonlyMap<string, Uint8Array>,
): (request: Request) => Response {
  return (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('Method not allowed\n', { status: 405, headers: { Allow: 'GET, HEAD' } });
    }
    const raw = new URL(request.url).pathname;
    let path: string;
    try {
      path = decodeURIComponent(raw);
    } catch {
      return new Response('Bad request: malformed path\n', { status: 400 });
    }
    const segments = path.split('/').filter(Boolean);
    // URL parsing already folds `/../`; encoded or backslashed forms arrive here and are refused.
    if (segments.some((s) => s === '..' || s === '.') || path.includes('\\') || path.includes('\0')) {
      return new Response('Bad request: the path leaves the bundle\n', { status: 400 });
    }
    const key = segments.join('/');
    // A page's Markdown for `Accept: text/markdown` (agents/bundle.ts writes it beside the HTML).
    const markdown = acceptsMarkdown(request.headers.get('accept'));
    const candidates = markdown
      ? [key === '' ? 'index.md' : `${key}.md`, key]
      : key === ''
        ? ['index.html']
        : path.endsWith('/')
          ? [`${key}/index.html`]
          : [key, `${key}.html`, `${key}/index.html`];
    for (const candidate of candidates) {
      const data = files.get(candidate);
      if (!data) continue;
      if (candidate === `${key}/index.html` && !path.endsWith('/')) {
        // Served at `/guides`, the page's relative links (`setup.html`) would resolve from `/`.
        const url = new URL(request.url);
        return new Response(null, { status: 308, headers: { Location: `${url.pathname}/${url.search}` } });
      }
      const ext = candidate.slice(candidate.lastIndexOf('.') + 1).toLowerCase();
      const llms = /(^|\/)llms(-full)?\.txt$/.test(candidate);
      const headers = {
        'Content-Type': llms ? CONTENT_TYPES.md! : (CONTENT_TYPES[ext] ?? 'application/octet-stream'),
        // A page's URL answers HTML or Markdown by `Accept`: caches must keep both apart.
        ...(markdown || ext === 'html' || ext === 'md' ? { Vary: 'Accept' } : {}),
        'Content-Length': String(data.byteLength),
        'X-Content-Type-Options': 'nosniff',
      };
      return new Response(request.method === 'HEAD' ? null : new Uint8Array(data), { headers });
    }
    if (markdown || key.endsWith('.md')) {
      return new Response(
        `No page at ${raw} in this bundle; llms.txt at the bundle's root lists every page with its Markdown URL.\n`,
        { status: 404, headers: { 'Content-Type': CONTENT_TYPES.txt! } },
      );
    }
    return notFound(files);
  };
}

export interface ServeBundleOptions {
  /** An http(s) URL (a presigned bundleUrl) or a file path. */
  source: string;
  /** @default 8080 */
  port?: number;
  /** @default 127.0.0.1 */
  host?: string;
  fetch?: typeof fetch;
  /** Caps on the bundle and timeouts of its download. @default DEFAULT_BUNDLE_LIMITS */
  limits?: Partial<BundleLimits>;
}

export interface ServedBundle {
  url: string;
  fileCount: number;
  close: () => Promise<void>;
}

/** Fetches and unpacks the bundle, then serves it. Rejects (serving nothing) when the bundle is bad. */
export async function serveBundle(options: ServeBundleOptions): Promise<ServedBundle> {
  const files = await loadBundle(options.source, {
    ...options.limits,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const handler = createBundleSiteHandler(files);
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: handler, port: options.port ?? 8080, hostname: host },
      (info: AddressInfo) => {
        const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
        resolve({
          url: `http://${shownHost}:${info.port}`,
          fileCount: files.size,
          close: () =>
            new Promise<void>((done) => {
              server.close(() => done());
              if ('closeAllConnections' in server) server.closeAllConnections();
            }),
        });
      },
    );
    server.once('error', reject);
  });
}
