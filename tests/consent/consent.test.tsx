// @vitest-environment jsdom
/**
 * The consent gate in the DOM: nothing is sent or stored while the notice shows (the handle's
 * `ask` waits), acceptance is remembered only once given, `consent(false)` and a `granted` prop
 * going back to `false` delete what the widget stored, the notice's text and link are the host's,
 * and axe finds nothing to fix in it. The browser test (consent.browser.test.ts) records every
 * request and storage write against the real service.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { createRef } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DocsAssistant,
  type DocsAssistantHandle,
  defaultLabels,
} from '../../packages/docs-assistant/src/index';
import { answer, baseProps, freshDomain, recordingFetch } from '../ui/helpers';

beforeEach(() => {
  freshDomain();
  sessionStorage.clear();
});
afterEach(() => vi.restoreAllMocks());

const local = { ...baseProps, storage: 'local' as const };
const storedKeys = () => [
  ...Object.keys(localStorage).map((key) => `local:${key}`),
  ...Object.keys(sessionStorage).map((key) => `session:${key}`),
];
const accept = () => screen.findByRole('button', { name: 'Accept and continue' });

describe('consent gate', () => {
  it('shows the notice on open and sends and stores nothing until the reader accepts', async () => {
    const user = userEvent.setup();
    const ref = createRef<DocsAssistantHandle>();
    const { fetch, requests } = recordingFetch(() => answer(['Install with npm.']));
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    render(<DocsAssistant {...local} fetch={fetch} consent ref={ref} />);

    await user.hover(screen.getByRole('button', { name: defaultLabels.launcher }));
    await user.click(screen.getByRole('button', { name: defaultLabels.launcher }));
    const button = await accept();
    const dialog = screen.getByRole('dialog', { name: defaultLabels.title });
    expect(dialog).toHaveTextContent(/Nothing is sent or stored until you accept/);
    // The panel keeps the focus (typing cannot accept by accident) and the notice describes it.
    await waitFor(() => expect(dialog).toHaveFocus());
    expect(dialog).toHaveAccessibleDescription(/sent to the assistant service/);
    expect(button).toHaveAccessibleDescription(/sent to the assistant service/);
    expect(screen.queryByRole('textbox')).toBeNull();
    // The host's "Ask AI" waits behind the notice.
    act(() => ref.current!.ask('How do I install it?'));
    await user.keyboard('typing before accepting');
    expect(requests).toHaveLength(0);
    expect(setItem).not.toHaveBeenCalled();
    expect(storedKeys()).toEqual([]);

    await user.click(button);
    // Accepted: remembered, the panel loads and the question asked before is sent now.
    await screen.findByText('Install with npm.');
    expect(requests).toHaveLength(1);
    expect(requests[0]?.body.messages.at(-1)?.content).toBe('How do I install it?');
    expect(localStorage.getItem(`docs-assistant:consent:${local.domain}`)).not.toBeNull();
    expect(setItem.mock.calls[0]?.[0]).toBe(`docs-assistant:consent:${local.domain}`);
  });

  it('remembers acceptance: a later mount opens straight into the conversation', async () => {
    localStorage.setItem(`docs-assistant:consent:${local.domain}`, '2026-11-25T05:00:00.000Z');
    render(<DocsAssistant {...local} variant="inline" consent />);
    await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
    expect(screen.queryByRole('button', { name: 'Accept and continue' })).toBeNull();
  });

  it('consent(false) shows the notice again and deletes what the widget stored for its domain', async () => {
    const user = userEvent.setup();
    const ref = createRef<DocsAssistantHandle>();
    const { fetch } = recordingFetch(() => answer(['Answer one.']));
    const onChange = vi.fn();
    localStorage.setItem('docs-assistant:v1:another-site', 'kept');
    // A domain that starts with this one's name is another domain.
    localStorage.setItem(`docs-assistant:feedback:${local.domain}-docs`, 'kept');
    localStorage.setItem('host-key', 'kept');
    render(<DocsAssistant {...local} variant="inline" fetch={fetch} consent={{ onChange }} ref={ref} />);
    await user.click(await accept());
    expect(onChange).toHaveBeenLastCalledWith(true);
    await user.type(await screen.findByRole('textbox'), 'First question{Enter}');
    await screen.findByText('Answer one.');
    await waitFor(() => expect(localStorage.getItem(`docs-assistant:v1:${local.domain}`)).not.toBeNull());
    expect(sessionStorage.getItem(`docs-assistant:v1:${local.domain}:tab`)).not.toBeNull();

    act(() => ref.current!.consent(false));
    await accept();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(onChange).toHaveBeenLastCalledWith(false);
    // Only what is not this widget's (or another domain's) is left.
    expect(storedKeys().sort()).toEqual([
      `local:docs-assistant:feedback:${local.domain}-docs`,
      'local:docs-assistant:v1:another-site',
      'local:host-key',
    ]);

    // Accepting again starts afresh: the old conversation is gone.
    await user.click(await accept());
    await screen.findByRole('textbox');
    expect(screen.queryByText('Answer one.')).toBeNull();
  });

  it('follows a host-controlled `granted`: false shows the notice, true works, back to false forgets', async () => {
    const user = userEvent.setup();
    const { fetch, requests } = recordingFetch(() => answer(['Answer.']));
    const onChange = vi.fn();
    const storage = { load: vi.fn(() => null), save: vi.fn(), clear: vi.fn() };
    const props = { ...local, variant: 'inline' as const, fetch, storage };
    const { rerender } = render(<DocsAssistant {...props} consent={{ granted: false, onChange }} />);
    await user.click(await accept());
    // The host decides: nothing is remembered by the widget, the notice stays until `granted`.
    expect(onChange).toHaveBeenLastCalledWith(true);
    expect(localStorage.length).toBe(0);
    expect(storage.load).not.toHaveBeenCalled();

    rerender(<DocsAssistant {...props} consent={{ granted: true, onChange }} />);
    await user.type(await screen.findByRole('textbox'), 'Q{Enter}');
    await screen.findByText('Answer.');
    expect(requests).toHaveLength(1);

    rerender(<DocsAssistant {...props} consent={{ granted: false, onChange }} />);
    await accept();
    expect(storage.clear).toHaveBeenCalled();
    expect(storedKeys()).toEqual([]);
  });

  it('uses the host’s notice, link and button text, and refuses a javascript: link', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const consent = {
      notice: 'Questions go to Acme AI (EU).',
      linkHref: '/privacy',
      linkText: 'How we use your data',
      acceptText: 'I agree',
    };
    const { rerender } = render(<DocsAssistant {...local} variant="inline" consent={consent} />);
    const button = await screen.findByRole('button', { name: 'I agree' });
    expect(button).toHaveAccessibleDescription('Questions go to Acme AI (EU).');
    expect(screen.getByRole('link', { name: 'How we use your data' })).toHaveAttribute('href', '/privacy');
    // Inline, on page load: the notice does not take the focus from the page.
    expect(button).not.toHaveFocus();

    rerender(
      <DocsAssistant {...local} variant="inline" consent={{ ...consent, linkHref: 'javascript:alert(1)' }} />,
    );
    await waitFor(() => expect(screen.queryByRole('link')).toBeNull());
    expect(warn.mock.calls[0]?.[0]).toMatch(/consent.linkHref .* is not an http\(s\) or mailto: address/);
  });

  it('renders on the server without touching storage: the panel waits for the browser to read the choice', () => {
    const getItem = vi.spyOn(Storage.prototype, 'getItem');
    const html = renderToString(<DocsAssistant {...local} variant="inline" consent />);
    expect(html).toContain('data-docs-assistant="loading"');
    expect(html).not.toContain('accept-consent');
    expect(getItem).not.toHaveBeenCalled();
  });

  it('required: false turns the gate off', async () => {
    render(<DocsAssistant {...local} variant="inline" consent={{ required: false }} />);
    await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
  });

  it('has no axe violations in the open notice', async () => {
    const { container } = render(
      <main>
        <h1>Host docs page</h1>
        <DocsAssistant {...local} defaultOpen consent={{ linkHref: 'https://example.com/privacy' }} />
      </main>,
    );
    await accept();
    // jsdom cannot compute colours: contrast is checked in the browser test.
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});
