/**
 * The widget parses answers with `remarkGfmSyntax` (GFM without the Markdown serializer) instead of
 * `remark-gfm`. The rendered HTML must be the same, for whole documents and for the unfinished
 * fragments a stream produces.
 */
import type { Root as HastRoot } from 'hast';
import { renderToStaticMarkup } from 'react-dom/server';
import ReactMarkdown, { defaultUrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import type {} from 'remark-parse';
import type { Processor } from 'unified';
import {
  gfmFromMarkdownExtension,
  gfmSyntax,
} from '../../packages/docs-assistant/src/parts/remark-gfm-syntax';

/** The widget's GFM extensions as a unified plugin for `remark-parse`, to compare with remark-gfm. */
function remarkGfmSyntax(this: Processor): undefined {
  const data = this.data();
  data.micromarkExtensions ??= [];
  data.micromarkExtensions.push(gfmSyntax);
  data.fromMarkdownExtensions ??= [];
  data.fromMarkdownExtensions.push(gfmFromMarkdownExtension);
}

import { parseMarkdown } from '../../packages/docs-assistant/src/parts/parse-markdown';
import { markdownElements } from '../../packages/docs-assistant/src/parts/render-markdown';

const DOCUMENT = `# Configure the widget

Set the options below. ~~Old option~~ is gone; see https://docs.acme.dev/options or www.acme.dev.
Mail support@acme.dev for help.

| Option | Default | Notes |
| :--- | :---: | ---: |
| \`fp\` | \`anonymous\` | **required** |
| retrievalPageSize | 5 | a \\| pipe |

- [x] Install the package
- [ ] Add the widget
  - [ ] nested task

1. First
2. Second

Here is a footnote reference[^1] and another[^note].

[^1]: The footnote text.
[^note]: A named footnote with \`code\`.

\`\`\`ts
const x = 1;
\`\`\`

> A quote with ~strike~ and a link <https://acme.dev>.
`;

const render = (markdown: string, plugin: typeof remarkGfmSyntax | typeof remarkGfm) =>
  renderToStaticMarkup(<ReactMarkdown remarkPlugins={[plugin]}>{markdown}</ReactMarkdown>);

describe('remarkGfmSyntax', () => {
  it('renders every GFM construct exactly as remark-gfm does', () => {
    const html = render(DOCUMENT, remarkGfmSyntax);
    expect(html).toBe(render(DOCUMENT, remarkGfm));
    // And it really is GFM, not plain CommonMark.
    expect(html).toContain('<table>');
    expect(html).toContain('<del>Old option</del>');
    expect(html).toContain('type="checkbox"');
    expect(html).toContain('href="https://docs.acme.dev/options"');
    expect(html).toContain('data-footnotes');
  });

  it('matches remark-gfm on every prefix of the document (what a stream shows)', () => {
    for (let end = 1; end <= DOCUMENT.length; end += 7) {
      const prefix = DOCUMENT.slice(0, end);
      expect(render(prefix, remarkGfmSyntax), prefix).toBe(render(prefix, remarkGfm));
    }
  });

  // The widget lists an answer's footnotes itself (markdown.tsx): its renderer makes no footnote
  // section, so react-markdown's is left out of the comparison.
  const dropFootnoteSection = () => (tree: HastRoot) => {
    tree.children = tree.children.filter(
      (node) => !(node.type === 'element' && node.tagName === 'section' && node.properties.dataFootnotes),
    );
  };

  it('is what the widget renders with: parseMarkdown and markdownElements give the output of react-markdown with remark-gfm (but the footnote section)', () => {
    const html = `${DOCUMENT}\nRaw <b>html</b> and <div>a block</div>; [bad](javascript:alert(1)) ![img](/a.png "t")\n`;
    for (let end = 1; end <= html.length; end += 7) {
      const prefix = html.slice(0, end);
      const ours = renderToStaticMarkup(
        <>{markdownElements(parseMarkdown(prefix), { urlTransform: defaultUrlTransform })}</>,
      );
      const theirs = renderToStaticMarkup(
        <ReactMarkdown
          remarkPlugins={[remarkGfm]}
          rehypePlugins={[dropFootnoteSection]}
          urlTransform={defaultUrlTransform}
        >
          {prefix}
        </ReactMarkdown>,
      );
      expect(ours, prefix).toBe(theirs);
    }
    // Raw HTML shows as text; an unsafe URL is dropped.
    const full = renderToStaticMarkup(
      <>{markdownElements(parseMarkdown(html), { urlTransform: defaultUrlTransform })}</>,
    );
    expect(full).toContain('&lt;b&gt;html&lt;/b&gt;');
    expect(full).not.toContain('javascript:');
  });
});
