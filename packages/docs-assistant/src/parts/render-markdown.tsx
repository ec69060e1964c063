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

type UrlTransform = (url: string, key: string, node: Element) => string | null;

export interface MarkdownElementsOptions {
  components?: Components;
  /** Every URL attribute goes through it (with its name and element); `null` drops the attribute. */
  urlTransform: UrlTransform;
  /** Changes the HTML tree before URLs are checked and elements made (react-markdown's rehype plugins). */
  transform?: (tree: Root) => void;
}

/**
 * The elements made from a block's previous tree, to make the next tree's from (see `toReact`).
 * Kept by the block, for one set of options.
 */
export interface ElementsMemo {
  tree?: Root;
  /** The element made for each node of the trees this memo has seen. */
  made: WeakMap<Root | Element, ReactNode>;
  components?: Components;
  urlTransform?: UrlTransform;
}

export const createElementsMemo = (): ElementsMemo => ({ made: new WeakMap() });

/**
 * hast to React elements, as `hast-util-to-jsx-runtime` does with react-markdown's options (keys
 * `tag-n`, `node` passed to components, no whitespace text inside table rows, a cell's `align` as
 * `textAlign`), for the HTML `mdastToHast` makes from Markdown. That package also maps every
 * HTML and SVG attribute through `property-information` (some 10 kB gzip in the panel) and parses
 * `style` strings; neither occurs here: Markdown yields HTML elements whose properties are named as
 * React names them, plus `data*` and `aria*` ones, spelled out below.
 *
 * `previous` is the node at the same place in the tree the block showed before (its text was
 * shorter): a node whose children all came out as they did there, and whose properties are the
 * same, gets the very element made there, which React does not render again. While a block
 * streams, only the path to its newest words renders, not every item of a list or row of a table.
 */
function toReact(
  node: Root | Element,
  components: Components | undefined,
  urlTransform: UrlTransform,
  key: string | undefined,
  made: WeakMap<Root | Element, ReactNode> | undefined,
  previous: Root | Element | undefined,
): ReactNode {
  const children: ReactNode[] = [];
  const counts = new Map<string, number>();
  const table = node.type === 'element' && TABLE_ELEMENTS.has(node.tagName);
  const before = previous?.children as RootContent[] | undefined;
  let same = previous !== undefined && before!.length === node.children.length;
  // Raw HTML is already text in the tree (`mdastToHast`), as in react-markdown.
  (node.children as RootContent[]).forEach((child, index) => {
    const old = before?.[index];
    if (child.type === 'text') {
      if (!(table && /^[ \t\n\f\r]*$/.test(child.value))) children.push(child.value);
      same &&= old?.type === 'text' && old.value === child.value;
    } else if (child.type === 'element') {
      const count = counts.get(child.tagName) ?? 0;
      counts.set(child.tagName, count + 1);
      const earlier = old?.type === 'element' && old.tagName === child.tagName ? old : undefined;
      const element = toReact(child, components, urlTransform, `${child.tagName}-${count}`, made, earlier);
      children.push(element);
      same &&= earlier !== undefined && made!.get(earlier) === element;
    } else {
      same &&= old?.type === child.type;
    }
  });
  const kept = same ? made!.get(previous!) : undefined;
  // The key too: an element kept where its siblings changed could take a sibling's key. The
  // properties are compared before URLs are checked: a URL kept compares equal to the one written,
  // and one refused (null in the previous tree) does not, so that element is made again.
  if (kept !== undefined && (kept as { key?: string | null }).key === (key ?? null)) {
    if (sameProperties(node, previous!)) {
      made!.set(node, kept);
      return kept;
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
  const element = key ? create(type, props, key) : create(type, props);
  made?.set(node, element);
  return element;
}

/** Same properties (lists of tokens compared item by item). */
function sameProperties(node: Root | Element, previous: Root | Element): boolean {
  if (node.type !== 'element' || previous.type !== 'element') return node.type === previous.type;
  const now = node.properties;
  const then = previous.properties;
  let count = 0;
  for (const name in now) {
    count++;
    const value = now[name];
    const old = then[name];
    if (value === old) continue;
    if (!Array.isArray(value) || !Array.isArray(old) || value.length !== old.length) return false;
    if (value.some((item, index) => item !== old[index])) return false;
  }
  for (const _ in then) count--;
  return count === 0;
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
 * again. With a `memo`, the parts that are as they were in the memo's last tree keep the elements
 * made for it (see `toReact`).
 */
export function markdownElements(
  tree: Root,
  { components, urlTransform, transform }: MarkdownElementsOptions,
  memo?: ElementsMemo,
): ReactNode {
  transform?.(tree);
  if (!memo) return toReact(tree, components, urlTransform, undefined, undefined, undefined);
  // Elements made with other overrides or another URL check are not this tree's.
  if (memo.components !== components || memo.urlTransform !== urlTransform) {
    Object.assign(memo, createElementsMemo(), { components, urlTransform });
  }
  const elements = toReact(tree, components, urlTransform, undefined, memo.made, memo.tree);
  memo.tree = tree;
  return elements;
}
