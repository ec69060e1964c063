import { describe, expect, it } from 'vitest';
import { markdownToPlainText, truncateAtWord } from '../../packages/docs-assistant/src/ui/plain-text';

const plain = (markdown: string) => markdownToPlainText(markdown, '(code block)');

describe('markdownToPlainText (what the live region says of an answer)', () => {
  it('drops block and inline syntax, keeping the words', () => {
    expect(
      plain(
        [
          '## Install',
          '',
          '1. Run `npm i docs-assistant`.',
          '2. Import **`DocsAssistant`** and *render* it.',
          '> Note: the ~~old~~ new_api_name stays.',
          '- [x] Done: see ![diagram](/d.png) and <https://example.com>.',
          'Line with <kbd>Ctrl</kbd>\\_escaped\\_.',
        ].join('\n'),
      ),
    ).toBe(
      'Install Run npm i docs-assistant. Import DocsAssistant and render it. Note: the old new_api_name stays. Done: see diagram and https://example.com. Line with Ctrl_escaped_.',
    );
  });

  it('reads links as their text and tables as their cells', () => {
    expect(
      plain(
        [
          'See [the guide](/guides/install "Install") or ![the API](/api.png).',
          '',
          '| Prop | Default |',
          '| :--- | ---: |',
          '| variant | floating |',
        ].join('\n'),
      ),
    ).toBe('See the guide or the API. Prop, Default variant, floating');
  });

  it('replaces code blocks, drops the suggestions fence, and drops an unclosed fence to the end', () => {
    const markdown = [
      'Before.',
      '~~~ts',
      'const a = 1;',
      '```not a close',
      '~~~',
      'Between.',
      '```suggestions',
      '(Theming)[/theming]',
      '```',
      'After.',
      '````js',
      'still streaming',
    ].join('\n');
    expect(plain(markdown)).toBe('Before. (code block) Between. After. (code block)');
    expect(markdownToPlainText(markdown, '')).toBe('Before. Between. After.');
  });

  it('with `enough`, stops reading a long answer once the announcement is decided', () => {
    const paragraph = (n: number) => `**Step ${n}.** Run \`step-${n}\`   and  [read on](/s/${n}).`;
    const markdown = Array.from({ length: 2_000 }, (_, n) =>
      n % 7 === 3 ? '```sh\nrun\n```' : paragraph(n),
    ).join('\r\n\n');
    const whole = plain(markdown);
    const start = markdownToPlainText(markdown, '(code block)', 300);
    // Only the beginning was converted, and it is the beginning of the whole text.
    expect(start.length).toBeGreaterThan(300);
    expect(start.length).toBeLessThan(whole.length / 10);
    expect(whole.startsWith(start)).toBe(true);
    expect(truncateAtWord(start, 300)).toBe(truncateAtWord(whole, 300));
    // A short answer is read whole either way.
    expect(markdownToPlainText('Short *answer*.', '', 300)).toBe('Short answer.');
  });
});

describe('truncateAtWord', () => {
  it('leaves short text alone and cuts long text at a word with an ellipsis', () => {
    expect(truncateAtWord('Short answer.', 300)).toBe('Short answer.');
    expect(truncateAtWord('one two three four five six', 14)).toBe('one two three…');
    expect(truncateAtWord('one two, three', 9)).toBe('one two…');
    // A single long word is cut where it must be.
    expect(truncateAtWord('https://example.com/a/very/long/path', 12)).toBe('https://exa…');
  });
});
