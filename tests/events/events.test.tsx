// @vitest-environment jsdom
/**
 * Every event `onEvent` receives, with its payload pinned, from a widget talking to real v4 data
 * streams (the AI SDK's own `createDataStreamResponse` and `formatDataStreamPart`).
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DocsAssistant,
  type DocsAssistantEvent,
  type DocsAssistantHandle,
  defaultLabels,
} from '../../packages/docs-assistant/src/index';
import { select, selectionButton } from '../context/helpers';
import { eventLog, ofType, props, serviceFetch } from './helpers';

const hook = (container: HTMLElement, name: string) =>
  container.querySelector<HTMLElement>(`[data-docs-assistant="${name}"]`);

afterEach(() => vi.restoreAllMocks());

async function askInComposer(question: string) {
  const user = userEvent.setup();
  const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
  await user.type(input, question);
  await user.keyboard('{Enter}');
  return user;
}

/** Waits for an answer's copy button: the answer has finished. */
const finishedAnswer = () => screen.findByRole('button', { name: defaultLabels.copy });

describe('onEvent: lifecycle', () => {
  it('reports open (launcher), ask (composer, no text), answer (timings, sources), close; the question never', async () => {
    const { fetch } = serviceFetch([
      { messageId: 'msg_a', sources: [{ url: 'https://docs.example.com/install', title: 'Install' }] },
    ]);
    const log = eventLog();
    const { container } = render(<DocsAssistant {...props()} fetch={fetch} onEvent={log.onEvent} />);
    const user = userEvent.setup();
    await user.click(hook(container, 'launcher')!);
    expect(log.events).toEqual([{ type: 'open', source: 'launcher' }]);

    await askInComposer('How do I install the secret thing?');
    await finishedAnswer();
    await waitFor(() => expect(ofType(log.events, 'answer')).toHaveLength(1));
    const [ask] = ofType(log.events, 'ask');
    expect(ask).toEqual({ type: 'ask', source: 'composer', contextItems: 0 });
    const [answered] = ofType(log.events, 'answer');
    expect(answered).toEqual({
      type: 'answer',
      messageId: 'msg_a',
      threadId: 'thr_1',
      timeToFirstTokenMs: expect.any(Number),
      totalMs: expect.any(Number),
      sources: 1,
    });
    // Measured with performance.now from the question going out: first text before the finish.
    expect(answered!.timeToFirstTokenMs).toBeGreaterThanOrEqual(0);
    expect(answered!.totalMs).toBeGreaterThanOrEqual(answered!.timeToFirstTokenMs!);
    expect(JSON.stringify(log.events)).not.toContain('secret');

    await user.keyboard('{Escape}');
    expect(log.events.at(-1)).toEqual({ type: 'close' });
    expect(log.events.map((event) => event.type)).toEqual(['open', 'ask', 'answer', 'close']);
  });

  it('reports the follow-up with its thread, and new-conversation with the thread left', async () => {
    const { fetch } = serviceFetch([{ messageId: 'msg_1' }, { messageId: 'msg_2' }]);
    const log = eventLog();
    render(<DocsAssistant {...props()} fetch={fetch} variant="inline" onEvent={log.onEvent} />);
    const user = await askInComposer('first');
    await waitFor(() => expect(ofType(log.events, 'answer')).toHaveLength(1));
    await askInComposer('second');
    await waitFor(() => expect(ofType(log.events, 'answer')).toHaveLength(2));
    expect(ofType(log.events, 'ask')).toEqual([
      { type: 'ask', source: 'composer', contextItems: 0 },
      { type: 'ask', source: 'composer', threadId: 'thr_1', contextItems: 0 },
    ]);
    await user.click(screen.getByRole('button', { name: defaultLabels.newConversation }));
    expect(log.events.at(-1)).toEqual({ type: 'new-conversation', threadId: 'thr_1' });
    // Inline is always open: no open or close event.
    expect(ofType(log.events, 'open', 'close')).toEqual([]);
  });

  it('puts the question in ask events only with eventsIncludeText', async () => {
    const { fetch } = serviceFetch([{}]);
    const log = eventLog();
    render(
      <DocsAssistant
        {...props()}
        fetch={fetch}
        variant="inline"
        eventsIncludeText
        starterQuestions={['What is it?']}
        onEvent={log.onEvent}
      />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'What is it?' }));
    await waitFor(() => expect(ofType(log.events, 'answer')).toHaveLength(1));
    expect(log.events.slice(0, 2)).toEqual([
      { type: 'suggestion-click', kind: 'starter', question: 'What is it?' },
      { type: 'ask', source: 'starter-question', contextItems: 0, question: 'What is it?' },
    ]);
  });

  it('reports a starter question without its text by default', async () => {
    const { fetch } = serviceFetch([{}]);
    const log = eventLog();
    render(
      <DocsAssistant
        {...props()}
        fetch={fetch}
        variant="inline"
        starterQuestions={['What is it?']}
        onEvent={log.onEvent}
      />,
    );
    await userEvent.setup().click(await screen.findByRole('button', { name: 'What is it?' }));
    await waitFor(() => expect(ofType(log.events, 'ask')).toHaveLength(1));
    expect(log.events.slice(0, 2)).toEqual([
      { type: 'suggestion-click', kind: 'starter' },
      { type: 'ask', source: 'starter-question', contextItems: 0 },
    ]);
  });
});

describe('onEvent: sources of open and ask', () => {
  it('the shortcut opens with source shortcut', async () => {
    const log = eventLog();
    render(<DocsAssistant {...props()} shortcut="mod+k" onEvent={log.onEvent} />);
    fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
    await waitFor(() => expect(log.events).toEqual([{ type: 'open', source: 'shortcut' }]));
  });

  it('the handle: open and ask default to api; a source given (url) is reported, before and after the panel loaded', async () => {
    const { fetch } = serviceFetch([{ messageId: 'msg_1' }, { messageId: 'msg_2' }]);
    const log = eventLog();
    const ref = createRef<DocsAssistantHandle>();
    render(<DocsAssistant {...props()} ref={ref} fetch={fetch} onEvent={log.onEvent} />);
    // Before the panel's code has loaded: carried out once it has.
    act(() => ref.current!.ask('From the address', { source: 'url' }));
    await waitFor(() => expect(ofType(log.events, 'answer')).toHaveLength(1));
    expect(log.events.slice(0, 2)).toEqual([
      { type: 'open', source: 'url' },
      { type: 'ask', source: 'url', contextItems: 0 },
    ]);
    act(() => ref.current!.close());
    act(() => ref.current!.open());
    act(() => ref.current!.ask('From the host'));
    await waitFor(() => expect(ofType(log.events, 'answer')).toHaveLength(2));
    expect(log.events.slice(3)).toEqual([
      { type: 'close' },
      { type: 'open', source: 'api' },
      { type: 'ask', source: 'api', threadId: 'thr_1', contextItems: 0 },
      expect.objectContaining({ type: 'answer', messageId: 'msg_2' }),
    ]);
  });

  it("a code block's Ask AI on the page opens with source code-block, and the question it leads to says so", async () => {
    const { fetch } = serviceFetch([{ messageId: 'msg_code' }]);
    const log = eventLog();
    render(
      <>
        <pre>
          <code>npm run build</code>
        </pre>
        <DocsAssistant {...props()} fetch={fetch} onEvent={log.onEvent} />
      </>,
    );
    const user = userEvent.setup();
    await user.hover(screen.getByText('npm run build'));
    await user.click(await screen.findByRole('button', { name: defaultLabels.askAiAboutCode }));
    expect(log.events).toEqual([{ type: 'open', source: 'code-block' }]);
    await askInComposer('what does it build');
    await waitFor(() => expect(ofType(log.events, 'answer')).toHaveLength(1));
    expect(ofType(log.events, 'ask')).toEqual([{ type: 'ask', source: 'code-block', contextItems: 1 }]);
  });

  it('"Ask AI" on text selected in the page opens with source selection, and the question asks with it', async () => {
    const { fetch } = serviceFetch([{ messageId: 'msg_sel' }]);
    const log = eventLog();
    render(
      <>
        <p data-testid="page">Themes follow the system setting.</p>
        <DocsAssistant {...props()} fetch={fetch} onEvent={log.onEvent} />
      </>,
    );
    await select(screen.getByTestId('page'));
    await waitFor(() => expect(selectionButton()).not.toBeNull());
    fireEvent.click(selectionButton()!);
    expect(log.events).toEqual([{ type: 'open', source: 'selection' }]);
    await askInComposer('what else');
    await waitFor(() => expect(ofType(log.events, 'answer')).toHaveLength(1));
    expect(ofType(log.events, 'ask')).toEqual([{ type: 'ask', source: 'selection', contextItems: 1 }]);
    document.getSelection()?.removeAllRanges();
  });

  it('a question typed with a code block or a selection as context says so', async () => {
    const { fetch } = serviceFetch([{ messageId: 'msg_1' }, { messageId: 'msg_2' }]);
    const log = eventLog();
    const ref = createRef<DocsAssistantHandle>();
    render(<DocsAssistant {...props()} ref={ref} fetch={fetch} variant="inline" onEvent={log.onEvent} />);
    act(() => void ref.current!.addContext({ type: 'code', value: 'npm i docs-assistant' }));
    await askInComposer('what does it do');
    await waitFor(() => expect(ofType(log.events, 'answer')).toHaveLength(1));
    act(() => void ref.current!.addContext({ type: 'textSelection', value: 'a sentence' }));
    await askInComposer('explain');
    await waitFor(() => expect(ofType(log.events, 'answer')).toHaveLength(2));
    expect(ofType(log.events, 'ask')).toEqual([
      { type: 'ask', source: 'code-block', contextItems: 1 },
      { type: 'ask', source: 'selection', threadId: 'thr_1', contextItems: 1 },
    ]);
  });
});

describe('onEvent: the search view', () => {
  it('"Ask AI" under the search results asks with source search', async () => {
    const { fetch, messages } = serviceFetch([{ messageId: 'msg_s' }]);
    const log = eventLog();
    const { container } = render(
      <DocsAssistant
        {...props()}
        fetch={fetch}
        variant="inline"
        defaultView="search"
        onEvent={log.onEvent}
      />,
    );
    const user = userEvent.setup();
    await waitFor(() => expect(hook(container, 'input')).not.toBeNull());
    await user.type(hook(container, 'input')!, 'dark mode');
    await user.click(await screen.findByRole('option', { name: /Ask AI/ }));
    await waitFor(() => expect(ofType(log.events, 'answer')).toHaveLength(1));
    expect(ofType(log.events, 'ask')).toEqual([{ type: 'ask', source: 'search', contextItems: 0 }]);
    expect(messages).toHaveLength(1);
  });
});

describe('onEvent: interactions', () => {
  it('reports a source opened, a follow-up link, the answer copied and a code block copied, with the answer', async () => {
    const { fetch } = serviceFetch([
      {
        messageId: 'msg_c',
        deltas: [
          'Run this:\n\n```sh\nnpm i docs-assistant\n```\n\n',
          '```suggestions\n(Theming)[/theming]\n```\n',
        ],
        sources: [{ url: 'https://docs.example.com/install', title: 'Install' }],
      },
    ]);
    const log = eventLog();
    const { container } = render(
      <DocsAssistant {...props()} fetch={fetch} variant="inline" onEvent={log.onEvent} />,
    );
    await askInComposer('how');
    const copy = await finishedAnswer();
    // Links are followed by the browser (jsdom does not navigate); the event fires on the click.
    const source = container.querySelector<HTMLAnchorElement>('a[data-docs-assistant="source"]')!;
    source.addEventListener('click', (event) => event.preventDefault());
    fireEvent.click(source);
    const followUp = (await screen.findByRole('link', { name: 'Theming' })) as HTMLAnchorElement;
    expect(followUp).toHaveAttribute('data-docs-assistant', 'suggestion');
    followUp.addEventListener('click', (event) => event.preventDefault());
    fireEvent.click(followUp);
    fireEvent.click(copy);
    fireEvent.click(screen.getByRole('button', { name: defaultLabels.copyCode }));
    expect(ofType(log.events, 'source-click', 'suggestion-click', 'copy')).toEqual([
      { type: 'source-click', url: 'https://docs.example.com/install', messageId: 'msg_c' },
      {
        type: 'suggestion-click',
        kind: 'follow-up',
        url: 'https://docs.example.com/theming',
        messageId: 'msg_c',
      },
      { type: 'copy', target: 'answer', messageId: 'msg_c' },
      { type: 'copy', target: 'code', messageId: 'msg_c' },
    ]);
  });

  it('a follow-up question a custom part renderer asks (its onAsk) is a suggestion', async () => {
    const { fetch } = serviceFetch([{ messageId: 'msg_1' }, { messageId: 'msg_2' }]);
    const log = eventLog();
    render(
      <DocsAssistant
        {...props()}
        fetch={fetch}
        variant="inline"
        onEvent={log.onEvent}
        components={{
          text: ({ part, onAsk }) => (
            <button type="button" onClick={() => onAsk?.('And with pnpm?')}>
              {part.text}
            </button>
          ),
        }}
      />,
    );
    const user = await askInComposer('how');
    await waitFor(() => expect(ofType(log.events, 'answer')).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Install it with npm.' }));
    await waitFor(() => expect(ofType(log.events, 'answer')).toHaveLength(2));
    expect(ofType(log.events, 'suggestion-click', 'ask').slice(1)).toEqual([
      { type: 'suggestion-click', kind: 'follow-up' },
      { type: 'ask', source: 'suggestion', threadId: 'thr_1', contextItems: 0 },
    ]);
  });

  it('reports an error with kind, status and retryable (not the message), then the retry as an ask', async () => {
    const failing = () =>
      new Response(JSON.stringify({ error: 'down for maintenance', code: 'internal' }), {
        status: 503,
        headers: { 'Content-Type': 'application/json' },
      });
    const { fetch } = serviceFetch([failing, { messageId: 'msg_r' }]);
    const log = eventLog();
    render(<DocsAssistant {...props()} fetch={fetch} variant="inline" onEvent={log.onEvent} />);
    const user = await askInComposer('hello');
    const retry = await screen.findByRole('button', { name: defaultLabels.retry });
    expect(ofType(log.events, 'error')).toEqual([
      { type: 'error', kind: 'network', status: 503, retryable: true },
    ]);
    expect(JSON.stringify(log.events)).not.toContain('maintenance');
    await user.click(retry);
    await waitFor(() => expect(ofType(log.events, 'answer')).toHaveLength(1));
    expect(log.events.map((event) => event.type)).toEqual(['ask', 'error', 'ask', 'answer']);
    expect(log.events[2]).toEqual({ type: 'ask', source: 'retry', contextItems: 0 });
  });

  it('reports a rejected key as auth, not retryable', async () => {
    const denied = () =>
      new Response(JSON.stringify({ error: 'Invalid API key', code: 'unauthorized' }), {
        status: 401,
        headers: { 'Content-Type': 'application/json' },
      });
    const { fetch } = serviceFetch([denied]);
    const log = eventLog();
    render(<DocsAssistant {...props()} fetch={fetch} variant="inline" onEvent={log.onEvent} />);
    await askInComposer('hello');
    await waitFor(() =>
      expect(ofType(log.events, 'error')).toEqual([
        { type: 'error', kind: 'auth', status: 401, retryable: false },
      ]),
    );
  });
});

describe('onEvent: a handler that throws', () => {
  it('never breaks the widget; the first failure is logged once', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { fetch } = serviceFetch([{ messageId: 'msg_t' }]);
    const seen: DocsAssistantEvent['type'][] = [];
    const { container } = render(
      <DocsAssistant
        {...props()}
        fetch={fetch}
        onEvent={(event) => {
          seen.push(event.type);
          throw new Error('analytics is down');
        }}
      />,
    );
    await userEvent.setup().click(hook(container, 'launcher')!);
    await askInComposer('still works?');
    await finishedAnswer();
    // Its text may still be parsing when the answer has finished (the part is `data-pending`).
    expect(await screen.findByText('Install it with npm.')).toBeInTheDocument();
    await waitFor(() => expect(seen).toEqual(['open', 'ask', 'answer']));
    const ours = consoleError.mock.calls.filter((call) => String(call[0]).includes('onEvent threw'));
    // Three events threw; one line (this file's module state starts fresh, so this is the first).
    expect(ours).toHaveLength(1);
    expect((ours[0]![1] as Error).message).toBe('analytics is down');
  });
});
