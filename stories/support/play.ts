/**
 * Steps the stories' `play` functions share: ask a question the way a reader does, and wait for
 * the widget to reach a state. Long timeouts: in the browser the answers stream at reading pace.
 */
import { expect, userEvent, waitFor, within } from 'storybook/test';

/** Time allowed for a replayed answer to finish streaming (in ms). */
export const STREAM_TIMEOUT_MS = 20_000;

export function rootOf(canvasElement: HTMLElement): HTMLElement {
  const root = canvasElement.querySelector<HTMLElement>('[data-docs-assistant="root"]');
  if (!root) throw new Error('The story rendered no [data-docs-assistant="root"].');
  return root;
}

/** Every element with `data-docs-assistant="<name>"` inside the element. */
export const hooks = (element: HTMLElement, name: string) =>
  Array.from(element.querySelectorAll<HTMLElement>(`[data-docs-assistant="${name}"]`));

/** Types the question into the composer and presses Enter. */
export async function ask(canvasElement: HTMLElement, question: string, inputLabel = 'Your question') {
  const input = await within(canvasElement).findByRole('textbox', { name: inputLabel }, { timeout: 5000 });
  await userEvent.type(input, question);
  await userEvent.keyboard('{Enter}');
}

/** Waits until the root's `data-status` is the given one. */
export async function waitForStatus(canvasElement: HTMLElement, status: 'streaming' | 'ready' | 'error') {
  await waitFor(() => expect(rootOf(canvasElement)).toHaveAttribute('data-status', status), {
    timeout: STREAM_TIMEOUT_MS,
  });
}

/** Waits until an element matching the selector is in the story. */
export async function waitForSelector(canvasElement: HTMLElement, selector: string): Promise<HTMLElement> {
  let found: HTMLElement | null = null;
  await waitFor(
    () => {
      found = canvasElement.querySelector<HTMLElement>(selector);
      expect(found).not.toBeNull();
    },
    { timeout: STREAM_TIMEOUT_MS },
  );
  return found!;
}

/**
 * Waits until the last assistant message is wholly on screen and shows `text`: it no longer
 * streams, and its Markdown, which renders in the background, is not behind (`data-pending`).
 * A partial answer kept after an error is on screen the same way.
 */
export async function waitForLastAnswerShown(canvasElement: HTMLElement, text: string | RegExp) {
  await waitFor(
    () => {
      const answers = canvasElement.querySelectorAll(
        '[data-docs-assistant="message"][data-role="assistant"]',
      );
      const last = answers[answers.length - 1];
      expect(last).toBeDefined();
      expect(last).not.toHaveAttribute('data-streaming');
      expect(last!.querySelector('[data-pending]')).toBeNull();
      expect(last!.textContent).toMatch(text);
    },
    { timeout: STREAM_TIMEOUT_MS },
  );
}

/** Waits until the answer has finished (status `ready`) and shows `text`. */
export async function waitForAnswer(canvasElement: HTMLElement, text: string | RegExp) {
  await waitForStatus(canvasElement, 'ready');
  await waitForLastAnswerShown(canvasElement, text);
}
