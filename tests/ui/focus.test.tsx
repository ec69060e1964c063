// @vitest-environment jsdom
/**
 * Where focus goes when the control that had it goes away (Send/Stop swapping, Retry's banner, a
 * removed context chip), what the live region says while and after an answer comes, and bad options
 * from a JavaScript caller that must not break the host page.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DocsAssistant,
  type DocsAssistantHandle,
  defaultLabels,
} from '../../packages/docs-assistant/src/index';
import { answer, baseProps, deferred, freshDomain, recordingFetch, recordText, serverError } from './helpers';

const hook = (container: HTMLElement, name: string) =>
  container.querySelector<HTMLElement>(`[data-docs-assistant="${name}"]`);

beforeEach(freshDomain);
afterEach(() => vi.restoreAllMocks());

async function waitForStatus(container: HTMLElement, status: string) {
  await waitFor(() => expect(hook(container, 'root')).toHaveAttribute('data-status', status));
}

describe('focus stays in the panel when its control goes away', () => {
  it('moves focus to the question box after sending with the Send button, so Escape still closes', async () => {
    const gate = deferred();
    const { fetch, requests } = recordingFetch(() => answer(['Sent.'], { gate: gate.promise }));
    const { container } = render(<DocsAssistant {...baseProps} fetch={fetch} defaultOpen />);
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    const user = userEvent.setup();
    await user.type(input, 'Via the button');
    screen.getByRole('button', { name: defaultLabels.send }).focus();
    await user.keyboard(' ');
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(input).toHaveFocus();
    await waitForStatus(container, 'streaming');
    expect(input).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(hook(container, 'root')).toHaveAttribute('data-state', 'closed');
    expect(screen.getByRole('button', { name: defaultLabels.launcher })).toHaveFocus();
    gate.resolve();
    await waitForStatus(container, 'ready');
  });

  it('moves focus to the question box after Stop', async () => {
    const never = deferred();
    const { fetch } = recordingFetch(() => answer(['Partial ', 'rest'], { gate: never.promise }));
    const { container } = render(<DocsAssistant {...baseProps} fetch={fetch} variant="inline" />);
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    const user = userEvent.setup();
    await user.type(input, 'Long question{Enter}');
    await waitFor(() => expect(container).toHaveTextContent('Partial'));
    const stop = screen.getByRole('button', { name: defaultLabels.stop });
    stop.focus();
    await user.keyboard('{Enter}');
    await waitForStatus(container, 'ready');
    expect(screen.queryByRole('button', { name: defaultLabels.stop })).toBeNull();
    expect(input).toHaveFocus();
    never.resolve();
  });

  it('moves focus to the question box when Stop goes away because the answer finished', async () => {
    const gate = deferred();
    const { fetch } = recordingFetch(() => answer(['Almost ', 'done.'], { gate: gate.promise }));
    const { container } = render(<DocsAssistant {...baseProps} fetch={fetch} variant="inline" />);
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    const user = userEvent.setup();
    await user.type(input, 'Question{Enter}');
    await waitFor(() => expect(container).toHaveTextContent('Almost'));
    screen.getByRole('button', { name: defaultLabels.stop }).focus();
    gate.resolve();
    await waitForStatus(container, 'ready');
    expect(input).toHaveFocus();
  });

  it('moves focus to the question box after Retry', async () => {
    const { fetch } = recordingFetch(serverError, () => answer(['Here you go.']));
    const { container } = render(<DocsAssistant {...baseProps} fetch={fetch} variant="inline" />);
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    const user = userEvent.setup();
    await user.type(input, 'Why?{Enter}');
    const alert = await screen.findByRole('alert');
    const retry = within(alert).getByRole('button', { name: defaultLabels.retry });
    retry.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(container).toHaveTextContent('Here you go.'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(input).toHaveFocus();
  });

  it('moves focus to the next chip, else the previous one, else the question box, when a chip is removed', async () => {
    const ref = createRef<DocsAssistantHandle>();
    render(<DocsAssistant {...baseProps} variant="inline" ref={ref} />);
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    act(() => {
      for (const value of ['alpha', 'beta', 'gamma']) ref.current!.addContext({ type: 'code', value });
    });
    const removeButton = (value: string) =>
      screen.getByRole('button', { name: defaultLabels.removeContext(value) });
    const user = userEvent.setup();

    removeButton('beta').focus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('button', { name: defaultLabels.removeContext('beta') })).toBeNull();
    expect(removeButton('gamma')).toHaveFocus();

    await user.keyboard(' ');
    expect(removeButton('alpha')).toHaveFocus();

    await user.keyboard('{Enter}');
    expect(screen.queryAllByRole('button', { name: /^Remove context/ })).toEqual([]);
    expect(input).toHaveFocus();
  });
});

// What the audit heard: a themed answer with a list, bold text, a code block and suggestions.
const THEMING_ANSWER = [
  'The widget supports themes:\n\n',
  '- **Light, dark and system themes**: set `theme` to `"light"`, `"dark"` or `"system"`.\n',
  '- **Custom colours**: override the [`--da-*` variables](/theming#variables) on the root.\n\n',
  '```css\n[data-docs-assistant="root"] {\n  --da-accent: #7c3aed;\n}\n```\n\n',
  'See _Theming_ for more.\n\n',
  '```suggestions\n(Accessibility)[/accessibility]\n(Theming)[/theming]\n```\n',
];

describe('the live region', () => {
  it('announces a finished answer as plain text: no Markdown, code blocks mentioned, suggestions left out', async () => {
    const { fetch } = recordingFetch(() => answer(THEMING_ANSWER));
    const { container } = render(<DocsAssistant {...baseProps} fetch={fetch} variant="inline" />);
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    const user = userEvent.setup();
    await user.type(input, 'Themes?{Enter}');
    await waitForStatus(container, 'ready');
    const announcer = hook(container, 'announcer')!;
    await waitFor(() => expect(announcer.textContent).toMatch(/^Answer ready: /));
    expect(announcer.textContent).toBe(
      'Answer ready: The widget supports themes: Light, dark and system themes: set theme to "light", "dark" or "system". Custom colours: override the --da-* variables on the root. (code block) See Theming for more.',
    );
    // The conversation is not a live region itself: only the announcer speaks. Checked once the
    // answer is fully on screen (no [data-pending]): a finished code block then has its copy
    // button's status, a live region that stays empty (silent) until the reader copies.
    expect(screen.getByRole('log')).toHaveAttribute('aria-live', 'off');
    await waitFor(() => expect(container.querySelector('[data-pending]')).toBeNull());
    // The answer's feedback votes (an on-demand view) have loaded: their status is counted below.
    await screen.findByRole('group', { name: 'Was this answer helpful?' });
    const live = Array.from(
      container.querySelectorAll('[aria-live]:not([aria-live="off"]), [role="status"]'),
    );
    const copyStatuses = Array.from(container.querySelectorAll('pre')).map(
      (pre) => pre.parentElement!.querySelector(':scope > [role="status"]')!,
    );
    expect(copyStatuses.length).toBeGreaterThan(0);
    for (const status of copyStatuses) expect(status).toHaveTextContent(/^$/);
    // So is the feedback votes' status: silent until a vote.
    const feedbackStatuses = Array.from(
      container.querySelectorAll('[data-docs-assistant="feedback-status"]'),
    );
    for (const status of feedbackStatuses) expect(status).toHaveTextContent(/^$/);
    expect(live).toHaveLength(1 + copyStatuses.length + feedbackStatuses.length);
    expect(live).toEqual(expect.arrayContaining([announcer, ...copyStatuses, ...feedbackStatuses]));
  });

  it('cuts a long answer at a word, with an ellipsis', async () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const { fetch } = recordingFetch(() => answer([words]));
    const { container } = render(<DocsAssistant {...baseProps} fetch={fetch} variant="inline" />);
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    const user = userEvent.setup();
    await user.type(input, 'Long?{Enter}');
    const announcer = hook(container, 'announcer')!;
    await waitFor(() => expect(announcer.textContent).toMatch(/^Answer ready: word0 /));
    const spoken = announcer.textContent!.slice(`${defaultLabels.answerReady}: `.length);
    expect(spoken.length).toBeLessThanOrEqual(300);
    expect(spoken.length).toBeGreaterThan(250);
    expect(spoken).toMatch(/ word\d+…$/);
    expect(words.startsWith(spoken.slice(0, -1))).toBe(true);
  });

  it('says "Thinking…" once per question, and takes it back when the answer is stopped', async () => {
    const never = deferred();
    const { fetch } = recordingFetch(
      () => answer(['Partial ', 'rest'], { gate: never.promise }),
      () => answer(['Second.']),
    );
    const { container } = render(<DocsAssistant {...baseProps} fetch={fetch} variant="inline" />);
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    const announcer = hook(container, 'announcer')!;
    const announced = recordText(announcer);
    const user = userEvent.setup();
    await user.type(input, 'First{Enter}');
    await waitFor(() => expect(container).toHaveTextContent('Partial'));
    expect(announcer).toHaveTextContent(defaultLabels.thinking);
    await user.click(screen.getByRole('button', { name: defaultLabels.stop }));
    await waitForStatus(container, 'ready');
    expect(announcer).toHaveTextContent('');

    await user.type(input, 'Second{Enter}');
    await waitFor(() => expect(announcer).toHaveTextContent(`${defaultLabels.answerReady}: Second.`));
    expect(announced.values).toEqual([
      defaultLabels.thinking,
      '',
      defaultLabels.thinking,
      `${defaultLabels.answerReady}: Second.`,
    ]);
    never.resolve();
  });
});

describe('bad options from a JavaScript caller', () => {
  it.each([
    ['inline', 'docs.acme.com'],
    ['floating', 'ftp://docs.acme.com'],
  ] as const)(
    'shows a config error for the %s variant given docsBaseUrl %s, without throwing',
    async (variant, docsBaseUrl) => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      const { fetch, requests } = recordingFetch(() => answer(['unused']));
      const { container } = render(
        <main>
          <p>Host content</p>
          <DocsAssistant {...baseProps} fetch={fetch} variant={variant} docsBaseUrl={docsBaseUrl} />
        </main>,
      );
      if (variant === 'floating') {
        await userEvent.setup().click(screen.getByRole('button', { name: defaultLabels.launcher }));
      }
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveAttribute('data-error-kind', 'config');
      expect(alert).toHaveTextContent(defaultLabels.errorConfig);
      expect(within(alert).getByText(/docsBaseUrl/)).toHaveTextContent(
        `docsBaseUrl "${docsBaseUrl}" is not an absolute http(s) URL`,
      );
      expect(within(alert).queryByRole('button', { name: defaultLabels.retry })).toBeNull();
      expect(screen.getByRole('button', { name: defaultLabels.send })).toBeDisabled();
      expect(container).toHaveTextContent('Host content');
      expect(error).toHaveBeenCalledWith(expect.stringContaining('docsBaseUrl'));
      expect(requests).toHaveLength(0);
    },
  );

  it('ignores starterQuestions that are not an array of strings, with a warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const props = { starterQuestions: 'abc' as unknown as string[] };
    const { unmount } = render(<DocsAssistant {...baseProps} variant="inline" {...props} />);
    await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    expect(screen.queryByRole('button', { name: 'abc' })).toBeNull();
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining('starterQuestions must be an array of non-empty strings'),
    );
    unmount();

    warn.mockClear();
    const mixed = { starterQuestions: ['Good?', 42, '', null] as unknown as string[] };
    render(<DocsAssistant {...baseProps} variant="inline" {...mixed} />);
    expect(await screen.findByRole('button', { name: 'Good?' })).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('left out of ["Good?",42,"",null]'));
  });
});
