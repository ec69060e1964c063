// @vitest-environment jsdom
/**
 * The accessible structure of answers: what is (and is not) a landmark, and which scrolling boxes
 * are tab stops with names. Layout-dependent checks (does it scroll, where is the focus ring) are in
 * tests/ui/layout.browser.test.ts.
 */
import { render, screen, within } from '@testing-library/react';
import axe from 'axe-core';
import { LabelsProvider } from '../../packages/docs-assistant/src/labels';
import { defaultLabels } from '../../packages/docs-assistant/src/labels/defaults';
import { withLabels } from '../../packages/docs-assistant/src/labels/merge';
import { CodeBlock } from '../../packages/docs-assistant/src/parts/code-block';
import { createHrefResolver, Markdown, MessageParts } from '../../packages/docs-assistant/src/parts/index';
import { MarkdownTable } from '../../packages/docs-assistant/src/parts/table';
import { assistantMessage, searchResult } from './fixtures';

const resolveHref = createHrefResolver('https://docs.acme.dev');

function Answer({ id }: { id: string }) {
  return (
    <MessageParts
      message={assistantMessage(
        [
          searchResult('install', [{ path: '/guides/install', title: 'Install' }]),
          {
            type: 'text',
            text: ['Done.', '', '```suggestions', '(Theming)[/guides/theming]', '```'].join('\n'),
          },
        ],
        id,
      )}
      isStreaming={false}
      resolveHref={resolveHref}
    />
  );
}

async function axeViolations(element: Element, rules: string[]) {
  const results = await axe.run(element, { runOnly: { type: 'rule', values: rules } });
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('sources and related pages of several answers', () => {
  it('are lists named by their visible headings, not landmarks that would share one name', async () => {
    const { container } = render(
      <main>
        <Answer id="a1" />
        <Answer id="a2" />
      </main>,
    );
    expect(screen.queryAllByRole('region')).toEqual([]);
    expect(screen.queryAllByRole('navigation')).toEqual([]);
    const sourceLists = screen.getAllByRole('list', { name: 'Sources' });
    expect(sourceLists).toHaveLength(2);
    expect(within(sourceLists[0]!).getByRole('link', { name: /Install/ })).toHaveAttribute(
      'data-docs-assistant',
      'source',
    );
    expect(screen.getAllByRole('heading', { name: 'Sources' })).toHaveLength(2);
    const related = screen.getAllByRole('list', { name: 'Related pages' });
    expect(related).toHaveLength(2);
    expect(within(related[1]!).getByRole('link', { name: 'Theming' })).toHaveAttribute(
      'data-docs-assistant',
      'suggestion',
    );
    expect(
      await axeViolations(container, ['landmark-unique', 'aria-allowed-attr', 'aria-prohibited-attr']),
    ).toEqual([]);
  });
});

describe('code blocks', () => {
  it('make the scrolling <pre> a tab stop named by the language label', async () => {
    const { container } = render(<CodeBlock code={'npm install docs-assistant'} language="sh" />);
    const pre = container.querySelector('pre')!;
    expect(pre).toHaveAttribute('tabindex', '0');
    expect(screen.getByRole('group', { name: 'sh' })).toBe(pre);
    expect(await axeViolations(container, ['scrollable-region-focusable', 'aria-prohibited-attr'])).toEqual(
      [],
    );
  });

  it('name a block without a language with the codeBlock label, translated where given', () => {
    render(
      <LabelsProvider labels={withLabels(defaultLabels, { codeBlock: 'קוד' })}>
        <CodeBlock code="x" />
      </LabelsProvider>,
    );
    expect(screen.getByRole('group', { name: 'קוד' }).tagName).toBe('PRE');
  });

  it('are rendered that way from Markdown fences, two of one language in one answer', () => {
    render(<Markdown text={'```ts\nconst a = 1;\n```\n\n```ts\nconst b = 2;\n```'} />);
    const groups = screen.getAllByRole('group', { name: 'ts' });
    expect(groups.map((pre) => pre.textContent)).toEqual(['const a = 1;', 'const b = 2;']);
    // Groups, not regions: two named regions would be two landmarks called "ts".
    expect(screen.queryAllByRole('region')).toEqual([]);
  });
});

describe('MarkdownTable', () => {
  const TABLE = ['| Variable | Light default |', '| --- | --- |', '| `--da-accent` | `#2563eb` |'].join('\n');

  it('wraps the table in a sideways scroller that is no tab stop while the table fits', () => {
    const { container } = render(<Markdown text={TABLE} components={{ table: MarkdownTable }} />);
    const table = screen.getByRole('table');
    const wrapper = table.parentElement!;
    expect(wrapper).toHaveAttribute('data-table-scroll');
    // jsdom lays nothing out, so nothing overflows: no extra tab stop for a table that fits.
    expect(wrapper).not.toHaveAttribute('tabindex');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Variable', 'Light default']);
    expect(container.querySelector('[data-table-scroll] td code')).toHaveTextContent('--da-accent');
  });

  it('becomes a tab stop once its table is wider than the wrapper', () => {
    // jsdom has no layout: give the wrapper the sizes a browser would measure for a wide table.
    const scrollWidth = vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(640);
    const clientWidth = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(320);
    try {
      render(<Markdown text={TABLE} components={{ table: MarkdownTable }} />);
      const wrapper = screen.getByRole('table').parentElement!;
      expect(wrapper).toHaveAttribute('tabindex', '0');
      expect(wrapper).toHaveAttribute('data-scrolls');
    } finally {
      scrollWidth.mockRestore();
      clientWidth.mockRestore();
    }
  });
});
