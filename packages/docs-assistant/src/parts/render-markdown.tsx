/**
 * Markdown text to React elements: what react-markdown does for the widget, without its plugin
 * pipeline. react-markdown runs `unified` with a virtual file (`vfile`, a path module, `extend`),
 * none of which an answer needs: this calls the same steps directly (micromark with the GFM
 * extensions, mdast to hast with `mdast-to-hast.ts`) and turns the HTML tree into elements itself,
 * with react-markdown's options, so the output is the same but for the footnote section, which
 * the widget lists itself (`tests/parts/remark-gfm-syntax.test.tsx` holds it to react-markdown
 * with remark-gfm).
 */
import type { Element, Properties, Root, RootContent } from 'hast';
import type { ElementType, ReactNode } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import type { Components } from './markdown-components.js';
import { parseMarkdown } from './parse-markdown.js';

type UrlTransform = (url: string, key: string, node: Element) => string | null;

export interface MarkdownElementsOptions {
  components?: Components;
  /** Every URL attribute goes through it (with its name and element); `null` drops the attribute. */
  urlTransform: UrlTransform;
  /** Changes the HTML tree before URLs are checked and elements made (react-markdown's rehype plugins). */
  transform?: (tree: Root) => void;
}

export interface RenderMarkdownProps extends MarkdownElementsOptions {
  /** The Markdown. */
  children: string;
}

/**
 * hast to React elements, as `hast-util-to-jsx-runtime` does with react-markdown's options (keys
 * `tag-n`, `node` passed to components, no whitespace text inside table rows, a cell's `align` as
 * `textAlign`), for the HTML `mdastToHast` makes from Markdown. That package also maps every
 * HTML and SVG attribute through `property-information` (some 10 kB gzip in the panel) and parses
 * `style` strings; neither occurs here: Markdown yields HTML elements whose properties are named as
 * React names them, plus `data*` and `aria*` ones, spelled out below.
 */
function toReact(
  node: Root | Element,
  components: Components | undefined,
  urlTransform: UrlTransform,
  key?: string,
): ReactNode {
  const children: ReactNode[] = [];
  const counts = new Map<string, number>();
  const table = node.type === 'element' && TABLE_ELEMENTS.has(node.tagName);
  // Raw HTML is already text in the tree (`mdastToHast`), as in react-markdown.
  for (const child of node.children as RootContent[]) {
    if (child.type === 'text') {
      if (!(table && /^[ \t\n\f\r]*$/.test(child.value))) children.push(child.value);
    } else if (child.type === 'element') {
      const count = counts.get(child.tagName) ?? 0;
      counts.set(child.tagName, count + 1);
      children.push(toReact(child, components, urlTransform, `${child.tagName}-${count}`));
    }
  }
  const props: Record<string, unknown> = node.type === 'element' ? toProps(node, urlTransform) : {};
  const value = children.length > 1 ? children : children[0];
  if (value) props.children = value;
  let type: ElementType = Fragment;
  if (node.type === 'element') {
    const component =
      components && Object.hasOwn(components, node.tagName)
        ? components[node.tagName as keyof Components]
        : undefined;
    type = (component ?? node.tagName) as ElementType;
    if (component) props.node = node;
  }
  const create = Array.isArray(props.children) ? jsxs : jsx;
  return key ? create(type, props, key) : create(type, props);
}

const TABLE_ELEMENTS = new Set(['table', 'tbody', 'thead', 'tfoot', 'tr']);

/**
 * An element's props. Its URL attributes go through `urlTransform` first, as in react-markdown,
 * and the tree keeps what it returned (components get the tree, after their children's turn).
 */
function toProps(node: Element, urlTransform: UrlTransform): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  const properties: Record<string, Properties[string]> = node.properties;
  for (const name in properties) {
    // react-markdown checks every URL attribute of HTML (`html-url-attributes`); from Markdown the
    // HTML tree only ever has two: a link's `href` and an image's `src`.
    // A `null` is a URL already refused (a tree from the worker may be made into elements twice).
    if (
      properties[name] !== null &&
      name === (node.tagName === 'a' ? 'href' : node.tagName === 'img' ? 'src' : '')
    ) {
      properties[name] = urlTransform(String(properties[name] || ''), name, node);
    }
    const value = properties[name];
    if (value === null || value === undefined || Number.isNaN(value)) continue;
    // Lists of tokens (`className`, `ariaDescribedBy`) are space-separated in the HTML.
    const prop = Array.isArray(value) ? value.join(' ') : value;
    if (name === 'align' && typeof prop === 'string' && (node.tagName === 'td' || node.tagName === 'th')) {
      props.style = { textAlign: prop };
    } else if (/^data[A-Z]/.test(name)) {
      props[`data${name.slice(4).replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`] = prop;
    } else if (/^aria[A-Z]/.test(name)) {
      props[`aria-${name.slice(4).toLowerCase()}`] = prop;
    } else {
      props[name] = prop;
    }
  }
  return props;
}

/**
 * The elements of a parsed tree (`parseMarkdown`, here or in the Markdown worker). The tree is
 * changed in place (the transform, checked URLs), in a way that gives the same elements if done
 * again.
 */
export function markdownElements(
  tree: Root,
  { components, urlTransform, transform }: MarkdownElementsOptions,
): ReactNode {
  transform?.(tree);
  return toReact(tree, components, urlTransform);
}

export function RenderMarkdown({ children, ...options }: RenderMarkdownProps) {
  return markdownElements(parseMarkdown(children), options);
}
