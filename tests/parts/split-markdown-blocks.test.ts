import {
  type MarkdownBlocks,
  splitMarkdownBlocks,
  updateMarkdownBlocks,
} from '../../packages/docs-assistant/src/parts/split-markdown-blocks';

describe('splitMarkdownBlocks', () => {
  it('returns no blocks for empty or blank text', () => {
    expect(splitMarkdownBlocks('')).toEqual([]);
    expect(splitMarkdownBlocks('\n\n  \n')).toEqual([]);
  });

  it('splits paragraphs at blank lines and drops the blank lines', () => {
    expect(splitMarkdownBlocks('\nOne\nstill one\n\n\nTwo\n')).toEqual(['One\nstill one', 'Two']);
  });

  it('normalises CRLF line endings', () => {
    expect(splitMarkdownBlocks('One\r\n\r\nTwo')).toEqual(['One', 'Two']);
  });

  it('never splits inside a fenced code block', () => {
    const code = '```ts\nconst a = 1;\n\n\nconst b = 2;\n```';
    expect(splitMarkdownBlocks(`Intro\n\n${code}\n\nAfter`)).toEqual(['Intro', code, 'After']);
  });

  it('keeps an unterminated fence (still streaming) and everything after it in one block', () => {
    const text = 'Intro\n\n```py\nprint(1)\n\n# not a heading\n\nstill code';
    expect(splitMarkdownBlocks(text)).toEqual(['Intro', '```py\nprint(1)\n\n# not a heading\n\nstill code']);
  });

  it('closes a fence only with the same character, at least as long, and no info string', () => {
    const tilde = '~~~\na\n```\n\nb\n~~~';
    expect(splitMarkdownBlocks(`${tilde}\n\nAfter`)).toEqual([tilde, 'After']);
    const long = '````md\n```js\nx\n```\n\nstill inside\n````';
    expect(splitMarkdownBlocks(`${long}\n\nAfter`)).toEqual([long, 'After']);
    const notClosed = '```\nx\n``` not a close\n\ny';
    expect(splitMarkdownBlocks(notClosed)).toEqual([notClosed]);
  });

  it('does not take inline code with triple backticks for a fence', () => {
    expect(splitMarkdownBlocks('```inline``` code\n\nNext')).toEqual(['```inline``` code', 'Next']);
  });

  it('keeps a loose list in one block and ends it at an unindented paragraph', () => {
    const list = '1. First\n\n2. Second\n\n   continued paragraph\n\n3. Third';
    expect(splitMarkdownBlocks(`Steps:\n\n${list}\n\nDone.`)).toEqual(['Steps:', list, 'Done.']);
  });

  it('keeps a list that starts right under a paragraph together with its later items', () => {
    const text = 'You can:\n- a\n- b\n\n- c';
    expect(splitMarkdownBlocks(text)).toEqual([text]);
  });

  it('keeps indented code after a blank line with the block above', () => {
    const text = '- item\n\n      indented code in the item';
    expect(splitMarkdownBlocks(text)).toEqual([text]);
  });

  it('keeps the rows of a table in one block', () => {
    const table = '| Name | Type |\n| --- | --- |\n| fp | string |\n| messages | array |';
    expect(splitMarkdownBlocks(`Fields:\n\n${table}\n\nThat is all.`)).toEqual([
      'Fields:',
      table,
      'That is all.',
    ]);
  });

  it('puts an ATX heading in a block of its own, even without blank lines', () => {
    expect(splitMarkdownBlocks('# Title\nIntro text\n## Next\nMore')).toEqual([
      '# Title',
      'Intro text',
      '## Next',
      'More',
    ]);
  });

  it('leaves setext headings, `#hashtags` and indented `#` lines alone', () => {
    expect(splitMarkdownBlocks('Title\n=====\ntext')).toEqual(['Title\n=====\ntext']);
    expect(splitMarkdownBlocks('a\n#hashtag')).toEqual(['a\n#hashtag']);
    expect(splitMarkdownBlocks('- item\n  # sub')).toEqual(['- item\n  # sub']);
  });

  it('keeps finished blocks identical while text is appended (streaming)', () => {
    const full = '# Intro\n\nSome text.\n\n- a\n- b\n\n```js\nx\n\ny\n```\n\nEnd.';
    const final = splitMarkdownBlocks(full);
    for (let end = 1; end <= full.length; end++) {
      const blocks = splitMarkdownBlocks(full.slice(0, end));
      // Every block but the last is already final.
      expect(blocks.slice(0, -1)).toEqual(final.slice(0, blocks.length - 1));
    }
  });
});

describe('updateMarkdownBlocks', () => {
  const texts = [
    '# Intro\n\nSome text.\n\n- a\n- b\n\n```js\nx\n\ny\n```\n\nEnd.\n\n| a | b |\n| - | - |\n| 1 | 2 |',
    // The boundary before the last block moves once "1" turns out to be "1. b" (a list item).
    'Para\n\n- a\n\n1. b\n\nAfter\n\n# H\ntext',
    'Windows\r\n\r\nline endings\r\n\r\n```\r\ncode\r\n\r\n```\r\n\r\ndone',
  ];

  it.each(texts)('equals a full split at every length while text streams in (%#)', (full) => {
    let state: MarkdownBlocks | undefined;
    for (let end = 0; end <= full.length; end++) {
      const previous = state;
      state = updateMarkdownBlocks(state, full.slice(0, end));
      expect(state.blocks).toEqual(splitMarkdownBlocks(full.slice(0, end)));
      // Finished blocks are carried over, not re-created.
      if (previous && previous.blocks.length > 2) {
        expect(state.blocks[0]).toBe(previous.blocks[0]);
      }
    }
  });

  it('starts over when the text is replaced rather than extended', () => {
    const first = updateMarkdownBlocks(undefined, 'One\n\nTwo\n\nThree\n\nFour');
    expect(updateMarkdownBlocks(first, 'Other\n\nText').blocks).toEqual(['Other', 'Text']);
    expect(updateMarkdownBlocks(first, first.text)).toBe(first);
  });

  it('records where each block starts', () => {
    const { text, blocks, starts } = updateMarkdownBlocks(undefined, '\nOne\n\n\nTwo\nlines\n\n- x');
    expect(starts.map((start, i) => text.slice(start, start + blocks[i]!.length))).toEqual(blocks);
  });
});
