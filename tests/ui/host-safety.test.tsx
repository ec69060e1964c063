// @vitest-environment jsdom
/**
 * The host page never breaks because of the widget: a panel whose code fails to load, a panel that
 * throws while rendering and a shell that throws all stay inside the widget, with a way to retry.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { type ComponentProps, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AssistantError } from '../../packages/docs-assistant/src/chat/types';
import { DocsAssistant, defaultLabels } from '../../packages/docs-assistant/src/index';
import type * as ComposerModule from '../../packages/docs-assistant/src/ui/composer';
import { baseProps, freshDomain } from './helpers';

// The module loader: while `failLoad` is set, importing the panel rejects the way a browser does
// when the hashed chunk is gone (404 after a redeploy) or the reader is offline.
const loader = vi.hoisted(() => ({ failLoad: false, attempts: 0 }));
vi.mock('../../packages/docs-assistant/src/ui/panel', async (importOriginal) => {
  loader.attempts += 1;
  if (loader.failLoad) {
    throw new TypeError('Failed to fetch dynamically imported module: /assets/panel-3f9a1c.js');
  }
  return importOriginal();
});

// A child of the panel that throws while `crash` is set.
const crash = vi.hoisted(() => ({ on: false }));
vi.mock('../../packages/docs-assistant/src/ui/composer', async (importOriginal) => {
  const actual = await importOriginal<typeof ComposerModule>();
  function Composer(props: ComponentProps<typeof actual.Composer>) {
    if (crash.on) throw new Error('the composer broke');
    return <actual.Composer {...props} />;
  }
  return { ...actual, Composer };
});

beforeEach(freshDomain);
afterEach(() => {
  vi.restoreAllMocks();
  crash.on = false;
  loader.failLoad = false;
});

/** A host app with state of its own, so "still interactive" means React still runs it. */
function Host(props: Partial<ComponentProps<typeof DocsAssistant>>) {
  const [count, setCount] = useState(0);
  return (
    <main>
      <h1>Host docs page</h1>
      <button type="button" onClick={() => setCount(count + 1)}>
        Host clicks: {count}
      </button>
      <DocsAssistant {...baseProps} {...props} />
    </main>
  );
}

async function expectHostAlive(user: ReturnType<typeof userEvent.setup>) {
  expect(screen.getByRole('heading', { name: 'Host docs page' })).toBeInTheDocument();
  const hostButton = screen.getByRole('button', { name: /Host clicks/ });
  const before = Number(hostButton.textContent!.replace(/\D/g, ''));
  await user.click(hostButton);
  expect(hostButton).toHaveTextContent(`Host clicks: ${before + 1}`);
}

async function axeViolations(element: Element) {
  // jsdom cannot compute colours; contrast is checked in the browser tests.
  const results = await axe.run(element, { rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const widgetLogs = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.filter((call) => String(call[0]).startsWith('docs-assistant:'));

describe('a panel whose code fails to load', () => {
  // These two run first in this file: once the panel module has loaded, it stays loaded.
  it('inline (no launcher): says so in the panel, with a retry button, and keeps the host alive', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const onError = vi.fn<(error: AssistantError) => void>();
    loader.failLoad = true;
    const { container } = render(<Host onError={onError} variant="inline" />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveAttribute('data-error-kind', 'network');
    const retry = within(alert).getByRole('button', { name: defaultLabels.panelUnavailable });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ kind: 'network', origin: 'load' }));
    expect(await axeViolations(container)).toEqual([]);
    const user = userEvent.setup();
    await expectHostAlive(user);
    const attempts = loader.attempts;
    await user.click(retry);
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(2));
    expect(loader.attempts).toBeGreaterThan(attempts);
    expect(screen.getByRole('button', { name: defaultLabels.panelUnavailable })).toBeInTheDocument();
  });

  it('keeps the host alive, turns the launcher into a retry, and opens the panel once a retry loads', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onError = vi.fn<(error: AssistantError) => void>();
    loader.failLoad = true;
    const { container } = render(<Host onError={onError} />);
    const user = userEvent.setup();
    const launcher = screen.getByRole('button', { name: defaultLabels.launcher });

    await user.click(launcher);
    const retry = await screen.findByRole('button', { name: defaultLabels.panelUnavailable });
    expect(retry).toBe(launcher);
    expect(retry).toHaveAttribute('aria-expanded', 'false');
    expect(retry).toHaveAttribute('data-failed', '');
    expect(screen.getByRole('alert')).toHaveTextContent(defaultLabels.panelUnavailable!);
    expect(screen.queryByRole('dialog')).toBeNull();
    // Focus was in the loading panel, which went away: it goes back to the launcher.
    await waitFor(() => expect(retry).toHaveFocus());
    await expectHostAlive(user);

    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![0]).toMatchObject({ kind: 'network', origin: 'load', retryable: true });
    // What the loader said (here Vitest's wrapping of the failed import), for developers.
    expect(onError.mock.calls[0]![0].detail).toEqual(expect.stringMatching(/\S/));
    expect(widgetLogs(consoleError)).toHaveLength(1);
    expect(await axeViolations(container)).toEqual([]);

    // Still gone: the retry says so again, and the host is untouched.
    const attempts = loader.attempts;
    await user.click(retry);
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(2));
    // Tried again (the hover before the click may have tried too).
    expect(loader.attempts).toBeGreaterThan(attempts);
    expect(screen.getByRole('button', { name: defaultLabels.panelUnavailable })).toBe(launcher);
    await expectHostAlive(user);

    // The chunk is back (the reader is online again): the same button, by keyboard, opens the panel.
    loader.failLoad = false;
    launcher.focus();
    await user.keyboard('{Enter}');
    const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    await waitFor(() => expect(input).toHaveFocus());
    expect(screen.getByRole('dialog', { name: defaultLabels.title })).toBeVisible();
    expect(launcher).toHaveAccessibleName(defaultLabels.launcher);
    expect(launcher).toHaveAttribute('aria-expanded', 'true');
    expect(launcher).not.toHaveAttribute('data-failed');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(onError).toHaveBeenCalledTimes(2);
    await expectHostAlive(user);
  });
});

describe('a panel that throws while rendering', () => {
  it('shows a message in the panel, reports it once, leaves the launcher and host alone, and retries', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onError = vi.fn<(error: AssistantError) => void>();
    crash.on = true;
    const { container } = render(<Host onError={onError} defaultOpen />);
    const user = userEvent.setup();

    const dialog = await screen.findByRole('dialog', { name: defaultLabels.title });
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(defaultLabels.panelCrashed!);
    expect(alert).toHaveAttribute('data-error-kind', 'unavailable');
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![0]).toMatchObject({
      kind: 'unavailable',
      origin: 'render',
      detail: 'the composer broke',
      retryable: true,
    });
    expect(widgetLogs(consoleError)).toHaveLength(1);
    expect(await axeViolations(container)).toEqual([]);
    await expectHostAlive(user);

    // The launcher still closes and opens it; Retry renders the panel again.
    const launcher = screen.getByRole('button', { name: defaultLabels.launcher });
    await user.click(launcher);
    expect(dialog).not.toBeVisible();
    await user.click(launcher);
    crash.on = false;
    await user.click(within(dialog).getByRole('button', { name: defaultLabels.retry }));
    expect(await screen.findByRole('textbox', { name: defaultLabels.inputLabel })).toBeVisible();
    expect(within(dialog).queryByText(defaultLabels.panelCrashed!)).toBeNull();
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('contains a shell that throws: a launcher offers a retry, the host keeps running', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onError = vi.fn<(error: AssistantError) => void>();
    const badLabels = {
      get launcher(): string {
        throw new Error('a labels getter threw');
      },
    };
    render(<Host onError={onError} labels={badLabels} />);
    const user = userEvent.setup();
    expect(screen.getByRole('button', { name: defaultLabels.panelUnavailable })).toBeInTheDocument();
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![0]).toMatchObject({ kind: 'unavailable', origin: 'render' });
    expect(widgetLogs(consoleError)).toHaveLength(1);
    await expectHostAlive(user);
  });
});
