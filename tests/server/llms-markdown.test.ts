/**
 * Pages as clean Markdown for agents (`agents/markdown.ts`): the MDX fixtures and each docs
 * framework's component and directive syntax turn into their Markdown meaning, with no JSX, no
 * ESM, no expression and no front matter left, and links between pages resolved to `.md` URLs.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import {
  llmsTxtPath,
  markdownOfSource,
  markdownPath,
  pageMarkdown,
} from '../../packages/docs-assistant-server/src/agents';
import { loadDocs } from '../../packages/docs-assistant-server/src/docs/load';
import { type DocPage, parseDocument } from '../../packages/docs-assistant-server/src/docs/parse';
import { DocsIndex } from '../../packages/docs-assistant-server/src/retrieval/search-index';
import { MDX_FIXTURES } from './mdx-fixtures';

/** Markup that must not reach an agent: tags, JSX attributes and expressions, ESM, front matter. */
const LEFTOVERS: [string, RegExp][] = [
  ['a JSX/HTML tag', /<\/?[A-Za-z][\w.:-]*(\s[^<>]*)?\/?>/],
  ['a JSX expression or comment', /\{\/\*|\{[a-z][\w.]*\}|\{`/],
  ['an ESM line', /(^|\n)\s*(import|export)\s+(\{|[\w*]+\s|const|default|function)/],
  ['front matter', /^---\n|(^|\n)(title|description|sidebarTitle|icon):\s/],
  ['a directive fence', /(^|\n)\s*:::|(^|\n)\s*(!!!|\?\?\?)\s|(^|\n)\s*===\s+"/],
];

/** The Markdown outside fenced code (code may legitimately hold `<tags>` and `{braces}`). */
function prose(markdown: string): string {
  return markdown.replace(/^(\s*)(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\1\2[ \t]*$/gm, '');
}

function expectClean(markdown: string): void {
  const text = prose(markdown).replace(/`[^`\n]+`/g, '');
  for (const [what, pattern] of LEFTOVERS) {
    const found = pattern.exec(text);
    expect(found?.[0], `${what} left in:\n${markdown}`).toBeUndefined();
  }
}

const tree = (markdown: string) =>
  fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });

function nodes(markdown: string, type: string): Nodes[] {
  const found: Nodes[] = [];
  const visit = (node: Nodes) => {
    if (node.type === type) found.push(node);
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(tree(markdown));
  return found;
}

const convert = (file: string, source: string, options = {}) =>
  markdownOfSource(parseDocument(file, source), source, options);

const fixture = (file: string) => {
  const source = readFileSync(join(MDX_FIXTURES, file), 'utf8');
  return { page: parseDocument(file, source), source };
};

describe('the MDX fixtures as Markdown', () => {
  it('every fixture converts to Markdown with no JSX, ESM, expression or front matter', () => {
    for (const file of ['components.mdx', 'custom-domain.mdx', 'install.mdx', 'nested.mdx']) {
      const { page, source } = fixture(file);
      const markdown = markdownOfSource(page, source);
      expectClean(markdown);
      // One H1: the page's title, under the one-line pointer to llms.txt.
      const lines = markdown.split('\n');
      expect(lines[0]).toMatch(/^> .*\[llms\.txt\]\(\/llms\.txt\)/);
      expect(nodes(markdown, 'heading').filter((h) => h.type === 'heading' && h.depth === 1)).toHaveLength(1);
      expect(markdown).toContain(`# ${page.title}`);
    }
  });

  it('the title is the one H1, the description right under it, whether the body opens with an H1 or not', () => {
    const withH1 = convert(
      'a.md',
      '---\ntitle: Setup\ndescription: Set it up.\n---\n\n# Setup guide\n\nText.\n',
    );
    expect(withH1).toMatch(/^> [^\n]*\n\n# Setup guide\n\nSet it up\.\n\nText\.\n$/);
    const withoutH1 = convert('b.md', '---\ntitle: Setup\ndescription: Set it up.\n---\n\nText.\n');
    expect(withoutH1).toMatch(/^> [^\n]*\n\n# Setup\n\nSet it up\.\n\nText\.\n$/);
  });

  it('steps become a numbered list, each step titled, its code kept in the item', () => {
    const { page, source } = fixture('custom-domain.mdx');
    const markdown = markdownOfSource(page, source);
    const lists = nodes(markdown, 'list').filter((list) => list.type === 'list' && list.ordered);
    expect(lists).toHaveLength(1);
    const list = lists[0]!;
    if (list.type !== 'list') throw new Error('not a list');
    expect(list.children).toHaveLength(3);
    expect(markdown).toContain('1. **Add the domain in the dashboard**');
    expect(markdown).toContain('2. **Add a CNAME record**');
    // The step's code block is inside the list item, not after the list.
    const code = nodes(markdown, 'code');
    expect(code.map((c) => (c.type === 'code' ? c.value : ''))).toEqual([
      'docs  CNAME  cname.docs-host.example',
    ]);
    expect(JSON.stringify(list.children[1])).toContain('cname.docs-host.example');
  });

  it('tabs and code groups become headed code blocks; callouts become blockquotes', () => {
    const { page, source } = fixture('components.mdx');
    const markdown = markdownOfSource(page, source);
    // Tabs: one heading per tab, its code under it.
    expect(markdown).toMatch(/## npm\n\n```bash\nnpm install acme-widgets\n```/);
    expect(markdown).toMatch(/## yarn\n\n```bash\nyarn add acme-widgets\n```/);
    // Code group: each block headed by its file name; the info string keeps the language only.
    expect(markdown).toMatch(/## index\.js\n\n```js\nconsole\.log\('<Card title="not a tag, code">'\);\n```/);
    expect(markdown).toMatch(/## main\.py\n\n```py\nprint\("\{not an expression\}"\)\n```/);
    // Callouts: blockquotes that name their kind.
    const quotes = nodes(markdown, 'blockquote').map((q) => JSON.stringify(q));
    expect(quotes.some((q) => q.includes('"Note:"') && q.includes('inline code'))).toBe(true);
    expect(quotes.some((q) => q.includes('"Check:"') && q.includes('Ready'))).toBe(true);
    // Cards keep their link; an image tag becomes a Markdown image; a field its name and type.
    expect(markdown).toContain('**[Quickstart](/quickstart)**');
    expect(markdown).toContain('![Dashboard](/images/dash.png)');
    expect(markdown).toContain('**`projectId`** · `string` · required');
    // Inline components leave their text, with single spaces.
    expect(markdown).toContain('- A list item with an inline icon.');
    expect(markdown).toContain('- Another item with hover text inside.');
    expect(markdown).toContain('Use the value and here.');
  });

  it('a component inside a list item stays in the item', () => {
    const { page, source } = fixture('nested.mdx');
    const markdown = markdownOfSource(page, source);
    expect(markdown).toContain('- Choose events:\n\n  **Orders**\n\n  Order events fire');
    const items = nodes(markdown, 'listItem').map((item) => JSON.stringify(item));
    expect(items.some((item) => item.includes('Choose events') && item.includes('Customer events'))).toBe(
      true,
    );
  });
});

describe('directive syntaxes of the docs frameworks', () => {
  it('Docusaurus and Starlight admonitions become blockquotes with their title', () => {
    const markdown = convert(
      'guide.md',
      [
        '# Guide',
        '',
        ':::tip[Use the CLI]',
        '',
        'It is **faster**.',
        '',
        ':::',
        '',
        ':::danger Take care',
        'This deletes data.',
        ':::',
        '',
        '::::note',
        'Outer.',
        '',
        ':::caution',
        'Inner.',
        ':::',
        '::::',
      ].join('\n'),
    );
    expectClean(markdown);
    expect(markdown).toContain('> **Tip: Use the CLI**\n>\n> It is **faster**.');
    expect(markdown).toContain('> **Danger: Take care**\n>\n> This deletes data.');
    expect(markdown).toContain('> **Note:** Outer.\n>\n> > **Caution:** Inner.');
  });

  it('a VitePress code group becomes headed code blocks, details a titled block', () => {
    const markdown = convert(
      'install.md',
      [
        '# Install',
        '',
        '## Package',
        '',
        '::: code-group',
        '',
        '```sh [npm]',
        'npm add lumen',
        '```',
        '',
        '```sh [pnpm]',
        'pnpm add lumen',
        '```',
        '',
        ':::',
        '',
        '::: details Why not yarn?',
        'Yarn works too.',
        ':::',
        '',
        '::: warning',
        'Node 20 or later.',
        ':::',
      ].join('\n'),
    );
    expectClean(markdown);
    expect(markdown).toContain(
      '### npm\n\n```sh\nnpm add lumen\n```\n\n### pnpm\n\n```sh\npnpm add lumen\n```',
    );
    expect(markdown).toContain('**Why not yarn?**\n\nYarn works too.');
    expect(markdown).toContain('> **Warning:** Node 20 or later.');
  });

  it('MkDocs admonitions and content tabs', () => {
    const markdown = convert(
      'setup.md',
      [
        '# Setup',
        '',
        '!!! note "Before you start"',
        '    You need an account.',
        '',
        '    And a key.',
        '',
        '??? warning',
        '    Collapsed warning.',
        '',
        '=== "Python"',
        '',
        '    ```python',
        '    import lumen',
        '    ```',
        '',
        '=== "JavaScript"',
        '',
        '    ```js',
        "    import lumen from 'lumen';",
        '    ```',
        '',
        'After the tabs.',
      ].join('\n'),
    );
    expectClean(markdown);
    expect(markdown).toContain('> **Note: Before you start**\n>\n> You need an account.\n>\n> And a key.');
    expect(markdown).toContain('> **Warning:** Collapsed warning.');
    expect(markdown).toContain('## Python\n\n```python\nimport lumen\n```');
    expect(markdown).toContain("## JavaScript\n\n```js\nimport lumen from 'lumen';\n```");
    expect(markdown).toMatch(/```\n\nAfter the tabs\.\n$/);
  });

  it('Docusaurus and Starlight tab components, Starlight steps and asides', () => {
    const markdown = convert(
      'tabs.mdx',
      [
        '---',
        'title: Tabs',
        'sidebar:',
        '  order: 2',
        '---',
        "import Tabs from '@theme/Tabs';",
        "import { Steps, Aside } from '@astrojs/starlight/components';",
        '',
        '<Tabs groupId="pm">',
        '  <TabItem value="npm" label="npm">',
        '',
        '  ```bash',
        '  npm i lumen',
        '  ```',
        '',
        '  </TabItem>',
        '  <TabItem value="yarn">',
        '',
        '  ```bash',
        '  yarn add lumen',
        '  ```',
        '',
        '  </TabItem>',
        '</Tabs>',
        '',
        '<Steps>',
        '',
        '1. Install.',
        '2. Deploy.',
        '',
        '</Steps>',
        '',
        '<Aside type="caution" title="Heads up">Keys are secret.</Aside>',
      ].join('\n'),
    );
    expectClean(markdown);
    expect(markdown).toMatch(/^> .*llms\.txt.*\n\n# Tabs\n/);
    expect(markdown).toContain(
      '## npm\n\n```bash\nnpm i lumen\n```\n\n## yarn\n\n```bash\nyarn add lumen\n```',
    );
    expect(markdown).toContain('1. Install.\n2. Deploy.');
    expect(markdown).toContain('> **Caution: Heads up**\n>\n> Keys are secret.');
  });

  it('keeps a "<" of prose that starts no tag', () => {
    const markdown = convert('math.md', '# Math\n\nWhen a <b and b <= c, then a < c.\n');
    expect(markdown).toContain('When a <b and b <= c, then a < c.');
  });

  it('leaves code blocks alone, directives and tags in them included', () => {
    const code = ['```mdx', '<Note>kept</Note>', ':::tip', 'kept', ':::', '{props.kept}', '```'].join('\n');
    const markdown = convert('code.mdx', `# Code\n\n${code}\n`);
    expect(markdown).toContain(code);
  });
});

describe('snippets', () => {
  it('an imported MDX snippet is its converted content in its place; nothing outside the folder is read', async () => {
    const folder = join(dirname(fileURLToPath(import.meta.url)), 'llms-fixtures', 'snippets');
    const pages = await loadDocs([folder], { warn: () => {} });
    const setup = pages.find((page) => page.path === '/guides/setup')!;
    const markdown = pageMarkdown(setup, new DocsIndex(pages));
    expectClean(markdown);
    // The snippet's callout, once per level of the snippet importing itself (bounded), no front matter.
    expect(markdown).toContain('Install it.\n\n> **Note:** Stuck? Write to **support@lumen.example**.');
    expect(markdown.match(/Stuck\?/g)?.length).toBe(3);
    expect(markdown).not.toContain('Support snippet');
    // A relative snippet inline; one outside the docs folder left out.
    expect(markdown).toContain('Then the local part and .');
  });
});

describe('links', () => {
  const page = (file: string, source: string): DocPage => parseDocument(file, source);
  const sources: Record<string, string> = {
    'index.md': '# Home\n',
    'guides/index.md': '# Guides\n\nSee [setup](setup) and [deploy](./deploy.md#steps).\n',
    'guides/setup.md': [
      '# Setup',
      '',
      'Read [the deploy guide](deploy.md), [the home page](/), [keys](../api/keys.mdx "API keys"),',
      '[a section](#install), [the site](https://example.com/x), ![logo](../img/logo.png) and [ref][r].',
      '',
      '<Card title="Keys" href="/api/keys">Manage keys.</Card>',
      '',
      '[r]: /guides/deploy',
      '',
      '`[not a link](deploy.md)`',
    ].join('\n'),
    'guides/deploy.md': '# Deploy\n',
    'api/keys.mdx': '# Keys\n',
  };
  const pages = Object.entries(sources).map(([file, source]) => page(file, source));
  const index = new DocsIndex(pages);
  const setup = pages.find((p) => p.path === '/guides/setup')!;

  it('become the .md URLs of the pages they name, under the base when one is given', () => {
    const markdown = markdownOfSource(setup, sources['guides/setup.md']!, {
      pages: index,
      markdownBase: 'https://docs.example.com',
    });
    const links = nodes(markdown, 'link').map((l) => (l.type === 'link' ? l.url : ''));
    expect(links).toEqual([
      'https://docs.example.com/llms.txt',
      'https://docs.example.com/guides/deploy.md',
      'https://docs.example.com/index.md',
      'https://docs.example.com/api/keys.md',
      '#install',
      'https://example.com/x',
      'https://docs.example.com/api/keys.md',
    ]);
    // The reference definition, the image (not a page: under the site) and the title of a link.
    expect(nodes(markdown, 'definition').map((d) => (d.type === 'definition' ? d.url : ''))).toEqual([
      'https://docs.example.com/guides/deploy.md',
    ]);
    expect(nodes(markdown, 'image').map((i) => (i.type === 'image' ? i.url : ''))).toEqual([
      'https://docs.example.com/img/logo.png',
    ]);
    expect(markdown).toContain('"API keys")');
    // Code is not a link.
    expect(markdown).toContain('`[not a link](deploy.md)`');
  });

  it('are root-relative without a base; an index page resolves links from its folder', () => {
    const guides = pages.find((p) => p.path === '/guides')!;
    const markdown = markdownOfSource(guides, sources['guides/index.md']!, { pages: index });
    expect(markdown).toContain('[setup](/guides/setup.md)');
    expect(markdown).toContain('[deploy](/guides/deploy.md#steps)');
  });

  it('point at the llms.txt of the page language', () => {
    const french = {
      ...pages[0]!,
      path: '/fr',
      language: 'fr',
      site: { languages: ['en', 'fr'], versions: [] },
    };
    expect(llmsTxtPath(french)).toBe('/fr/llms.txt');
    expect(llmsTxtPath({ ...french, language: 'en' })).toBe('/llms.txt');
    expect(markdownPath('/')).toBe('/index.md');
    expect(markdownPath('/fr/guides')).toBe('/fr/guides.md');
  });
});
