/**
 * Heading anchors as each framework writes them (`docs/slugs.ts`), against outputs the frameworks
 * themselves give: github-slugger's (Docusaurus, Starlight, GitHub), VitePress's default slugify
 * with markdown-it-anchor's numbering, and Python-Markdown `toc`'s slugify and `unique` (MkDocs),
 * ported here. The section anchors of the index and the export's heading ids come from the same rule.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markdownOfSource } from '../../packages/docs-assistant-server/src/agents/markdown';
import { loadSite } from '../../packages/docs-assistant-server/src/docs/load';
import type { DocPage } from '../../packages/docs-assistant-server/src/docs/page';
import { parseDocument } from '../../packages/docs-assistant-server/src/docs/parse';
import type { SiteFramework } from '../../packages/docs-assistant-server/src/docs/sites/types';
import { createSlugger, mkdocsSlug } from '../../packages/docs-assistant-server/src/docs/slugs';
import { renderMarkdown } from '../../packages/docs-assistant-server/src/static-export/markdown';

const run = (framework: Parameters<typeof createSlugger>[0], headings: string[]) => {
  const slug = createSlugger(framework);
  return headings.map((heading) => slug(heading));
};

describe('heading anchors per framework', () => {
  const headings = [
    'Getting Started',
    'Getting Started',
    'Café & Crème',
    'foo_bar baz',
    "What's new?",
    'API v2.0',
  ];

  it('Docusaurus and Starlight: github-slugger', () => {
    const expected = [
      'getting-started',
      'getting-started-1',
      'café--crème',
      'foo_bar-baz',
      'whats-new',
      'api-v20',
    ];
    expect(run('docusaurus', headings)).toEqual(expected);
    expect(run('starlight', headings)).toEqual(expected);
  });

  it('VitePress: its slugify, repeats numbered from 1', () => {
    expect(run('vitepress', headings)).toEqual([
      'getting-started',
      'getting-started-1',
      'cafe-creme',
      'foo-bar-baz',
      'what-s-new',
      'api-v2-0',
    ]);
  });

  it('MkDocs: Python-Markdown toc slugify and unique (_1, _2; an empty anchor is _1)', () => {
    expect(run('mkdocs', [...headings, '日本語', 'Getting Started'])).toEqual([
      'getting-started',
      'getting-started_1',
      'cafe-creme',
      'foo_bar-baz',
      'whats-new',
      'api-v20',
      '_1',
      'getting-started_2',
    ]);
    expect(mkdocsSlug('  A -- B  ')).toBe('a-b');
    expect(mkdocsSlug('Über uns')).toBe('uber-uns');
  });

  it('the index writes section anchors by the site framework', () => {
    const source = '# Page\n\n## Café & Crème\n\ntext\n\n## Café & Crème\n\nmore\n';
    const anchors = (framework: Parameters<typeof createSlugger>[0]) =>
      parseDocument('a.md', source, { framework }).sections.map((section) => section.anchor);
    expect(anchors('docusaurus')).toEqual(['café--crème', 'café--crème-1']);
    expect(anchors('vitepress')).toEqual(['cafe-creme', 'cafe-creme-1']);
    expect(anchors('mkdocs')).toEqual(['cafe-creme', 'cafe-creme_1']);
  });
});

describe("a heading's own anchor ({#id})", () => {
  /** What the index, the static export's HTML and the agents' Markdown make of one page. */
  const read = (framework: SiteFramework, file: string, source: string, attrList?: boolean) => {
    const site = { framework, ...(attrList ? { attrList } : {}) };
    const page: DocPage = { ...parseDocument(file, source, site), site } as DocPage;
    const { html, headings } = renderMarkdown(source, {
      page,
      slugger: createSlugger(framework),
      rewriteUrl: (url) => url,
    });
    return {
      sections: page.sections.map((section) => [section.anchor, section.headingPath.at(-1)]),
      html: headings.map((heading) => [heading.id, heading.text]),
      htmlSource: html,
      markdown: markdownOfSource(page, source, { llmsTxtUrl: null }),
    };
  };

  it('Docusaurus: {#id} in Markdown, \\{#id\\}, {#id} and {/* #id */} in MDX; the text loses it, code keeps it', () => {
    const md = read(
      'docusaurus',
      'setup.md',
      '# Setup\n\n## Install *now* {#install}\n\nRun it.\n\n```md\n## In code {#code}\n```\n\n## Configure\n\nSet it.\n',
    );
    expect(md.sections).toEqual([
      ['install', 'Install now'],
      ['configure', 'Configure'],
    ]);
    // The static export's HTML: the page's H1, then the index's anchors and texts.
    expect(md.html).toEqual([['setup', 'Setup'], ...md.sections]);
    expect(md.htmlSource).toContain('<h2 id="install">Install <em>now</em></h2>');
    expect(md.htmlSource).toContain('## In code {#code}');
    expect(md.markdown).toContain('## Install *now*\n');
    expect(md.markdown).toContain('## In code {#code}\n');
    expect(md.markdown).not.toContain('{#install}');

    // MDX: `{#id}` alone would be an expression and `{/* #id */}` a comment, both dropped as such.
    const mdx = read(
      'docusaurus',
      'setup.mdx',
      '# Setup\n\n## Install \\{#install\\}\n\na\n\n## Two {#second}\n\nb\n\n## Three {/* #third */}\n\nc\n',
    );
    expect(mdx.sections).toEqual([
      ['install', 'Install'],
      ['second', 'Two'],
      ['third', 'Three'],
    ]);
    expect(mdx.html).toEqual([['setup', 'Setup'], ...mdx.sections]);
    expect(mdx.markdown).toMatch(/## Install\n[\s\S]*## Two\n[\s\S]*## Three\n/);
  });

  it('VitePress: {#id}, which counts as used (a later heading of that slug is numbered)', () => {
    const page = read('vitepress', 'guide.md', '# Guide\n\n## Set it up {#setup}\n\na\n\n## Setup\n\nb\n');
    expect(page.sections).toEqual([
      ['setup', 'Set it up'],
      ['setup-1', 'Setup'],
    ]);
    expect(page.html.slice(1)).toEqual(page.sections);
  });

  it('Starlight, Mintlify, MkDocs and plain folders show the suffix as text, as those sites do', () => {
    for (const framework of ['starlight', 'mintlify', 'mkdocs', 'folder'] as const) {
      const page = read(framework, 'guide.md', '# Guide\n\n## Set it up {#setup}\n\na\n');
      expect(page.sections[0]![1]).toBe('Set it up {#setup}');
      expect(page.html[1]![1]).toBe('Set it up {#setup}');
      expect(page.html[1]![0]).toBe(page.sections[0]![0]);
    }
  });

  it("MkDocs with attr_list: the id of the heading's attribute list ({ #id .class }, {: #id }), counted as used", () => {
    const source =
      '# Guide\n\n## Set it up { #setup .wide }\n\na\n\n## Wide {: .wide }\n\nb\n\n## Setup\n\nc\n\n## Keys {: #keys data-x="1 2" }\n\nd\n';
    const page = read('mkdocs', 'guide.md', source, true);
    expect(page.sections).toEqual([
      ['setup', 'Set it up'],
      ['wide', 'Wide'],
      ['setup_1', 'Setup'],
      ['keys', 'Keys'],
    ]);
    expect(page.html.slice(1)).toEqual(page.sections);
    expect(page.markdown).toMatch(/## Set it up\n[\s\S]*## Wide\n[\s\S]*## Keys\n/);
  });

  it('MkDocs: attr_list is read from mkdocs.yml, and the loaded pages follow it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'da-attr-list-'));
    try {
      await mkdir(join(root, 'docs'));
      await writeFile(join(root, 'docs', 'index.md'), '# Home\n\n## Install { #install }\n\nRun it.\n');
      const anchors = async (extensions: string) => {
        await writeFile(join(root, 'mkdocs.yml'), `site_name: Lumen\n${extensions}`);
        const { pages } = await loadSite(root, { warn: () => {} });
        return pages[0]!.sections.map((section) => [section.anchor, section.headingPath.at(-1)]);
      };
      expect(await anchors('markdown_extensions:\n  - toc:\n      permalink: true\n  - attr_list\n')).toEqual(
        [['install', 'Install']],
      );
      expect(await anchors('markdown_extensions:\n  - markdown.extensions.attr_list: {}\n')).toEqual([
        ['install', 'Install'],
      ]);
      // Without it, MkDocs prints the braces: so does the index.
      expect(await anchors('markdown_extensions:\n  - admonition\n')).toEqual([
        ['install-install', 'Install { #install }'],
      ]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
