// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCodeBlockCollector } from '../../packages/docs-assistant/src/context';
import type { Context } from '../../packages/docs-assistant/src/protocol';
import { codeButtons, nextFrame, setPath } from './helpers';

let collector: { destroy(): void } | undefined;
let widget: HTMLElement;

function start(options: { selector?: string; onAsk?: (context: Context) => void } = {}) {
  collector = createCodeBlockCollector({
    isInsideWidget: (node) => widget.contains(node),
    onAsk: options.onAsk ?? (() => {}),
    label: 'Ask AI',
    ...(options.selector ? { selector: options.selector } : {}),
  });
}

beforeEach(() => {
  setPath('/docs/cli');
  document.body.innerHTML = `
    <main data-testid="main">
      <section id="usage">
        <pre data-testid="first"><code>
npm install docs-assistant
  --save</code></pre>
      </section>
      <pre id="serve-example" data-testid="second"><code>docs-assistant serve</code></pre>
      <div class="highlight" data-testid="highlight"><span>const a = 1;</span></div>
    </main>
    <div data-testid="widget"><pre data-testid="answer-code">widget code</pre></div>`;
  widget = document.querySelector('[data-testid="widget"]')!;
});

afterEach(() => {
  collector?.destroy();
  collector = undefined;
});

const byTestId = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`)!;
const buttonsIn = (el: Element) => el.querySelectorAll('[data-docs-assistant="ask-code"]').length;

describe('createCodeBlockCollector', () => {
  it('adds one labelled button to each code block of the page, none to the widget’s own', () => {
    start();
    const buttons = screen.getAllByRole('button', { name: 'Ask AI about this code' });
    expect(buttons).toHaveLength(2);
    expect(buttons.every((b) => b.textContent === 'Ask AI' && b.getAttribute('type') === 'button')).toBe(
      true,
    );
    expect(buttonsIn(byTestId('first'))).toBe(1);
    expect(buttonsIn(byTestId('second'))).toBe(1);
    expect(buttonsIn(byTestId('answer-code'))).toBe(0);
  });

  it('pins the button with logical insets only, so it mirrors in right-to-left pages', () => {
    start();
    const button = byTestId('first').querySelector<HTMLElement>('[data-docs-assistant="ask-code"]')!;
    expect(button.style.getPropertyValue('inset-inline-end')).toBe('var(--da-ask-code-inset, 0.5em)');
    expect(button.style.getPropertyValue('inset-block-start')).toBe('var(--da-ask-code-inset, 0.5em)');
    for (const physical of ['left', 'right', 'top', 'bottom']) {
      expect(button.style.getPropertyValue(physical)).toBe('');
    }
  });

  it('sends the block’s code (without the button text) with the path and the nearest id', () => {
    const onAsk = vi.fn();
    start({ onAsk });
    byTestId('first').querySelector('button')!.click();
    expect(onAsk).toHaveBeenLastCalledWith({
      type: 'code',
      value: 'npm install docs-assistant\n  --save',
      path: '/docs/cli',
      elementId: 'usage',
    });
    byTestId('second').querySelector('button')!.click();
    expect(onAsk).toHaveBeenLastCalledWith({
      type: 'code',
      value: 'docs-assistant serve',
      path: '/docs/cli',
      elementId: 'serve-example',
    });
  });

  it('adds buttons to blocks that appear later, but not to the widget’s, and never twice', async () => {
    start();
    const later = document.createElement('pre');
    later.dataset.testid = 'later';
    later.textContent = 'echo later';
    const answer = document.createElement('pre');
    answer.textContent = 'streamed answer code';
    const portaled = document.createElement('div');
    portaled.setAttribute('data-docs-assistant', 'panel');
    portaled.innerHTML = '<pre>portaled panel code</pre>';
    byTestId('main').append(later);
    widget.append(answer);
    document.body.append(portaled);

    await vi.waitFor(() => expect(buttonsIn(later)).toBe(1));
    expect(buttonsIn(answer)).toBe(0);
    expect(buttonsIn(portaled)).toBe(0);

    // More mutations and another scan leave every block with exactly one button.
    byTestId('main').append(document.createElement('p'));
    await nextFrame();
    await nextFrame();
    expect(buttonsIn(later)).toBe(1);
    expect(buttonsIn(byTestId('first'))).toBe(1);
    expect(codeButtons()).toHaveLength(3);
  });

  it('puts the button back once when the host re-renders a block’s content', async () => {
    const onAsk = vi.fn();
    start({ onAsk });
    const second = byTestId('second');
    second.textContent = 'docs-assistant export';
    expect(buttonsIn(second)).toBe(0);
    await vi.waitFor(() => expect(buttonsIn(second)).toBe(1));
    second.querySelector('button')!.click();
    expect(onAsk).toHaveBeenLastCalledWith(expect.objectContaining({ value: 'docs-assistant export' }));
  });

  it('uses a custom selector, and leaves a match inside another match to the outer one', () => {
    const onAsk = vi.fn();
    start({ selector: '.highlight, pre, code', onAsk });
    expect(buttonsIn(byTestId('highlight'))).toBe(1);
    // `code` inside `pre` matches too, but only the `pre` gets a button.
    expect(buttonsIn(byTestId('first'))).toBe(1);
    expect(codeButtons()).toHaveLength(3);
    byTestId('highlight').querySelector('button')!.click();
    expect(onAsk).toHaveBeenCalledWith({ type: 'code', value: 'const a = 1;', path: '/docs/cli' });
  });

  it('makes a static block relative and leaves a positioned one alone', () => {
    byTestId('second').style.position = 'absolute';
    start();
    expect(byTestId('first').style.position).toBe('relative');
    expect(byTestId('second').style.position).toBe('absolute');
    expect(codeButtons().every((b) => b.style.position === 'absolute')).toBe(true);
  });

  it('removes its buttons, styles and observer on destroy', async () => {
    byTestId('second').setAttribute('style', 'color: red');
    start();
    expect(codeButtons()).toHaveLength(2);
    collector!.destroy();
    expect(codeButtons()).toHaveLength(0);
    expect(byTestId('first')).not.toHaveAttribute('style');
    expect(byTestId('second').getAttribute('style')).toBe('color: red;');

    const later = document.createElement('pre');
    later.textContent = 'after destroy';
    byTestId('main').append(later);
    await nextFrame();
    await nextFrame();
    expect(codeButtons()).toHaveLength(0);
  });

  it('ignores a click on an empty block', () => {
    document.body.insertAdjacentHTML('beforeend', '<pre data-testid="empty">  \n </pre>');
    const onAsk = vi.fn();
    start({ onAsk });
    byTestId('empty').querySelector('button')!.click();
    expect(onAsk).not.toHaveBeenCalled();
  });

  it('explains a bad selector', () => {
    expect(() => createCodeBlockCollector({ selector: 'pre[', onAsk: () => {}, label: 'Ask AI' })).toThrow(
      /"pre\[" is not a valid CSS selector/,
    );
    expect(() => createCodeBlockCollector({ selector: ' ', onAsk: () => {}, label: 'Ask AI' })).toThrow(
      /`selector` must be a non-empty CSS selector/,
    );
  });

  it('takes a custom accessible name', () => {
    collector = createCodeBlockCollector({
      onAsk: () => {},
      label: 'KI fragen',
      accessibleLabel: 'KI zu diesem Code fragen',
    });
    expect(screen.getAllByRole('button', { name: 'KI zu diesem Code fragen' }).length).toBeGreaterThan(0);
  });
});
