/**
 * Admonitions in every syntax (`tests/fixtures/admonitions`: Docusaurus `:::note` and
 * `:::tip Title`, Starlight `:::caution[Title]` and `<Aside>`, VitePress `::: warning`,
 * `::: details` and a GitHub alert `> [!IMPORTANT]`, nesting by more colons and by counting, one
 * left open, Mintlify `<Note>`…`<Check>`, MkDocs `!!!`, `???` and `???+` with a nested one) read
 * into their meaning, a labelled quote, wherever a page is shown: the sections the assistant
 * answers from, the page's `.md`, `llms-full.txt`, the static export's HTML and an answer. Inline
 * code stays code in all of them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Blockquote, Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { parseDocument } from '../../packages/docs-assistant-server/src/docs/parse';
import { loadDocs, renderSite } from '../../packages/docs-assistant-server/src/static-export/render';
import { ask, type RunningService, startService } from './helpers';
import { proseOf } from './mdx-fixtures';

const SITE = fileURLToPath(new URL('../fixtures/admonitions', import.meta.url));
const source = (file: string) => readFileSync(join(SITE, file), 'utf8');
const sections = (file: string) => parseDocument(file, source(file)).sections;
const prose = (file: string) => sections(file).flatMap(proseOf);

/** Markdown outside fenced code: where a raw directive line would show to a reader. */
const outsideCode = (markdown: string): string =>
  markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
// What a reader must never see: a directive's opening or closing line, or its remains (`::`).
const RAW_DIRECTIVE = /(^|\s)(:{2,}|!!!|\?\?\?\+?)(\s|\[|[a-z]|$)/m;

/** The text of each blockquote of a Markdown document, one line per paragraph. */
function quotes(markdown: string): string[] {
  const textOf = (node: Nodes): string =>
    node.type === 'text' || node.type === 'inlineCode'
      ? node.type === 'inlineCode'
        ? `\`${node.value}\``
        : node.value
      : 'children' in node
        ? node.children.map(textOf).join(node.type === 'blockquote' ? '\n' : '')
        : '';
  const found: string[] = [];
  const visit = (node: Nodes) => {
    if (node.type === 'blockquote') found.push(textOf(node as Blockquote));
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(fromMarkdown(markdown));
  return found;
}

describe('admonitions in the sections the assistant answers from', () => {
  it('reads each directive syntax as text led by its label, titles on a line of their own', () => {
    const blocks = Object.fromEntries(
      sections('callouts.mdx').map((s) => [s.headingPath.join(' > '), s.blocks]),
    );
    expect(blocks.Docusaurus).toEqual([
      'Note: When setting themes, restart the dev server with `npm run dev`.',
      'Tip: Pick a palette',
      'Use the `palette` option of `themeConfig`.',
    ]);
    expect(blocks.Starlight).toEqual([
      'Caution: Breaking change',
      'The `sidebar` key moved into `starlight()`.',
      'Danger: Do not commit keys',
      'Put `API_KEY` in `.env`, never in the repository.',
    ]);
    // `::: details` is a titled block, not a callout.
    expect(blocks.VitePress).toEqual([
      'Warning: Node 20 or later.',
      'Why a dev server?',
      'It reloads pages when a file changes.',
      'Important: Keep `cleanUrls` in step with the host.',
    ]);
    expect(blocks.Nesting).toEqual([
      'Info: Outer box',
      'Outer text with `outer`.',
      'Tip: Inner tip inside the outer box.',
      'Outer text again.',
      'Note: Same-length outer.',
      'Danger: Same-length inner.',
      'Back in the outer note.',
    ]);
    expect(blocks['Left open']).toEqual(['Tip: An unclosed tip runs to the end of the page.']);
  });

  it('reads the callout components and MkDocs admonitions the same way', () => {
    const mintlify = sections('callouts.mdx').find((s) => s.anchor === 'mintlify');
    expect(mintlify?.blocks).toEqual([
      'Note: Mintlify note with `<Card>` inside.',
      'Tip: Mintlify tip on one line.',
      'Warning: Mintlify warning.',
      'Info: Mintlify info.',
      'Check: Mintlify check.',
    ]);
    expect(sections('mkdocs.md').flatMap((s) => s.blocks)).toEqual([
      'Note: Plain note about `mkdocs.yml`.',
      'Warning: Mind the cache',
      'Clear the cache first.',
      'Tip: Collapsed tip',
      'Hidden until opened.',
      'Danger: Open by default.',
      'Info: Nested info',
      'Inner info.',
      'Text after the callouts.',
    ]);
  });

  it('leaves no directive line in prose, and a directive inside fenced code as code', () => {
    for (const file of ['callouts.mdx', 'mkdocs.md']) {
      for (const text of prose(file)) expect(text, `${file}: ${text}`).not.toMatch(RAW_DIRECTIVE);
    }
    const code = sections('callouts.mdx').find((s) => s.anchor === 'code-is-code')?.code;
    expect(code).toEqual([
      { lang: 'md', code: ':::note\nThis directive is an example in code, not a callout.\n:::' },
    ]);
  });

  it('keeps inline code as code, any number of backticks; headings and anchors stay plain', () => {
    const [intro] = sections('callouts.mdx');
    expect(intro?.blocks).toContain(
      'Wrap the panels in `<Tabs>` and set the `defaultValue` option; `` `ticks` `` stay too.',
    );
    const page = parseDocument('x.md', '# X\n\n## The `theme` option\n\nSet `theme: dark`.\n');
    expect(page.sections[0]?.headingPath).toEqual(['The theme option']);
    expect(page.sections[0]?.anchor).toBe('the-theme-option');
    expect(page.sections[0]?.blocks).toEqual(['Set `theme: dark`.']);
  });
});

describe('admonitions in the Markdown for agents and in the static export', () => {
  let running: RunningService;
  beforeAll(async () => {
    running = await startService({ docs: [SITE], title: 'Callouts' });
  });
  afterAll(() => running.close());

  const get = async (path: string): Promise<string> => {
    const response = await fetch(`${running.url}${path}`);
    expect(response.status, path).toBe(200);
    return response.text();
  };

  it('a page .md shows each admonition as a blockquote led by its label in bold', async () => {
    const markdown = await get('/callouts.md');
    expect(markdown).toContain('> **Note:** When setting themes, restart the dev server with `npm run dev`.');
    expect(markdown).toContain('> **Tip: Pick a palette**\n>\n> Use the `palette` option of `themeConfig`.');
    expect(markdown).toContain(
      '> **Caution: Breaking change**\n>\n> The `sidebar` key moved into `starlight()`.',
    );
    expect(markdown).toContain('> **Danger: Do not commit keys**');
    // A GitHub alert (VitePress reads them too) is a quote already: now a labelled one.
    expect(markdown).toContain('> **Important:** Keep `cleanUrls` in step with\n> the host.');
    expect(markdown).toContain(
      '> **Info: Outer box**\n>\n> Outer text with `outer`.\n>\n> > **Tip:** Inner tip',
    );
    expect(markdown).toContain('> **Note:** Same-length outer.\n>\n> > **Danger:** Same-length inner.');
    expect(markdown).toContain('> **Note:** Mintlify note with `<Card>` inside.');
    expect(markdown).toContain('> **Tip:** An unclosed tip runs to the end of the page.');
    expect(markdown).toContain('Wrap the panels in `<Tabs>` and set the `defaultValue` option');
    expect(outsideCode(markdown)).not.toMatch(RAW_DIRECTIVE);
    // The example in fenced code stays as written.
    expect(markdown).toContain(
      '```md\n:::note\nThis directive is an example in code, not a callout.\n:::\n```',
    );
    // Every blockquote the page has is a labelled one, and parses as one.
    const labelled = quotes(markdown).filter((quote) => !quote.startsWith('Documentation index'));
    // 14 at the top level (Docusaurus 2, Starlight 2, VitePress 2, nesting 2, Mintlify 5, open 1), 2 nested.
    expect(labelled).toHaveLength(16);
    for (const quote of labelled)
      expect(quote).toMatch(/^(Note|Tip|Caution|Danger|Warning|Info|Check|Important):/);

    const mkdocs = await get('/mkdocs.md');
    expect(mkdocs).toContain('> **Note:** Plain note about `mkdocs.yml`.');
    expect(mkdocs).toContain('> **Warning: Mind the cache**\n>\n> Clear the cache first.');
    expect(mkdocs).toContain('> **Tip: Collapsed tip**\n>\n> Hidden until opened.');
    expect(mkdocs).toContain(
      '> **Danger:** Open by default.\n>\n> > **Info: Nested info**\n> >\n> > Inner info.',
    );
    expect(outsideCode(mkdocs)).not.toMatch(RAW_DIRECTIVE);
  });

  it('llms-full.txt holds the same labelled quotes', async () => {
    const full = await get('/llms-full.txt');
    expect(full).toContain('> **Note:** When setting themes, restart the dev server with `npm run dev`.');
    expect(full).toContain('> **Warning: Mind the cache**\n>\n> Clear the cache first.');
    expect(full).toContain('> **Check:** Mintlify check.');
    expect(outsideCode(full)).not.toMatch(RAW_DIRECTIVE);
  });

  it("an answer quotes the note's text with its label and its code as code", async () => {
    const answer = await ask(running.service, 'What should I do after setting themes?');
    expect(answer.text).toContain('Note: When setting themes, restart the dev server with `npm run dev`');
    expect(answer.text).not.toMatch(/:::|\\`/);
  });

  it("the static export's HTML shows a labelled blockquote and inline code", async () => {
    const entries = await renderSite(await loadDocs([SITE]), { domain: 'callouts' });
    const html = (file: string) =>
      new TextDecoder().decode(entries.find((entry) => entry.path === file)!.data);
    const callouts = html('callouts.html');
    expect(callouts).toMatch(
      /<blockquote>\s*<p><strong>Note:<\/strong> When setting themes, restart the dev server with <code>npm run dev<\/code>\.<\/p>\s*<\/blockquote>/,
    );
    expect(callouts).toMatch(/<blockquote>\s*<p><strong>Caution: Breaking change<\/strong><\/p>/);
    expect(callouts).toMatch(
      /<blockquote>\s*<p><strong>Note:<\/strong> Mintlify note with <code>&lt;Card&gt;<\/code>/,
    );
    expect(callouts).toContain('Wrap the panels in <code>&lt;Tabs&gt;</code>');
    // Outside code, no directive line; the example in code is still there.
    expect(callouts.replace(/<pre>[\s\S]*?<\/pre>/g, '')).not.toMatch(/:::/);
    expect(callouts).toMatch(/<pre><code class="language-md">:::note\n/);
    expect(html('mkdocs.html')).toMatch(/<blockquote>\s*<p><strong>Warning: Mind the cache<\/strong><\/p>/);
  });
});
