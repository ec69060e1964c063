// @vitest-environment jsdom
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createDataStreamResponse, formatDataStreamPart } from 'ai';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DocsAssistant, defaultLabels } from '../../packages/docs-assistant/src/index';
import { answer, baseProps, freshDomain, recordingFetch } from './helpers';

beforeEach(freshDomain);

const hooks = (container: HTMLElement, name: string) =>
  Array.from(container.querySelectorAll<HTMLElement>(`[data-docs-assistant="${name}"]`));

const jsonError =
  (status: number, code: string, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify({ error: { code, message: `${code} from the test server` } }), {
      status,
      headers: { 'Content-Type': 'application/json', ...headers },
    });

/** An answer that starts, then breaks with an error part. */
const errorPartMidAnswer = () =>
  createDataStreamResponse({
    execute(stream) {
      stream.write(formatDataStreamPart('start_step', { messageId: 'msg-broken' }));
      stream.write(formatDataStreamPart('text', 'The partial answer'));
      stream.write(formatDataStreamPart('error', 'the model provider failed'));
    },
  });

/** An answer that starts, then holds a line that is not a data stream part. */
const malformedMidAnswer = () =>
  new Response(`${formatDataStreamPart('text', 'The partial answer')}z:"not a part"\n`, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Vercel-AI-Data-Stream': 'v1' },
  });

/**
 * The answer a retry gets. Its own message id: the service gives every answer a new one, and
 * `answer()` names each of its answers `msg-answer`, so the first answer and this one would share it.
 */
const recovered = () =>
  createDataStreamResponse({
    execute(stream) {
      stream.write(formatDataStreamPart('start_step', { messageId: 'msg-recovered' }));
      stream.write(formatDataStreamPart('text', 'Recovered.'));
      stream.write(
        formatDataStreamPart('finish_message', {
          finishReason: 'stop',
          usage: { promptTokens: 1, completionTokens: 1 },
        }),
      );
    },
  });

const cases = [
  { name: '401', respond: jsonError(401, 'unauthorized'), text: defaultLabels.errorAuth, retry: false },
  { name: '403', respond: jsonError(403, 'forbidden'), text: defaultLabels.errorAuth, retry: false },
  {
    name: '429 with Retry-After',
    respond: jsonError(429, 'rate_limited', { 'Retry-After': '1' }),
    text: defaultLabels.errorRateLimit(1),
    retry: true,
    // Retry shows once the server's wait has passed, not before.
    retryAfterWait: true,
  },
  {
    name: '429 without Retry-After',
    respond: jsonError(429, 'rate_limited'),
    text: defaultLabels.errorRateLimit(),
    retry: true,
  },
  { name: '503', respond: jsonError(503, 'internal'), text: defaultLabels.errorNetwork, retry: true },
  {
    name: 'a network failure',
    respond: () => Promise.reject(new TypeError('Failed to fetch')),
    text: defaultLabels.errorNetwork,
    retry: true,
  },
  {
    name: 'an error part mid-answer',
    respond: errorPartMidAnswer,
    text: defaultLabels.errorStream,
    retry: true,
    partial: 'The partial answer',
  },
  {
    name: 'a malformed line mid-answer',
    respond: malformedMidAnswer,
    text: defaultLabels.errorStream,
    retry: true,
    partial: 'The partial answer',
  },
];

describe('<DocsAssistant> errors keep the conversation', () => {
  it.each(cases)(
    '$name: says so, keeps the earlier answer and the question, offers Retry where it helps',
    async ({ respond, text, retry, partial, retryAfterWait }) => {
      const onError = vi.fn();
      const { fetch, requests } = recordingFetch(() => answer(['The first answer.']), respond, recovered);
      const { container } = render(
        <DocsAssistant {...baseProps} fetch={fetch} onError={onError} defaultOpen />,
      );
      const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
      const user = userEvent.setup();
      await user.type(input, 'First?{Enter}');
      await waitFor(() => expect(container).toHaveTextContent('The first answer.'));
      await user.type(input, 'Second?{Enter}');

      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent(text);
      expect(onError).toHaveBeenCalledTimes(1);
      const messages = () => hooks(container, 'message').map((m) => [m.dataset.role, m.textContent ?? '']);
      // Answer text is rendered as a deferred update (`data-pending` until it is on screen), so it
      // can follow the alert by a render.
      await waitFor(() => expect(container.querySelector('[data-pending]')).toBeNull());
      expect(messages().slice(0, 3)).toEqual([
        ['user', `${defaultLabels.you}First?`],
        ['assistant', expect.stringContaining('The first answer.')],
        ['user', `${defaultLabels.you}Second?`],
      ]);
      if (partial) expect(messages()[3]).toEqual(['assistant', expect.stringContaining(partial)]);
      else expect(messages()).toHaveLength(3);

      let retryButton = within(alert).queryByRole('button', { name: defaultLabels.retry });
      if (!retry) {
        expect(retryButton).toBeNull();
        return;
      }
      if (retryAfterWait) {
        expect(retryButton).toBeNull();
        retryButton = await within(alert).findByRole(
          'button',
          { name: defaultLabels.retry },
          { timeout: 5_000 },
        );
      }
      await user.click(retryButton!);
      await waitFor(() => expect(container).toHaveTextContent('Recovered.'));
      expect(screen.queryByRole('alert')).toBeNull();
      expect(requests.at(-1)!.body.messages.map((m) => m.content)).toEqual([
        'First?',
        'The first answer.',
        'Second?',
      ]);
    },
  );

  it('shows the error labels the host translated', async () => {
    const { fetch } = recordingFetch(jsonError(401, 'unauthorized'));
    render(
      <DocsAssistant
        {...baseProps}
        fetch={fetch}
        defaultOpen
        starterQuestions={['Hallo?']}
        labels={{ errorAuth: 'Der Schlüssel wurde abgelehnt.' }}
      />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Hallo?' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Der Schlüssel wurde abgelehnt.');
  });
});

describe('<DocsAssistant> configuration errors', () => {
  it.each([
    { name: 'a missing domain', props: { domain: ' ' }, names: /domain/ },
    { name: 'a baseUrl that is not a URL', props: { baseUrl: 'api.example.com' }, names: /baseUrl/ },
    { name: 'a missing key', props: { apiKey: '' }, names: /apiKey/ },
  ])('$name: a configuration error naming what to fix, and no request', async ({ props, names }) => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { fetch, mock } = recordingFetch(() => answer(['never']));
      const { container } = render(
        <DocsAssistant {...baseProps} {...props} fetch={fetch} defaultOpen starterQuestions={['Hello?']} />,
      );
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveAttribute('data-error-kind', 'config');
      expect(alert).toHaveTextContent(defaultLabels.errorConfig);
      expect(hooks(container, 'error-detail')[0]?.textContent).toMatch(names);
      // Logged from an effect, which may run just after the alert is in the DOM.
      await waitFor(() => expect(consoleError).toHaveBeenCalledWith(expect.stringMatching(names)));
      // No starter questions to click, and the question box cannot send.
      expect(screen.queryByRole('button', { name: 'Hello?' })).toBeNull();
      const user = userEvent.setup();
      await user.type(screen.getByRole('textbox', { name: defaultLabels.inputLabel }), 'Hi{Enter}');
      expect(mock).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
    }
  });
});
