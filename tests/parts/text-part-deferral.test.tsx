// @vitest-environment jsdom
/**
 * The expensive step of an answer, parsing its Markdown, never runs inside the chat client's own
 * update (a synchronous render, one task): a text part that mounts while streaming commits empty
 * and is parsed in React's background render, which yields to the browser between blocks. A part
 * that mounts finished (a restored conversation) renders in the same commit.
 */
import { act, createElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReasoningPart, TextPart } from '../../packages/docs-assistant/src/parts';
import { keepSafeHref } from '../../packages/docs-assistant/src/parts/href';

const ANSWER =
  '# Installing\n\nInstall the package.\n\n- Set `domain`\n- Set `apiKey`\n\n| a | b |\n| - | - |\n| 1 | 2 |';

let container: HTMLDivElement;
let root: Root;
const globals = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
const actEnvironment = globals.IS_REACT_ACT_ENVIRONMENT;

beforeEach(() => {
  // Outside act(): React schedules its background work as a browser would, so the commit that
  // flushSync makes can be looked at before that work runs.
  globals.IS_REACT_ACT_ENVIRONMENT = false;
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  globals.IS_REACT_ACT_ENVIRONMENT = true;
  act(() => root.unmount());
  container.remove();
  globals.IS_REACT_ACT_ENVIRONMENT = actEnvironment;
});

const message = { id: 'a1', role: 'assistant' as const, content: '', parts: [] };

const show = (isStreaming: boolean, text = ANSWER) =>
  flushSync(() =>
    root.render(
      createElement(TextPart, {
        part: { type: 'text', text },
        message,
        isStreaming,
        resolveHref: keepSafeHref,
      }),
    ),
  );

describe('TextPart: where the Markdown is parsed', () => {
  it('mounts a streaming part empty and fills it in the background render', async () => {
    show(true);
    expect(container.querySelector('[data-markdown]')?.textContent).toBe('');
    expect(container.querySelector('[data-markdown]')).toHaveProperty('dataset.pending', '');
    await vi.waitFor(() => expect(container.querySelector('h1')?.textContent).toBe('Installing'));
    expect(container.querySelectorAll('li')).toHaveLength(2);
    expect(container.querySelector('table')).not.toBeNull();
    // Caught up: the flag that tells hosts (and tests) the text is behind is gone.
    expect(container.querySelector('[data-pending]')).toBeNull();
  });

  it('keeps the text shown while the next text is parsed, and ends on the whole answer', async () => {
    show(true, '# Installing');
    await vi.waitFor(() => expect(container.querySelector('h1')).not.toBeNull());
    // The client's update commits the old text; the new one follows in the background.
    show(true, ANSWER);
    expect(container.querySelector('h1')?.textContent).toBe('Installing');
    expect(container.querySelector('table')).toBeNull();
    // The stream ends: no last synchronous parse either, and the whole answer arrives.
    show(false, `${ANSWER}\n\nDone.`);
    expect(container.textContent).not.toContain('Done.');
    expect(container.querySelector('[data-pending]')).not.toBeNull();
    await vi.waitFor(() => expect(container.querySelector('[data-pending]')).toBeNull());
    expect(container.textContent).toContain('Done.');
    expect(container.querySelector('table')).not.toBeNull();
  });

  it('renders a part that mounts finished in the same commit', () => {
    show(false);
    expect(container.querySelector('h1')?.textContent).toBe('Installing');
    expect(container.querySelector('table')).not.toBeNull();
    expect(container.querySelector('[data-pending]')).toBeNull();
  });
});

describe('TextPart: a long finished text (a restored answer)', () => {
  it('mounts empty and is revealed in background commits of at most 16,000 more characters each', async () => {
    const paragraph = `${'word '.repeat(99)}end.\n\n`;
    const long = paragraph.repeat(Math.ceil(60_000 / paragraph.length));
    const shown: number[] = [];
    const observer = new MutationObserver(() => {
      shown.push(container.querySelector('[data-markdown]')?.textContent?.length ?? 0);
    });
    observer.observe(container, { childList: true, subtree: true, characterData: true });
    show(false, long);
    expect(container.querySelector('[data-markdown]')?.textContent).toBe('');
    await vi.waitFor(() => expect(container.querySelector('[data-pending]')).toBeNull());
    observer.disconnect();
    // Every paragraph is on screen, as text of its own.
    expect(container.querySelectorAll('p')).toHaveLength(long.split('\n\n').length - 1);
    const steps = [...new Set(shown)].filter((length) => length > 0);
    expect(steps.length).toBeGreaterThanOrEqual(3);
    steps.forEach((length, index) => {
      expect(length - (steps[index - 1] ?? 0)).toBeLessThanOrEqual(16_000 + paragraph.length);
    });
  });
});

describe('ReasoningPart: where the Markdown is parsed', () => {
  const showReasoning = (isStreaming: boolean) =>
    flushSync(() =>
      root.render(
        createElement(ReasoningPart, {
          part: { type: 'reasoning', reasoning: ANSWER, details: [{ type: 'text', text: ANSWER }] },
          message,
          isStreaming,
          resolveHref: keepSafeHref,
        }),
      ),
    );

  it('parses streaming reasoning in the background render, and finished reasoning at once', async () => {
    showReasoning(true);
    expect(container.querySelector('[data-markdown]')?.textContent).toBe('');
    await vi.waitFor(() => expect(container.querySelector('h1')?.textContent).toBe('Installing'));
    root.unmount();
    root = createRoot(container);
    showReasoning(false);
    expect(container.querySelector('h1')?.textContent).toBe('Installing');
  });
});
