// @vitest-environment jsdom
import { fireEvent } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CONTEXT_VALUE_MAX_LENGTH,
  createContextStore,
  createSelectionCollector,
} from '../../packages/docs-assistant/src/context';
import type { Context } from '../../packages/docs-assistant/src/protocol';
import { collapseSelection, nextFrame, select, selectionButton, setPath, stubRangeRect } from './helpers';

let collector: { destroy(): void } | undefined;
let widget: HTMLElement;

function start(onAsk: (context: Context) => void = () => {}) {
  collector = createSelectionCollector({
    isInsideWidget: (node) => widget.contains(node),
    onAsk,
    label: 'Ask AI',
  });
}

beforeEach(() => {
  setPath('/docs/getting-started');
  document.body.innerHTML = `
    <main>
      <section id="install">
        <h2>Install</h2>
        <p data-testid="para">Run the installer, then restart your <em>shell</em>.</p>
        <p data-testid="blank">     </p>
      </section>
      <p data-testid="loose">A paragraph with no id around it.</p>
      <a href="#x" data-testid="link">a link</a>
    </main>
    <div data-testid="widget"><p data-testid="answer">An answer from the assistant.</p></div>
    <div data-docs-assistant="panel"><p data-testid="portaled">A portaled panel.</p></div>`;
  widget = document.querySelector('[data-testid="widget"]')!;
});

afterEach(async () => {
  collector?.destroy();
  collector = undefined;
  document.getSelection()?.removeAllRanges();
  // Let the selectionchange of the cleanup fire before the next test starts a collector.
  await new Promise((resolve) => setTimeout(resolve, 0));
});

const byTestId = (id: string) => document.querySelector(`[data-testid="${id}"]`)!;

describe('createSelectionCollector', () => {
  it('sends the selection as it is when asked, even if it changed since the last frame', async () => {
    const onAsk = vi.fn();
    start(onAsk);
    const para = byTestId('para').firstChild!;
    await select(para, 0, 3);
    expect(selectionButton()).not.toBeNull();
    // Extend the selection (as Shift+arrows do) and press the button at once, before the
    // collector has seen the change.
    document.getSelection()!.getRangeAt(0).setEnd(para, 7);
    selectionButton()!.click();
    expect(onAsk).toHaveBeenCalledWith(expect.objectContaining({ value: 'Run the' }));
  });

  it('shows a floating Ask AI button for a selection in the page and sends it with path and elementId', async () => {
    const onAsk = vi.fn();
    start(onAsk);
    await select(byTestId('para'));

    const button = selectionButton();
    expect(button).not.toBeNull();
    expect(button!.tagName).toBe('BUTTON');
    expect(button).toHaveAttribute('type', 'button');
    expect(button).toHaveTextContent('Ask AI');
    expect(button!.style.position).toBe('fixed');

    button!.click();
    expect(onAsk).toHaveBeenCalledTimes(1);
    expect(onAsk).toHaveBeenCalledWith({
      type: 'textSelection',
      value: 'Run the installer, then restart your shell.',
      path: '/docs/getting-started',
      elementId: 'install',
    });
    expect(selectionButton()).toBeNull();
  });

  it('trims the selected text and leaves elementId out when no ancestor has an id', async () => {
    const onAsk = vi.fn();
    start(onAsk);
    const text = byTestId('loose').firstChild!;
    await select(text, 1, 12); // " paragraph " with its spaces
    selectionButton()!.click();
    const [context] = onAsk.mock.calls[0]!;
    expect(context).toEqual({ type: 'textSelection', value: 'paragraph', path: '/docs/getting-started' });
    expect(context).not.toHaveProperty('elementId');
  });

  it('ignores selections inside the widget, inside a portaled widget element, or of only whitespace', async () => {
    start();
    await select(byTestId('answer'));
    expect(selectionButton()).toBeNull();
    await select(byTestId('portaled'));
    expect(selectionButton()).toBeNull();
    await select(byTestId('blank'));
    expect(selectionButton()).toBeNull();
    // The same steps do show the button for page text: the waits above were long enough.
    await select(byTestId('para'));
    expect(selectionButton()).not.toBeNull();
  });

  it('hides the button when the selection moves into the widget or collapses', async () => {
    start();
    await select(byTestId('para'));
    expect(selectionButton()).not.toBeNull();
    await select(byTestId('answer'));
    expect(selectionButton()).toBeNull();
    await select(byTestId('para'));
    expect(selectionButton()).not.toBeNull();
    await collapseSelection();
    expect(selectionButton()).toBeNull();
  });

  it('hides on Escape and does not offer the same selection again until it changes', async () => {
    start();
    await select(byTestId('para'));
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(selectionButton()).toBeNull();

    fireEvent.scroll(document);
    await nextFrame();
    expect(selectionButton()).toBeNull();

    await select(byTestId('loose'));
    expect(selectionButton()).not.toBeNull();

    // Dismissed again, then the same words selected anew with the mouse: a fresh request.
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(selectionButton()).toBeNull();
    fireEvent.mouseDown(byTestId('loose'));
    fireEvent.mouseUp(byTestId('loose'));
    await nextFrame();
    expect(selectionButton()).not.toBeNull();
  });

  it('waits for the end of a mouse drag before showing the button', async () => {
    start();
    fireEvent.mouseDown(byTestId('para'));
    await select(byTestId('para'));
    expect(selectionButton()).toBeNull();
    fireEvent.mouseUp(byTestId('para'));
    await nextFrame();
    expect(selectionButton()).not.toBeNull();
    // Pressing the button itself keeps the selection (its default action is prevented).
    expect(fireEvent.mouseDown(selectionButton()!)).toBe(false);
    expect(selectionButton()).not.toBeNull();
  });

  it('lets keyboard users reach the button with the first Tab and gives focus back on Escape', async () => {
    start();
    const link = byTestId('link') as HTMLAnchorElement;
    link.focus();
    await select(byTestId('para'));
    const button = selectionButton()!;

    const notPrevented = fireEvent.keyDown(link, { key: 'Tab' });
    expect(notPrevented).toBe(false);
    expect(button).toHaveFocus();

    fireEvent.keyDown(button, { key: 'Escape' });
    expect(selectionButton()).toBeNull();
    expect(link).toHaveFocus();
  });

  it('takes only the first Tab, and never Shift+Tab', async () => {
    start();
    await select(byTestId('para'));
    expect(fireEvent.keyDown(document.body, { key: 'Tab', shiftKey: true })).toBe(true);
    expect(selectionButton()).not.toHaveFocus();
    expect(fireEvent.keyDown(document.body, { key: 'Tab' })).toBe(false);
    expect(selectionButton()).toHaveFocus();
    selectionButton()!.blur();
    expect(fireEvent.keyDown(document.body, { key: 'Tab' })).toBe(true);
  });

  it('keeps the button inside the viewport and hides it when the selection is scrolled away', async () => {
    const width = vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(80);
    const height = vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(30);
    // A selection on the last line of a 1024×768 viewport, ending at its right edge.
    let unstub = stubRangeRect({ top: 740, left: 900, width: 120, height: 20 });
    try {
      start();
      await select(byTestId('para'));
      const button = selectionButton()!;
      // No room below: above the selection (740 - 8 - 30), and pulled in from the right edge.
      expect(button.style.top).toBe('702px');
      expect(button.style.left).toBe(`${1024 - 80 - 8}px`);

      unstub();
      unstub = stubRangeRect({ top: -300, left: 100, width: 120, height: 20 });
      fireEvent.scroll(document);
      await nextFrame();
      expect(selectionButton()).toBeNull();
    } finally {
      unstub();
      width.mockRestore();
      height.mockRestore();
    }
  });

  it('sends a long selection that the store then cuts and marks truncated', async () => {
    const store = createContextStore();
    start((context) => store.add(context));
    byTestId('loose').textContent = 'x'.repeat(CONTEXT_VALUE_MAX_LENGTH + 500);
    await select(byTestId('loose'));
    selectionButton()!.click();
    const [item] = store.getSnapshot();
    expect(item).toMatchObject({ type: 'textSelection', truncated: true, path: '/docs/getting-started' });
    expect(item!.value).toHaveLength(CONTEXT_VALUE_MAX_LENGTH);
  });

  it('removes its button and stops listening on destroy', async () => {
    const onAsk = vi.fn();
    start(onAsk);
    await select(byTestId('para'));
    expect(selectionButton()).not.toBeNull();
    collector!.destroy();
    expect(selectionButton()).toBeNull();
    await select(byTestId('loose'));
    expect(selectionButton()).toBeNull();
    collector!.destroy(); // twice is fine
  });

  it('explains bad options', () => {
    // @ts-expect-error onAsk is missing on purpose
    expect(() => createSelectionCollector({ label: 'Ask AI' })).toThrow(/`onAsk` must be a function/);
    expect(() => createSelectionCollector({ label: '  ', onAsk: () => {} })).toThrow(
      /`label` must be a non-empty string/,
    );
  });
});

describe('createSelectionCollector and form fields', () => {
  it('offers nothing while a text field of the page has focus', async () => {
    setPath('/docs');
    document.body.innerHTML =
      '<p data-testid="text">Some docs text</p><input aria-label="Search" value="query">';
    collector = createSelectionCollector({ onAsk: () => {}, label: 'Ask AI' });
    const input = document.querySelector('input')!;
    input.focus();
    await select(byTestId('text'));
    expect(selectionButton()).toBeNull();
    input.blur();
    await select(byTestId('text').firstChild!, 0, 4);
    expect(selectionButton()).not.toBeNull();
  });
});
