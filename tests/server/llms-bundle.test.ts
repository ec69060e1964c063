/**
 * The static export carries the docs for agents: a bundle exported by the real service (job API
 * over HTTP) holds `llms.txt`, `llms-full.txt` (per language) and every page as `.md`, with links
 * relative to the file they are in; `serve-bundle` serves them as `text/markdown; charset=utf-8`,
 * every link of its `llms.txt` answers, and a page URL with `Accept: text/markdown` is its Markdown.
 */
import { readTarGz } from '../../packages/docs-assistant-server/src/static-export/bundle';
import {
  type ServedBundle,
  serveBundle,
} from '../../packages/docs-assistant-server/src/static-export/serve-bundle';
import { type RunningService, startService } from './helpers';
import { parseLlmsTxt } from './llms-format';
import { corpusDir } from './sites-corpora';

const ADMIN_KEY = 'svc_llms_admin';
const MARKDOWN = 'text/markdown; charset=utf-8';
const admin = { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' };

let running: RunningService;
let bundleUrl: string;
let files: Map<string, string>;
let site: ServedBundle;

beforeAll(async () => {
  running = await startService({ docs: [corpusDir('mintlify')], title: 'Lumen', adminKey: ADMIN_KEY });
  const start = await fetch(`${running.url}/v1/static-export/jobs`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ domain: 'acme' }),
  });
  expect(start.status).toBe(202);
  const { jobId } = await start.json();
  let status = '';
  // Bounded: the corpus renders in well under a second.
  for (let i = 0; i < 1000 && status !== 'completed' && status !== 'failed'; i++) {
    if (i) await new Promise((resolve) => setTimeout(resolve, 10));
    status = (await (await fetch(`${running.url}/v1/static-export/jobs/${jobId}`, { headers: admin })).json())
      .status;
  }
  expect(status).toBe('completed');
  bundleUrl = (
    await (
      await fetch(`${running.url}/v1/static-export/jobs/${jobId}/bundle`, { method: 'POST', headers: admin })
    ).json()
  ).bundleUrl;
  const download = await fetch(bundleUrl);
  files = new Map(
    readTarGz(new Uint8Array(await download.arrayBuffer())).map((e) => [
      e.path,
      new TextDecoder().decode(e.data),
    ]),
  );
  site = await serveBundle({ source: bundleUrl, port: 0 });
});

afterAll(async () => {
  await site?.close();
  await running?.close();
});

describe('the exported bundle', () => {
  it('holds llms.txt and llms-full.txt per language and every indexed page as .md beside its HTML', async () => {
    for (const file of ['llms.txt', 'llms-full.txt', 'fr/llms.txt', 'fr/llms-full.txt', 'es/llms.txt']) {
      expect(files.has(file), file).toBe(true);
    }
    const index = await running.service.index('acme');
    for (const page of index.pages) {
      const file = page.path === '/' ? 'index.md' : `${page.path.slice(1)}.md`;
      expect(files.has(file), file).toBe(true);
      expect(files.get(file)).not.toMatch(/<Note>|^---\ntitle:/m);
    }
    // Links are relative to the file, so the bundle works from any folder.
    const llms = parseLlmsTxt(files.get('llms.txt')!);
    for (const link of llms.sections.flatMap((s) => s.links)) expect(link.url).not.toMatch(/^(\/|[a-z]+:)/);
    expect(files.get('guides/webhooks.md')!.split('\n')[0]).toContain('(../llms.txt)');
  });

  it('serve-bundle serves llms.txt by the format, and every link as text/markdown', async () => {
    const response = await fetch(`${site.url}/llms.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(MARKDOWN);
    const text = await response.text();
    const llms = parseLlmsTxt(text);
    expect(llms.name).toBe('Lumen');
    expect(llms.sections.map((s) => s.name)).toEqual(['Get started', 'Guides', 'API', 'Other languages']);
    const fullLink = /\]\(([^)]*llms-full\.txt)\)/.exec(text)![1]!;
    for (const url of [...llms.sections.flatMap((s) => s.links).map((l) => l.url), fullLink]) {
      const linked = await fetch(new URL(url, `${site.url}/llms.txt`));
      expect(linked.status, url).toBe(200);
      expect(linked.headers.get('content-type'), url).toBe(MARKDOWN);
      await linked.body?.cancel();
    }
  });

  it('llms-full.txt in the bundle holds every navigation page once, as the service has it', async () => {
    const served = await (await fetch(`${site.url}/llms-full.txt`)).text();
    const fromService = await (await fetch(`${running.url}/llms-full.txt`)).text();
    const sources = (text: string) =>
      [...text.matchAll(/^Source: (\S+)$/gm)].map((m) => m[1]!.replace(/^(.*?\/\/[^/]+)?\//, ''));
    expect(sources(served)).toEqual(sources(fromService));
    expect(new Set(sources(served)).size).toBe(sources(served).length);
  });

  it('a page URL with Accept: text/markdown is its Markdown; HTML stays the default', async () => {
    const markdown = await fetch(`${site.url}/guides/webhooks`, { headers: { Accept: 'text/markdown' } });
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get('content-type')).toBe(MARKDOWN);
    expect(await markdown.text()).toBe(files.get('guides/webhooks.md'));
    const html = await fetch(`${site.url}/guides/webhooks`);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    await html.body?.cancel();
    const missing = await fetch(`${site.url}/guides/nope.md`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('llms.txt at the bundle');
  });
});
