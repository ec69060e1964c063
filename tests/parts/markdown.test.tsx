// @vitest-environment jsdom
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { LabelsProvider } from '../../packages/docs-assistant/src/labels';
import { defaultLabels } from '../../packages/docs-assistant/src/labels/defaults';
import { withLabels } from '../../packages/docs-assistant/src/labels/merge';
import { createHrefResolver, Markdown } from '../../packages/docs-assistant/src/parts';

const resolveHref = createHrefResolver('https://docs.acme.dev/docs');

function renderMarkdown(text: string) {
  return render(<Markdown text={text} resolveHref={resolveHref} />);
}

describe('Markdown', () => {
  const originalExecCommand = document.execCommand;
  afterEach(() => {
    document.execCommand = originalExecCommand;
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('renders GFM: tables, task lists, strikethrough and autolinks', () => {
    const { container } = renderMarkdown(
      [
        '| Field | Type |',
        '| --- | --- |',
        '| fp | string |',
        '',
        '- [x] done',
        '- [ ] todo',
        '',
        '~~old~~ and www.example.com',
      ].join('\n'),
    );
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Field', 'Type']);
    expect(within(table).getByRole('cell', { name: 'string' })).toBeInTheDocument();
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes).toHaveLength(2);
    expect(boxes[0]).toBeChecked();
    expect(boxes[1]).not.toBeChecked();
    expect(container.querySelector('del')).toHaveTextContent('old');
    expect(screen.getByRole('link', { name: 'www.example.com' })).toHaveAttribute(
      'href',
      'http://www.example.com/',
    );
  });

  it('renders a fenced block as <pre><code> with its language and copies the code', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const { container } = renderMarkdown(
      'Run:\n\n```bash\nnpm i docs-assistant\nnpx docs-assistant serve\n```',
    );
    const code = container.querySelector('pre > code');
    expect(code).toHaveTextContent('npm i docs-assistant');
    expect(container.querySelector('[data-code-language]')).toHaveTextContent('bash');

    const button = screen.getByRole('button', { name: 'Copy code' });
    await act(async () => {
      fireEvent.click(button);
    });
    expect(writeText).toHaveBeenCalledWith('npm i docs-assistant\nnpx docs-assistant serve');
    expect(button).toHaveTextContent('Copied');
    expect(button).toHaveAttribute('data-copy-state', 'copied');
  });

  it('goes back to "Copy code" after a while', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: vi.fn().mockResolvedValue(undefined) },
    });
    renderMarkdown('```\nx\n```');
    const button = screen.getByRole('button', { name: 'Copy code' });
    await act(async () => {
      fireEvent.click(button);
    });
    expect(button).toHaveTextContent('Copied');
    await act(async () => {
      vi.advanceTimersByTime(5000);
    });
    expect(button).toHaveTextContent('Copy code');
  });

  it('falls back to selecting the code when no clipboard is available', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    const execCommand = vi.fn().mockReturnValue(false);
    document.execCommand = execCommand;
    const { container } = renderMarkdown('```js\nconst x = 1;\n```');
    const button = screen.getByRole('button', { name: 'Copy code' });
    await act(async () => {
      fireEvent.click(button);
    });
    expect(execCommand).toHaveBeenCalledWith('copy');
    expect(button).toHaveAttribute('data-copy-state', 'failed');
    expect(button).toHaveTextContent(/press Ctrl\+C/);
    expect(window.getSelection()?.toString()).toBe(container.querySelector('pre code')?.textContent);
  });

  it('uses the legacy copy command when the Clipboard API is missing but execCommand works', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    let copied = '';
    document.execCommand = vi.fn(() => {
      copied = document.querySelector('textarea')?.value ?? '';
      return true;
    });
    renderMarkdown('```\nlegacy\n```');
    const button = screen.getByRole('button', { name: 'Copy code' });
    await act(async () => {
      fireEvent.click(button);
    });
    expect(copied).toBe('legacy');
    expect(button).toHaveTextContent('Copied');
  });

  it('renders unsafe links as plain text', () => {
    const { container } = renderMarkdown(
      '[click](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) [vb](vbscript:msgbox) <javascript:alert(2)>',
    );
    expect(container.querySelectorAll('a')).toHaveLength(0);
    expect(container).toHaveTextContent('click data vb');
  });

  it('never turns raw HTML from the model into elements', () => {
    const { container } = renderMarkdown(
      'Hi <script>window.__pwned = true</script> <img src=x onerror="window.__pwned=true"> <b>bold?</b>\n\n<div onclick="x()">block</div>',
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.querySelector('div[onclick]')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect((window as { __pwned?: boolean }).__pwned).toBeUndefined();
  });

  it('resolves relative doc links against the docs base and opens external links in a new tab', () => {
    renderMarkdown(
      'See [install](/guides/install), [API](https://docs.acme.dev/docs/api), [other](https://example.com) or [mail](mailto:help@acme.dev).',
    );
    const internal = screen.getByRole('link', { name: 'install' });
    expect(internal).toHaveAttribute('href', 'https://docs.acme.dev/docs/guides/install');
    expect(internal).not.toHaveAttribute('target');
    expect(screen.getByRole('link', { name: 'API' })).not.toHaveAttribute('target');
    const external = screen.getByRole('link', { name: 'other' });
    expect(external).toHaveAttribute('target', '_blank');
    expect(external).toHaveAttribute('rel', 'noopener noreferrer');
    const mail = screen.getByRole('link', { name: 'mail' });
    expect(mail).toHaveAttribute('href', 'mailto:help@acme.dev');
    expect(mail).not.toHaveAttribute('target');
  });

  it('renders images with safe sources only', () => {
    const { container } = renderMarkdown('![diagram](/img/flow.png) ![bad](javascript:alert(1))');
    const images = container.querySelectorAll('img');
    expect(images).toHaveLength(1);
    expect(images[0]).toHaveAttribute('src', 'https://docs.acme.dev/docs/img/flow.png');
    expect(images[0]).toHaveAttribute('alt', 'diagram');
    expect(container).toHaveTextContent('bad');
  });

  it('renders a suggestions block as follow-up links, not code, skipping malformed lines', () => {
    const { container } = render(
      <LabelsProvider labels={withLabels(defaultLabels, { suggestionsHeading: 'Keep reading' })}>
        <Markdown
          resolveHref={resolveHref}
          text={[
            'Done.',
            '',
            '```suggestions',
            '(Install the widget)[/guides/install]',
            '- (Static export)[/guides/static-export]',
            'not a suggestion',
            '(Bad)[javascript:alert(1)]',
            '(Half a line',
            '```',
          ].join('\n')}
        />
      </LabelsProvider>,
    );
    expect(container.querySelector('pre')).toBeNull();
    const nav = screen.getByRole('list', { name: 'Keep reading' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Install the widget', 'https://docs.acme.dev/docs/guides/install'],
      ['Static export', 'https://docs.acme.dev/docs/guides/static-export'],
    ]);
    for (const link of links) expect(link).toHaveAttribute('data-docs-assistant', 'suggestion');
    expect(container).not.toHaveTextContent('not a suggestion');
  });

  it('renders a code block that is still streaming (unterminated fence)', () => {
    const { container } = renderMarkdown('Example:\n\n```ts\nconst a = 1;\n\nconst b');
    expect(container.querySelector('pre code')).toHaveTextContent('const a = 1; const b');
  });

  it('resolves against the page origin when no docs base is given', () => {
    render(<Markdown text="[guide](/guides/x) and [code](#snippet)" resolveHref={createHrefResolver()} />);
    expect(screen.getByRole('link', { name: 'guide' })).toHaveAttribute(
      'href',
      `${window.location.origin}/guides/x`,
    );
    expect(screen.getByRole('link', { name: 'code' })).toHaveAttribute('href', '#snippet');
  });

  it('shows no language label for a fence without one', () => {
    const { container } = renderMarkdown('```\nplain\n```');
    expect(container.querySelector('[data-code-language]')).toBeNull();
    expect(container.querySelector('pre code')).toHaveTextContent('plain');
  });
});
