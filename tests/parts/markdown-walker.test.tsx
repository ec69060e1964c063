/**
 * The Markdown renderer walks the parser's tree itself (`render-markdown.tsx`), without
 * mdast-util-to-hast. Its output must stay what the mdast-util-to-hast pipeline rendered: the
 * fixture `__fixtures__/markdown-walker.html` was made once with that pipeline, from the sample
 * below, which goes through every construct the renderer handles.
 */
import type { HTMLAttributes } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createHrefResolver, Markdown } from '../../packages/docs-assistant/src/parts';
import type { ExtraProps } from '../../packages/docs-assistant/src/parts/markdown-components';

const SAMPLE = `# Heading one
## Heading *two*
### Three
#### Four
##### Five
###### Six

Setext heading
--------------

A paragraph with *emphasis*, _more_, **strong**, __strong too__, ~~deleted~~, ~single~ and
\`inline
code\` across a line; an entity &amp; &copy; and a backslash \\* escape.
Line ending with two spaces  
   next line after a hard break\\
	and after a backslash break.

Links: [docs](/docs/start "Start here"), [abs](https://docs.acme.dev/x?y=1#z), <https://acme.dev/auto>,
www.acme.dev/www, mail help@acme.dev, [bad](javascript:alert(1)), [mail](mailto:a@b.co),
[spaces](</a b/ü>), [empty]().

Images: ![alt text](/img/a.png "A title"), ![remote](https://elsewhere.example/x.png),
![data](data:image/png;base64,iVBORw0KGgo=), ![](/img/noalt.png), [![inner](https://cdn.example/i.png)](/docs/linked).

References: [full][ref], [collapsed][], [ref], [Case][REF], [missing][nope], [also missing][],
![image ref][pic], ![missing image][nope] and *[emphasised][nope]*.

[ref]: /docs/ref "Ref title"
[collapsed]: https://docs.acme.dev/collapsed
[case]: /docs/case
[pic]: /img/pic.png 'Pic'

Footnotes[^1], again[^1], named[^Note], undefined[^zzz].

[^1]: The first footnote, with [a link](/docs/fn).
[^Note]: A named one
    with a second paragraph? No, a lazy line.

Raw <b>inline html</b> and <span class="x">span</span>.

<div onclick="alert(1)">
block html
</div>

<!-- a comment -->

- tight one
- tight **two**
  - nested a
  - nested b
- three

1. first

2. second, loose

   with a second paragraph
3. third

3) starts at three
4) four

0. starts at zero

- [x] done task
- [ ] open task
  * [ ] nested task
- [x]
- plain item in a task list

* > a quote in a list
*     indented code in a list

> A quote with **strong**
> and a second line
>
> > nested quote
>
> - list in quote

---
***

\`\`\`ts title="x.ts"
const x = 1;
  indented();
\`\`\`

\`\`\`
no language
\`\`\`

\`\`\`js python
first language only
\`\`\`

\`\`\`
\`\`\`

    indented code block

| Left | Center | Right | None |
| :--- | :----: | ----: | ---- |
| a | **b** | \`c\` | d |
| short row |
| e | f | g | h | extra |

| Only |
| ---- |

A | B
- | -
1 | 2

Trailing paragraph with a final footnote call[^1].
`;

const resolveHref = createHrefResolver('https://docs.acme.dev/docs');

function Tagged(tag: string) {
  return function Component({ node, children, ...props }: HTMLAttributes<HTMLElement> & ExtraProps) {
    return (
      <span data-tag={tag} data-node={node?.tagName} {...props}>
        {children}
      </span>
    );
  };
}

const components = {
  li: Tagged('li'),
  td: Tagged('td'),
  th: Tagged('th'),
  blockquote: 'section',
  code: Tagged('code'),
  h2: Tagged('h2'),
  sup: Tagged('sup'),
} as const;

describe('Markdown walker', () => {
  it('renders a broad sample as the mdast-util-to-hast pipeline did', async () => {
    const html = renderToStaticMarkup(
      <>
        <Markdown text={SAMPLE} resolveHref={resolveHref} allowedImageOrigins={['https://cdn.example']} />
        <hr data-between="" />
        <Markdown text={SAMPLE} resolveHref={resolveHref} components={components} />
      </>,
    );
    await expect(html.replace(/></g, '>\n<')).toMatchFileSnapshot('./__fixtures__/markdown-walker.html');
  });

  it('renders every prefix of the sample as the mdast-util-to-hast pipeline did', async () => {
    const parts: string[] = [];
    for (let end = 1; end <= SAMPLE.length; end += 53) {
      parts.push(renderToStaticMarkup(<Markdown text={SAMPLE.slice(0, end)} resolveHref={resolveHref} />));
    }
    await expect(parts.join('\n=====\n')).toMatchFileSnapshot('./__fixtures__/markdown-walker-prefixes.html');
  });
});
