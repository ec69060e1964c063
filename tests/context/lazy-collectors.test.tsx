// @vitest-environment jsdom
/**
 * `<DocsAssistant>` keeps the collectors out of the launcher: their chunk loads on the reader's
 * first interaction with the page, and what happened meanwhile (hover, focus, a selection) is
 * handed over. The chunk's import is counted and, where a test needs it, held or failed.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { codeButtons, select, selectionButton } from './helpers';

const chunk = vi.hoisted(() => ({
  loads: 0,
  gate: undefined as Promise<void> | undefined,
  fail: false,
  /** Loads under way: finished before the next test, which would otherwise get their module. */
  loading: [] as Promise<unknown>[],
}));

// Fresh modules per test: the loaded chunk is remembered per page (module), as in a browser.
const loadWidget = async () =>
  (await import('../../packages/docs-assistant/src/ui/docs-assistant')).DocsAssistant;
const loadTrigger = async () =>
  (await import('../../packages/docs-assistant/src/context/collector-trigger')).startLazyCollectors;

const baseProps = {
  domain: 'acme',
  apiKey: 'svc_dsc_test',
  baseUrl: 'http://127.0.0.1:9',
  storage: 'memory' as const,
};

beforeEach(() => {
  vi.resetModules();
  // Registered per test, so each test's first import of the chunk runs this (and is counted).
  vi.doMock('../../packages/docs-assistant/src/context/collector-chunk', (importOriginal) => {
    chunk.loads += 1;
    const loading = (async () => {
      if (chunk.gate) await chunk.gate;
      if (chunk.fail) throw new TypeError('Failed to fetch dynamically imported module');
      return importOriginal();
    })();
    chunk.loading.push(loading);
    return loading;
  });
  chunk.loads = 0;
  chunk.gate = undefined;
  chunk.fail = false;
});

/** Every trigger a test started: stopped after it, so none acts on the next test's page. */
const running: Array<() => void> = [];

afterEach(async () => {
  for (const stop of running.splice(0)) stop();
  await Promise.allSettled(chunk.loading.splice(0));
  document.getSelection()?.removeAllRanges();
  await new Promise((resolve) => setTimeout(resolve, 0));
  document.body.innerHTML = '';
});

/** A page with a widget root, and the trigger running as `<DocsAssistant>` runs it. */
async function startOnPage(
  html: string,
  options: { selection?: boolean; codeBlocks?: string | false; before?: () => Promise<void> } = {},
) {
  document.body.innerHTML = `${html}<div data-testid="widget"><button type="button">Launcher</button></div>`;
  await options.before?.();
  const widget = screen.getByTestId('widget');
  const onAsk = vi.fn();
  const stop = (await loadTrigger())(document, {
    selection: options.selection ?? true,
    codeBlocks: options.codeBlocks ?? 'pre',
    widgetRef: { current: widget },
    onAsk,
    label: 'Ask AI',
  });
  running.push(stop);
  return { widget, onAsk, stop };
}

describe('<DocsAssistant> collectors load on first use', () => {
  it('loads nothing at mount, nor for the widget or text, and loads once for the first hover over a code block, whose button shows', async () => {
    const DocsAssistant = await loadWidget();
    const { container } = render(
      <>
        <p>Intro text</p>
        <pre>
          <code>npm run build</code>
        </pre>
        <DocsAssistant {...baseProps} />
      </>,
    );
    const pre = container.querySelector('pre')!;
    const served = pre.outerHTML;
    await act(async () => {});
    const user = userEvent.setup();
    await user.hover(screen.getByRole('button', { name: 'Ask AI' }));
    await user.hover(screen.getByText('Intro text'));
    expect(chunk.loads).toBe(0);

    await user.hover(screen.getByText('npm run build'));
    // The button appears for that very hover: no second pointer move.
    const ask = await screen.findByRole('button', { name: 'Ask AI about this code' });
    expect(chunk.loads).toBe(1);
    expect(container.querySelector('[data-docs-assistant="root"]')).toContainElement(ask);
    expect(pre.outerHTML).toBe(served);
  });

  it('gives a keyboard reader the page’s own Tab order, and asks about the focused block with the widget’s shortcut', async () => {
    const DocsAssistant = await loadWidget();
    render(
      <>
        <a href="#install">Install</a>
        <pre>
          <code>npm run build</code>
        </pre>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focusable as Docusaurus and Expressive Code make their blocks */}
        <pre tabIndex={0}>
          <code>npm test</code>
        </pre>
        <a href="#next">Next</a>
        <DocsAssistant {...baseProps} />
      </>,
    );
    await act(async () => {});
    expect(chunk.loads).toBe(0);
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole('link', { name: 'Install' })).toHaveFocus();
    // The first focus in the page loaded the collectors; nothing shows until a block holds the focus.
    expect(chunk.loads).toBe(1);
    expect(screen.queryByRole('button', { name: 'Ask AI about this code' })).toBeNull();
    // No stop of ours: Tab goes to the page's next stop, the focusable block, whose button shows.
    await user.tab();
    expect(screen.getByText('npm test').closest('pre')).toHaveFocus();
    const ask = await screen.findByRole('button', { name: 'Ask AI about this code' });
    expect(ask).toHaveAttribute('tabindex', '-1');
    await waitFor(() => expect(ask).toHaveAttribute('aria-keyshortcuts', 'Control+I'));
    await user.keyboard('{Control>}i{/Control}');
    // The panel's code loads, opens with the block as context and the focus in the question box.
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Your question' })).toHaveFocus(), {
      timeout: 10_000,
    });
    expect(document.querySelector('[data-docs-assistant="context"]')).toHaveTextContent('npm test');
  });

  it('loads nothing with collectors={false}, whatever the reader does', async () => {
    const DocsAssistant = await loadWidget();
    render(
      <>
        <a href="#a">First link</a>
        <pre>
          <code>npm run build</code>
        </pre>
        <DocsAssistant {...baseProps} collectors={false} />
      </>,
    );
    const user = userEvent.setup();
    await user.hover(screen.getByText('npm run build'));
    await user.tab();
    await user.tab();
    await select(screen.getByText('npm run build'));
    await act(async () => {});
    expect(chunk.loads).toBe(0);
    expect(codeButtons()).toHaveLength(0);
    expect(selectionButton()).toBeNull();
  });
});

describe('startLazyCollectors', () => {
  it('loads on focus moving into the page, not into the widget, and offers the focused block', async () => {
    await startOnPage('<pre tabindex="0" data-testid="code">ls -la</pre>');
    screen.getByRole('button', { name: 'Launcher' }).focus();
    await act(async () => {});
    expect(chunk.loads).toBe(0);
    act(() => screen.getByTestId('code').focus());
    await waitFor(() => expect(codeButtons()).toHaveLength(1));
    expect(chunk.loads).toBe(1);
  });

  it('passes the widget’s shortcut, read when pressed, to the code block collector', async () => {
    document.body.innerHTML =
      '<pre tabindex="0" data-testid="code">ls -la</pre><div data-testid="widget"><button type="button">Launcher</button></div>';
    const onAsk = vi.fn();
    let shortcut: string | undefined;
    running.push(
      (await loadTrigger())(document, {
        selection: false,
        codeBlocks: 'pre',
        widgetRef: { current: screen.getByTestId('widget') },
        onAsk,
        label: 'Ask AI',
        shortcut: () => shortcut,
      }),
    );
    act(() => screen.getByTestId('code').focus());
    await waitFor(() => expect(codeButtons()).toHaveLength(1));
    const user = userEvent.setup();
    // Not known yet (the widget sets it after mount): the key is the page's.
    await user.keyboard('{Control>}i{/Control}');
    expect(onAsk).not.toHaveBeenCalled();
    shortcut = 'Control+I';
    await user.keyboard('{Control>}i{/Control}');
    expect(onAsk).toHaveBeenCalledWith({ type: 'code', value: 'ls -la', path: '/' });
  });

  it('does not move focus when the reader went on before the chunk arrived', async () => {
    let release!: () => void;
    chunk.gate = new Promise((resolve) => {
      release = resolve;
    });
    await startOnPage('<a href="#a">Before</a><pre>npm i</pre><a href="#b">After</a><a href="#c">Last</a>');
    const user = userEvent.setup();
    await user.tab();
    await user.tab();
    await user.tab();
    expect(screen.getByRole('link', { name: 'Last' })).toHaveFocus();
    release();
    await waitFor(() => expect(chunk.loads).toBe(1));
    await act(async () => {});
    expect(screen.getByRole('link', { name: 'Last' })).toHaveFocus();
  });

  it('loads on text selected in the page (not in the widget) and offers that selection', async () => {
    const { widget, onAsk } = await startOnPage('<p id="guide" data-testid="text">Page text</p>');
    widget.insertAdjacentHTML('beforeend', '<p data-testid="own">Answer text</p>');
    await select(screen.getByTestId('own'));
    expect(chunk.loads).toBe(0);
    await select(screen.getByTestId('text'));
    await waitFor(() => expect(selectionButton()).not.toBeNull());
    expect(chunk.loads).toBe(1);
    expect(widget).toContainElement(selectionButton());
    selectionButton()!.click();
    expect(onAsk).toHaveBeenCalledWith(
      expect.objectContaining({ type: 'textSelection', value: 'Page text' }),
    );
  });

  it('offers at once a selection made before it started (before hydration, say)', async () => {
    await startOnPage('<p data-testid="text">Selected early</p>', {
      before: async () => void (await select(screen.getByTestId('text'))),
    });
    await waitFor(() => expect(selectionButton()).not.toBeNull());
    expect(chunk.loads).toBe(1);
  });

  it('offers at once a block that had the focus before it started', async () => {
    await startOnPage('<pre tabindex="0" data-testid="code">ls</pre>', {
      before: async () => screen.getByTestId('code').focus(),
    });
    await waitFor(() => expect(codeButtons()).toHaveLength(1));
    expect(chunk.loads).toBe(1);
  });

  it('with the selection collector alone, loads for a selection and for nothing else', async () => {
    await startOnPage(
      '<a href="#a">Link</a><pre data-testid="code">ls</pre><p data-testid="text">Words</p>',
      {
        codeBlocks: false,
      },
    );
    const user = userEvent.setup();
    await user.tab();
    await user.tab();
    await user.hover(screen.getByTestId('code'));
    await act(async () => {});
    expect(chunk.loads).toBe(0);
    await select(screen.getByTestId('text'));
    await waitFor(() => expect(selectionButton()).not.toBeNull());
    expect(chunk.loads).toBe(1);
    expect(codeButtons()).toHaveLength(0);
  });

  it('starts nothing after it was stopped while the chunk was loading', async () => {
    let release!: () => void;
    chunk.gate = new Promise((resolve) => {
      release = resolve;
    });
    const { stop } = await startOnPage('<pre data-testid="code">ls</pre>');
    await userEvent.setup().hover(screen.getByTestId('code'));
    stop();
    release();
    await waitFor(() => expect(chunk.loads).toBe(1));
    await act(async () => {});
    expect(codeButtons()).toHaveLength(0);
  });

  it('logs a failed load once and leaves the page as it was', async () => {
    chunk.fail = true;
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const first = await startOnPage('<pre data-testid="code">ls</pre><a href="#x">Link</a>');
      const served = screen.getByTestId('code').outerHTML;
      const user = userEvent.setup();
      await user.hover(screen.getByTestId('code'));
      await waitFor(() => expect(error).toHaveBeenCalledTimes(1));
      expect(String(error.mock.calls[0]![0])).toMatch(/Ask AI/);
      // A later mount tries again, and does not log again.
      first.stop();
      const second = await startOnPage('<pre data-testid="code">ls</pre><a href="#x">Link</a>');
      await user.hover(screen.getByTestId('code'));
      await waitFor(() => expect(chunk.loads).toBe(2));
      await act(async () => {});
      expect(error).toHaveBeenCalledTimes(1);
      second.stop();
      await user.tab();
      expect(screen.getByRole('link', { name: 'Link' })).toHaveFocus();
      expect(codeButtons()).toHaveLength(0);
      expect(screen.getByTestId('code').outerHTML).toBe(served);
    } finally {
      error.mockRestore();
    }
  });

  it('reports a bad selector at start, as the collector always has', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await startOnPage('<pre>ls</pre>', { codeBlocks: 'pre[' });
      await waitFor(() =>
        expect(error).toHaveBeenCalledWith(
          expect.objectContaining({ message: expect.stringMatching(/pre\[/) }),
        ),
      );
    } finally {
      error.mockRestore();
    }
  });
});
