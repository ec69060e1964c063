// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef, useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DocsAssistant,
  type DocsAssistantHandle,
  defaultLabels,
} from '../../packages/docs-assistant/src/index';
import {
  answer,
  baseProps,
  deferred,
  freshDomain,
  recordAttribute,
  recordingFetch,
  recordText,
  serverError,
} from './helpers';

const hook = (container: HTMLElement, name: string) =>
  container.querySelector<HTMLElement>(`[data-docs-assistant="${name}"]`);
const hooks = (container: HTMLElement, name: string) =>
  Array.from(container.querySelectorAll<HTMLElement>(`[data-docs-assistant="${name}"]`));

beforeEach(freshDomain);

/** A host page that controls the open state and can close the widget from outside. */
function ControlledHost({ fetch }: { fetch: typeof globalThis.fetch }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(false)}>
        host close
      </button>
      <DocsAssistant {...baseProps} fetch={fetch} open={open} onOpenChange={setOpen} />
    </>
  );
}

async function openFloating(container: HTMLElement) {
  const user = userEvent.setup();
  await user.click(hook(container, 'launcher')!);
  const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
  return { user, input };
}

describe('<DocsAssistant> open and close', () => {
  it('opens from the launcher into a dialog, focuses the input, and Escape returns focus to the launcher', async () => {
    const { fetch } = recordingFetch(() => answer(['unused']));
    const { container } = render(<DocsAssistant {...baseProps} fetch={fetch} />);
    const root = hook(container, 'root')!;
    const launcher = screen.getByRole('button', { name: defaultLabels.launcher });
    expect(launcher).toHaveAttribute('aria-expanded', 'false');
    expect(root).toHaveAttribute('data-state', 'closed');
    expect(hook(container, 'panel')).toBeNull();

    const { user, input } = await openFloating(container);
    const dialog = screen.getByRole('dialog', { name: defaultLabels.title });
    expect(dialog).toHaveAttribute('data-docs-assistant', 'panel');
    expect(dialog).toHaveAttribute('data-state', 'open');
    expect(root).toHaveAttribute('data-state', 'open');
    expect(launcher).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(input).toHaveFocus());

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(dialog).not.toBeVisible();
    expect(root).toHaveAttribute('data-state', 'closed');
    expect(launcher).toHaveFocus();
  });

  it('closes from its close button and gives focus back to the launcher', async () => {
    const { container } = render(<DocsAssistant {...baseProps} />);
    const { user } = await openFloating(container);
    await user.click(screen.getByRole('button', { name: defaultLabels.close }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(hook(container, 'launcher')).toHaveFocus();
  });

  it('opens with Ctrl+I (not on macOS), but not while the reader types in a field of the host page', async () => {
    const { container } = render(
      <>
        <input aria-label="Host search" />
        <DocsAssistant {...baseProps} />
      </>,
    );
    const hostInput = screen.getByRole('textbox', { name: 'Host search' });
    hostInput.focus();
    fireEvent.keyDown(hostInput, { key: 'i', code: 'KeyI', ctrlKey: true });
    expect(hook(container, 'root')).toHaveAttribute('data-state', 'closed');

    fireEvent.keyDown(document.body, { key: 'i', code: 'KeyI', ctrlKey: true });
    expect(hook(container, 'root')).toHaveAttribute('data-state', 'open');
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    await waitFor(() => expect(input).toHaveFocus());
    // Inside the widget the shortcut still works (it keeps focus on the question box).
    fireEvent.keyDown(input, { key: 'i', code: 'KeyI', ctrlKey: true });
    expect(hook(container, 'root')).toHaveAttribute('data-state', 'open');
    expect(hook(container, 'launcher')).toHaveAttribute('aria-keyshortcuts', 'Control+I');
  });

  it('takes a custom shortcut, and none with shortcut={false}', () => {
    const { container, rerender } = render(<DocsAssistant {...baseProps} shortcut="ctrl+k" />);
    fireEvent.keyDown(document.body, { key: 'i', ctrlKey: true });
    expect(hook(container, 'root')).toHaveAttribute('data-state', 'closed');
    fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
    expect(hook(container, 'root')).toHaveAttribute('data-state', 'open');

    rerender(<DocsAssistant {...baseProps} shortcut={false} open={false} />);
    fireEvent.keyDown(document.body, { key: 'i', ctrlKey: true });
    fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
    expect(hook(container, 'root')).toHaveAttribute('data-state', 'closed');
  });

  it('reports a bad shortcut and keeps working without one', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { container } = render(<DocsAssistant {...baseProps} shortcut="ctrl+" />);
    expect(error).toHaveBeenCalledWith(
      expect.objectContaining({ message: expect.stringContaining('"ctrl+"') }),
    );
    expect(hook(container, 'launcher')).toBeInTheDocument();
    error.mockRestore();
  });

  it('is controlled by open/onOpenChange', async () => {
    const onOpenChange = vi.fn();
    const { container, rerender } = render(
      <DocsAssistant {...baseProps} open={false} onOpenChange={onOpenChange} />,
    );
    const user = userEvent.setup();
    await user.click(hook(container, 'launcher')!);
    expect(onOpenChange).toHaveBeenLastCalledWith(true);
    expect(hook(container, 'root')).toHaveAttribute('data-state', 'closed');

    rerender(<DocsAssistant {...baseProps} open onOpenChange={onOpenChange} />);
    expect(await screen.findByRole('dialog', { name: defaultLabels.title })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('opens, closes and fills the input through its ref', async () => {
    const ref = createRef<DocsAssistantHandle>();
    const { container } = render(<DocsAssistant {...baseProps} ref={ref} />);
    act(() => ref.current!.setInput('How do I install?'));
    act(() => ref.current!.open());
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    expect(input).toHaveValue('How do I install?');
    act(() => ref.current!.close());
    expect(hook(container, 'root')).toHaveAttribute('data-state', 'closed');
    act(() => ref.current!.setInput('Changed'));
    expect(input).toHaveValue('Changed');
    expect(() => ref.current!.addContext({ type: 'html' as 'code', value: 'x' })).toThrow(
      /addContext expects/,
    );
  });
  it('works from the keyboard alone: Tab to the launcher, Enter opens, Enter sends, Tab reaches the controls', async () => {
    const { fetch, requests } = recordingFetch(() => answer(['Keyboard answer.']));
    const { container } = render(
      <>
        <a href="#top">Host link</a>
        <DocsAssistant {...baseProps} fetch={fetch} />
      </>,
    );
    const user = userEvent.setup();
    await user.tab();
    expect(screen.getByRole('link', { name: 'Host link' })).toHaveFocus();
    await user.tab();
    expect(hook(container, 'launcher')).toHaveFocus();
    await user.keyboard('{Enter}');
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    await waitFor(() => expect(input).toHaveFocus());
    await user.keyboard('Keyboard question?{Enter}');
    await waitFor(() => expect(container).toHaveTextContent('Keyboard answer.'));
    expect(requests).toHaveLength(1);
    await waitFor(() => expect(hook(container, 'root')).toHaveAttribute('data-status', 'ready'));
    const copy = await screen.findByRole('button', { name: defaultLabels.copy });
    // The answer's feedback votes (an on-demand view) come after Copy.
    const votes = await screen.findByRole('group', { name: 'Was this answer helpful?' });
    // Shift+Tab walks back from the question box through the conversation to the header.
    await user.tab({ shift: true });
    expect(within(votes).getByRole('button', { name: 'Not helpful' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(within(votes).getByRole('button', { name: 'Helpful' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(copy).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('log')).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: defaultLabels.close })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(hook(container, 'launcher')).toHaveFocus();
  });
});

describe('<DocsAssistant> variants', () => {
  it('side-panel: a labelled complementary landmark that the launcher toggles', async () => {
    const { container } = render(<DocsAssistant {...baseProps} variant="side-panel" />);
    expect(hook(container, 'root')).toHaveAttribute('data-variant', 'side-panel');
    const user = userEvent.setup();
    await user.click(hook(container, 'launcher')!);
    const aside = await screen.findByRole('complementary', { name: defaultLabels.title });
    expect(aside).toHaveAttribute('data-docs-assistant', 'panel');
    expect(aside).toHaveAttribute('data-state', 'open');
    await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    await user.click(hook(container, 'launcher')!);
    expect(screen.queryByRole('complementary')).toBeNull();
    expect(aside).toHaveAttribute('data-state', 'closed');
  });

  it('inline: the panel is always shown in a labelled region, with no launcher and no close', async () => {
    const { container } = render(
      <DocsAssistant {...baseProps} variant="inline" starterQuestions={['What is it?']} />,
    );
    expect(hook(container, 'launcher')).toBeNull();
    expect(hook(container, 'root')).toHaveAttribute('data-state', 'open');
    const region = screen.getByRole('region', { name: defaultLabels.title });
    expect(region).toHaveAttribute('data-docs-assistant', 'panel');
    expect(await within(region).findByRole('button', { name: 'What is it?' })).toBeInTheDocument();
    expect(hook(container, 'composer')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: defaultLabels.close })).toBeNull();
    fireEvent.keyDown(screen.getByRole('textbox'), { key: 'Escape' });
    expect(region).toBeVisible();
  });
});

describe('<DocsAssistant> conversation', () => {
  it('asks a starter question: the answer streams, data-status goes submitted → streaming → ready', async () => {
    const responseGate = deferred();
    const streamGate = deferred();
    const { fetch, requests } = recordingFetch(async () => {
      await responseGate.promise;
      return answer(['Install it with ', '`npm i docs-assistant`.'], {
        gate: streamGate.promise,
        sources: [{ url: '/guides/install', title: 'Install guide' }],
      });
    });
    const { container } = render(
      <DocsAssistant {...baseProps} fetch={fetch} defaultOpen starterQuestions={['How do I install it?']} />,
    );
    const root = hook(container, 'root')!;
    const status = recordAttribute(root, 'data-status');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'How do I install it?' }));

    await waitFor(() => expect(root).toHaveAttribute('data-status', 'submitted'));
    const log = screen.getByRole('log');
    expect(log).toHaveAttribute('aria-live', 'off');
    expect(log).toHaveAttribute('aria-busy', 'true');
    const userMessage = hooks(container, 'message').find((m) => m.dataset.role === 'user')!;
    expect(userMessage).toHaveTextContent('How do I install it?');
    expect(screen.getByRole('button', { name: defaultLabels.stop })).toBeInTheDocument();

    responseGate.resolve();
    await waitFor(() => expect(root).toHaveAttribute('data-status', 'streaming'));
    await waitFor(() => expect(container).toHaveTextContent('Install it with'));
    streamGate.resolve();
    await waitFor(() => expect(root).toHaveAttribute('data-status', 'ready'));

    const assistant = hooks(container, 'message').find((m) => m.dataset.role === 'assistant')!;
    // The hook throttles message renders, so the last delta may land a tick after the status.
    await waitFor(() => expect(assistant).toHaveTextContent('Install it with npm i docs-assistant.'));
    const source = within(assistant).getByRole('link', { name: /Install guide/ });
    expect(source).toHaveAttribute('href', 'https://docs.example.com/guides/install');
    expect(status.values).toEqual(['ready', 'submitted', 'streaming', 'ready']);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.body).toMatchObject({
      fp: 'anonymous',
      retrievalPageSize: 5,
      messages: [{ role: 'user', content: 'How do I install it?' }],
    });
    // Starter questions belong to an empty conversation only.
    expect(screen.queryByRole('button', { name: 'How do I install it?' })).toBeNull();
  });

  it('announces that an answer is coming, then the finished answer once, not per token', async () => {
    const streamGate = deferred();
    const { fetch } = recordingFetch(
      () => answer(['One ', 'two ', 'three.'], { gate: streamGate.promise }),
      () => answer(['Second answer.']),
    );
    const { container } = render(<DocsAssistant {...baseProps} fetch={fetch} defaultOpen />);
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    const announcer = hook(container, 'announcer')!;
    expect(announcer).toHaveAttribute('aria-live', 'polite');
    const announced = recordText(announcer);
    const user = userEvent.setup();
    await user.type(input, 'Count{Enter}');
    await waitFor(() => expect(container).toHaveTextContent('One'));
    expect(announcer).toHaveTextContent(defaultLabels.thinking);
    streamGate.resolve();
    await waitFor(() => expect(hook(container, 'root')).toHaveAttribute('data-status', 'ready'));
    await waitFor(() => expect(announcer).toHaveTextContent(`${defaultLabels.answerReady}: One two three.`));

    await user.type(input, 'Again{Enter}');
    await waitFor(() => expect(announcer).toHaveTextContent(`${defaultLabels.answerReady}: Second answer.`));
    expect(announced.values.filter(Boolean)).toEqual([
      defaultLabels.thinking,
      `${defaultLabels.answerReady}: One two three.`,
      defaultLabels.thinking,
      `${defaultLabels.answerReady}: Second answer.`,
    ]);
  });

  it('stops a streaming answer and keeps what arrived', async () => {
    const never = deferred();
    const { fetch } = recordingFetch(() => answer(['Partial ', 'rest'], { gate: never.promise }));
    const { container } = render(<DocsAssistant {...baseProps} fetch={fetch} defaultOpen />);
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    const user = userEvent.setup();
    await user.type(input, 'Long question{Enter}');
    await waitFor(() => expect(hook(container, 'root')).toHaveAttribute('data-status', 'streaming'));
    await waitFor(() => expect(container).toHaveTextContent('Partial'));
    await user.click(screen.getByRole('button', { name: defaultLabels.stop }));
    await waitFor(() => expect(hook(container, 'root')).toHaveAttribute('data-status', 'ready'));
    expect(screen.getByRole('button', { name: defaultLabels.send })).toBeInTheDocument();
    expect(container).toHaveTextContent('Partial');
    expect(container).not.toHaveTextContent('rest');
    never.resolve();
  });

  it('shows an error after a 500, keeps the question, and retries it', async () => {
    const { fetch, requests } = recordingFetch(serverError, () => answer(['Here you go.']));
    const { container } = render(<DocsAssistant {...baseProps} fetch={fetch} defaultOpen />);
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    const user = userEvent.setup();
    await user.type(input, 'Why?{Enter}');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveAttribute('data-docs-assistant', 'error');
    expect(alert).toHaveTextContent(defaultLabels.errorNetwork);
    expect(hook(container, 'root')).toHaveAttribute('data-status', 'error');
    expect(hooks(container, 'message').map((m) => [m.dataset.role, m.textContent])).toEqual([
      ['user', `${defaultLabels.you}Why?`],
    ]);

    await user.click(within(alert).getByRole('button', { name: defaultLabels.retry }));
    await waitFor(() => expect(container).toHaveTextContent('Here you go.'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(requests).toHaveLength(2);
    expect(requests[1]!.body.messages.map((m) => [m.role, m.content])).toEqual([['user', 'Why?']]);
  });

  it('copies an answer', async () => {
    const { fetch } = recordingFetch(() => answer(['Copy ', 'me.']));
    const { container } = render(<DocsAssistant {...baseProps} fetch={fetch} defaultOpen />);
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    const user = userEvent.setup();
    await user.type(input, 'Q{Enter}');
    await waitFor(() => expect(hook(container, 'root')).toHaveAttribute('data-status', 'ready'));
    await user.click(await screen.findByRole('button', { name: defaultLabels.copy }));
    expect(await navigator.clipboard.readText()).toBe('Copy me.');
    expect(await screen.findByRole('button', { name: defaultLabels.copied })).toBeInTheDocument();
  });

  it('copies an answer where the page has no Clipboard API (plain http)', async () => {
    const { fetch } = recordingFetch(() => answer(['Copy ', 'me too.']));
    const { container } = render(<DocsAssistant {...baseProps} fetch={fetch} defaultOpen />);
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    const user = userEvent.setup();
    await user.type(input, 'Q{Enter}');
    await waitFor(() => expect(hook(container, 'root')).toHaveAttribute('data-status', 'ready'));
    let copied: string | undefined;
    const execCommand = vi.fn((command: string) => {
      const active = document.activeElement;
      if (command !== 'copy' || !(active instanceof HTMLTextAreaElement)) return false;
      copied = active.value.slice(active.selectionStart, active.selectionEnd);
      return true;
    });
    const clipboard = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    try {
      const button = await screen.findByRole('button', { name: defaultLabels.copy });
      await user.click(button);
      expect(await screen.findByRole('button', { name: defaultLabels.copied })).toHaveFocus();
      expect(copied).toBe('Copy me too.');
    } finally {
      if (clipboard) Object.defineProperty(navigator, 'clipboard', clipboard);
      else Reflect.deleteProperty(navigator, 'clipboard');
      Reflect.deleteProperty(document, 'execCommand');
    }
  });

  it('starts a new conversation', async () => {
    const { fetch } = recordingFetch(() => answer(['An answer.']));
    const { container } = render(
      <DocsAssistant {...baseProps} fetch={fetch} defaultOpen starterQuestions={['First?']} />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'First?' }));
    await waitFor(() => expect(container).toHaveTextContent('An answer.'));
    await waitFor(() => expect(hook(container, 'root')).toHaveAttribute('data-status', 'ready'));
    await user.click(screen.getByRole('button', { name: defaultLabels.newConversation }));
    expect(hooks(container, 'message').map((m) => m.textContent)).toEqual([]);
    expect(screen.getByRole('button', { name: 'First?' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: defaultLabels.inputLabel })).toHaveFocus();
  });

  it('sends on Enter, not on Shift+Enter nor while an IME composes', async () => {
    const { fetch, requests } = recordingFetch(() => answer(['ok']));
    const { container } = render(<DocsAssistant {...baseProps} fetch={fetch} defaultOpen />);
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    const user = userEvent.setup();
    await user.type(input, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(input).toHaveValue('line one\nline two');
    fireEvent.keyDown(input, { key: 'Enter', isComposing: true });
    fireEvent.keyDown(input, { key: 'Enter', keyCode: 229 });
    expect(requests).toHaveLength(0);
    expect(screen.getByRole('button', { name: defaultLabels.send })).toBeEnabled();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(requests[0]!.body.messages.at(-1)!.content).toBe('line one\nline two');
    expect(input).toHaveValue('');
    await waitFor(() => expect(hook(container, 'root')).toHaveAttribute('data-status', 'ready'));
  });

  it('asks through the ref before the panel ever opened', async () => {
    const ref = createRef<DocsAssistantHandle>();
    const { fetch, requests } = recordingFetch(() => answer(['Asked.']));
    const { container } = render(<DocsAssistant {...baseProps} fetch={fetch} ref={ref} />);
    act(() => ref.current!.ask('From the host page?'));
    await waitFor(() => expect(container).toHaveTextContent('Asked.'));
    expect(hook(container, 'root')).toHaveAttribute('data-state', 'open');
    expect(requests[0]!.body.messages.at(-1)!.content).toBe('From the host page?');
  });
});

describe('<DocsAssistant> context chips', () => {
  it('shows items added through the ref, removes them by their button, and sends the rest as context', async () => {
    const ref = createRef<DocsAssistantHandle>();
    const { fetch, requests } = recordingFetch(() => answer(['About that code.']));
    const { container } = render(<DocsAssistant {...baseProps} fetch={fetch} ref={ref} />);
    act(() => {
      ref.current!.addContext({ type: 'code', value: 'npm i docs-assistant', path: '/install' });
      ref.current!.addContext({ type: 'textSelection', value: 'Selected words' });
      ref.current!.addContext({ type: 'textSelection', value: 'x'.repeat(5_000) });
    });
    const { user, input } = await openFloating(container);
    const chips = hooks(container, 'context');
    expect(chips.map((c) => c.dataset.contextType)).toEqual(['code', 'textSelection', 'textSelection']);
    expect(chips[2]).toHaveAttribute('data-truncated', '');
    expect(chips[2]).toHaveTextContent(defaultLabels.contextTruncated);
    expect(chips[0]).not.toHaveAttribute('data-truncated');

    await user.click(screen.getByRole('button', { name: defaultLabels.removeContext('Selected words') }));
    await user.click(screen.getByRole('button', { name: defaultLabels.removeContext('x'.repeat(4_000)) }));
    expect(hooks(container, 'context')).toHaveLength(1);

    await user.type(input, 'What does it do?{Enter}');
    await waitFor(() => expect(container).toHaveTextContent('About that code.'));
    expect(requests[0]!.body.context).toEqual([
      { type: 'code', value: 'npm i docs-assistant', path: '/install' },
    ]);
    // Sent items are cleared from the next question.
    expect(hooks(container, 'context')).toHaveLength(0);
  });
});

describe('<DocsAssistant> collectors', () => {
  it("turns a code block's Ask AI into context, opens the panel and focuses the question box", async () => {
    const { container } = render(
      <>
        <pre>
          <code>npm run build</code>
        </pre>
        <DocsAssistant {...baseProps} />
      </>,
    );
    const user = userEvent.setup();
    await user.hover(screen.getByText('npm run build'));
    const askCode = await screen.findByRole('button', { name: defaultLabels.askAiAboutCode });
    // The widget's own button, never one put into the page's block.
    expect(hook(container, 'root')).toContainElement(askCode);
    expect(container.querySelector('pre button')).toBeNull();
    await user.click(askCode);
    expect(hook(container, 'root')).toHaveAttribute('data-state', 'open');
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    await waitFor(() => expect(input).toHaveFocus());
    const chips = hooks(container, 'context');
    expect(chips).toHaveLength(1);
    expect(chips[0]).toHaveAttribute('data-context-type', 'code');
    expect(hook(chips[0]!, 'context-value')).toHaveTextContent('npm run build');
  });

  it("names the code blocks' Ask AI with the askAiAboutCode label, and never in another language than askAi", async () => {
    const { rerender } = render(
      <>
        <pre>
          <code>npm run build</code>
        </pre>
        <DocsAssistant
          {...baseProps}
          labels={{ askAi: 'KI fragen', askAiAboutCode: 'KI zu diesem Code fragen' }}
        />
      </>,
    );
    const user = userEvent.setup();
    await user.hover(screen.getByText('npm run build'));
    const button = await screen.findByRole('button', { name: 'KI zu diesem Code fragen' });
    expect(button).toHaveTextContent('KI fragen');
    // Only askAi translated: the visible word names the button rather than an English sentence.
    rerender(
      <>
        <pre>
          <code>npm run build</code>
        </pre>
        <DocsAssistant {...baseProps} labels={{ askAi: 'KI fragen' }} />
      </>,
    );
    // A new label restarts the collector: point at the block again.
    await user.unhover(screen.getByText('npm run build'));
    await user.hover(screen.getByText('npm run build'));
    expect(await screen.findByRole('button', { name: 'KI fragen' })).toHaveTextContent('KI fragen');
    expect(screen.queryByRole('button', { name: /about this code/ })).toBeNull();
  });

  it('adds no Ask AI buttons with collectors={false}', async () => {
    render(
      <>
        <pre>
          <code>npm run build</code>
        </pre>
        <DocsAssistant {...baseProps} collectors={false} />
      </>,
    );
    await act(async () => {});
    await userEvent.setup().hover(screen.getByText('npm run build'));
    expect(screen.queryByRole('button', { name: defaultLabels.askAiAboutCode })).toBeNull();
  });
});

describe('<DocsAssistant> configuration and availability', () => {
  it('refuses an admin key: shows the config error with its detail and sends nothing', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { fetch, mock } = recordingFetch(() => answer(['never']));
    const { container } = render(
      <DocsAssistant {...baseProps} apiKey="svc_admin_secret" fetch={fetch} defaultOpen />,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveAttribute('data-error-kind', 'config');
    expect(alert).toHaveTextContent(defaultLabels.errorConfig);
    expect(within(alert).queryByRole('button', { name: defaultLabels.retry })).toBeNull();
    expect(hook(container, 'error-detail')?.textContent).toMatch(/admin/i);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: defaultLabels.inputLabel }), 'Hello?{Enter}');
    expect(screen.getByRole('button', { name: defaultLabels.send })).toBeDisabled();
    expect(mock).not.toHaveBeenCalled();
    consoleError.mockRestore();
  });

  it('air-gapped: says the assistant is unavailable and never makes a request', async () => {
    const { fetch, mock } = recordingFetch(() => answer(['never']));
    const ref = createRef<DocsAssistantHandle>();
    const { container } = render(
      <DocsAssistant {...baseProps} deployment="air-gapped" fetch={fetch} ref={ref} />,
    );
    const { user } = { user: userEvent.setup() };
    await user.click(hook(container, 'launcher')!);
    const dialog = screen.getByRole('dialog', { name: defaultLabels.title });
    expect(within(dialog).getByRole('alert')).toHaveTextContent(defaultLabels.unavailable);
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    act(() => ref.current!.ask('Anyone there?'));
    expect(mock).not.toHaveBeenCalled();
  });

  it("air-gapped with whenUnavailable='hidden' renders nothing", () => {
    const { container } = render(
      <DocsAssistant {...baseProps} deployment="air-gapped" whenUnavailable="hidden" />,
    );
    expect(container).toBeEmptyDOMElement();
    fireEvent.keyDown(document.body, { key: 'i', ctrlKey: true });
    expect(container).toBeEmptyDOMElement();
  });
});

describe('<DocsAssistant> customisation', () => {
  it('uses overridden labels', async () => {
    const { container } = render(
      <DocsAssistant
        {...baseProps}
        labels={{ launcher: 'Need help?', title: 'Docs bot', inputLabel: 'Ask away', send: 'Go' }}
      />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Need help?' }));
    expect(await screen.findByRole('dialog', { name: 'Docs bot' })).toBeInTheDocument();
    expect(await screen.findByRole('textbox', { name: 'Ask away' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go' })).toBeInTheDocument();
    expect(hook(container, 'launcher')).toHaveTextContent('Need help?');
  });

  it('keeps the default title and Close name where an override is undefined, before and after the panel loads', async () => {
    // A host building labels from a partial translation passes `undefined` for what it lacks.
    const { container } = render(
      <DocsAssistant {...baseProps} labels={{ title: undefined, close: undefined }} />,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Ask AI' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ask the docs' });
    expect(hook(container, 'title')).toHaveTextContent('Ask the docs');
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    // The panel's own header, once its code is there.
    await screen.findByRole('textbox');
    expect(hook(container, 'title')).toHaveTextContent('Ask the docs');
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('drops the styled flag with unstyled, puts classNames on the slots and spreads props on the root', async () => {
    const { fetch } = recordingFetch(
      () =>
        answer(
          ['Styled answer.\n\n', '```suggestions\n(Install)[/guides/install]\n(CLI)[/guides/cli]\n```\n'],
          {
            sources: [
              { url: 'https://docs.example.com/guides/setup', title: 'Setup' },
              { url: 'https://docs.example.com/guides/keys', title: 'Keys' },
            ],
          },
        ),
      serverError,
    );
    const classNames = {
      root: 'c-root',
      launcher: 'c-launcher',
      panel: 'c-panel',
      header: 'c-header',
      messages: 'c-messages',
      message: 'c-message',
      composer: 'c-composer',
      input: 'c-input',
      context: 'c-context',
      starterQuestions: 'c-starters',
      part: 'c-part',
      source: 'c-source',
      suggestion: 'c-suggestion',
      error: 'c-error',
    };
    const ref = createRef<DocsAssistantHandle>();
    const { container, rerender } = render(
      <DocsAssistant
        {...baseProps}
        fetch={fetch}
        ref={ref}
        starterQuestions={['Q?']}
        classNames={classNames}
        className="host"
        id="assistant"
        data-testing="yes"
      />,
    );
    const root = hook(container, 'root')!;
    expect(root).toHaveAttribute('data-styled', '');
    expect(root).toHaveClass('c-root', 'host');
    expect(root).toHaveAttribute('id', 'assistant');
    expect(root).toHaveAttribute('data-testing', 'yes');
    rerender(
      <DocsAssistant
        {...baseProps}
        fetch={fetch}
        ref={ref}
        starterQuestions={['Q?']}
        classNames={classNames}
        unstyled
      />,
    );
    expect(root).not.toHaveAttribute('data-styled');
    act(() => void ref.current!.addContext({ type: 'code', value: 'x = 1' }));
    await openFloating(container);
    expect(hook(container, 'starter-questions')).toHaveClass('c-starters');
    expect(screen.getByRole('button', { name: 'Q?' })).toHaveClass('c-suggestion');
    expect(hook(container, 'context')).toHaveClass('c-context');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Q?' }));
    // The answer's Markdown renders in the background, block by block: wait for its last block.
    await waitFor(() => expect(hooks(container, 'suggestion')).toHaveLength(2));
    expect(container).toHaveTextContent('Styled answer.');
    expect(hook(container, 'launcher')).toHaveClass('c-launcher');
    expect(hook(container, 'panel')).toHaveClass('c-panel');
    expect(hook(container, 'header')).toHaveClass('c-header');
    expect(hook(container, 'messages')).toHaveClass('c-messages');
    for (const message of hooks(container, 'message')) expect(message).toHaveClass('c-message');
    expect(hook(container, 'composer')).toHaveClass('c-composer');
    expect(hook(container, 'input')).toHaveClass('c-input');

    const parts = hooks(container, 'part');
    expect(parts.map((part) => part.getAttribute('data-part-type'))).toEqual(['text', 'source']);
    for (const part of parts) expect(part).toHaveClass('c-part');
    const sources = hooks(container, 'source');
    expect(sources.map((link) => link.textContent)).toEqual(['Setup', 'Keys']);
    for (const link of sources) expect(link).toHaveClass('c-source');
    const suggestions = hooks(container, 'suggestion');
    expect(suggestions.map((link) => link.textContent)).toEqual(['Install', 'CLI']);
    for (const link of suggestions) expect(link).toHaveClass('c-suggestion');

    await user.type(screen.getByRole('textbox', { name: defaultLabels.inputLabel }), 'Again?{Enter}');
    expect(await screen.findByRole('alert')).toHaveClass('c-error');
  });

  it('sets data-theme: fixed themes, and system following prefers-color-scheme live', () => {
    let dark = true;
    const listeners = new Set<() => void>();
    const matchMedia = vi.fn((query: string) => ({
      get matches() {
        return query.includes('dark') && dark;
      },
      media: query,
      addEventListener: (_: string, l: () => void) => listeners.add(l),
      removeEventListener: (_: string, l: () => void) => listeners.delete(l),
    }));
    vi.stubGlobal('matchMedia', matchMedia);
    try {
      const { container, rerender } = render(<DocsAssistant {...baseProps} theme="light" />);
      const root = hook(container, 'root')!;
      expect(root).toHaveAttribute('data-theme', 'light');
      rerender(<DocsAssistant {...baseProps} theme="dark" />);
      expect(root).toHaveAttribute('data-theme', 'dark');
      rerender(<DocsAssistant {...baseProps} />);
      expect(root).toHaveAttribute('data-theme', 'dark');
      act(() => {
        dark = false;
        for (const l of listeners) l();
      });
      expect(root).toHaveAttribute('data-theme', 'light');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('keeps the panel mounted while closed so a streaming answer continues', async () => {
    const gate = deferred();
    const { fetch } = recordingFetch(() => answer(['Still ', 'streaming.'], { gate: gate.promise }));
    const { container } = render(<ControlledHost fetch={fetch} />);
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    const user = userEvent.setup();
    await user.type(input, 'Go{Enter}');
    await waitFor(() => expect(hook(container, 'root')).toHaveAttribute('data-status', 'streaming'));
    await user.click(screen.getByRole('button', { name: 'host close' }));
    expect(hook(container, 'panel')).not.toBeVisible();
    gate.resolve();
    await waitFor(() => expect(hook(container, 'root')).toHaveAttribute('data-status', 'ready'));
    await waitFor(() => expect(hook(container, 'panel')).toHaveTextContent('Still streaming.'));
  });
});
