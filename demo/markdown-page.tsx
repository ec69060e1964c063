import { Children, isValidElement, memo, type ReactNode } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/** GitHub-style heading ids, so `#anchors` in the assistant's sources land on the section. */
function slug(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (isValidElement<{ children?: ReactNode }>(node)) return textOf(node.props.children);
  return '';
}

type HeadingProps = { children?: ReactNode };

function Heading({ level, children }: HeadingProps & { level: 1 | 2 | 3 | 4 }) {
  const Tag = `h${level}` as const;
  return <Tag id={slug(Children.toArray(children).map(textOf).join(''))}>{children}</Tag>;
}

const components: Components = {
  h1: ({ children }: HeadingProps) => <Heading level={1}>{children}</Heading>,
  h2: ({ children }: HeadingProps) => <Heading level={2}>{children}</Heading>,
  h3: ({ children }: HeadingProps) => <Heading level={3}>{children}</Heading>,
  h4: ({ children }: HeadingProps) => <Heading level={4}>{children}</Heading>,
};

/** One docs page. Code blocks are plain `pre`s, which the assistant's code collector picks up. */
export const MarkdownPage = memo(function MarkdownPage({ markdown }: { markdown: string }) {
  return (
    <article className="doc">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
        {markdown}
      </ReactMarkdown>
    </article>
  );
});
MarkdownPage.displayName = 'MarkdownPage';
