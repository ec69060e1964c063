/**
 * The widget parses answers with `remarkGfmSyntax` (GFM without the Markdown serializer) instead of
 * `remark-gfm`. The rendered HTML must be the same, for whole documents and for the unfinished
 * fragments a stream produces.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import ReactMarkdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { remarkGfmSyntax } from '../../src/parts/remark-gfm-syntax';

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
});
