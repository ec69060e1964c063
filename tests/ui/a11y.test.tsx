// @vitest-environment jsdom
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { createRef } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  DocsAssistant,
  type DocsAssistantHandle,
  defaultLabels,
  type Variant,
} from '../../packages/docs-assistant/src/index';
import { answer, baseProps, freshDomain, recordingFetch } from './helpers';

beforeEach(freshDomain);

const ANSWER = [
  'Install the package:\n\n```bash\nnpm i docs-assistant\n```\n\n',
  '| Prop | Default |\n| --- | --- |\n| variant | floating |\n\n',
  'See the [guide](/guides/install).\n\n```suggestions\n(Theming)[/guides/theming]\n```\n',
];

async function axeViolations(element: Element) {
  // jsdom cannot compute colours, so contrast is checked in the browser, not here.
  const results = await axe.run(element, { rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('accessibility', () => {
  it.each<Variant>(['floating', 'side-panel', 'inline'])(
    'has no axe violations with a conversation in the open %s panel',
    async (variant) => {
      const ref = createRef<DocsAssistantHandle>();
      const { fetch } = recordingFetch(() =>
        answer(ANSWER, { sources: [{ url: '/guides/install', title: 'Install guide' }] }),
      );
      const { container } = render(
        <main>
          <h1>Host docs page</h1>
          <DocsAssistant {...baseProps} variant={variant} fetch={fetch} ref={ref} defaultOpen />
        </main>,
      );
      const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
      const user = userEvent.setup();
      await user.type(input, 'How do I install it?{Enter}');
      await waitFor(() => expect(container).toHaveTextContent('Install guide'));
      await waitFor(() =>
        expect(container.querySelector('[data-docs-assistant="root"]')).toHaveAttribute(
          'data-status',
          'ready',
        ),
      );
      act(() => void ref.current!.addContext({ type: 'code', value: 'const x = 1;' }));
      expect(await axeViolations(container)).toEqual([]);
    },
  );

  it("has no axe violations with a code block's Ask AI shown by pointer, and none by keyboard, where it is no Tab stop", async () => {
    const { container } = render(
      <main>
        <h1>Host docs page</h1>
        <a href="#install">Install</a>
        <pre>
          <code>npm i docs-assistant</code>
        </pre>
        <DocsAssistant {...baseProps} />
      </main>,
    );
    const user = userEvent.setup();
    await user.hover(screen.getByText('npm i docs-assistant'));
    const ask = await screen.findByRole('button', { name: defaultLabels.askAiAboutCode });
    expect(await axeViolations(container)).toEqual([]);
    await user.unhover(screen.getByText('npm i docs-assistant'));
    // By keyboard it costs the page no Tab stop (the widget's shortcut asks about the focused
    // block instead): Tab from the page's link goes on to the launcher, and axe stays clean.
    expect(ask).toHaveAttribute('tabindex', '-1');
    screen.getByRole('link', { name: 'Install' }).focus();
    await user.tab();
    expect(ask).not.toHaveFocus();
    expect(document.activeElement).toHaveAttribute('data-docs-assistant', 'launcher');
    expect(await axeViolations(container)).toEqual([]);
  });

  it('has no axe violations with an error shown', async () => {
    const { fetch } = recordingFetch(
      () =>
        new Response('{"error":{"code":"rate_limited","message":"slow down"}}', {
          status: 429,
          headers: { 'Retry-After': '30' },
        }),
    );
    const { container } = render(
      <main>
        <DocsAssistant {...baseProps} fetch={fetch} defaultOpen starterQuestions={['Why?']} />
      </main>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Why?' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(defaultLabels.errorRateLimit(30));
    expect(await axeViolations(container)).toEqual([]);
  });
});
