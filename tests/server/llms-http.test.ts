/**
 * The reference service's docs for agents over real HTTP on 127.0.0.1: `llms.txt` parsed by the
 * format's rules with every link fetched (200, `text/markdown`), `llms-full.txt` holding every
 * navigation page once in navigation order, one pair per language, `.md` pages and
 * `Accept: text/markdown` on page URLs, the domain chosen by host, and bad paths answered 404
 * with a message that says what to ask for.
 */
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { navigationPages } from '../../packages/docs-assistant-server/src/agents';
import { acceptsMarkdown, isAgentRequest } from '../../packages/docs-assistant-server/src/agents/routes';
import { type RunningService, startService } from './helpers';
import { type LlmsFile, parseLlmsTxt } from './llms-format';
import { MDX_FIXTURES } from './mdx-fixtures';
import { corpusDir } from './sites-corpora';

const MARKDOWN = 'text/markdown; charset=utf-8';

/** A GET with the raw path as given (no URL normalisation) and any headers, Host included. */
function rawGet(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function getMarkdown(url: string, init?: RequestInit): Promise<string> {
  const response = await fetch(url, init);
  expect(response.status, url).toBe(200);
  expect(response.headers.get('content-type'), url).toBe(MARKDOWN);
  return response.text();
}

describe('llms.txt, llms-full.txt and .md pages of a Mintlify site (languages, versions, groups)', () => {
  let running: RunningService;
  beforeAll(async () => {
    running = await startService({ docs: [corpusDir('mintlify')], title: 'Lumen' });
  });
  afterAll(() => running.close());

  it('llms.txt follows the format; every link answers 200 text/markdown', async () => {
    const text = await getMarkdown(`${running.url}/llms.txt`);
    const llms: LlmsFile = parseLlmsTxt(text);
    expect(llms.name).toBe('Lumen');
    expect(llms.summary).toBeTruthy();
    // H2 sections from the navigation's groups, in its order, then the other languages.
    expect(llms.sections.map((s) => s.name)).toEqual(['Get started', 'Guides', 'API', 'Other languages']);
    const index = await running.service.index('acme');
    const listed = llms.sections.slice(0, 3).flatMap((s) => s.links);
    const expected = navigationPages(index);
    expect(listed.map((link) => link.title)).toEqual(expected.map((page) => page.title));
    // Without a siteUrl, links are root-relative: never built from the request's Host.
    expect(listed.map((link) => link.url)).toEqual(expected.map((page) => `${page.path}.md`));
    // Descriptions are the pages' own.
    expect(listed[0]!.notes).toBe(expected[0]!.description);
    // The default version only: v1 pages are served, not listed.
    expect(listed.some((link) => link.url.includes('/v1/'))).toBe(false);
    const links = [
      ...llms.sections.flatMap((s) => s.links),
      { url: text.match(/\]\(([^)]*llms-full\.txt)\)/)![1]! },
    ];
    for (const link of links) {
      const body = await getMarkdown(new URL(link.url, `${running.url}/llms.txt`).href);
      expect(body.trim().length).toBeGreaterThan(0);
    }
  });

  it('llms-full.txt holds every navigation page of the language once, in navigation order', async () => {
    const full = await getMarkdown(`${running.url}/llms-full.txt`);
    const index = await running.service.index('acme');
    const expected = navigationPages(index).map((page) => `${page.path}.md`);
    const sources = [...full.matchAll(/^Source: (\S+)$/gm)].map((m) => m[1]);
    expect(sources).toEqual(expected);
    expect(new Set(sources).size).toBe(sources.length);
    // Each page's text is there; no pointer line per page, no MDX.
    expect(full).toContain('Lumen sends `index.completed` when a build finishes');
    expect(full).not.toContain('<Note>');
    expect(full).not.toMatch(/^---\ntitle:/m);
  });

  it('each language has its pair: /fr/llms.txt lists the French pages, /fr/llms-full.txt holds them', async () => {
    const fr = parseLlmsTxt(await getMarkdown(`${running.url}/fr/llms.txt`));
    const links = fr.sections.filter((s) => s.name !== 'Other languages').flatMap((s) => s.links);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link.url).toMatch(/^\/fr\//);
    expect(links.map((l) => l.title)).toContain('Démarrage rapide');
    const others = fr.sections.find((s) => s.name === 'Other languages')!.links.map((l) => l.url);
    expect(others).toEqual(['/llms.txt', '/es/llms.txt']);
    const full = await getMarkdown(`${running.url}/fr/llms-full.txt`);
    const sources = [...full.matchAll(/^Source: (\S+)$/gm)].map((m) => m[1]);
    expect(sources).toEqual(links.map((l) => l.url));
    // A French page points at the French llms.txt.
    const page = await getMarkdown(`${running.url}/fr/quickstart.md`);
    expect(page.split('\n')[0]).toContain('(/fr/llms.txt)');
  });

  it('a page at its URL with Accept: text/markdown is the same Markdown as its .md URL', async () => {
    const byExtension = await getMarkdown(`${running.url}/guides/webhooks.md`);
    const response = await fetch(`${running.url}/guides/webhooks`, {
      headers: { Accept: 'text/markdown, text/html;q=0.9' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(MARKDOWN);
    expect(response.headers.get('vary')).toBe('Accept');
    expect(await response.text()).toBe(byExtension);
    expect(byExtension).toMatch(
      /^> .*\n\n# Webhooks\n\nGet notified when an index build finishes\.\n\n> \*\*Note:\*\* Webhooks send/,
    );
    // HTML preferred, or no Accept: not Markdown (the service has no HTML page there: its 404).
    const html = await fetch(`${running.url}/guides/webhooks`, {
      headers: { Accept: 'text/html, text/markdown;q=0.5' },
    });
    expect(html.status).toBe(404);
    expect(html.headers.get('content-type')).toMatch(/^application\/json/);
    await html.body?.cancel();
  });

  it('serves pages of other versions too, a page under /v1/ included', async () => {
    const v1 = await getMarkdown(`${running.url}/v1/api/api-keys.md`);
    expect(v1).toMatch(/^> .*\n\n# /);
    expect(v1).not.toContain('<Note>');
  });

  it('answers HEAD with the headers only', async () => {
    const head = await fetch(`${running.url}/llms.txt`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(MARKDOWN);
    expect(await head.text()).toBe('');
  });

  it('unknown pages, unknown languages and ".." paths are 404 with a message saying what to ask for', async () => {
    for (const path of ['/nope.md', '/guides/nope.md']) {
      const res = await rawGet(running.url, path);
      expect(res.status).toBe(404);
      expect(res.type).toBe('text/plain; charset=utf-8');
      expect(res.body).toContain(`No page ${path.replace(/\.md$/, '')} in the docs`);
      expect(res.body).toContain('/llms.txt lists every page');
    }
    const asked = await rawGet(running.url, '/guides/nope', { Accept: 'text/markdown' });
    expect(asked.status).toBe(404);
    expect(asked.body).toContain('No page /guides/nope');
    for (const path of [
      '/%2e%2e%2f%2e%2e%2fetc%2fpasswd.md',
      '/guides/..%2f..%2fsecret.md',
      '/..%5cwin.md',
    ]) {
      const res = await rawGet(running.url, path);
      expect(res.status, path).toBe(404);
      expect(res.body).toContain('may not contain "." or ".." segments');
    }
    const malformed = await rawGet(running.url, '/guides/%E0%A4%A.md');
    expect(malformed.status).toBe(404);
    expect(malformed.body).toContain('not valid percent-encoding');
    const language = await rawGet(running.url, '/de/llms.txt');
    expect(language.status).toBe(404);
    expect(language.body).toContain("the site's languages are en, fr, es");
    // The API is not shadowed: its own 404 and routes still answer.
    const health = await fetch(`${running.url}/health`);
    expect(health.status).toBe(200);
    await health.body?.cancel();
  });
});

describe('the MDX fixtures served as .md', () => {
  let running: RunningService;
  beforeAll(async () => {
    running = await startService({ docs: [MDX_FIXTURES] });
  });
  afterAll(() => running.close());

  it('every page of llms.txt is Markdown with no JSX, ESM or front matter', async () => {
    const llms = parseLlmsTxt(await getMarkdown(`${running.url}/llms.txt`));
    const links = llms.sections.flatMap((s) => s.links);
    expect(links.map((l) => l.url).sort()).toEqual([
      '/components.md',
      '/custom-domain.md',
      '/install.md',
      '/nested.md',
    ]);
    for (const link of links) {
      const page = await getMarkdown(`${running.url}${link.url}`);
      const prose = page.replace(/^(\s*)```[^\n]*\n[\s\S]*?\n\1```$/gm, '').replace(/`[^`\n]+`/g, '');
      expect(prose, link.url).not.toMatch(/<\/?[A-Z][\w.]*[\s/>]/);
      expect(prose, link.url).not.toMatch(/^(import|export) /m);
      expect(prose, link.url).not.toMatch(/^---\n/);
      expect(prose, link.url).not.toMatch(/\{\/\*|\{[a-z][\w.]*\}/);
    }
  });
});

describe('one service, several domains', () => {
  let running: RunningService;
  beforeAll(async () => {
    running = await startService({
      organizations: [{ id: 'org', plan: 'enterprise', assistantKeys: ['svc_dsc_x'], adminKeys: ['svc_x'] }],
      domains: [
        { domain: 'first', organization: 'org', docs: [MDX_FIXTURES], title: 'First' },
        {
          domain: 'lumen',
          organization: 'org',
          docs: [join(corpusDir('mintlify'))],
          title: 'Lumen',
          siteUrl: 'https://docs.lumen.example/',
        },
      ],
    } as never);
  });
  afterAll(() => running.close());

  it('serves the domain whose siteUrl has the request host, else the first', async () => {
    const byHost = await rawGet(running.url, '/llms.txt', { Host: 'docs.lumen.example' });
    expect(byHost.status).toBe(200);
    expect(parseLlmsTxt(byHost.body).name).toBe('Lumen');
    // Links are written under the domain's siteUrl, never the request's host.
    expect(byHost.body).toContain('(https://docs.lumen.example/introduction.md)');
    const other = await rawGet(running.url, '/llms.txt');
    expect(parseLlmsTxt(other.body).name).toBe('First');
  });
});

describe('which requests are for agents (the demo passes these to the service)', () => {
  it('Accept: text/markdown counts when Markdown is liked at least as much as HTML', () => {
    expect(acceptsMarkdown('text/markdown')).toBe(true);
    expect(acceptsMarkdown('text/markdown, text/html;q=0.9')).toBe(true);
    expect(acceptsMarkdown('text/html, text/markdown;q=0.5')).toBe(false);
    expect(acceptsMarkdown('text/markdown;q=0')).toBe(false);
    // A browser's navigation names no Markdown.
    expect(acceptsMarkdown('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(false);
    expect(acceptsMarkdown(undefined)).toBe(false);
  });

  it('.md, llms files and Markdown-accepting GETs are; the API and other methods are not', () => {
    const get = (path: string, accept?: string, method = 'GET') =>
      isAgentRequest(
        new Request(`http://127.0.0.1${path}`, {
          method,
          ...(accept ? { headers: { Accept: accept } } : {}),
        }),
      );
    expect(get('/guides/setup.md')).toBe(true);
    expect(get('/llms.txt')).toBe(true);
    expect(get('/fr/llms-full.txt')).toBe(true);
    expect(get('/guides/setup', 'text/markdown')).toBe(true);
    expect(get('/guides/setup', 'text/html')).toBe(false);
    expect(get('/guides/setup.md', undefined, 'POST')).toBe(false);
    expect(get('/discovery/v1/search/acme', 'text/markdown')).toBe(false);
    expect(get('/robots.txt')).toBe(false);
  });
});
