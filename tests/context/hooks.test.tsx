// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useCodeBlockCollector, useSelectionCollector } from '../../packages/docs-assistant/src/context';
import type { Context } from '../../packages/docs-assistant/src/protocol';
import { codeButtons, select, selectionButton, setPath } from './helpers';

function Widget({
  enabled = true,
  selector,
  onAsk,
}: {
  enabled?: boolean;
  selector?: string;
  onAsk: (context: Context) => void;
}) {
  const widgetRef = useRef<HTMLDivElement>(null);
  useSelectionCollector({ enabled, widgetRef, onAsk, label: 'Ask AI' });
  useCodeBlockCollector({ enabled, ...(selector ? { selector } : {}), widgetRef, onAsk, label: 'Ask AI' });
  return (
    <div ref={widgetRef} data-testid="widget">
      <p data-testid="answer">Answer text</p>
      <pre>answer code</pre>
    </div>
  );
}

function page() {
  document.body.insertAdjacentHTML(
    'afterbegin',
    '<article id="guide"><p data-testid="page-text">Page text</p><pre data-testid="page-code">ls -la</pre></article>',
  );
}

afterEach(async () => {
  document.getSelection()?.removeAllRanges();
  await new Promise((resolve) => setTimeout(resolve, 0));
  document.body.innerHTML = '';
});

describe('useCodeBlockCollector / useSelectionCollector', () => {
  it('offer the page but not the widget, from the widget, call the latest onAsk, and clean up on unmount', async () => {
    setPath('/guide');
    page();
    const first = vi.fn();
    const latest = vi.fn();
    const { rerender, unmount } = render(<Widget onAsk={first} />);
    rerender(<Widget onAsk={latest} />);
    const user = userEvent.setup();

    await user.hover(screen.getByText('answer code'));
    expect(codeButtons()).toHaveLength(0);
    await user.hover(screen.getByTestId('page-code'));
    expect(codeButtons()).toHaveLength(1);
    // The button is the widget's own, never put into the page's block.
    expect(screen.getByTestId('widget')).toContainElement(codeButtons()[0]!);
    expect(screen.getByTestId('page-code').querySelector('button')).toBeNull();

    await select(screen.getByTestId('answer'));
    expect(selectionButton()).toBeNull();
    await select(screen.getByTestId('page-text'));
    expect(screen.getByTestId('widget')).toContainElement(selectionButton());
    selectionButton()!.click();
    screen.getByRole('button', { name: 'Ask AI about this code' }).click();

    expect(first).not.toHaveBeenCalled();
    expect(latest.mock.calls).toEqual([
      [{ type: 'textSelection', value: 'Page text', path: '/guide', elementId: 'guide' }],
      [{ type: 'code', value: 'ls -la', path: '/guide', elementId: 'guide' }],
    ]);

    unmount();
    expect(codeButtons()).toHaveLength(0);
    await user.hover(screen.getByTestId('page-code'));
    expect(codeButtons()).toHaveLength(0);
  });

  it('add nothing when disabled, and start when enabled', async () => {
    page();
    const { rerender } = render(<Widget enabled={false} onAsk={() => {}} />);
    const user = userEvent.setup();
    await user.hover(screen.getByTestId('page-code'));
    expect(codeButtons()).toHaveLength(0);
    await select(screen.getByTestId('page-text'));
    expect(selectionButton()).toBeNull();

    rerender(<Widget enabled onAsk={() => {}} />);
    await user.hover(screen.getByTestId('page-text'));
    await user.hover(screen.getByTestId('page-code'));
    expect(codeButtons()).toHaveLength(1);
  });

  it('follow a new selector', async () => {
    page();
    document.body.insertAdjacentHTML('beforeend', '<div class="code" data-testid="custom">x</div>');
    const { rerender } = render(<Widget onAsk={() => {}} />);
    const user = userEvent.setup();
    await user.hover(screen.getByTestId('custom'));
    expect(codeButtons()).toHaveLength(0);
    rerender(<Widget selector=".code" onAsk={() => {}} />);
    await user.hover(screen.getByTestId('page-text'));
    await user.hover(screen.getByTestId('custom'));
    expect(codeButtons()).toHaveLength(1);
    await user.hover(screen.getByTestId('page-code'));
    expect(codeButtons()).toHaveLength(0);
  });

  it('report a bad selector instead of throwing into the host page', () => {
    page();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      render(<Widget selector="pre[" onAsk={() => {}} />);
      expect(screen.getByTestId('widget')).toBeInTheDocument();
      expect(error).toHaveBeenCalledWith(
        expect.objectContaining({ message: expect.stringMatching(/pre\[/) }),
      );
      expect(codeButtons()).toHaveLength(0);
    } finally {
      error.mockRestore();
    }
  });
});
