/**
 * The `fetch` the layout pages give the widget: every request goes to the real reference service
 * on this page's origin, except where the test asks for a state the service cannot be told to
 * produce on cue. `hold` pauses the next answers right after their first text (the "streaming"
 * state, until `release()` or the reader's Stop); `fail` answers the next questions with an error
 * status in the service's own shape (the "error" state). The test sets both through
 * `window.__layout`.
 */

export interface LayoutControl {
  /** Pause each answer after its first text line until `release()` or the request is aborted. */
  hold: boolean;
  /** Answer questions with this HTTP status (429 or 500) instead of asking the service; 0: ask it. */
  fail: number;
  /** Lets every held answer go on. */
  release(): void;
  /** Questions sent so far (the requests to the message endpoint). */
  questions: number;
}

declare global {
  interface Window {
    __layout: LayoutControl;
  }
}

const gates: (() => void)[] = [];

export const control: LayoutControl = {
  hold: false,
  fail: 0,
  questions: 0,
  release: () => {
    for (const go of gates.splice(0)) go();
  },
};
window.__layout = control;

/** The error bodies of the reference service (`{ error, code }`) for the statuses the test asks for. */
function failure(status: number): Response {
  const rateLimited = status === 429;
  return new Response(
    JSON.stringify(
      rateLimited
        ? { error: 'Too many requests for this key (limit 20); retry in 30 seconds.', code: 'rate_limited' }
        : { error: 'The assistant failed to answer.', code: 'internal_error' },
    ),
    {
      status,
      headers: { 'Content-Type': 'application/json', ...(rateLimited ? { 'Retry-After': '30' } : {}) },
    },
  );
}

/** Passes the data stream through line by line and waits after the first text part (`0:`). */
function holdAfterFirstText(body: ReadableStream<Uint8Array>, signal?: AbortSignal | null) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buffer = '';
  let held = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        if (buffer) controller.enqueue(encoder.encode(buffer));
        controller.close();
        return;
      }
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        controller.enqueue(encoder.encode(`${line}\n`));
        if (held || !line.startsWith('0:')) continue;
        held = true;
        // The reader's Stop aborts the request: the answer is over, the gate with it.
        await new Promise<void>((go) => {
          gates.push(go);
          signal?.addEventListener('abort', () => go(), { once: true });
        });
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

export const layoutFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input), location.href);
  if (!url.pathname.endsWith('/message')) return fetch(input, init);
  control.questions++;
  if (control.fail) return failure(control.fail);
  const response = await fetch(input, init);
  if (!control.hold || !response.body) return response;
  return new Response(holdAfterFirstText(response.body, init?.signal), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
};
