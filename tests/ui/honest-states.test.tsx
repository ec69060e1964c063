// @vitest-environment jsdom
/**
 * The honest states of issue 35 (point 3), as a reader sees them in the rendered widget (the
 * controller's side is tests/chat/stopped-and-context.test.ts): a stop before any text shows the
 * question with "Stopped" and Retry, and asking again never shows it twice; a stopped answer is
 * marked stopped, with no copy or votes until an answer is complete; the sent question shows the
 * context it went with as chips; copying an answer or the conversation gives clean Markdown. That
 * the error banner never lies over a message is a rule of the layout test (tests/layout, checked
 * in Chromium: jsdom lays nothing out).
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  DocsAssistant,
  type DocsAssistantHandle,
  defaultLabels,
} from '../../packages/docs-assistant/src/index';
import { answer, baseProps, deferred, freshDomain, recordingFetch } from './helpers';

const hooks = (container: HTMLElement, name: string) =>
  Array.from(container.querySelectorAll<HTMLElement>(`[data-docs-assistant="${name}"]`));
const messages = (container: HTMLElement) =>
  hooks(container, 'message').map((message) => ({
    role: message.dataset.role,
    stopped: message.hasAttribute('data-stopped'),
  }));
const userTexts = (container: HTMLElement) => hooks(container, 'user-text').map((text) => text.textContent);

/**
 * The first question's response never comes (the request waits until the reader's Stop aborts
 * it); later ones are answered with `text`.
 */
function firstNeverAnswers(text: string) {
  const asked: string[][] = [];
  const fetch = async (_input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init?.body)) as { messages: { content: string }[] };
    asked.push(body.messages.map((message) => message.content));
    if (asked.length > 1) return answer([text]);
    return new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, asked };
}

beforeEach(freshDomain);

async function openWith(
  fetch: typeof globalThis.fetch,
  extra: { ref?: React.Ref<DocsAssistantHandle> } = {},
) {
  const view = render(<DocsAssistant {...baseProps} fetch={fetch} defaultOpen {...extra} />);
  const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
  const root = view.container.querySelector('[data-docs-assistant="root"]')!;
  const settled = () =>
    waitFor(() => expect(`${root.getAttribute('data-status')} ${root.textContent}`).toMatch(/^ready /));
  return { ...view, input, user: userEvent.setup(), settled };
}

describe('a stop before any text', () => {
  it('shows the question with "Stopped" and Retry; Retry answers it, shown once', async () => {
    const { fetch, asked } = firstNeverAnswers('Run npm install.');
    const { container, input, user, settled } = await openWith(fetch);
    await user.type(input, 'How do I install it?{Enter}');
    await user.click(await screen.findByRole('button', { name: defaultLabels.stop }));
    await settled();

    expect(messages(container)).toEqual([{ role: 'user', stopped: true }]);
    const note = hooks(container, 'stopped')[0]!;
    expect(note).toHaveTextContent(defaultLabels.stopped);
    await user.click(within(note).getByRole('button', { name: defaultLabels.retry }));
    await waitFor(() => expect(container).toHaveTextContent('Run npm install.'));
    await settled();
    expect(messages(container)).toEqual([
      { role: 'user', stopped: false },
      { role: 'assistant', stopped: false },
    ]);
    expect(userTexts(container)).toEqual(['How do I install it?']);
    expect(hooks(container, 'stopped')).toEqual([]);
    // The second request carried the question once.
    expect(asked[1]).toEqual(['How do I install it?']);
  });

  it('asking the same question again shows it once, answered', async () => {
    const { fetch, asked } = firstNeverAnswers('Run npm install.');
    const { container, input, user, settled } = await openWith(fetch);
    await user.type(input, 'How do I install it?{Enter}');
    await user.click(await screen.findByRole('button', { name: defaultLabels.stop }));
    await settled();
    await user.type(input, 'How do I install it?{Enter}');
    await waitFor(() => expect(container).toHaveTextContent('Run npm install.'));
    await settled();
    expect(userTexts(container)).toEqual(['How do I install it?']);
    expect(messages(container).map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(asked[1]).toEqual(['How do I install it?']);
  });
});

describe('a stop in the middle of an answer', () => {
  it('marks the fragment stopped, with Retry and no copy or votes; a complete answer has both', async () => {
    const never = deferred();
    const { fetch } = recordingFetch(
      () => answer(['Tool calls render', ' as cards.'], { gate: never.promise }),
      () => answer(['Tool calls render as cards.']),
    );
    const { container, input, user, settled } = await openWith(fetch);
    await user.type(input, 'How do tools show?{Enter}');
    await waitFor(() => expect(container).toHaveTextContent('Tool calls render'));
    await user.click(screen.getByRole('button', { name: defaultLabels.stop }));
    await settled();

    expect(messages(container)).toEqual([
      { role: 'user', stopped: false },
      { role: 'assistant', stopped: true },
    ]);
    const fragment = hooks(container, 'message')[1]!;
    expect(within(fragment).getByText(defaultLabels.stopped)).toBeInTheDocument();
    expect(within(fragment).queryByRole('button', { name: defaultLabels.copy })).toBeNull();
    expect(within(fragment).queryByRole('group', { name: 'Was this answer helpful?' })).toBeNull();
    expect(hooks(fragment, 'message-actions')).toEqual([]);

    await user.click(within(fragment).getByRole('button', { name: defaultLabels.retry }));
    await waitFor(() => expect(container).toHaveTextContent('Tool calls render as cards.'));
    await settled();
    const complete = hooks(container, 'message').at(-1)!;
    expect(complete).not.toHaveAttribute('data-stopped');
    expect(within(complete).getByRole('button', { name: defaultLabels.copy })).toBeInTheDocument();
    expect(
      await within(complete).findByRole('group', { name: 'Was this answer helpful?' }),
    ).toBeInTheDocument();
    never.resolve();
  });
});

describe('the question as sent', () => {
  it('shows the selection and the code it went with as chips under it', async () => {
    const ref = createRef<DocsAssistantHandle>();
    const { fetch, requests } = recordingFetch(() => answer(['It installs the package.']));
    const { container, input, user, settled } = await openWith(fetch, { ref });
    act(() => {
      ref.current!.addContext({ type: 'code', value: 'npm i\n  docs-assistant', path: '/install' });
      ref.current!.addContext({ type: 'textSelection', value: `Selected ${'words '.repeat(20)}` });
    });
    await user.type(input, 'What does it do?{Enter}');
    await waitFor(() => expect(container).toHaveTextContent('It installs the package.'));
    await settled();

    const question = hooks(container, 'message')[0]!;
    const list = within(question).getByRole('list', { name: defaultLabels.sentContext });
    const chips = within(list).getAllByRole('listitem');
    expect(chips.map((chip) => chip.dataset.contextType)).toEqual(['code', 'textSelection']);
    // On one line, cut to 60 characters; the whole value is the chip's title.
    expect(chips[0]).toHaveTextContent('npm i docs-assistant');
    expect(chips[0]!.querySelector('code')).not.toBeNull();
    expect(chips[1]!.textContent).toBe(`${`Selected ${'words '.repeat(20)}`.slice(0, 60)}…`);
    expect(chips[1]).toHaveAttribute('title', `Selected ${'words '.repeat(20)}`);
    // The chips left the question box for the question: none wait for the next one.
    expect(hooks(container, 'context')).toEqual([]);
    expect(requests[0]!.body.context).toHaveLength(2);
  });
});

describe('copying', () => {
  const reply = [
    'Set `--da-accent` on the root.\n\n',
    '```suggestions\n(Theming)[/guides/theming]\n(Dark mode)[/guides/dark-mode]\n```\n',
  ];
  const sources = [{ url: 'https://docs.example.com/reference/css', title: 'CSS variables' }];
  const expectedAnswer = [
    'Set `--da-accent` on the root.',
    `${defaultLabels.suggestionsHeading}:`,
    '- [Theming](https://docs.example.com/guides/theming)\n- [Dark mode](https://docs.example.com/guides/dark-mode)',
    `${defaultLabels.sourcesHeading}:`,
    '- [CSS variables](https://docs.example.com/reference/css)',
  ].join('\n\n');

  it('an answer gives clean Markdown: suggestions and sources as links, no fence of ours', async () => {
    const { fetch } = recordingFetch(() => answer(reply, { sources }));
    const { container, input, user, settled } = await openWith(fetch);
    await user.type(input, 'How do I change the colours?{Enter}');
    await waitFor(() => expect(container).toHaveTextContent('Set --da-accent on the root.'));
    await settled();
    await user.click(screen.getByRole('button', { name: defaultLabels.copy }));
    // `userEvent.setup()` gives the page a Clipboard API of its own; read back what was written.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: defaultLabels.copied })).toBeInTheDocument(),
    );
    const copied = await navigator.clipboard.readText();
    expect(copied).toBe(expectedAnswer);
    expect(copied).not.toMatch(/```|\(Theming\)\[/);
  });

  it('the conversation gives each turn under who said it, the answers as clean Markdown', async () => {
    const { fetch } = recordingFetch(() => answer(reply, { sources }));
    const { container, input, user, settled } = await openWith(fetch);
    await user.type(input, 'How do I change the colours?{Enter}');
    await waitFor(() => expect(container).toHaveTextContent('Set --da-accent on the root.'));
    await settled();
    await user.click(screen.getByRole('button', { name: defaultLabels.moreActions }));
    await user.click(await screen.findByRole('menuitem', { name: defaultLabels.copyConversation }));
    await waitFor(async () => expect(await navigator.clipboard.readText()).not.toBe(''));
    expect(await navigator.clipboard.readText()).toBe(
      `**${defaultLabels.you}:** How do I change the colours?\n\n---\n\n**${defaultLabels.assistant}:**\n\n${expectedAnswer}\n`,
    );
  });
});
