// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCodeBlockCollector } from '../../packages/docs-assistant/src/context';
import type { Context } from '../../packages/docs-assistant/src/protocol';
import { codeButtons, nextFrame, setPath } from './helpers';

let collector: { destroy(): void } | undefined;
let widget: HTMLElement;

function start(options: { selector?: string; onAsk?: (context: Context) => void; shortcut?: string } = {}) {
  collector = createCodeBlockCollector({
    isInsideWidget: (node) => widget.contains(node),
    container: () => widget,
    onAsk: options.onAsk ?? (() => {}),
    label: 'Ask AI',
    ...(options.selector ? { selector: options.selector } : {}),
    ...(options.shortcut ? { shortcut: () => options.shortcut } : {}),
  });
}

beforeEach(() => {
  setPath('/docs/cli');
  document.body.innerHTML = `
    <main data-testid="main">
      <a href="#top" data-testid="before">Top</a>
      <section id="usage">
        <pre data-testid="first"><code>
npm install docs-assistant
  --save</code></pre>
      </section>
      <pre id="serve-example" data-testid="second" tabindex="0"><code>docs-assistant serve</code></pre>
      <a href="#next" data-testid="after">Next</a>
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
const askButton = () => screen.queryByRole('button', { name: 'Ask AI about this code' });
const pageBlocks = () =>
  Array.from(document.querySelectorAll('main pre, main .highlight'), (el) => el.outerHTML);

describe('createCodeBlockCollector', () => {
  it('shows one labelled button, in its container, over the block the pointer is on; none for the widget’s', async () => {
    start();
    expect(codeButtons()).toHaveLength(0);
    const user = userEvent.setup();
    await user.hover(byTestId('first'));
    const button = askButton()!;
    expect(button).toHaveTextContent('Ask AI');
    expect(button).toHaveAttribute('type', 'button');
    expect(widget).toContainElement(button);
    expect(button.style.position).toBe('fixed');

    await user.hover(byTestId('second'));
    expect(codeButtons()).toEqual([button]);
    await user.hover(byTestId('answer-code'));
    expect(codeButtons()).toHaveLength(0);
    await user.hover(byTestId('first'));
    // Moving onto the button, which covers the block's corner, keeps it.
    await user.hover(askButton()!);
    expect(askButton()).not.toBeNull();
    await user.hover(byTestId('before'));
    expect(codeButtons()).toHaveLength(0);
  });

  it('never touches the page’s blocks: not an attribute, a style or a child, before or while offered', async () => {
    const before = pageBlocks();
    const mutations: MutationRecord[] = [];
    const observer = new MutationObserver((records) => mutations.push(...records));
    observer.observe(byTestId('main'), {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
    start({ shortcut: 'Control+I' });
    const user = userEvent.setup();
    await user.hover(byTestId('first'));
    await user.click(askButton()!);
    byTestId('second').focus();
    await user.keyboard('{Control>}i{/Control}');
    await user.tab();
    collector!.destroy();
    collector = undefined;
    await nextFrame();
    observer.disconnect();
    expect(mutations).toEqual([]);
    expect(pageBlocks()).toEqual(before);
  });

  it('sends the hovered block’s code with the path and the nearest id', async () => {
    const onAsk = vi.fn();
    start({ onAsk });
    const user = userEvent.setup();
    await user.hover(byTestId('first'));
    await user.click(askButton()!);
    expect(onAsk).toHaveBeenLastCalledWith({
      type: 'code',
      value: 'npm install docs-assistant\n  --save',
      path: '/docs/cli',
      elementId: 'usage',
    });
    await user.hover(byTestId('second'));
    await user.click(askButton()!);
    expect(onAsk).toHaveBeenLastCalledWith({
      type: 'code',
      value: 'docs-assistant serve',
      path: '/docs/cli',
      elementId: 'serve-example',
    });
  });

  it('is no tab stop: the page keeps its own Tab order, and the shortcut asks about the focused block', async () => {
    const onAsk = vi.fn();
    start({ onAsk, shortcut: 'Control+I' });
    const user = userEvent.setup();
    byTestId('before').focus();
    // The first block has nothing focusable: Tab goes on to the focusable second one.
    await user.tab();
    expect(document.activeElement).toBe(byTestId('second'));
    const button = askButton()!;
    expect(button).toHaveAttribute('tabindex', '-1');
    expect(button).toHaveAttribute('aria-keyshortcuts', 'Control+I');
    expect(button).toHaveAttribute('title', 'Ask AI about this code (Control+I)');
    await nextFrame();
    expect(screen.getByRole('status')).toHaveTextContent('Ask AI about this code: Control+I');
    expect(widget).toContainElement(screen.getByRole('status'));
    await user.keyboard('{Control>}i{/Control}');
    expect(onAsk).toHaveBeenLastCalledWith(expect.objectContaining({ elementId: 'serve-example' }));
    await user.tab();
    expect(document.activeElement).toBe(byTestId('after'));
    expect(codeButtons()).toHaveLength(0);
    // Away from code, the shortcut is the widget's (or the page's) to handle.
    const passed = vi.fn((event: KeyboardEvent) => event.defaultPrevented);
    document.addEventListener('keydown', passed);
    await user.keyboard('{Control>}i{/Control}');
    document.removeEventListener('keydown', passed);
    expect(passed).toHaveReturnedWith(false);
    expect(onAsk).toHaveBeenCalledTimes(1);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(byTestId('second'));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(byTestId('before'));
  });

  it('counts a control in a block’s frame as the block (the site’s copy button beside the `pre`)', async () => {
    byTestId('main').insertAdjacentHTML(
      'beforeend',
      `<div class="language-sh" id="framed"><button class="copy" data-testid="copy">Copy</button><pre><code>npm ci</code></pre></div>
       <div data-testid="two"><button data-testid="shared">Copy all</button><pre>one</pre><pre>two</pre></div>`,
    );
    const onAsk = vi.fn();
    start({ onAsk, shortcut: 'Control+I' });
    const user = userEvent.setup();
    byTestId('copy').focus();
    expect(askButton()).not.toBeNull();
    await user.keyboard('{Control>}i{/Control}');
    expect(onAsk).toHaveBeenLastCalledWith({
      type: 'code',
      value: 'npm ci',
      path: '/docs/cli',
      elementId: 'framed',
    });
    await user.hover(byTestId('copy'));
    expect(askButton()).not.toBeNull();
    // A control beside two blocks belongs to neither.
    byTestId('shared').focus();
    await user.hover(byTestId('shared'));
    expect(codeButtons()).toHaveLength(0);
    await user.keyboard('{Control>}i{/Control}');
    expect(onAsk).toHaveBeenCalledTimes(1);
  });

  it('says nothing and takes no key without a shortcut', async () => {
    const onAsk = vi.fn();
    start({ onAsk });
    const user = userEvent.setup();
    byTestId('second').focus();
    expect(askButton()).not.toHaveAttribute('aria-keyshortcuts');
    await user.keyboard('{Control>}i{/Control}');
    expect(onAsk).not.toHaveBeenCalled();
    await nextFrame();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('leaves Tab from inside the widget to the browser (its dialog may keep focus in itself)', async () => {
    start();
    const panel = document.createElement('div');
    panel.setAttribute('data-docs-assistant', 'panel');
    panel.innerHTML = '<button type="button">In the panel</button>';
    byTestId('before').after(panel);
    const user = userEvent.setup();
    screen.getByRole('button', { name: 'In the panel' }).focus();
    await user.tab();
    // The first block has nothing focusable: the browser goes on to the second, focusable one.
    expect(document.activeElement).toBe(byTestId('second'));
    expect(document.activeElement).not.toBe(askButton());
  });

  it('offers blocks that appear later, and never the widget’s own, even portaled', async () => {
    const onAsk = vi.fn();
    start({ onAsk });
    const later = document.createElement('pre');
    later.textContent = 'echo later';
    byTestId('main').append(later);
    const portaled = document.createElement('div');
    portaled.setAttribute('data-docs-assistant', 'panel');
    portaled.innerHTML = '<pre>portaled panel code</pre>';
    document.body.append(portaled);

    const user = userEvent.setup();
    await user.hover(portaled.querySelector('pre')!);
    expect(codeButtons()).toHaveLength(0);
    await user.hover(later);
    await user.click(askButton()!);
    expect(onAsk).toHaveBeenLastCalledWith(expect.objectContaining({ value: 'echo later' }));
  });

  it('sends what the block holds when pressed, after the host re-rendered it', async () => {
    const onAsk = vi.fn();
    start({ onAsk });
    const user = userEvent.setup();
    await user.hover(byTestId('second'));
    byTestId('second').textContent = 'docs-assistant export';
    await user.click(askButton()!);
    expect(onAsk).toHaveBeenLastCalledWith(expect.objectContaining({ value: 'docs-assistant export' }));
  });

  it('uses a custom selector, and leaves a match inside another match to the outer one', async () => {
    const onAsk = vi.fn();
    start({ selector: '.highlight, pre, code', onAsk });
    const user = userEvent.setup();
    await user.hover(byTestId('highlight').querySelector('span')!);
    await user.click(askButton()!);
    expect(onAsk).toHaveBeenLastCalledWith({ type: 'code', value: 'const a = 1;', path: '/docs/cli' });
    // `code` inside `pre` matches too, but the `pre` is the block.
    await user.hover(byTestId('first').querySelector('code')!);
    await user.click(askButton()!);
    expect(onAsk).toHaveBeenLastCalledWith(
      expect.objectContaining({ value: 'npm install docs-assistant\n  --save', elementId: 'usage' }),
    );
  });

  it('removes its button and listeners on destroy', async () => {
    start();
    const user = userEvent.setup();
    await user.hover(byTestId('first'));
    expect(codeButtons()).toHaveLength(1);
    collector!.destroy();
    expect(codeButtons()).toHaveLength(0);
    await user.hover(byTestId('second'));
    byTestId('second').focus();
    expect(codeButtons()).toHaveLength(0);
  });

  it('puts the button in the body when given no container', async () => {
    collector = createCodeBlockCollector({ onAsk: () => {}, label: 'Ask AI' });
    await userEvent.setup().hover(byTestId('first'));
    expect(askButton()?.parentElement).toBe(document.body);
  });

  it('ignores a press on an empty block', async () => {
    document.body.insertAdjacentHTML('beforeend', '<pre data-testid="empty">  \n </pre>');
    const onAsk = vi.fn();
    start({ onAsk });
    const user = userEvent.setup();
    await user.hover(byTestId('empty'));
    await user.click(askButton()!);
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

  it('takes a custom accessible name', async () => {
    collector = createCodeBlockCollector({
      onAsk: () => {},
      label: 'KI fragen',
      accessibleLabel: 'KI zu diesem Code fragen',
    });
    await userEvent.setup().hover(byTestId('first'));
    expect(screen.getByRole('button', { name: 'KI zu diesem Code fragen' })).toHaveTextContent('KI fragen');
  });
});
