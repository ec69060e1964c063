// Runs in node (no DOM): the collectors are imported by server-rendered pages.
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

// Set by the first test's dynamic imports, so that import is what the test measures.
let hook: typeof import('../../packages/docs-assistant/src/ui/use-shell-handle');

/** A page rendering the collectors' hook as `<DocsAssistant>` does. */
function Page() {
  hook.useShellCollectors({
    collectors: undefined,
    on: true,
    rootRef: { current: null },
    store: { add: () => '' } as never,
    openAndFocus: () => {},
    labels: { askAi: 'Ask AI' } as never,
    overrides: undefined,
    keyShortcuts: undefined,
  });
  return <pre>code</pre>;
}

describe('context collectors without a DOM', () => {
  it('import without side effects and render on the server without touching the page', async () => {
    expect(typeof document).toBe('undefined');
    const globalsBefore = Object.getOwnPropertyNames(globalThis).sort();
    await import('../../packages/docs-assistant/src/context');
    hook = await import('../../packages/docs-assistant/src/ui/use-shell-handle');
    expect(Object.getOwnPropertyNames(globalThis).sort()).toEqual(globalsBefore);
    expect(renderToString(<Page />)).toBe('<pre>code</pre>');
  });

  it('explain that a collector needs a document when created on the server', async () => {
    const { createSelectionCollector, createCodeBlockCollector } = await import(
      '../../packages/docs-assistant/src/context'
    );
    expect(() => createSelectionCollector({ onAsk: () => {}, label: 'Ask AI' })).toThrow(
      /needs a DOM document: create it in the browser/,
    );
    expect(() => createCodeBlockCollector({ onAsk: () => {}, label: 'Ask AI' })).toThrow(
      /needs a DOM document/,
    );
  });
});
