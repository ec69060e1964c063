// @vitest-environment jsdom
/**
 * When the Markdown worker's trees reach the page (`src/parts/parse-off-thread.ts`): the trees that
 * arrive between two frames render together at the next frame, or after `NO_FRAME_MS` where no frame
 * comes (a background tab), and never earlier. A fallback timer left from an earlier flush must not
 * flush a later tree as soon as it arrives: between two of the stream's updates, that is a second
 * render in the frame (the stream's next update shows the tree anyway).
 *
 * And when the worker is given up (the blocks waiting for it, and every later one, parse on the
 * page): it leaves a text unanswered for 10 s, fails after it has answered, or cannot read a
 * message; its error is not the host page's.
 *
 * The worker is a stand-in (jsdom has none) that the test answers by hand; frames and timers are
 * Vitest's fake ones (a frame every 16 ms).
 */
import { act, render } from '@testing-library/react';
import type { Root } from 'hast';
import type { ParseRequest, ParseResponse } from '../../packages/docs-assistant/src/parts/markdown-worker';

type ParseOffThread = typeof import('../../packages/docs-assistant/src/parts/parse-off-thread');

class StandInWorker {
  static last: StandInWorker | null = null;
  onmessage: ((event: { data: ParseResponse[] }) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  requests: ParseRequest[] = [];
  constructor() {
    StandInWorker.last = this;
  }
  postMessage(requests: ParseRequest[]) {
    this.requests.push(...requests);
  }
  terminated = false;
  terminate() {
    this.terminated = true;
  }
  /** The worker's answer to the request for `text`. */
  answer(text: string) {
    const request = this.requests.find((r) => r.text === text);
    if (!request) throw new Error(`nothing asked for ${JSON.stringify(text)}`);
    const tree: Root = { type: 'root', children: [{ type: 'text', value: text }] };
    this.onmessage?.({ data: [{ id: request.id, tree }] });
  }
}

let offThread: ParseOffThread;
/** What the probe rendered, in order: its text and whether it had the tree. */
const renders: string[] = [];

function Probe({ text }: { text: string }) {
  const tree = offThread.useWorkerTree(text);
  renders.push(`${text}:${tree === undefined ? 'waiting' : tree === null ? 'parse here' : 'tree'}`);
  return null;
}

beforeEach(async () => {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame', 'performance'],
  });
  vi.stubGlobal('Worker', StandInWorker);
  vi.resetModules();
  offThread = await import('../../packages/docs-assistant/src/parts/parse-off-thread');
  renders.length = 0;
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Lets the page's queued work run (the request goes out at the end of the task). */
const settle = () => act(async () => {});

it('shows a tree that arrives between frames at the next frame, not before', async () => {
  const view = render(<Probe text="first" />);
  await settle();
  const worker = StandInWorker.last!;
  expect(worker.requests.map((r) => r.text)).toEqual(['first']);

  // t = 0: the tree arrives; it renders with the frame at 16 ms.
  act(() => worker.answer('first'));
  expect(renders.at(-1)).toBe('first:waiting');
  await act(async () => vi.advanceTimersByTime(16));
  expect(renders.at(-1)).toBe('first:tree');

  // The block moves on; its next tree arrives at 49 ms, just after the frame at 48 ms. The flush
  // timer of the first tree (50 ms) must not render it; the frame at 64 ms does.
  view.rerender(<Probe text="second" />);
  await settle();
  await act(async () => vi.advanceTimersByTime(49 - 16));
  act(() => worker.answer('second'));
  await act(async () => vi.advanceTimersByTime(55 - 49));
  expect(renders.at(-1)).toBe('second:waiting');
  await act(async () => vi.advanceTimersByTime(64 - 55));
  expect(renders.at(-1)).toBe('second:tree');
});

it('shows the trees after NO_FRAME_MS where no frame comes', async () => {
  // A background tab: frames never come.
  vi.stubGlobal('requestAnimationFrame', () => 0);
  vi.stubGlobal('cancelAnimationFrame', () => {});
  render(<Probe text="hidden" />);
  await settle();
  act(() => StandInWorker.last!.answer('hidden'));
  await act(async () => vi.advanceTimersByTime(49));
  expect(renders.at(-1)).toBe('hidden:waiting');
  await act(async () => vi.advanceTimersByTime(1));
  expect(renders.at(-1)).toBe('hidden:tree');
});

it('gives up on a worker that leaves a text unanswered for 10 s: the block parses on the page', async () => {
  render(<Probe text="slow" />);
  await settle();
  const worker = StandInWorker.last!;
  await act(async () => vi.advanceTimersByTime(9_999));
  expect(renders.at(-1)).toBe('slow:waiting');
  await act(async () => vi.advanceTimersByTime(1));
  expect(renders.at(-1)).toBe('slow:parse here');
  expect(worker.terminated).toBe(true);
});

it.each([
  [
    'fails after it has answered',
    (worker: StandInWorker) => {
      const event = new Event('error', { cancelable: true });
      worker.onerror?.(event);
      // Not the host page's error: its default (the page's error report) is prevented.
      expect(event.defaultPrevented).toBe(true);
    },
  ],
  ['cannot read a message', (worker: StandInWorker) => worker.onmessageerror?.()],
])('gives up on a worker that %s: waiting and later blocks parse on the page', async (_, fail) => {
  const view = render(<Probe text="first" />);
  await settle();
  const worker = StandInWorker.last!;
  act(() => worker.answer('first'));
  await act(async () => vi.advanceTimersByTime(16));
  expect(offThread.workerAnswers()).toBe(true);
  view.rerender(<Probe text="second" />);
  await settle();
  expect(renders.at(-1)).toBe('second:waiting');
  act(() => fail(worker));
  expect(renders.at(-1)).toBe('second:parse here');
  expect(worker.terminated).toBe(true);
  expect(offThread.workerAnswers()).toBe(false);
  // Nothing more goes to the worker; a later text parses on the page from its first render.
  view.rerender(<Probe text="third" />);
  await settle();
  expect(renders.at(-1)).toBe('third:parse here');
  expect(worker.requests.map((r) => r.text)).toEqual(['first', 'second']);
});
