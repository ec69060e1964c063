/**
 * End to end over real HTTP: the reference service exports this repo's `docs/`, the admin client
 * downloads the bundle, and `serveBundle` serves it the way the Helm chart does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StaticExportJob } from '../../packages/docs-assistant/src/static-export';
import { createStaticExportClient } from '../../packages/docs-assistant/src/static-export';
import { createAssistantService } from '../../packages/docs-assistant-server/src/service';
import { readTarGz } from '../../packages/docs-assistant-server/src/static-export/bundle';
import { serveBundle } from '../../packages/docs-assistant-server/src/static-export/serve-bundle';
import { listen } from './helpers';

const DOCS = fileURLToPath(new URL('../../docs', import.meta.url));
const ADMIN = 'svc_e2e_admin_key_0123456789';

function docsPages(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.mdx?$/.test(entry.name)) {
      out.push(relative(DOCS, resolve(entry.parentPath, entry.name)).split('\\').join('/'));
    }
  }
  return out.sort();
}

const decode = (data: Uint8Array) => new TextDecoder().decode(data);

/** Status of a GET sent with the path exactly as written (fetch would normalise it first). */
function rawStatus(base: string, path: string): Promise<number> {
  const { hostname, port } = new URL(base);
  return new Promise((done, fail) => {
    const req = request({ hostname, port, path, method: 'GET' }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('error', fail);
    req.end();
  });
}

describe("end to end: exporting this repo's docs", () => {
  it('exports, downloads, unpacks and serves every page with links that stay inside the bundle', async () => {
    const sources = docsPages(DOCS);
    // The repo's docs are the corpus of this test: an empty folder is a failure, not a skip.
    expect(
      sources.length,
      `no .md/.mdx pages in ${DOCS}: the end-to-end export has nothing to export`,
    ).toBeGreaterThan(1);

    // Each page waits until the client has seen the previous page's progress, so the test sees
    // every step of the job without depending on timing.
    let seen: () => void = () => {};
    const service = createAssistantService({
      docs: DOCS,
      domain: 'docs-assistant',
      adminKey: ADMIN,
      title: 'docs-assistant',
      staticExport: {
        hooks: {
          beforePage: (_job, index) =>
            index === 0
              ? undefined
              : new Promise<void>((r) => {
                  seen = r;
                }),
        },
      },
    });
    const server = await listen(service.fetch);
    try {
      const client = createStaticExportClient({ baseUrl: server.url, adminKey: ADMIN });
      const progress: StaticExportJob[] = [];
      const { job, bundle } = await client.exportSite({
        domain: 'docs-assistant',
        intervalMs: 2,
        timeoutMs: 60_000,
        onProgress: (update) => {
          progress.push(update);
          seen();
        },
      });
      expect(job.status).toBe('completed');
      expect(job.pageCount).toBe(sources.length + (sources.includes('index.md') ? 0 : 1));
      const percents = progress.map((p) => Number(p.progress));
      expect(percents).toEqual([...percents].sort((a, b) => a - b));
      expect(percents.some((p) => p > 0 && p < 100)).toBe(true);
      expect(
        new Set(progress.filter((p) => p.status === 'running').map((p) => p.pageCount)).size,
      ).toBeGreaterThan(1);
      expect(progress.at(-1)?.progress).toBe(100);

      const archive = await client.downloadBundle(bundle.bundleUrl);
      expect(archive.byteLength).toBe(bundle.sizeBytes);
      const files = new Map(readTarGz(archive).map((e) => [e.path, e.data]));

      // Every docs page is in the bundle.
      for (const source of sources) {
        const html = source.replace(/\.mdx?$/, '.html');
        expect(files.has(html), `${source} → ${html} is missing from the bundle`).toBe(true);
      }
      expect(files.has('index.html')).toBe(true);

      // Every relative link and asset reference resolves to a file of the bundle.
      const docsText = sources.map((s) => readFileSync(resolve(DOCS, s), 'utf8')).join('\n');
      for (const [path, data] of files) {
        if (!path.endsWith('.html')) continue;
        const html = decode(data);
        for (const match of html.matchAll(/<(\w+)[^>]*?\s(href|src)="([^"]*)"/g)) {
          const [, tag, attribute, raw] = match as unknown as [string, string, string, string];
          const url = raw.replace(/&amp;/g, '&');
          if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) {
            // Only plain outbound links the docs themselves contain may name another host; nothing
            // is loaded from one (no src, no stylesheet, no script).
            expect(`${tag} ${attribute}`, `${path}: ${url} would load from another host`).toBe('a href');
            if (/^https?:/i.test(url)) expect(docsText, `${path}: ${url} is not in the docs`).toContain(url);
            continue;
          }
          if (url.startsWith('#') || url === '') continue;
          const target = posix.normalize(posix.join(posix.dirname(path), url.split('#')[0]!.split('?')[0]!));
          expect(files.has(target), `${path}: link ${url} → ${target} is not in the bundle`).toBe(true);
        }
      }
      for (const asset of ['assets/style.css', 'assets/search.js']) {
        expect(decode(files.get(asset)!)).not.toMatch(/https?:\/\/|url\(\s*['"]?\/\//);
      }
      const index = JSON.parse(decode(files.get('search-index.json')!)) as { file: string }[];
      expect(index.map((e) => e.file).sort()).toEqual(
        [...files.keys()].filter((f) => f.endsWith('.html')).sort(),
      );

      // Served as the Helm chart does: fetched from the presigned link at startup.
      const site = await serveBundle({ source: bundle.bundleUrl, port: 0 });
      try {
        const home = await fetch(`${site.url}/`);
        expect(home.status).toBe(200);
        expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(await home.text()).toBe(decode(files.get('index.html')!));
        const page = sources.find((s) => s !== 'index.md')!.replace(/\.mdx?$/, '');
        const extensionless = await fetch(`${site.url}/${page}`);
        expect(extensionless.status).toBe(200);
        expect(await extensionless.text()).toBe(decode(files.get(`${page}.html`)!));
        expect((await fetch(`${site.url}/${page}.html`)).status).toBe(200);
        const css = await fetch(`${site.url}/assets/style.css`);
        expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
        expect((await fetch(`${site.url}/no-such-page`)).status).toBe(404);
        // Dot segments are folded by URL parsing (so they stay inside the bundle); encoded slashes
        // that would climb out after decoding are refused.
        expect(await rawStatus(site.url, '/../../etc/passwd')).toBe(404);
        expect(await rawStatus(site.url, '/assets/..%2f..%2fpackage.json')).toBe(400);
        expect(await rawStatus(site.url, '/assets%5c..%5cpackage.json')).toBe(400);
      } finally {
        await site.close();
      }
    } finally {
      await server.close();
      await service.close();
    }
  });
});
