// @vitest-environment jsdom
/**
 * Incremental Markdown (issue 16): while an answer streams only the block being written is parsed
 * again; a finished block is parsed once, and kept by content, so a background render that starts
 * over or a message that mounts again does not parse it a second time. The cache is bounded.
 * Parses are counted at the parser (`parseMarkdown`: one call is one parse of one block).
 */
import { render } from '@testing-library/react';
import { createElement } from 'react';
import { docsMarkdown, tokenize } from '../../bench/corpus';
import { Markdown, splitMarkdownBlocks, TextPart } from '../../packages/docs-assistant/src/parts';
import { keepSafeHref } from '../../packages/docs-assistant/src/parts/href';
import { updateMarkdownBlocks } from '../../packages/docs-assistant/src/parts/split-markdown-blocks';

const { parses } = vi.hoisted(() => ({ parses: [] as string[] }));
vi.mock('../../packages/docs-assistant/src/parts/parse-markdown', async (importOriginal) => {
  const actual =
    await importOriginal<typeof import('../../packages/docs-assistant/src/parts/parse-markdown')>();
  return {
    parseMarkdown: (markdown: string) => {
      parses.push(markdown);
      return actual.parseMarkdown(markdown);
    },
  };
});

const parsesOf = (source: string) => parses.filter((parsed) => parsed === source).length;

const textPart = (text: string, isStreaming: boolean) => (
  <TextPart
    part={{ type: 'text', text }}
    message={{ id: 'm', role: 'assistant', content: text, parts: [{ type: 'text', text }] }}
    isStreaming={isStreaming}
    resolveHref={keepSafeHref}
  />
);

describe('a long answer streamed token by token', () => {
  // Headings, paragraphs, lists, tables and code fences, as in the streaming benchmark.
  const ANSWER = docsMarkdown(1_500, 11);
  const TOKENS = tokenize(ANSWER);

  it('parses each finished block once, and on each update only the block being written', () => {
    const blocks = splitMarkdownBlocks(ANSWER);
    expect(blocks.length).toBeGreaterThan(15);
    expect(TOKENS.join('')).toBe(ANSWER);
    parses.length = 0;
    const { rerender, container } = render(textPart('', true));
    let text = '';
    let updates = 0;
    // A few tokens per update, as the chat client's batches hand them over.
    for (let i = 0; i < TOKENS.length; i += 1 + (i % 4)) {
      text = TOKENS.slice(0, i + 1).join('');
      const before = parses.length;
      rerender(textPart(text, true));
      updates++;
      // The block being written, and the one before when this update finished it.
      expect(splitMarkdownBlocks(text).slice(-2)).toEqual(expect.arrayContaining(parses.slice(before)));
    }
    rerender(textPart(ANSWER, true));
    rerender(textPart(ANSWER, false));
    expect(updates).toBeGreaterThan(500);

    for (const block of blocks.slice(0, -1)) expect(parsesOf(block)).toBe(1);
    // Everything parsed is the answer once plus, per update, at most the block being written:
    // work per update bounded by the longest block, not by the answer so far.
    const parsedChars = parses.reduce((sum, parsed) => sum + parsed.length, 0);
    const longestBlock = Math.max(...blocks.map((block) => block.length));
    expect(parsedChars).toBeLessThanOrEqual(ANSWER.length + updates * longestBlock);
    expect(parsedChars).toBeLessThan((ANSWER.length * updates) / 10);

    // What streamed in is what the whole answer renders to, rendered afresh (new element
    // overrides: nothing from the cache).
    const fresh = render(<Markdown text={ANSWER} components={{}} />).container;
    const html = (root: Element) =>
      root.querySelector('[data-markdown]')?.outerHTML.replace(/ (id|aria-labelledby)="[^"]*"/g, '');
    expect(parses.filter((parsed) => parsed === blocks[0])).toHaveLength(2);
    expect(html(container)).toBe(html(fresh));
  });
});

describe('finished blocks kept by content', () => {
  const blocksOf = (name: string, count: number, size: number) =>
    Array.from(
      { length: count },
      (_, i) => `${name} paragraph ${i}: ${'the widget streams an answer '.repeat(size)}`,
    );

  it('a message that mounts again parses none of its blocks; other element overrides parse them anew', () => {
    const text = ['# Kept', ...blocksOf('kept', 5, 3), '- a list\n- of two'].join('\n\n');
    parses.length = 0;
    const first = render(<Markdown text={text} />);
    expect(parses).toEqual(splitMarkdownBlocks(text));
    const html = first.container.innerHTML;
    first.unmount();

    parses.length = 0;
    const again = render(<Markdown text={text} />);
    expect(parses).toEqual([]);
    expect(again.container.innerHTML).toBe(html);
    again.unmount();

    // The cache holds elements made with one set of overrides.
    const components = { h1: (props: object) => createElement('h2', props) };
    render(<Markdown text={text} components={components} />);
    expect(parses).toEqual(splitMarkdownBlocks(text));
  });

  it('does not keep the block being written, only finished ones', () => {
    parses.length = 0;
    const { rerender } = render(textPart('Kept once.\n\nStill being writ', true));
    rerender(textPart('Kept once.\n\nStill being written.', true));
    expect(parsesOf('Kept once.')).toBe(1);
    expect(parsesOf('Still being writ')).toBe(1);
    parses.length = 0;
    // Mounted again while streaming, with the first version of the tail: the finished block
    // comes from the cache, the tail is parsed again.
    render(textPart('Kept once.\n\nStill being writ', true));
    expect(parses).toEqual(['Still being writ']);
  });

  it('is bounded: the least recently used blocks go once it holds some 200,000 characters', () => {
    // Three answers of about 90,000 characters each (under the Markdown limit of one text).
    const answers = ['first', 'second', 'third'].map((name) => blocksOf(name, 300, 10).join('\n\n'));
    for (const answer of answers) expect(answer.length).toBeGreaterThan(85_000);
    for (const answer of answers) render(<Markdown text={answer} />).unmount();

    parses.length = 0;
    render(<Markdown text={answers[2]!} />).unmount();
    expect(parses).toEqual([]);
    render(<Markdown text={answers[0]!} />).unmount();
    expect(parses).toEqual(splitMarkdownBlocks(answers[0]!));
  });
});

describe('updateMarkdownBlocks on a stream of chunks', () => {
  it('normalises line endings split across chunks (`\\r` then `\\n`) as a full split does', () => {
    const text = '# Title\r\n\r\nOne line\r\ntwo\r\n\r\n- a\r\n- b\r\n\r\n```\r\ncode\r\n```\r\n\r\nEnd';
    let state = updateMarkdownBlocks(undefined, '');
    for (let end = 1; end <= text.length; end++) {
      state = updateMarkdownBlocks(state, text.slice(0, end));
      expect(state.blocks).toEqual(splitMarkdownBlocks(text.slice(0, end)));
    }
    expect(state.blocks).toEqual(['# Title', 'One line\ntwo', '- a\n- b', '```\ncode\n```', 'End']);
  });

  it('keeps finished blocks as the same strings (what the block memo compares)', () => {
    const first = updateMarkdownBlocks(undefined, 'One\n\nTwo\n\nThree\n\nFo');
    const next = updateMarkdownBlocks(first, 'One\n\nTwo\n\nThree\n\nFour');
    expect(next.blocks).toEqual(['One', 'Two', 'Three', 'Four']);
    expect(next.blocks[0]).toBe(first.blocks[0]);
    expect(next.blocks[1]).toBe(first.blocks[1]);
  });
});
