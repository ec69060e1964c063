// Node environment: no window, no document.
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

const props = { domain: 'acme', apiKey: 'svc_dsc_ssr_key', baseUrl: 'https://api.example.com' };

describe('server rendering', () => {
  it('imports and renders every variant without a DOM', async () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    const { DocsAssistant } = await import('../../packages/docs-assistant/src/index');

    const floating = renderToString(<DocsAssistant {...props} />);
    expect(floating).toContain('data-docs-assistant="root"');
    expect(floating).toContain('data-docs-assistant="launcher"');
    expect(floating).toContain('data-state="closed"');
    expect(floating).toContain('data-status="ready"');
    expect(floating).toContain('data-theme="light"');
    expect(floating).not.toContain('data-docs-assistant="panel"');

    const open = renderToString(<DocsAssistant {...props} defaultOpen theme="dark" />);
    expect(open).toContain('role="dialog"');
    expect(open).toContain('data-theme="dark"');
    // The panel's code loads in the browser; the server shows its loading state.
    expect(open).toContain('data-docs-assistant="loading"');

    const side = renderToString(<DocsAssistant {...props} variant="side-panel" defaultOpen />);
    expect(side).toMatch(/<aside[^>]*data-docs-assistant="panel"/);

    const inline = renderToString(<DocsAssistant {...props} variant="inline" />);
    expect(inline).toMatch(/<section[^>]*data-docs-assistant="panel"/);
    expect(inline).not.toContain('data-docs-assistant="launcher"');

    const unavailable = renderToString(<DocsAssistant {...props} variant="inline" deployment="air-gapped" />);
    expect(unavailable).toContain('data-error-kind="unavailable"');
    expect(
      renderToString(<DocsAssistant {...props} deployment="air-gapped" whenUnavailable="hidden" />),
    ).toBe('');
  });
});
