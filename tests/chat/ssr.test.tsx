// Runs in Node without a DOM: the hook must not touch window, document or localStorage there.
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { useDocsAssistant } from '../../packages/docs-assistant/src/chat/use-docs-assistant';
import { baseOptions } from './helpers';

function Probe() {
  const state = useDocsAssistant(baseOptions());
  return createElement('output', { 'data-status': state.status }, String(state.messages.length));
}

describe('useDocsAssistant on the server', () => {
  it('renders without a window and without warnings', () => {
    expect(typeof window).toBe('undefined');
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    const html = renderToString(createElement(Probe));
    expect(html).toBe('<output data-status="ready">0</output>');
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });
});
