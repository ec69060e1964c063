/**
 * The site read as its framework publishes it (issue 37, point 1): Mintlify's `$ref` in docs.json,
 * the site's name from each config, home pages of every language, each page's published link
 * (base path, trailing slash, `.html`) and heading anchors by the framework's own slug function.
 * Fixtures: tests/fixtures/sites/{mintlify-refs,vitepress-base,starlight-base,docusaurus-base,mkdocs-html};
 * variants of a setting are the same fixture copied to a temporary folder with one line changed.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { slugify as vitepressSlugify } from '@mdit-vue/shared';
import GithubSlugger from 'github-slugger';
import { formatSiteReport, loadSite } from '../../packages/docs-assistant-server/src/docs/load';
import type { DocPage } from '../../packages/docs-assistant-server/src/docs/page';
import { readWithRefs } from '../../packages/docs-assistant-server/src/docs/sites/mintlify-refs';
import {
  checkSiteUrl,
  siteLinkBuilder,
  siteTitle,
} from '../../packages/docs-assistant-server/src/docs/sites/published';

const SITES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'sites');

const load = async (folder: string) => {
  const warnings: string[] = [];
  const loaded = await loadSite(folder, { warn: (message) => warnings.push(message) });
  return { ...loaded, warnings };
};

const byPath = (pages: DocPage[]) => new Map(pages.map((page) => [page.path, page]));

const temps: string[] = [];
/** A copy of a fixture in a temporary folder, `edit` applied to the files named. */
function variant(fixture: string, edits: Record<string, (text: string) => string>): string {
  const folder = mkdtempSync(join(tmpdir(), `da-${fixture}-`));
  temps.push(folder);
  cpSync(join(SITES, fixture), folder, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) {
    const path = join(folder, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, edit(existsSync(path) ? readFileSync(path, 'utf8') : ''));
  }
  return folder;
}
afterAll(() => {
  for (const folder of temps) rmSync(folder, { recursive: true, force: true });
});

describe('Mintlify docs.json split with $ref', () => {
  it('follows relative and nested references into every language, keys beside $ref winning', async () => {
    const { pages, report, warnings } = await load(join(SITES, 'mintlify-refs'));
    expect(warnings).toEqual([]);
    expect(report.framework).toBe('mintlify');
    expect(report.languages).toEqual(['en', 'fr', 'es']);
    const paths = byPath(pages);
    // nav/groups/guides.json, referenced from nav/en.json: its path is relative to nav/.
    expect(paths.get('/guides/retries')).toMatchObject({ breadcrumb: ['Guides'], language: 'en' });
    // nav/es.json says "language": "en"; docs.json's "language": "es" beside the $ref wins.
    expect(paths.get('/es/guides/webhooks')).toMatchObject({ breadcrumb: ['Guías'], language: 'es' });
    expect(paths.get('/fr/guides/webhooks')).toMatchObject({ breadcrumb: ['Guides'], language: 'fr' });
    expect(report.counts).toEqual(
      expect.arrayContaining([
        { language: 'en', version: '', pages: 4 },
        { language: 'fr', version: '', pages: 3 },
        { language: 'es', version: '', pages: 3 },
      ]),
    );
    expect(report.skipped).toEqual([]);
  });

  it('names the file and what to change for a missing reference', async () => {
    const folder = variant('mintlify-refs', {
      'nav/en.json': (text) => text.replace('./groups/guides.json', './groups/guide.json'),
    });
    expect(() => readWithRefs(folder, 'docs.json')).toThrow(
      'nav/en.json has "$ref": "nav/groups/guide.json", which is not a file in the docs folder; fix the path (relative to nav/en.json) or remove the reference',
    );
    // Loading goes on as a plain folder, saying why.
    const { report, warnings } = await load(folder);
    expect(report.framework).toBe('folder');
    expect(warnings.join('\n')).toContain('"$ref": "nav/groups/guide.json", which is not a file');
  });

  it('names the cycle and the reference to remove for a circular one', () => {
    const folder = variant('mintlify-refs', {
      'nav/groups/guides.json': () => '{ "group": "Guides", "pages": [{ "$ref": "../fr.json" }] }',
      'nav/fr.json': (text) => text.replace('"groups": [', '"groups": [{ "$ref": "./en.json" }, '),
    });
    expect(() => readWithRefs(folder, 'docs.json')).toThrow(
      'circular $ref: docs.json → nav/en.json → nav/groups/guides.json → nav/fr.json → nav/en.json; remove the "$ref" to nav/en.json from nav/fr.json',
    );
  });

  it('refuses a reference out of the docs folder like a missing one', () => {
    const folder = variant('mintlify-refs', {
      'docs.json': (text) => text.replace('./nav/fr.json', '../outside.json'),
    });
    expect(() => readWithRefs(folder, 'docs.json')).toThrow(
      /"\$ref": "\.\.\/outside\.json", which is not a file/,
    );
  });
});

describe("the site's name from its config", () => {
  it.each([
    ['mintlify-refs', 'Orbit'],
    ['vitepress-base', 'Acme Cloud'],
    // A title per language: the default language's.
    ['starlight-base', 'Nimbus'],
    ['docusaurus-base', 'Helios'],
    ['mkdocs-html', 'Quanta'],
  ])('%s is %s', async (fixture, name) => {
    const { pages } = await load(join(SITES, fixture));
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) expect(page.site?.name).toBe(name);
  });

  it('a Starlight title string, and a plain folder has none', async () => {
    const folder = variant('starlight-base', {
      'astro.config.mjs': (text) => text.replace("{ en: 'Nimbus', fr: 'Nimbus (FR)' }", "'Nimbus Docs'"),
    });
    expect((await load(folder)).pages[0]?.site?.name).toBe('Nimbus Docs');
    const plain = await loadSite(join(SITES, 'folder'), { warn: () => {} });
    expect(plain.pages[0]?.site?.name).toBeUndefined();
  });
});

describe('home pages of every language', () => {
  it.each([
    ['mintlify-refs', ['/', '/fr', '/es']],
    ['vitepress-base', ['/acme', '/acme/fr']],
    ['starlight-base', ['/docs', '/docs/fr']],
  ])('%s: %j are pages although the navigation lists none or some of them', async (fixture, homes) => {
    const { pages, report } = await load(join(SITES, fixture));
    const paths = byPath(pages);
    for (const home of homes) {
      expect(paths.get(home), home).toBeDefined();
      expect(paths.get(home)!.hidden).toBeUndefined();
    }
    expect(report.skipped.filter((skip) => /index\.mdx?$/.test(skip.file))).toEqual([]);
  });

  it('other pages the navigation leaves out stay hidden', async () => {
    const folder = variant('starlight-base', {
      'src/content/docs/guides/unlisted.md': () => '---\ntitle: Unlisted\n---\n\nNot in the sidebar.\n',
    });
    const { report } = await load(folder);
    expect(report.skipped).toEqual([
      { file: 'src/content/docs/guides/unlisted.md', reason: 'hidden page (not in the navigation)' },
    ]);
    // A site with no languages: a folder named like one is not a language's home.
    const monolingual = variant('mkdocs-html', { 'docs/de/index.md': () => '# Deutsch\n\nNicht im Menü.\n' });
    expect((await load(monolingual)).report.skipped).toEqual([
      { file: 'docs/de/index.md', reason: 'hidden page (not in the navigation)' },
    ]);
  });
});

/** Each page's published link, by its path. */
const links = async (folder: string) =>
  Object.fromEntries((await load(folder)).pages.map((page) => [page.path, page.url ?? page.path]));

describe('links as the framework publishes them', () => {
  it('VitePress: base, .html without cleanUrls (its default), a folder index as the folder', async () => {
    expect(await links(join(SITES, 'vitepress-base'))).toEqual({
      '/acme': '/acme/',
      '/acme/guide': '/acme/guide/',
      '/acme/guide/errors': '/acme/guide/errors.html',
      '/acme/fr': '/acme/fr/',
      '/acme/fr/guide/errors': '/acme/fr/guide/errors.html',
    });
    const clean = variant('vitepress-base', {
      '.vitepress/config.mts': (text) =>
        text.replace("base: '/acme/',", "base: '/acme/',\n  cleanUrls: true,"),
    });
    expect((await links(clean))['/acme/guide/errors']).toBe('/acme/guide/errors');
    expect((await links(clean))['/acme/guide']).toBe('/acme/guide/');
  });

  it("Starlight: Astro's base; a trailing slash by default, none with trailingSlash: 'never', .html with build.format: 'file'", async () => {
    expect(await links(join(SITES, 'starlight-base'))).toEqual({
      '/docs': '/docs/',
      '/docs/guides/sidebar': '/docs/guides/sidebar/',
      '/docs/fr': '/docs/fr/',
      '/docs/fr/guides/sidebar': '/docs/fr/guides/sidebar/',
    });
    const never = variant('starlight-base', {
      'astro.config.mjs': (text) =>
        text.replace("base: '/docs',", "base: '/docs',\n  trailingSlash: 'never',"),
    });
    expect((await links(never))['/docs/guides/sidebar']).toBe('/docs/guides/sidebar');
    const file = variant('starlight-base', {
      'astro.config.mjs': (text) =>
        text.replace("base: '/docs',", "base: '/docs',\n  build: { format: 'file' },"),
    });
    expect((await links(file))['/docs/guides/sidebar']).toBe('/docs/guides/sidebar.html');
    expect((await links(file))['/docs']).toBe('/docs/');
  });

  it('Docusaurus: baseUrl; trailingSlash true adds the slash, false or unset leaves the route as written', async () => {
    expect(await links(join(SITES, 'docusaurus-base'))).toEqual({
      '/kb/docs/intro': '/kb/docs/intro/',
      '/kb/docs/faq': '/kb/docs/faq/',
      '/kb/docs/guides/deploy': '/kb/docs/guides/deploy/',
      '/kb/docs/guides/monitor': '/kb/docs/guides/monitor/',
    });
    for (const setting of ['trailingSlash: false,', '']) {
      const folder = variant('docusaurus-base', {
        'docusaurus.config.js': (text) => text.replace('trailingSlash: true,', setting),
      });
      expect((await links(folder))['/kb/docs/guides/deploy']).toBe('/kb/docs/guides/deploy');
    }
  });

  it("MkDocs: site_url's path; use_directory_urls off links .html and index.html, on (its default) a slash", async () => {
    expect(await links(join(SITES, 'mkdocs-html'))).toEqual({
      '/quanta': '/quanta/index.html',
      '/quanta/guide': '/quanta/guide/index.html',
      '/quanta/guide/setup': '/quanta/guide/setup.html',
      '/quanta/guide/alerts': '/quanta/guide/alerts.html',
    });
    const directories = variant('mkdocs-html', {
      'mkdocs.yml': (text) => text.replace('use_directory_urls: false\n', ''),
    });
    expect(await links(directories)).toEqual({
      '/quanta': '/quanta/',
      '/quanta/guide': '/quanta/guide/',
      '/quanta/guide/setup': '/quanta/guide/setup/',
      '/quanta/guide/alerts': '/quanta/guide/alerts/',
    });
  });

  it("MkDocs i18n: a language's home (index.fr.md) is its folder's page, index.html without directory URLs", async () => {
    const folder = variant('mkdocs', {
      'mkdocs.yml': (text) => text.replace('docs_dir: docs\n', 'docs_dir: docs\nuse_directory_urls: false\n'),
    });
    const site = await links(folder);
    expect(site['/fr']).toBe('/fr/index.html');
    expect(site['/']).toBe('/index.html');
    expect(site['/fr/quickstart']).toBe('/fr/quickstart.html');
  });

  it('Mintlify and a plain folder: the path as it is', async () => {
    const mintlify = await links(join(SITES, 'mintlify-refs'));
    expect(mintlify['/guides/webhooks']).toBe('/guides/webhooks');
    expect(mintlify['/fr']).toBe('/fr');
    const folder = await links(join(SITES, 'folder'));
    for (const [path, url] of Object.entries(folder)) expect(url).toBe(path);
  });
});

describe('heading anchors equal to what the framework renders', () => {
  const anchors = async (fixture: string, path: string) => {
    const page = byPath((await load(join(SITES, fixture))).pages).get(path)!;
    return page.sections.map((section) => section.anchor).filter(Boolean);
  };
  /** The anchors a page's headings get from `slug`, repeats numbered as markdown-it-anchor does. */
  const numbered = (headings: string[], slug: (heading: string) => string) => {
    const used = new Set<string>();
    return headings.map((heading) => {
      let id = slug(heading);
      for (let i = 1; used.has(id); i++) id = `${slug(heading)}-${i}`;
      used.add(id);
      return id;
    });
  };

  it("VitePress: @mdit-vue/shared's slugify (Error E_TIMEOUT → error-e-timeout), repeats -1", async () => {
    const headings = ['Error E_TIMEOUT', 'Réglages avancés', 'Retry', 'Retry', 'snake_case_option'];
    const expected = numbered(headings, vitepressSlugify);
    expect(expected).toEqual([
      'error-e-timeout',
      'reglages-avances',
      'retry',
      'retry-1',
      'snake-case-option',
    ]);
    expect(await anchors('vitepress-base', '/acme/guide/errors')).toEqual(expected);
  });

  it('Starlight and Docusaurus: github-slugger (accents and underscores kept), repeats -1', async () => {
    const slugger = new GithubSlugger();
    const starlight = ['Café au lait', 'Groups', 'Groups', 'snake_case_label'].map((h) => slugger.slug(h));
    expect(starlight).toEqual(['café-au-lait', 'groups', 'groups-1', 'snake_case_label']);
    expect(await anchors('starlight-base', '/docs/guides/sidebar')).toEqual(starlight);
    slugger.reset();
    const docusaurus = ['Déploiement continu', 'Rollback', 'Rollback', 'env_vars'].map((h) =>
      slugger.slug(h),
    );
    expect(await anchors('docusaurus-base', '/kb/docs/guides/deploy')).toEqual(docusaurus);
  });

  it("MkDocs: Python-Markdown toc's slugify (accents dropped, underscores kept), repeats _1", async () => {
    expect(await anchors('mkdocs-html', '/quanta/guide/setup')).toEqual([
      'parametres-reseau',
      'probe',
      'probe_1',
      'scrape_interval',
    ]);
  });
});

describe('absolute links under siteUrl', () => {
  const index = (pages: DocPage[]) => ({ pages, page: (path: string) => byPath(pages).get(path) });

  it('where the config declares the base, siteUrl gives the origin; the base with it is not repeated', async () => {
    const site = index((await load(join(SITES, 'mkdocs-html'))).pages);
    for (const siteUrl of [
      'https://example.org',
      'https://example.org/quanta',
      'https://example.org/quanta/',
    ]) {
      checkSiteUrl({ domain: 'q', siteUrl }, site.pages);
      expect(siteLinkBuilder(siteUrl, site)('/quanta/guide/setup')).toBe(
        'https://example.org/quanta/guide/setup.html',
      );
    }
    expect(() => checkSiteUrl({ domain: 'q', siteUrl: 'https://example.org/docs' }, site.pages)).toThrow(
      'Domain "q": the site URL https://example.org/docs has the path /docs, but the mkdocs config serves the docs under /quanta; give the origin (https://example.org) or https://example.org/quanta, or change the base path in the config.',
    );
  });

  it("where it cannot (MkDocs without site_url, Mintlify, a folder), siteUrl's path is the base", async () => {
    const mkdocs = variant('mkdocs-html', {
      'mkdocs.yml': (text) => text.replace('site_url: https://example.org/quanta/\n', ''),
    });
    for (const [folder, path, link] of [
      [mkdocs, '/guide/setup', 'https://example.org/q/guide/setup.html'],
      [join(SITES, 'mintlify-refs'), '/fr/guides/webhooks', 'https://example.org/q/fr/guides/webhooks'],
      [join(SITES, 'folder'), '/quickstart', 'https://example.org/q/quickstart'],
    ] as const) {
      const site = index((await load(folder)).pages);
      checkSiteUrl({ domain: 'q', siteUrl: 'https://example.org/q/' }, site.pages);
      expect(siteLinkBuilder('https://example.org/q/', site)(path)).toBe(link);
      expect(siteLinkBuilder(undefined, site)(path)).toBe(link.slice('https://example.org/q'.length));
    }
  });

  it("a root at its base's slash: VitePress /acme/, MkDocs without directory URLs /quanta/index.html", async () => {
    const vitepress = index((await load(join(SITES, 'vitepress-base'))).pages);
    expect(siteLinkBuilder('https://acme.dev', vitepress)('/acme')).toBe('https://acme.dev/acme/');
    const mkdocs = index((await load(join(SITES, 'mkdocs-html'))).pages);
    expect(siteLinkBuilder(undefined, mkdocs)('/quanta')).toBe('/quanta/index.html');
  });

  it("the name: the domain's title, else the config's, else the domain", async () => {
    const pages = (await load(join(SITES, 'docusaurus-base'))).pages;
    expect(siteTitle({ domain: 'kb', title: 'Helios KB' }, pages)).toBe('Helios KB');
    expect(siteTitle({ domain: 'kb' }, pages)).toBe('Helios');
    expect(siteTitle({ domain: 'kb' }, (await load(join(SITES, 'folder'))).pages)).toBe('kb');
  });
});

describe('the start-up report', () => {
  it("names the site and says how it links pages, from the config's settings", async () => {
    const lines = async (fixture: string) => formatSiteReport((await load(join(SITES, fixture))).report);
    expect(await lines('vitepress-base')).toContain(
      `  named "Acme Cloud"; links /acme/…/page.html, a folder's page /acme/…/folder/`,
    );
    expect(await lines('mkdocs-html')).toContain(
      `  named "Quanta"; links /quanta/…/page.html, a folder's page /quanta/…/folder/index.html`,
    );
    expect(await lines('starlight-base')).toContain(
      `  named "Nimbus"; links /docs/…/page/, a folder's page /docs/…/folder/`,
    );
    expect((await lines('folder')).join('\n')).not.toContain('named');
  });
});
