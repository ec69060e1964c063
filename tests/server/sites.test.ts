/**
 * Site-aware loading (issue 17): each docs framework's own navigation decides which files are
 * pages, their URL, breadcrumb, language, version and hidden state; repository files and ignored
 * paths stay out; a config that cannot be read falls back to the folder walk with a warning.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseIgnore } from '../../packages/docs-assistant-server/src/docs/ignore';
import { type DocPage, formatSiteReport, loadSite } from '../../packages/docs-assistant-server/src/retrieval';
import { detectLanguage } from '../../packages/docs-assistant-server/src/retrieval/language';
import { CORPORA, corpusDir, siteQuestions } from './sites-corpora';

const quiet = { warn: () => {} };
const byPath = (pages: DocPage[]) => new Map(pages.map((page) => [page.path, page]));

/** A scratch copy of a fixture, removed after the test. */
function scratchCopy(corpus: string): string {
  const dir = mkdtempSync(join(tmpdir(), `sites-${corpus}-`));
  cpSync(corpusDir(corpus), dir, { recursive: true });
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Repository and agent files every fixture holds; none of them is a page anywhere.
const JUNK =
  /(^|\/)(README|CONTRIBUTING|AGENTS|CODE_OF_CONDUCT|LICENSE)\.md$|\.claude\/|snippets\/|_partials\//;

describe.each(CORPORA)('%s fixture', (corpus) => {
  it('indexes no repository file, agent notes, partial or ignored draft, and every expected page exists', async () => {
    const { pages, report } = await loadSite(corpusDir(corpus), quiet);
    for (const page of pages) expect(page.file, page.path).not.toMatch(JUNK);
    expect(pages.map((page) => page.file).join(' ')).not.toMatch(/drafts\/|pricing|draft/);
    const paths = byPath(pages);
    for (const q of siteQuestions(corpus)) {
      const page = paths.get(q.page);
      expect(page, `${q.question} → ${q.page}`).toBeDefined();
      expect(page?.file).toBe(q.file);
      expect(page?.language).toBe(q.language);
    }
    // The report names each skipped file with its reason.
    expect(report.skipped.map((s) => s.file)).toEqual(
      expect.arrayContaining([expect.stringMatching(/README\.md$/)]),
    );
    expect(report.counts.find((c) => c.language === 'fr')?.pages).toBeGreaterThan(0);
    expect(formatSiteReport(report).join('\n')).toMatch(/skipped \d+ files/);
  });
});

describe('Mintlify docs.json', () => {
  it('takes URL, breadcrumb, language and version from the navigation, default version first', async () => {
    const { pages, report } = await loadSite(corpusDir('mintlify'), quiet);
    expect(report.framework).toBe('mintlify');
    expect(report.configFile).toBe('docs.json');
    expect(report.languages).toEqual(['en', 'fr', 'es']);
    expect(report.versions).toEqual(['v2', 'v1']);
    const paths = byPath(pages);
    expect(paths.get('/guides/custom-domain')).toMatchObject({
      breadcrumb: ['Guides'],
      language: 'en',
      version: 'v2',
      navOrder: 2,
    });
    expect(paths.get('/v1/api/api-keys')).toMatchObject({ version: 'v1', language: 'en' });
    expect(paths.get('/fr/guides/custom-domain')).toMatchObject({
      language: 'fr',
      title: 'Domaine personnalisé',
    });
    // Section ids follow the public URL, so citations link where the site serves the page.
    expect(paths.get('/fr/guides/custom-domain')?.sections[0]?.id).toMatch(/^\/fr\/guides\/custom-domain#/);
    // Not in the navigation: a hidden page; snippets and .mintignore'd drafts are never pages.
    expect(paths.has('/beta/vector-search')).toBe(false);
    const reasons = new Map(report.skipped.map((s) => [s.file, s.reason]));
    expect(reasons.get('beta/vector-search.mdx')).toMatch(/hidden page/);
    expect(reasons.get('snippets/support.mdx')).toMatch(/snippet/);
    expect(reasons.get('drafts/')).toMatch(/\.mintignore/);
    expect(report.ignoreFiles).toEqual(['.mintignore']);
  });

  it('indexes hidden pages when the site makes them searchable (seo.indexing: "all") or when told to', async () => {
    const included = await loadSite(corpusDir('mintlify'), { ...quiet, site: { hiddenPages: 'include' } });
    expect(byPath(included.pages).get('/beta/vector-search')).toMatchObject({ hidden: true, language: 'en' });

    const dir = scratchCopy('mintlify');
    const config = JSON.parse(readFileSync(join(dir, 'docs.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'docs.json'), JSON.stringify({ ...config, seo: { indexing: 'all' } }));
    const bySite = await loadSite(dir, quiet);
    expect(byPath(bySite.pages).get('/beta/vector-search')?.hidden).toBe(true);
    expect(bySite.report.hiddenPages).toBe(1);
  });

  it('reads the legacy mint.json: groups, versions by group', async () => {
    const { pages, report } = await loadSite(corpusDir('mintlify-legacy'), quiet);
    expect(report).toMatchObject({ framework: 'mintlify', configFile: 'mint.json', versions: ['v2', 'v1'] });
    const paths = byPath(pages);
    expect(paths.get('/api/api-keys')).toMatchObject({ version: 'v2', breadcrumb: ['API'] });
    expect(paths.get('/v1/api/rate-limits')).toMatchObject({ version: 'v1' });
    // A group without a version holds for every version.
    expect(paths.get('/guides/webhooks')?.version).toBeUndefined();
    expect(pages.map((page) => page.path)).not.toContain('/README');
  });

  it('warns about a navigation entry that names no file, and still loads the rest', async () => {
    const dir = scratchCopy('mintlify-legacy');
    const config = JSON.parse(readFileSync(join(dir, 'mint.json'), 'utf8')) as { navigation: unknown[] };
    config.navigation.push({ group: 'Extra', pages: ['guides/not-written-yet'] });
    writeFileSync(join(dir, 'mint.json'), JSON.stringify(config));
    const warnings: string[] = [];
    const { pages, report } = await loadSite(dir, { warn: (m) => warnings.push(m) });
    expect(warnings.join('\n')).toMatch(/guides\/not-written-yet/);
    expect(report.warnings).toHaveLength(1);
    expect(pages.length).toBe(10);
  });
});

describe('Docusaurus', () => {
  it('reads the TypeScript config and sidebars without the site packages installed', async () => {
    const { pages, report } = await loadSite(corpusDir('docusaurus'), quiet);
    expect(report).toMatchObject({ framework: 'docusaurus', configFile: 'docusaurus.config.ts' });
    expect(report.languages).toEqual(['en', 'fr', 'es']);
    // lastVersion 'current', labelled 2.x; versions.json adds 1.x under /docs/1.x/.
    expect(report.versions).toEqual(['2.x', '1.x']);
    const paths = byPath(pages);
    // Number prefixes leave ids and URLs; the category's autogenerated order follows them and sidebar_position.
    const guides = pages
      .filter((p) => p.language === 'en' && p.breadcrumb?.[0] === 'Guides')
      .map((p) => p.path);
    expect(guides).toEqual([
      '/docs/guides/custom-domain',
      '/docs/guides/webhooks',
      '/docs/guides/theming',
      '/docs/guides/analytics',
    ]);
    // A sidebar label names the page in the navigation when the page has no title of its own.
    expect(paths.get('/docs/api/rate-limits')).toMatchObject({ breadcrumb: ['API'], version: '2.x' });
    expect(paths.get('/docs/1.x/api/api-keys')).toMatchObject({ version: '1.x', language: 'en' });
    expect(paths.get('/fr/docs/guides/custom-domain')).toMatchObject({ language: 'fr', version: '2.x' });
    const reasons = new Map(report.skipped.map((s) => [s.file, s.reason]));
    expect(reasons.get('docs/_partials/support.md')).toMatch(/partial/);
    expect(reasons.get('docs/guides/pricing.md')).toMatch(/draft/);
    expect(reasons.get('blog/2024-05-01-launch.md')).toMatch(/blog/);
    expect(reasons.get('docs/beta/vector-search.md')).toMatch(/hidden page/);
  });

  it('falls back to the folder walk, saying why, when the config cannot run', async () => {
    const dir = scratchCopy('docusaurus');
    writeFileSync(
      join(dir, 'docusaurus.config.ts'),
      "import { thing } from './missing-local-file';\nexport default { title: thing };\n",
    );
    const warnings: string[] = [];
    const { pages, report } = await loadSite(dir, { warn: (m) => warnings.push(m) });
    expect(report.framework).toBe('folder');
    expect(warnings.join('\n')).toMatch(
      /docusaurus\.config\.ts: could not read .*missing-local-file.*plain folder/,
    );
    // The folder walk still keeps repository files out.
    expect(pages.map((page) => page.file)).not.toContain('README.md');
    expect(pages.length).toBeGreaterThan(5);
  });

  it('reads a CommonJS config whose function export is called, as Docusaurus does', async () => {
    const dir = scratchCopy('docusaurus');
    rmSync(join(dir, 'docusaurus.config.ts'));
    writeFileSync(
      join(dir, 'docusaurus.config.js'),
      `const { themes } = require('prism-react-renderer');
module.exports = async function createConfig() {
  return {
    title: 'Lumen', baseUrl: '/lumen/', i18n: { defaultLocale: 'en', locales: ['en'] },
    presets: [['@docusaurus/preset-classic', { docs: { routeBasePath: '/', sidebarPath: require.resolve('./sidebars.ts') } }]],
    themeConfig: { prism: { theme: themes.github } },
  };
};
`,
    );
    const { pages, report } = await loadSite(dir, quiet);
    expect(report.framework).toBe('docusaurus');
    expect(report.languages).toEqual([]);
    // Without lastVersion the newest of versions.json is served at the root and the docs folder under next/.
    expect(report.versions).toEqual(['1.x', 'current']);
    expect(byPath(pages).get('/lumen/api/api-keys')).toMatchObject({ version: '1.x' });
    expect(byPath(pages).get('/lumen/next/guides/custom-domain')).toMatchObject({
      breadcrumb: ['Guides'],
      version: 'current',
    });
  });
});

describe('VitePress', () => {
  it('reads sidebar (by prefix, with base), nav and locales', async () => {
    const { pages, report } = await loadSite(corpusDir('vitepress'), quiet);
    expect(report).toMatchObject({ framework: 'vitepress', configFile: '.vitepress/config.mts' });
    expect(report.languages).toEqual(['en', 'fr', 'es']);
    const paths = byPath(pages);
    expect(paths.get('/guide')).toMatchObject({ breadcrumb: ['Get started'], language: 'en', navOrder: 0 });
    expect(paths.get('/api/rate-limits')).toMatchObject({ breadcrumb: ['API'] });
    expect(paths.get('/es/guide/webhooks')).toMatchObject({ breadcrumb: ['Guía'], language: 'es' });
    // The home page is linked from the nav only.
    expect(paths.get('/')).toMatchObject({ title: 'Home' });
    expect(paths.has('/beta/vector-search')).toBe(false);
  });
});

describe('MkDocs', () => {
  it('reads nav titles and sections, docs_dir and the i18n plugin suffix layout', async () => {
    const { pages, report } = await loadSite(corpusDir('mkdocs'), quiet);
    expect(report).toMatchObject({
      framework: 'mkdocs',
      configFile: 'mkdocs.yml',
      languages: ['en', 'fr', 'es'],
    });
    const paths = byPath(pages);
    expect(paths.get('/guides/custom-domain')).toMatchObject({ breadcrumb: ['Guides'], language: 'en' });
    expect(paths.get('/fr/guides/custom-domain')).toMatchObject({
      file: 'docs/guides/custom-domain.fr.md',
      language: 'fr',
    });
    expect(paths.get('/es')).toMatchObject({ language: 'es', file: 'docs/index.es.md' });
    const reasons = new Map(report.skipped.map((s) => [s.file, s.reason]));
    expect(reasons.get('README.md')).toMatch(/outside docs_dir/);
    expect(reasons.get('docs/CONTRIBUTING.md')).toMatch(/repository file/);
  });

  it('reads the i18n plugin folder layout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sites-mkdocs-folder-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const write = (file: string, text: string) => {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), text);
    };
    write(
      'mkdocs.yml',
      'site_name: X\nnav:\n  - Setup: setup.md\nplugins:\n  - i18n:\n      docs_structure: folder\n      languages:\n        - locale: en\n          default: true\n        - locale: de\n',
    );
    write('docs/en/setup.md', '# Setup\n\nInstall it.\n');
    write('docs/de/setup.md', '# Einrichtung\n\nInstallieren Sie es.\n');
    const { pages } = await loadSite(dir, quiet);
    expect(pages.map((p) => [p.path, p.language])).toEqual([
      ['/setup', 'en'],
      ['/de/setup', 'de'],
    ]);
  });
});

describe('Starlight', () => {
  it('reads the starlight() integration: sidebar slugs, links, autogenerated groups, locales', async () => {
    const { pages, report } = await loadSite(corpusDir('starlight'), quiet);
    expect(report).toMatchObject({ framework: 'starlight', configFile: 'astro.config.mjs' });
    expect(report.languages).toEqual(['en', 'fr', 'es']);
    const paths = byPath(pages);
    expect(paths.get('/')).toMatchObject({ breadcrumb: ['Start here'], navOrder: 0, language: 'en' });
    // Autogenerated from guides/, in sidebar.order; a page with sidebar.hidden stays out.
    expect(
      pages.filter((p) => p.language === 'en' && p.breadcrumb?.[0] === 'Guides').map((p) => p.path),
    ).toEqual(['/guides/custom-domain', '/guides/webhooks', '/guides/theming', '/guides/analytics']);
    expect(paths.get('/reference/rate-limits')).toMatchObject({ breadcrumb: ['Reference'] });
    expect(paths.get('/fr/guides/custom-domain')).toMatchObject({ language: 'fr', breadcrumb: ['Guides'] });
    const reasons = new Map(report.skipped.map((s) => [s.file, s.reason]));
    expect(reasons.get('src/content/docs/guides/internal-notes.md')).toMatch(/hidden page/);
    expect(reasons.get('README.md')).toMatch(/outside src\/content\/docs/);
  });

  it('is not taken for an Astro site without the integration', async () => {
    const dir = scratchCopy('starlight');
    writeFileSync(join(dir, 'astro.config.mjs'), 'export default { integrations: [] };\n');
    expect((await loadSite(dir, quiet)).report.framework).toBe('folder');
  });
});

describe('plain folder', () => {
  it('keeps repository files out unless a page links them, honours .docsassistantignore, reads language folders', async () => {
    const { pages, report } = await loadSite(corpusDir('folder'), quiet);
    expect(report.framework).toBe('folder');
    expect(report.ignoreFiles).toEqual(['.docsassistantignore']);
    const files = pages.map((page) => page.file);
    // The introduction links the changelog, so it is a page; the other repository files are not.
    expect(files).toContain('CHANGELOG.md');
    for (const junk of ['README.md', 'CONTRIBUTING.md', 'LICENSE.md', 'CODE_OF_CONDUCT.md', 'AGENTS.md'])
      expect(files).not.toContain(junk);
    const reasons = new Map(report.skipped.map((s) => [s.file, s.reason]));
    expect(reasons.get('drafts/')).toMatch(/docsassistantignore/);
    expect(reasons.get('guides/vector-search.draft.md')).toMatch(/docsassistantignore/);
    expect(byPath(pages).get('/fr/guides/custom-domain')?.language).toBe('fr');
    expect(byPath(pages).get('/guides/custom-domain')?.language).toBe('en');
  });
});

describe('ignore file syntax', () => {
  it('follows gitignore: anchors, folders only, globs, ** and negation', () => {
    const ignore = parseIgnore(
      [
        '# comment',
        'drafts/',
        '/internal.md',
        '*.draft.md',
        'notes/**/secret.md',
        '!keep.draft.md',
        'build',
      ].join('\n'),
    );
    expect(ignore.ignores('drafts', true)).toBe(true);
    expect(ignore.ignores('guides/drafts/a.md')).toBe(true);
    expect(ignore.ignores('drafts.md')).toBe(false);
    expect(ignore.ignores('internal.md')).toBe(true);
    expect(ignore.ignores('guides/internal.md')).toBe(false);
    expect(ignore.ignores('guides/x.draft.md')).toBe(true);
    expect(ignore.ignores('keep.draft.md')).toBe(false);
    expect(ignore.ignores('notes/secret.md')).toBe(true);
    expect(ignore.ignores('notes/a/b/secret.md')).toBe(true);
    expect(ignore.ignores('build/index.md')).toBe(true);
    expect(ignore.ignores('guides/setup.md')).toBe(false);
  });
});

describe('question language', () => {
  const site = ['en', 'fr', 'es', 'zh'];
  it.each([
    ['How do I set up a custom domain?', 'en'],
    ['Comment configurer un domaine personnalisé ?', 'fr'],
    ["Comment créer une clé d'API ?", 'fr'],
    ['¿Cómo configuro un dominio personalizado?', 'es'],
    ['¿Cómo verifico la firma de un webhook?', 'es'],
    ['如何设置自定义域名？', 'zh'],
  ])('%s → %s', (question, language) => {
    expect(detectLanguage(question, site)).toBe(language);
  });

  it('says nothing when the question has no function words, and only picks languages the site has', () => {
    expect(detectLanguage('CNAME sites.lumen.dev', site)).toBeUndefined();
    expect(detectLanguage('Wie richte ich eine Domain ein?', site)).toBeUndefined();
    expect(detectLanguage('Wie richte ich eine Domain ein?', ['en', 'de'])).toBe('de');
    expect(detectLanguage('Comment faire ?', ['en', 'fr-CA'])).toBe('fr-CA');
  });
});
