// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { LabelsProvider } from '../../packages/docs-assistant/src/labels';
import { defaultLabels } from '../../packages/docs-assistant/src/labels/defaults';
import { withLabels } from '../../packages/docs-assistant/src/labels/merge';
import { Markdown } from '../../packages/docs-assistant/src/parts/index';
import {
  limitMarkdown,
  MARKDOWN_MAX_CHARS,
  MARKDOWN_MAX_DEPTH,
  type MarkdownLimitState,
} from '../../packages/docs-assistant/src/parts/markdown-limits';

/** A list nested `depth` deep, one item per level. */
const nestedList = (depth: number, bullet = (level: number) => `${'  '.repeat(level)}- level ${level + 1}`) =>
  Array.from({ length: depth }, (_, level) => bullet(level)).join('\n');

describe('limitMarkdown', () => {
  it('keeps a list nested up to the limit and cuts at the first deeper line', () => {
    const ok = nestedList(MARKDOWN_MAX_DEPTH);
    expect(limitMarkdown(ok)).toMatchObject({ markdown: ok, rest: '', reason: null });
    const deep = nestedList(MARKDOWN_MAX_DEPTH + 5);
    const result = limitMarkdown(deep);
    expect(result.reason).toBe('depth');
    expect(result.markdown).toBe(`${ok}\n`);
    expect(
      result.rest.startsWith(`${'  '.repeat(MARKDOWN_MAX_DEPTH)}- level ${MARKDOWN_MAX_DEPTH + 1}`),
    ).toBe(true);
    expect(result.markdown + result.rest).toBe(deep);
  });

  it('counts every way a line opens containers: block quotes, markers on one line, ordered lists, tabs', () => {
    const over = MARKDOWN_MAX_DEPTH + 1;
    for (const line of [
      `${'>'.repeat(over)} quoted`,
      `${'> '.repeat(over)}quoted`,
      `${'- '.repeat(over)}item`,
      `${'1. '.repeat(over)}item`,
      `${'* > '.repeat(Math.ceil(over / 2))}mixed`,
      `${'\t'.repeat(Math.ceil(over / 2))}- tabbed`,
      `${'1) '.repeat(over)}item`,
    ]) {
      const text = `Intro\n\n${line}\n`;
      expect(limitMarkdown(text), line).toMatchObject({ reason: 'depth', markdown: 'Intro\n\n' });
    }
    expect(limitMarkdown(`${'>'.repeat(MARKDOWN_MAX_DEPTH)} x\n`).reason).toBeNull();
  });

  it('lets deeply indented code in a fence through, up to a looser bound', () => {
    const code = ['```json', `${' '.repeat(100)}"deep": true`, '```', 'after'].join('\n');
    expect(limitMarkdown(code).reason).toBeNull();
    const tooDeep = ['```', `${' '.repeat(300)}x`, '```'].join('\n');
    expect(limitMarkdown(tooDeep).reason).toBe('depth');
    // Once the fence closes, the ordinary limit applies again.
    const after = ['```', 'code', '```', nestedList(MARKDOWN_MAX_DEPTH + 1)].join('\n');
    expect(limitMarkdown(after).reason).toBe('depth');
    // Indented four columns it is code, not a fence: the list after it is still measured.
    const notAFence = ['    ```', '', nestedList(MARKDOWN_MAX_DEPTH + 1)].join('\n');
    expect(limitMarkdown(notAFence).reason).toBe('depth');
  });

  it('cuts a long text at the last line break within the size limit, and a text without breaks at the limit', () => {
    const line = `${'word '.repeat(19)}end\n`;
    const long = line.repeat(Math.ceil((MARKDOWN_MAX_CHARS * 2) / line.length));
    const result = limitMarkdown(long);
    expect(result.reason).toBe('size');
    expect(result.markdown.length).toBeLessThanOrEqual(MARKDOWN_MAX_CHARS);
    expect(result.markdown.length).toBeGreaterThan(MARKDOWN_MAX_CHARS - line.length);
    expect(result.markdown.endsWith('\n')).toBe(true);
    expect(result.markdown + result.rest).toBe(long);

    const oneLine = 'x'.repeat(MARKDOWN_MAX_CHARS + 10);
    expect(limitMarkdown(oneLine)).toMatchObject({ reason: 'size', rest: 'x'.repeat(10) });
    expect(limitMarkdown('x'.repeat(MARKDOWN_MAX_CHARS)).reason).toBeNull();
  });

  it('while streaming, scans only new lines, waits for a line to be complete, and keeps a cut where it was', () => {
    const deep = `${nestedList(MARKDOWN_MAX_DEPTH + 3)}\n`;
    let state: MarkdownLimitState | undefined;
    const cuts = new Set<number>();
    for (let end = 1; end <= deep.length; end += 7) {
      state = limitMarkdown(deep.slice(0, end), state);
      expect(state.markdown + state.rest).toBe(deep.slice(0, end));
      if (state.reason) cuts.add(state.markdown.length);
    }
    state = limitMarkdown(deep, state);
    expect(state.reason).toBe('depth');
    expect([...cuts]).toEqual([state.markdown.length]);
    expect(state).toEqual(limitMarkdown(deep));
    // A text that does not continue the previous one is scanned afresh.
    expect(limitMarkdown('fresh', state)).toMatchObject({ markdown: 'fresh', reason: null });
  });
});

describe('Markdown past the limits', () => {
  it('renders the rest as plain text after a notice, with no list deeper than the limit', () => {
    const deep = nestedList(200);
    const { container } = render(<Markdown text={deep} />);
    const notice = container.querySelector('[data-markdown-limit]');
    expect(notice).toHaveAttribute('data-markdown-limit', 'depth');
    expect(notice).toHaveTextContent('nested too deeply');
    let depth = 0;
    for (let list = container.querySelector('ul'); list; list = list.querySelector('ul')) depth++;
    expect(depth).toBe(MARKDOWN_MAX_DEPTH);
    expect(container.querySelector('[data-markdown-rest]')).toHaveTextContent('level 200');
    expect(container.querySelector('[data-markdown-rest]')?.textContent).toBe(
      deep.slice(deep.indexOf(`${'  '.repeat(MARKDOWN_MAX_DEPTH)}-`)),
    );
  });

  it('says a long answer is too long, and takes the notice from labels', () => {
    // Few, long paragraphs: jsdom is slow with many elements.
    const text = `# Title\n\n${`${'word '.repeat(2000)}\n\n`.repeat(MARKDOWN_MAX_CHARS / 10_000 + 1)}`;
    const { unmount } = render(<Markdown text={text} />);
    expect(screen.getByRole('heading', { name: 'Title' })).toBeInTheDocument();
    expect(screen.getByText(/too long to format/)).toHaveAttribute('data-markdown-limit', 'size');
    unmount();
    render(
      <LabelsProvider
        labels={withLabels(defaultLabels, {
          markdownLimit: (reason) => `Trop ${reason === 'size' ? 'long' : 'profond'}`,
        })}
      >
        <Markdown text={text} />
      </LabelsProvider>,
    );
    expect(screen.getByText('Trop long')).toHaveAttribute('data-markdown-limit', 'size');
  });

  it('renders an answer within the limits as before, with no notice', () => {
    const { container } = render(<Markdown text={nestedList(5)} />);
    expect(container.querySelector('[data-markdown-limit]')).toBeNull();
    expect(container.querySelectorAll('ul')).toHaveLength(5);
  });
});
