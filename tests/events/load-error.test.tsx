// @vitest-environment jsdom
/**
 * The `error` event of the widget itself: the panel's code failing to load (origin `load`), and
 * the open and close around it, then the launcher's retry opening it.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, it, vi } from 'vitest';
import { DocsAssistant, defaultLabels } from '../../packages/docs-assistant/src/index';
import { eventLog, props } from './helpers';

// The first import of the panel fails (a chunk gone after a redeploy); the next one works.
const load = vi.hoisted(() => ({ attempts: 0 }));
vi.mock('../../packages/docs-assistant/src/ui/panel', async (importOriginal) => {
  load.attempts += 1;
  if (load.attempts === 1) throw new Error('Failed to fetch dynamically imported module');
  return importOriginal();
});

it('reports open, close and an error of origin load when the panel cannot load, then open on retry', async () => {
  const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  const log = eventLog();
  const onError = vi.fn();
  const { container } = render(<DocsAssistant {...props()} onEvent={log.onEvent} onError={onError} />);
  const launcher = container.querySelector<HTMLElement>('[data-docs-assistant="launcher"]')!;
  // A click without hovering first: hovering preloads the panel, which would use up the failure.
  fireEvent.click(launcher);
  await waitFor(() => expect(launcher).toHaveAttribute('data-failed', ''));
  expect(log.events).toEqual([
    { type: 'open', source: 'launcher' },
    { type: 'close' },
    { type: 'error', kind: 'network', retryable: true, origin: 'load' },
  ]);
  // onError still gets the whole error, with its message.
  expect(onError).toHaveBeenCalledWith(expect.objectContaining({ kind: 'network', origin: 'load' }));
  await userEvent.setup().click(launcher);
  await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
  expect(log.events.at(-1)).toEqual({ type: 'open', source: 'launcher' });
  consoleError.mockRestore();
});
