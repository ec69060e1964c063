// @vitest-environment jsdom
/**
 * While a block streams, the parts of its tree that did not change keep the elements made for them
 * (`markdownElements` with a memo): React does not render them again, so a growing list or table
 * renders only its last item or row, not all of them on every chunk.
 */
import { act, render } from '@testing-library/react';
import type { ComponentPropsWithoutRef, ReactElement } from 'react';
import { Children, isValidElement } from 'react';
import { StreamingMarkdown } from '../../packages/docs-assistant/src/parts/markdown';
import { parseMarkdown } from '../../packages/docs-assistant/src/parts/parse-markdown';
import {
  createElementsMemo,
  markdownElements,
} from '../../packages/docs-assistant/src/parts/render-markdown';

const urlTransform = (url: string) => url;

type Made = ReactElement<{ children?: unknown }>;

/** The element children of an element as made (the root is a fragment), not copies of them. */
function childElements(element: unknown): Made[] {
  if (!isValidElement<{ children?: unknown }>(element)) return [];
  const { children } = element.props;
  return (Array.isArray(children) ? children : [children]).filter((child): child is Made =>
    isValidElement(child),
  );
}

describe('markdownElements with a memo', () => {
  it('gives the same element objects for the parts of a longer text that are unchanged', () => {
    const memo = createElementsMemo();
    const before = markdownElements(parseMarkdown('- one\n- two [link](/a)\n- thr'), { urlTransform }, memo);
    const after = markdownElements(parseMarkdown('- one\n- two [link](/a)\n- three'), { urlTransform }, memo);
    const [listBefore] = childElements(before);
    const [listAfter] = childElements(after);
    const itemsBefore = childElements(listBefore);
    const itemsAfter = childElements(listAfter);
    expect(itemsAfter).toHaveLength(3);
    // The first two items are the very same elements; the one being written is new.
    expect(itemsAfter[0]).toBe(itemsBefore[0]);
    expect(itemsAfter[1]).toBe(itemsBefore[1]);
    expect(itemsAfter[2]).not.toBe(itemsBefore[2]);
    expect(listAfter).not.toBe(listBefore);
  });

  it('gives the whole previous element back for the same text, and new ones for other overrides', () => {
    const memo = createElementsMemo();
    const first = markdownElements(parseMarkdown('A *b* c'), { urlTransform }, memo);
    expect(markdownElements(parseMarkdown('A *b* c'), { urlTransform }, memo)).toBe(first);
    const components = { em: (props: ComponentPropsWithoutRef<'em'>) => <i {...props} /> };
    expect(markdownElements(parseMarkdown('A *b* c'), { urlTransform, components }, memo)).not.toBe(first);
  });

  it('does not keep an element whose attributes changed (a link whose address grew)', () => {
    const memo = createElementsMemo();
    const before = childElements(markdownElements(parseMarkdown('[a](/gui)'), { urlTransform }, memo));
    const after = childElements(markdownElements(parseMarkdown('[a](/guide)'), { urlTransform }, memo));
    const [linkBefore] = childElements(before[0]);
    const [linkAfter] = childElements(after[0]);
    expect(linkAfter).not.toBe(linkBefore);
    expect((linkAfter as ReactElement<{ href: string }>).props.href).toBe('/guide');
  });

  it('never gives two siblings one key when an earlier sibling changed its element', () => {
    const memo = createElementsMemo();
    markdownElements(parseMarkdown('*a* **b**'), { urlTransform }, memo);
    const [paragraph] = childElements(markdownElements(parseMarkdown('**a** **b**'), { urlTransform }, memo));
    const keys = childElements(paragraph).map((child) => child.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('makes the same HTML as without a memo, on every prefix of a rich answer', () => {
    const answer = [
      '# Title',
      '- one\n- two with `code`\n  - nested [link](https://example.com)',
      '| a | b |\n| --- | :-: |\n| 1 | 2 |\n| 3 | 4 |',
      '> quote *em* and ~~gone~~',
      '```ts\nconst a = 1;\n```',
    ].join('\n\n');
    const memo = createElementsMemo();
    for (let end = 1; end <= answer.length; end += 3) {
      const text = answer.slice(0, end);
      const withMemo = render(<>{markdownElements(parseMarkdown(text), { urlTransform }, memo)}</>);
      const without = render(<>{markdownElements(parseMarkdown(text), { urlTransform })}</>);
      expect(withMemo.container.innerHTML).toBe(without.container.innerHTML);
      withMemo.unmount();
      without.unmount();
    }
  });
});

describe('a streaming block', () => {
  it('renders only the list item being written, not the items before it', async () => {
    const rendered: string[] = [];
    function Item(props: ComponentPropsWithoutRef<'li'> & { node?: unknown }) {
      const { node: _node, ...rest } = props;
      rendered.push(String(Children.toArray(rest.children).join('')));
      return <li {...rest} />;
    }
    const components = { li: Item };
    const texts = ['- alpha\n- beta\n- ga', '- alpha\n- beta\n- gam', '- alpha\n- beta\n- gamma'];
    const view = render(<StreamingMarkdown text={texts[0]!} isStreaming components={components} />);
    await act(async () => {});
    for (const text of texts.slice(1)) {
      rendered.length = 0;
      view.rerender(<StreamingMarkdown text={text} isStreaming components={components} />);
      await act(async () => {});
      // The item being written, as often as the deferred text took to catch up; never the others.
      expect(rendered.length).toBeGreaterThan(0);
      expect(rendered.filter((item) => item !== text.split('- ').at(-1))).toEqual([]);
    }
    expect(view.container.textContent).toContain('gamma');
  });
});
