// @vitest-environment jsdom
/**
 * Feedback under a finished answer (the on-demand view in `views/feedback/`): the votes as toggle
 * buttons, one vote per answer and changeable, the comment box, what is announced, the `feedback`
 * event, and the request to the service (or to the host's route, or none).
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DocsAssistant, defaultLabels } from '../../packages/docs-assistant/src/index';
import { BASE_URL, eventLog, ofType, props, serviceFetch } from './helpers';

async function askAndWait(question = 'How do I install it?') {
  const user = userEvent.setup();
  await user.type(await screen.findByRole('textbox', { name: defaultLabels.inputLabel }), question);
  await user.keyboard('{Enter}');
  const group = await screen.findByRole('group', { name: 'Was this answer helpful?' });
  return { user, group };
}

const votes = (group: HTMLElement) => ({
  up: within(group).getByRole('button', { name: 'Helpful' }),
  down: within(group).getByRole('button', { name: 'Not helpful' }),
});

describe('feedback on an answer', () => {
  it('votes up, comments, changes to down; each reported and posted to the service with the thread', async () => {
    const service = serviceFetch([{ messageId: 'msg_f', threadId: 'thr_f', threadKey: 'thk_f' }]);
    const log = eventLog();
    const p = props();
    render(<DocsAssistant {...p} fetch={service.fetch} variant="inline" onEvent={log.onEvent} />);
    const { user, group } = await askAndWait();
    const { up, down } = votes(group);
    expect(up).toHaveAttribute('aria-pressed', 'false');
    expect(down).toHaveAttribute('aria-pressed', 'false');

    await user.click(up);
    expect(up).toHaveAttribute('aria-pressed', 'true');
    expect(down).toHaveAttribute('aria-pressed', 'false');
    const status = group.parentElement!.querySelector('[data-docs-assistant="feedback-status"]')!;
    await waitFor(() => expect(status).toHaveTextContent('Thanks for your feedback.'));
    expect(status).toHaveAttribute('role', 'status');
    // The comment box opens with the vote and takes focus.
    const box = screen.getByRole('textbox', { name: 'Tell us more (optional)' });
    expect(box).toHaveFocus();
    expect(box).toHaveAttribute('maxlength', '1000');

    await user.type(box, 'Needs a pnpm example');
    await user.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(screen.queryByRole('textbox', { name: 'Tell us more (optional)' })).toBeNull();
    expect(up).toHaveFocus();

    await user.click(down);
    expect(up).toHaveAttribute('aria-pressed', 'false');
    expect(down).toHaveAttribute('aria-pressed', 'true');
    // Pressing the vote already given changes nothing (one vote per answer).
    await user.keyboard('{Escape}');
    expect(down).toHaveFocus();
    await user.click(down);
    await waitFor(() => expect(service.feedback).toHaveLength(3));

    expect(ofType(log.events, 'feedback')).toEqual([
      { type: 'feedback', messageId: 'msg_f', threadId: 'thr_f', rating: 'up', hasComment: false },
      { type: 'feedback', messageId: 'msg_f', threadId: 'thr_f', rating: 'up', hasComment: true },
      { type: 'feedback', messageId: 'msg_f', threadId: 'thr_f', rating: 'down', hasComment: true },
    ]);
    expect(JSON.stringify(log.events)).not.toContain('pnpm');
    const url = `${BASE_URL}/discovery/v1/assistant/${p.domain}/feedback`;
    const thread = { threadId: 'thr_f', threadKey: 'thk_f', fp: 'anonymous', messageId: 'msg_f' };
    expect(service.feedback.map((request) => [request.url, request.body])).toEqual([
      [url, { ...thread, rating: 'up' }],
      [url, { ...thread, rating: 'up', comment: 'Needs a pnpm example' }],
      // A changed vote keeps the comment given.
      [url, { ...thread, rating: 'down', comment: 'Needs a pnpm example' }],
    ]);
    expect(service.feedback[0]!.headers).toMatchObject({
      authorization: `Bearer ${p.apiKey}`,
      'content-type': 'application/json',
    });
  });

  it('Escape closes the comment box only (the floating panel stays open); Skip too', async () => {
    const service = serviceFetch([{}]);
    const { container } = render(<DocsAssistant {...props()} fetch={service.fetch} />);
    const user = userEvent.setup();
    await user.click(container.querySelector('[data-docs-assistant="launcher"]')!);
    const { group } = await askAndWait();
    const { up, down } = votes(group);
    await user.click(up);
    expect(screen.getByRole('textbox', { name: 'Tell us more (optional)' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Tell us more (optional)' })).toBeNull();
    expect(screen.getByRole('dialog')).toBeVisible();
    expect(up).toHaveFocus();
    await user.click(down);
    await user.click(screen.getByRole('button', { name: 'Skip' }));
    expect(down).toHaveFocus();
    expect(screen.getByRole('dialog')).toBeVisible();
  });

  it('puts the comment in the event with eventsIncludeText', async () => {
    const service = serviceFetch([{ messageId: 'msg_t' }]);
    const log = eventLog();
    render(
      <DocsAssistant
        {...props()}
        fetch={service.fetch}
        variant="inline"
        eventsIncludeText
        onEvent={log.onEvent}
      />,
    );
    const { user, group } = await askAndWait();
    await user.click(votes(group).down);
    await user.type(screen.getByRole('textbox', { name: 'Tell us more (optional)' }), 'Wrong version');
    await user.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(ofType(log.events, 'feedback').at(-1)).toEqual({
      type: 'feedback',
      messageId: 'msg_t',
      threadId: 'thr_1',
      rating: 'down',
      hasComment: true,
      comment: 'Wrong version',
    });
  });

  it('feedback={false} shows no votes; { comment: false } votes without a comment box', async () => {
    const first = serviceFetch([{}]);
    const { unmount } = render(
      <DocsAssistant {...props()} fetch={first.fetch} variant="inline" feedback={false} />,
    );
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: defaultLabels.inputLabel }), 'hi');
    await user.keyboard('{Enter}');
    await screen.findByRole('button', { name: defaultLabels.copy });
    expect(screen.queryByRole('group', { name: 'Was this answer helpful?' })).toBeNull();
    unmount();

    const second = serviceFetch([{}]);
    render(
      <DocsAssistant {...props()} fetch={second.fetch} variant="inline" feedback={{ comment: false }} />,
    );
    const { group } = await askAndWait();
    await user.click(votes(group).up);
    expect(screen.queryByRole('textbox', { name: 'Tell us more (optional)' })).toBeNull();
    await waitFor(() => expect(second.feedback).toHaveLength(1));
  });

  it('endpoint: false reports through onEvent only; a URL of the host gets the vote without the key', async () => {
    const quiet = serviceFetch([{}]);
    const log = eventLog();
    const { unmount } = render(
      <DocsAssistant
        {...props()}
        fetch={quiet.fetch}
        variant="inline"
        feedback={{ endpoint: false }}
        onEvent={log.onEvent}
      />,
    );
    let { user, group } = await askAndWait();
    await user.click(votes(group).up);
    expect(ofType(log.events, 'feedback')).toHaveLength(1);
    expect(await screen.findByText('Thanks for your feedback.')).toBeInTheDocument();
    expect(quiet.feedback).toEqual([]);
    unmount();

    const own = serviceFetch([{}]);
    const ownRoute = 'https://docs.example.com/api/feedback';
    render(
      <DocsAssistant
        {...props()}
        fetch={own.fetch}
        variant="inline"
        headers={{ 'X-Session': 's1' }}
        feedback={{ endpoint: ownRoute }}
      />,
    );
    ({ user, group } = await askAndWait());
    await user.click(votes(group).down);
    await waitFor(() => expect(own.feedback).toHaveLength(1));
    expect(own.feedback[0]!.url).toBe(ownRoute);
    expect(own.feedback[0]!.headers.authorization).toBeUndefined();
    expect(own.feedback[0]!.headers['x-session']).toBe('s1');
    expect(own.feedback[0]!.body).toMatchObject({ rating: 'down', messageId: 'msg_1', threadId: 'thr_1' });
  });

  it("posts nothing to a service whose /health does not list feedback (the widget's other services)", async () => {
    const service = serviceFetch([{}], 200, ['share']);
    const log = eventLog();
    render(
      <DocsAssistant
        {...props()}
        baseUrl="https://no-feedback.example.com"
        fetch={service.fetch}
        variant="inline"
        onEvent={log.onEvent}
      />,
    );
    const { user, group } = await askAndWait();
    await user.click(votes(group).up);
    expect(await screen.findByText('Thanks for your feedback.')).toBeInTheDocument();
    expect(ofType(log.events, 'feedback')).toHaveLength(1);
    expect(ofType(log.events, 'error')).toEqual([]);
    expect(service.feedback).toEqual([]);
  });

  it('a vote the service refuses stays, says so, and is reported as an error event', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const service = serviceFetch([{}], 500);
    const log = eventLog();
    render(<DocsAssistant {...props()} fetch={service.fetch} variant="inline" onEvent={log.onEvent} />);
    const { user, group } = await askAndWait();
    await user.click(votes(group).up);
    expect(await screen.findByText('Your feedback could not be sent.')).toBeInTheDocument();
    expect(votes(group).up).toHaveAttribute('aria-pressed', 'true');
    expect(ofType(log.events, 'feedback', 'error').map((event) => event.type)).toEqual(['feedback', 'error']);
    expect(ofType(log.events, 'error')[0]).toEqual({
      type: 'error',
      kind: 'network',
      status: 500,
      retryable: true,
    });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('feedback not sent: HTTP 500'));
    warn.mockRestore();
  });

  it('a vote is kept with the conversation (local storage): a reloaded widget shows it pressed', async () => {
    const service = serviceFetch([{ messageId: 'msg_keep' }]);
    const p = { ...props(), storage: 'local' as const };
    const first = render(<DocsAssistant {...p} fetch={service.fetch} variant="inline" />);
    const { user, group } = await askAndWait();
    await user.click(votes(group).down);
    first.unmount();
    render(<DocsAssistant {...p} fetch={service.fetch} variant="inline" />);
    const again = await screen.findByRole('group', { name: 'Was this answer helpful?' });
    expect(votes(again).down).toHaveAttribute('aria-pressed', 'true');
    expect(votes(again).up).toHaveAttribute('aria-pressed', 'false');
  });
});
