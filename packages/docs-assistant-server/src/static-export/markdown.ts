/**
 * Markdown/MDX → HTML on the server, with `react-markdown` + `remark-gfm` and `renderToStaticMarkup`.
 * The page is first the Markdown the agents read (`agents/markdown.ts`: components and admonitions
 * turned into what they mean, `:::note` a blockquote led by its label, ESM and expressions gone),
 * so the export shows what the assistant answers from. Raw HTML left in it is dropped (`skipHtml`),
 * never passed through; URLs go through react-markdown's safe transform and then the bundle's
 * link rewriting.
 */
import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown, { type Components, defaultUrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { convertBody } from '../agents/markdown.js';
import type { DocPage } from '../docs/page.js';
import { renderedHeadingWithId, type Slugger } from '../docs/slugs.js';

interface HastLike {
  type: string;
  value?: string;
  children?: HastLike[];
}

function textOf(node: HastLike | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(textOf).join('');
}

/** A heading's children without its own anchor, which ends its last text (`Setup {#setup}`). */
function withoutOwnId(children: ReactNode): ReactNode[] {
  const list = Array.isArray(children) ? [...children] : [children];
  const last = list.at(-1);
  if (typeof last === 'string') list[list.length - 1] = last.replace(/[ \t]*\{#[^\s{}\\]+\}$/, '');
  return list;
}

const isExternal = (url: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//');

export interface RenderMarkdownOptions {
  /** Rewrites a safe URL found in the page (links and images); returns the URL to write. */
  rewriteUrl: (url: string) => string;
  /** Heading ids as the site's framework writes them (`docs/slugs.ts`), the index's anchors. */
  slugger: Slugger;
  /** The page the body is of: whether it is MDX (its file), and where its links start. */
  page: DocPage;
}

export interface RenderedMarkdown {
  html: string;
  headings: { depth: number; id: string; text: string }[];
}

export function renderMarkdown(body: string, options: RenderMarkdownOptions): RenderedMarkdown {
  const headings: RenderedMarkdown['headings'] = [];
  const heading =
    (depth: 1 | 2 | 3 | 4 | 5 | 6) =>
    ({ node, children }: { node?: HastLike; children?: ReactNode }) => {
      const { text, own } = renderedHeadingWithId(textOf(node), options.page.site);
      const id = options.slugger(text, own);
      headings.push({ depth, id, text });
      const tag = `h${depth}`;
      return own
        ? createElement(tag, { id }, ...withoutOwnId(children))
        : createElement(tag, { id }, children);
    };
  const components: Components = {
    h1: heading(1),
    h2: heading(2),
    h3: heading(3),
    h4: heading(4),
    h5: heading(5),
    h6: heading(6),
    // An image on another host would be loaded from there; the bundle loads nothing from another
    // host, so such an image becomes a plain outbound link.
    img: ({ src, alt }) =>
      typeof src === 'string' && isExternal(src)
        ? createElement('a', { href: src, rel: 'noopener noreferrer', 'data-external-image': '' }, alt || src)
        : createElement('img', { src, alt: alt ?? '', loading: 'lazy' }),
    a: ({ href, children, title }) =>
      createElement(
        'a',
        typeof href === 'string' && isExternal(href) && !href.startsWith('mailto:')
          ? { href, title, rel: 'noopener noreferrer' }
          : { href, title },
        children,
      ),
  };
  const element = createElement(
    Markdown,
    {
      remarkPlugins: [remarkGfm],
      skipHtml: true,
      components,
      urlTransform: (url: string) => {
        const safe = defaultUrlTransform(url);
        return safe ? options.rewriteUrl(safe) : safe;
      },
    },
    convertBody(body, options.page, { keepLinks: true, headingIds: true }),
  );
  return { html: renderToStaticMarkup(element), headings };
}
