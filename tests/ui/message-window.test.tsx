// @vitest-environment jsdom
/**
 * A long conversation renders its latest messages first and earlier ones on demand: the number of
 * messages in the DOM at mount is the same for 20,000 messages as for 100, "Show earlier messages"
 * is a button that adds a window's worth and says so in a status, and what the reader saw stays put.
 */
import { act, render as renderInDom, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../../packages/docs-assistant/src/chat/types';
import { defaultLabels } from '../../packages/docs-assistant/src/index';
import { shellFrame } from '../../packages/docs-assistant/src/ui/frame';
import { MessageList } from '../../packages/docs-assistant/src/ui/message-list';
import { ShellFrameContext } from '../../packages/docs-assistant/src/ui/shell-frame';
import { MESSAGE_WINDOW } from '../../packages/docs-assistant/src/ui/use-message-window';

/** `count` messages, questions and answers in turn, ids prefixed so two conversations differ. */
function conversation(count: number, prefix = 'm'): AssistantMessage[] {
  return Array.from({ length: count }, (_, i) => {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    const content = `${role === 'user' ? 'Question' : 'Answer'} ${i}`;
    return {
      id: `${prefix}${i}`,
      role,
      content,
      parts: [{ type: 'text', text: content }],
    } as AssistantMessage;
  });
}

const props = { status: 'ready' as const, resolveHref: (href: string) => href, onAsk: () => {} };
// The panel gives its parts the shell's frame (icons, the screen-reader-only style): so does this.
const Frame = ({ children }: { children: ReactNode }) => (
  <ShellFrameContext.Provider value={shellFrame}>{children}</ShellFrameContext.Provider>
);
const render = (ui: ReactElement) => renderInDom(ui, { wrapper: Frame });
const rendered = (container: HTMLElement) =>
  [...container.querySelectorAll('[data-docs-assistant="message"]')].map((node) =>
    node.getAttribute('data-message-id'),
  );
const showEarlier = () => screen.queryByRole('button', { name: defaultLabels.showEarlierMessages });

describe('a long conversation', () => {
  it('mounts the same number of messages for 20,000 as for 100: the latest ones', () => {
    for (const count of [100, 20_000]) {
      const { container, unmount } = render(<MessageList {...props} messages={conversation(count)} />);
      const ids = rendered(container);
      expect(ids, `${count} messages`).toHaveLength(MESSAGE_WINDOW);
      expect(ids.at(-1)).toBe(`m${count - 1}`);
      expect(ids[0]).toBe(`m${count - MESSAGE_WINDOW}`);
      expect(showEarlier()).not.toBeNull();
      unmount();
    }
  });

  it('a short conversation renders whole, without the button', () => {
    const { container } = render(<MessageList {...props} messages={conversation(12)} />);
    expect(rendered(container)).toHaveLength(12);
    expect(showEarlier()).toBeNull();
  });

  it('"Show earlier messages" adds a window at a time from the keyboard, says how many, and hands the focus to the list at the start', async () => {
    const user = userEvent.setup();
    const count = MESSAGE_WINDOW * 2 + 10;
    const { container } = render(<MessageList {...props} messages={conversation(count)} />);
    const list = container.querySelector<HTMLElement>('[data-docs-assistant="messages"]')!;

    // The list is a tab stop (it scrolls); the button is the next one.
    await user.tab();
    expect(list).toHaveFocus();
    await user.tab();
    expect(showEarlier()).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(rendered(container)).toHaveLength(MESSAGE_WINDOW * 2);
    expect(screen.getByRole('status')).toHaveTextContent(`${MESSAGE_WINDOW} earlier messages shown`);
    // The button stays where it was, with the focus, while there is more.
    expect(showEarlier()).toHaveFocus();

    await user.keyboard(' ');
    expect(rendered(container)).toHaveLength(count);
    expect(rendered(container)[0]).toBe('m0');
    expect(screen.getByRole('status')).toHaveTextContent('10 earlier messages shown');
    expect(showEarlier()).toBeNull();
    expect(list).toHaveFocus();
  });

  it('keeps the distance from the bottom of what the reader sees when earlier messages are added', async () => {
    const user = userEvent.setup();
    const { container } = render(<MessageList {...props} messages={conversation(200)} />);
    const list = container.querySelector<HTMLElement>('[data-docs-assistant="messages"]')!;
    // jsdom lays nothing out: the list's height is its messages' count, 10 px each.
    Object.defineProperty(list, 'scrollHeight', {
      configurable: true,
      get: () => list.querySelectorAll('[data-docs-assistant="message"]').length * 10,
    });
    list.scrollTop = 150;
    await user.click(showEarlier()!);
    // 40 more messages (400 px) above: the same messages are in view.
    expect(list.scrollTop).toBe(150 + MESSAGE_WINDOW * 10);
  });

  it('new messages at the end show; another conversation opens at its latest messages again', async () => {
    const user = userEvent.setup();
    const messages = conversation(300);
    const { container, rerender } = render(<MessageList {...props} messages={messages} />);
    await user.click(showEarlier()!);
    expect(rendered(container)).toHaveLength(MESSAGE_WINDOW * 2);

    rerender(<MessageList {...props} messages={[...messages, ...conversation(2, 'new')]} />);
    expect(rendered(container)).toHaveLength(MESSAGE_WINDOW * 2 + 2);
    expect(rendered(container).at(-1)).toBe('new1');

    rerender(<MessageList {...props} messages={conversation(5_000, 'other')} />);
    expect(rendered(container)).toHaveLength(MESSAGE_WINDOW);
    expect(rendered(container).at(-1)).toBe('other4999');
    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it('renders each message once per mount, not the whole conversation first', () => {
    // A render of the whole list, even one thrown away, is what froze the page: count the items
    // React mounts through the DOM's own insertions.
    const inserted: Node[] = [];
    const original = Element.prototype.appendChild;
    const spy = function (this: Element, node: Node) {
      if (node instanceof Element && node.getAttribute('data-docs-assistant') === 'message')
        inserted.push(node);
      return original.call(this, node) as Node;
    };
    Element.prototype.appendChild = spy as typeof Element.prototype.appendChild;
    try {
      act(() => {
        render(<MessageList {...props} messages={conversation(20_000)} />);
      });
    } finally {
      Element.prototype.appendChild = original;
    }
    expect(inserted.length).toBeLessThanOrEqual(MESSAGE_WINDOW);
  });
});
