import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  loadDocs,
  renderSite,
  rewriteInternalUrl,
} from '../../packages/docs-assistant-server/src/static-export/render';
import { copyFixtureDocs, FIXTURE_DOCS } from './helpers';

const decode = (data: Uint8Array) => new TextDecoder().decode(data);

async function renderFixture() {
  const source = await loadDocs([FIXTURE_DOCS]);
  const entries = await renderSite(source, { domain: 'acme', siteTitle: 'Acme Docs' });
  return new Map(entries.map((e) => [e.path, decode(e.data)]));
}

describe('rendering docs into a static site', () => {
  it('writes one page per doc plus css, script, search index and manifest', async () => {
    const files = await renderFixture();
    expect([...files.keys()].sort()).toEqual([
      'api.html',
      'assets/search.js',
      'assets/style.css',
      'guides/deploy.html',
      'guides/index.html',
      'guides/setup.html',
      'img/logo.svg',
      'index.html',
      'manifest.json',
      'search-index.json',
    ]);
    const manifest = JSON.parse(files.get('manifest.json')!);
    expect(manifest.pageCount).toBe(5);
    expect(manifest.pages.map((p: { path: string }) => p.path)).toEqual([
      '/',
      '/api',
      '/guides',
      '/guides/setup',
      '/guides/deploy',
    ]);
  });

  it('rewrites internal links to relative .html files and keeps outbound links', async () => {
    const files = await renderFixture();
    const home = files.get('index.html')!;
    expect(home).toContain('href="guides/setup.html"');
    expect(home).toContain('href="api.html#endpoints"');
    expect(home).toContain('href="guides/index.html"');
    expect(home).toContain('href="https://example.com/outside"');
    expect(home).toContain('src="img/logo.svg"');
    const setup = files.get('guides/setup.html')!;
    expect(setup).toContain('href="deploy.html"');
    expect(setup).toContain('href="../api.html#endpoints"');
    expect(setup).toContain('href="../assets/style.css"');
    expect(files.get('guides/index.html')).toContain('href="setup.html"');
    expect(files.get('guides/index.html')).toContain('href="deploy.html"');
    expect(files.get('api.html')).toContain('href="index.html"');
  });

  it('drops raw HTML and MDX statements, loads no remote image, and renders code and tables', async () => {
    const files = await renderFixture();
    const home = files.get('index.html')!;
    expect(home).not.toContain('<script>alert');
    expect(home).not.toContain('raw html must not survive');
    expect(home).not.toContain('class="raw"');
    expect(home).not.toMatch(/src="https?:/);
    expect(home).toContain('data-external-image=""');
    const api = files.get('api.html')!;
    expect(api).not.toContain('import { Callout }');
    expect(api).toContain('<pre><code class="language-ts">');
    expect(api).toContain('<table>');
    expect(api).toContain('<h2 id="endpoints">Endpoints</h2>');
    expect(api).toContain('<meta name="description" content="Endpoints of the fixture API.">');
    expect(api).toContain('aria-current="page">API</a>');
  });

  it('builds a search index of titles, headings and text', async () => {
    const files = await renderFixture();
    const index = JSON.parse(files.get('search-index.json')!) as {
      title: string;
      file: string;
      headings: string[];
      text: string;
    }[];
    const api = index.find((e) => e.file === 'api.html')!;
    expect(api.title).toBe('API');
    expect(api.headings).toContain('Endpoints');
    expect(api.text).toContain('/v1/static-export/jobs');
    expect(files.get('assets/search.js')).toContain("fetch(root + 'search-index.json')");
  });

  it('filters by version and paths', async () => {
    const only = await loadDocs([FIXTURE_DOCS], { paths: ['/guides'] });
    expect(only.pages.map((p) => p.urlPath)).toEqual(['/guides', '/guides/setup', '/guides/deploy']);
    const docs = copyFixtureDocs();
    try {
      writeFileSync(join(docs.path, 'old.md'), '---\ntitle: Old\nversion: "1.0"\n---\n# Old\n');
      const v2 = await loadDocs([docs.path], { version: '2.0' });
      expect(v2.pages.map((p) => p.urlPath)).not.toContain('/old');
      const v1 = await loadDocs([docs.path], { version: '1.0' });
      expect(v1.pages.map((p) => p.urlPath)).toContain('/old');
    } finally {
      docs.remove();
    }
  });

  it('reads a page with bad front matter without it, warning with its file and line', async () => {
    const docs = copyFixtureDocs();
    try {
      writeFileSync(
        join(docs.path, 'bad.md'),
        '---\ntitle: Fine\nmore: [unclosed\n---\n# Bad page\n\nStill read.\n',
      );
      const warnings: string[] = [];
      const source = await loadDocs([docs.path], { warn: (message) => warnings.push(message) });
      expect(warnings).toEqual([
        expect.stringMatching(
          new RegExp(`^${join(docs.path, 'bad.md')}:\\d+: front matter is not valid YAML`),
        ),
      ]);
      // Read without its front matter: the title is the first heading, not `Fine`.
      const bad = source.pages.find((page) => page.urlPath === '/bad');
      expect(bad?.title).toBe('Bad page');
      const files = new Map(
        (await renderSite(source, { domain: 'acme', siteTitle: 'Acme Docs' })).map((e) => [
          e.path,
          decode(e.data),
        ]),
      );
      expect(files.get('bad.html')).toContain('Still read.');
      expect(files.get('bad.html')).not.toContain('unclosed');
    } finally {
      docs.remove();
    }
  });

  it('names a missing docs folder', async () => {
    await expect(loadDocs(['/nonexistent/docs-folder'])).rejects.toThrow(
      'docs folder /nonexistent/docs-folder does not exist',
    );
  });

  it('resolves relative and absolute links from a nested page', () => {
    const pages = new Map([
      ['/', 'index.html'],
      ['/guides', 'guides/index.html'],
      ['/guides/setup', 'guides/setup.html'],
    ]);
    const page = { file: 'guides/setup.html', sourcePath: 'guides/setup.md' };
    expect(rewriteInternalUrl('/', page, pages, new Set())).toBe('../index.html');
    expect(rewriteInternalUrl('../index.md', page, pages, new Set())).toBe('../index.html');
    expect(rewriteInternalUrl('/guides/', page, pages, new Set())).toBe('index.html');
    expect(rewriteInternalUrl('#top', page, pages, new Set())).toBe('#top');
    expect(rewriteInternalUrl('mailto:a@b.c', page, pages, new Set())).toBe('mailto:a@b.c');
  });
});
