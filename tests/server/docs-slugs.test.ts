/**
 * Heading anchors as each framework writes them (`docs/slugs.ts`), against outputs the frameworks
 * themselves give: github-slugger's (Docusaurus, Starlight, GitHub), VitePress's default slugify
 * with markdown-it-anchor's numbering, and Python-Markdown `toc`'s slugify and `unique` (MkDocs),
 * ported here. The section anchors of the index and the export's heading ids come from the same rule.
 */
import { parseDocument } from '../../packages/docs-assistant-server/src/docs/parse';
import { createSlugger, mkdocsSlug } from '../../packages/docs-assistant-server/src/docs/slugs';

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
