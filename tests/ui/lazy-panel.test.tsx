// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { expect, it, vi } from 'vitest';
import {
  DocsAssistant,
  type DocsAssistantHandle,
  defaultLabels,
} from '../../packages/docs-assistant/src/index';
import { baseProps } from './helpers';

// Counts imports of the heavy panel module and holds them until the test lets them finish.
const load = vi.hoisted(() => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { started: 0, gate, release };
});

vi.mock('../../packages/docs-assistant/src/ui/panel', async (importOriginal) => {
  load.started += 1;
  await load.gate;
  return importOriginal();
});

it('loads the panel lazily: preloaded on hover, shortcut and context work before it arrives', async () => {
  const ref = createRef<DocsAssistantHandle>();
  const { container } = render(<DocsAssistant {...baseProps} ref={ref} />);
  const launcher = container.querySelector<HTMLElement>('[data-docs-assistant="launcher"]')!;
  expect(load.started).toBe(0);

  const user = userEvent.setup();
  await user.hover(launcher);
  expect(load.started).toBe(1);

  act(() => void ref.current!.addContext({ type: 'textSelection', value: 'Collected early' }));
  fireEvent.keyDown(document.body, { key: 'i', code: 'KeyI', ctrlKey: true });
  const dialog = screen.getByRole('dialog', { name: defaultLabels.title });
  expect(screen.getByRole('status')).toHaveTextContent(defaultLabels.loading!);
  expect(dialog).toHaveFocus();
  // Escape works while loading, and focus goes back to the launcher.
  await user.keyboard('{Escape}');
  expect(launcher).toHaveFocus();
  await user.click(launcher);

  load.release();
  const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
  await waitFor(() => expect(input).toHaveFocus());
  expect(screen.queryByText(defaultLabels.loading!)).toBeNull();
  const chip = container.querySelector('[data-docs-assistant="context"]');
  expect(chip).toHaveTextContent('Collected early');
  expect(load.started).toBe(1);
});
