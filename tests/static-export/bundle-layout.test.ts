/**
 * The bundle as the real service lays it out, end to end over real HTTP on 127.0.0.1: the start
 * body of the real service's example (a hostname `domain`, `paths` without a leading slash), a
 * presigned link that names `bundle.tar.gz`, pages as `.html` files linked by their `.html` URLs,
 * canonical and sitemap URLs without the extension, and `serve-bundle` answering both URL forms.
 */
import { readTarGz } from '../../packages/docs-assistant-server/src/static-export/bundle';
import { serveBundle } from '../../packages/docs-assistant-server/src/static-export/serve-bundle';
import { type RunningService, startService } from '../server/helpers';
import { ADMIN_KEY, FIXTURE_DOCS } from './helpers';

const SITE = 'https://docs.acme.example';

let running: RunningService;
beforeAll(async () => {
  running = await startService({ docs: FIXTURE_DOCS, domain: 'acme', adminKey: ADMIN_KEY, siteUrl: SITE });
});
afterAll(() => running.close());

const admin = { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' };

/** Starts a job, waits for it, and returns its presigned link and the unpacked files. */
async function exportBundle(body: unknown) {
  const start = await fetch(`${running.url}/v1/static-export/jobs`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify(body),
  });
  expect(start.status).toBe(202);
  const { jobId } = await start.json();
  let status = '';
  // Bounded: the fixture docs render in well under a second.
  for (let i = 0; i < 500 && status !== 'completed' && status !== 'failed'; i++) {
    if (i) await new Promise((resolve) => setTimeout(resolve, 10));
    status = (await (await fetch(`${running.url}/v1/static-export/jobs/${jobId}`, { headers: admin })).json())
      .status;
  }
  expect(status).toBe('completed');
  const { bundleUrl } = await (
    await fetch(`${running.url}/v1/static-export/jobs/${jobId}/bundle`, { method: 'POST', headers: admin })
  ).json();
  const download = await fetch(bundleUrl);
  expect(download.status).toBe(200);
  const entries = readTarGz(new Uint8Array(await download.arrayBuffer()));
  const files = new Map(entries.map((entry) => [entry.path, new TextDecoder().decode(entry.data)]));
  return { bundleUrl: bundleUrl as string, files };
}

/** The targets of a page's links, resolved against where the page lives on a static host. */
function linkTargets(html: string, file: string): string[] {
  const base = `https://host.invalid/${file}`;
  return [...html.matchAll(/<a [^>]*href="([^"]+)"/g)]
    .map((match) => match[1]!)
    .filter((href) => !/^[a-z]+:/i.test(href) && !href.startsWith('#'))
    .map((href) => {
      const url = new URL(href, base);
      return url.pathname + url.hash;
    });
}

describe('static export bundle layout', () => {
  it('takes the real example start body and names the archive bundle.tar.gz', async () => {
    const { bundleUrl, files } = await exportBundle({
      domain: 'docs.acme.example',
      paths: ['index', 'guides/setup'],
    });
    expect(new URL(bundleUrl).pathname).toMatch(/\/bundle\.tar\.gz$/);
    // The two pages asked for, and nothing else of the docs.
    const pages = [...files.keys()].filter((path) => path.endsWith('.html')).sort();
    expect(pages).toEqual(['guides/setup.html', 'index.html']);
  });

  it('writes pages as .html files linked by .html URLs, with extensionless canonical and sitemap URLs', async () => {
    const { files } = await exportBundle({ domain: 'acme' });
    expect([...files.keys()].filter((path) => path.endsWith('.html')).sort()).toEqual([
      'api.html',
      'guides/deploy.html',
      'guides/index.html',
      'guides/setup.html',
      'index.html',
    ]);

    const home = files.get('index.html')!;
    const fromHome = linkTargets(home, 'index.html');
    // `/guides/setup` in the Markdown is `/guides/setup.html` in the bundle; `./api.md#endpoints` too.
    expect(fromHome).toContain('/guides/setup.html');
    expect(fromHome).toContain('/api.html#endpoints');
    expect(fromHome).toContain('/guides/index.html');
    const fromGuide = linkTargets(files.get('guides/index.html')!, 'guides/index.html');
    expect(fromGuide).toContain('/guides/deploy.html');
    // Every link between pages names a file of the bundle.
    for (const [file, html] of files) {
      if (!file.endsWith('.html')) continue;
      for (const target of linkTargets(html, file)) {
        const path = target.split('#')[0]!.slice(1);
        if (path.startsWith('img/')) continue;
        expect(files.has(path), `${file} links to ${target}`).toBe(true);
      }
    }

    expect(home).toContain(`<link rel="canonical" href="${SITE}/">`);
    expect(files.get('guides/setup.html')).toContain(`<link rel="canonical" href="${SITE}/guides/setup">`);
    expect(files.get('guides/index.html')).toContain(`<link rel="canonical" href="${SITE}/guides">`);
    const sitemap = files.get('sitemap.xml')!;
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]).sort();
    expect(locs).toEqual([
      `${SITE}/`,
      `${SITE}/api`,
      `${SITE}/guides`,
      `${SITE}/guides/deploy`,
      `${SITE}/guides/setup`,
    ]);
    expect(sitemap).not.toContain('.html');
  });

  it('serve-bundle serves the .html URLs and the extensionless ones alike', async () => {
    const { bundleUrl } = await exportBundle({ domain: 'acme' });
    const site = await serveBundle({ source: bundleUrl, port: 0 });
    try {
      for (const [extensionless, file] of [
        ['/guides/setup', '/guides/setup.html'],
        ['/guides/', '/guides/index.html'],
        ['/', '/index.html'],
      ] as const) {
        const a = await fetch(`${site.url}${extensionless}`);
        const b = await fetch(`${site.url}${file}`);
        expect([a.status, b.status]).toEqual([200, 200]);
        expect(a.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(await a.text()).toBe(await b.text());
      }
      // A folder without its slash redirects, so the index page's relative links resolve from it.
      const folder = await fetch(`${site.url}/guides?x=1`, { redirect: 'manual' });
      expect(folder.status).toBe(308);
      expect(folder.headers.get('location')).toBe('/guides/?x=1');
      const followed = await fetch(`${site.url}/guides`);
      expect(followed.url).toBe(`${site.url}/guides/`);
      const setupLink = /href="([^"]*setup\.html)"/.exec(await followed.text())?.[1];
      expect(new URL(setupLink!, followed.url).pathname).toBe('/guides/setup.html');
      const sitemap = await fetch(`${site.url}/sitemap.xml`);
      expect(sitemap.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      expect((await fetch(`${site.url}/guides/nowhere`)).status).toBe(404);
    } finally {
      await site.close();
    }
  });
});
