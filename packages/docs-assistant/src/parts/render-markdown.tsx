/**
 * Markdown text to React elements: what react-markdown does for the widget, without its plugin
 * pipeline. react-markdown runs `unified` with a virtual file (`vfile`, a path module, `extend`),
 * none of which an answer needs: this calls the same three steps directly (micromark with the GFM
 * extensions, mdast to hast, hast to JSX) with react-markdown's options, so the output is the same
 * (`tests/parts/remark-gfm-syntax.test.tsx` holds it to react-markdown with remark-gfm).
 */
import type { Element, Root, RootContent } from 'hast';
import { toJsxRuntime } from 'hast-util-to-jsx-runtime';
import { urlAttributes } from 'html-url-attributes';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toHast } from 'mdast-util-to-hast';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import type { Components } from 'react-markdown';
import { gfmFromMarkdownExtension, gfmSyntax } from './remark-gfm-syntax.js';

export interface RenderMarkdownProps {
  /** The Markdown. */
  children: string;
  components?: Components;
  /** Every URL attribute goes through it; `null` drops the attribute. */
  urlTransform: (url: string) => string | null;
  /** Changes the HTML tree before URLs are checked and elements made (react-markdown's rehype plugins). */
  transform?: (tree: Root) => void;
}

/** Raw HTML becomes its text and URL attributes go through `urlTransform`, as in react-markdown. */
function clean(parent: Root | Element, urlTransform: RenderMarkdownProps['urlTransform']): void {
  const children: RootContent[] = parent.children;
  for (let index = 0; index < children.length; index++) {
    const node = children[index]!;
    if (node.type === 'raw') {
      children[index] = { type: 'text', value: node.value };
    } else if (node.type === 'element') {
      for (const [key, tags] of Object.entries(urlAttributes)) {
        if (Object.hasOwn(node.properties, key) && (tags === null || tags.includes(node.tagName))) {
          node.properties[key] = urlTransform(String(node.properties[key] || ''));
        }
      }
      clean(node, urlTransform);
    }
  }
}

export function RenderMarkdown({ children, components, urlTransform, transform }: RenderMarkdownProps) {
  const mdast = fromMarkdown(children, {
    extensions: [gfmSyntax],
    mdastExtensions: [gfmFromMarkdownExtension],
  });
  const tree = toHast(mdast, { allowDangerousHtml: true }) as Root;
  transform?.(tree);
  clean(tree, urlTransform);
  return toJsxRuntime(tree, {
    Fragment,
    components,
    ignoreInvalidStyle: true,
    jsx,
    jsxs,
    passKeys: true,
    passNode: true,
  });
}
