// @vitest-environment jsdom
/**
 * When a block being written sends its newer text to the Markdown worker (`useOneTextInWorker` in
 * `src/parts/markdown.tsx`): with the stream's updates, at most once per interval, and on its own
 * (a timer) only once the stream has paused, a frame after the interval. A timer at the end of the
 * interval itself fires a moment before the stream's next update, which would send the same text:
 * a render and a message of their own for nothing.
 *
 * The worker is a stand-in (jsdom has none) that answers every text at once; frames and timers are
 * Vitest's fake ones, and the stream adds words every 16 ms (60 Hz).
 */
import { act, render } from '@testing-library/react';
import type { Root } from 'hast';
import type { ParseRequest, ParseResponse } from '../../packages/docs-assistant/src/parts/markdown-worker';

/** What the page was doing when a text went to the worker. */
type Phase = 'stream update' | 'timers';
let phase: Phase = 'timers';

interface Sent {
  text: string;
  at: number;
  phase: Phase;
}

class StandInWorker {
  static last: StandInWorker | null = null;
  onmessage: ((event: { data: ParseResponse[] }) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  sent: Sent[] = [];
  unanswered: ParseRequest[] = [];
  constructor() {
    StandInWorker.last = this;
  }
  postMessage(requests: ParseRequest[]) {
    for (const { text } of requests) this.sent.push({ text, at: performance.now(), phase });
    this.unanswered.push(...requests);
  }
  terminate() {}
  /** Answers every text sent so far: a tree of one text node. */
  answerAll() {
    const requests = this.unanswered.splice(0);
    if (requests.length === 0) return;
    this.onmessage?.({
      data: requests.map(({ id, text }) => ({
        id,
        tree: { type: 'root', children: [{ type: 'text', value: text }] } satisfies Root,
      })),
    });
  }
}

beforeEach(() => {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame', 'performance'],
  });
  vi.stubGlobal('Worker', StandInWorker);
  vi.resetModules();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const FRAME_MS = 16;
const words = (count: number) => Array.from({ length: count }, (_, index) => `word${index}`).join(' ');

it('a block being written sends its newer text with the stream’s updates, and on its own only a frame after the interval once the stream has paused', async () => {
  const { warmUp } = await import('../../packages/docs-assistant/src/parts/parse-off-thread');
  const { StreamingMarkdown } = await import('../../packages/docs-assistant/src/parts/markdown');
  // The worker has answered once: from then on the answer's blocks go to it.
  warmUp();
  await act(async () => {});
  const worker = StandInWorker.last!;
  worker.answerAll();
  await act(async () => vi.advanceTimersByTime(FRAME_MS));
  worker.sent.length = 0;

  // One paragraph, two more words each frame, for 40 frames.
  phase = 'stream update';
  const view = render(<StreamingMarkdown text={words(2)} isStreaming />);
  await act(async () => {});
  for (let frame = 2; frame <= 40; frame++) {
    phase = 'timers';
    await act(async () => {
      worker.answerAll();
      vi.advanceTimersByTime(FRAME_MS);
    });
    phase = 'stream update';
    await act(async () => view.rerender(<StreamingMarkdown text={words(2 * frame)} isStreaming />));
  }
  const whileStreaming = [...worker.sent];
  const last = whileStreaming.at(-1)!;

  // The stream pauses (still streaming, no newer text): frames go on, the worker answers.
  phase = 'timers';
  for (let frame = 0; frame < 6; frame++) {
    await act(async () => {
      worker.answerAll();
      vi.advanceTimersByTime(FRAME_MS);
    });
  }

  // While the stream went on, every text went with one of its updates, at least 32 ms apart.
  expect(whileStreaming.length).toBeGreaterThan(10);
  expect(whileStreaming.filter((sent) => sent.phase !== 'stream update')).toEqual([]);
  for (let index = 1; index < whileStreaming.length; index++) {
    expect(whileStreaming[index]!.at - whileStreaming[index - 1]!.at).toBeGreaterThanOrEqual(32);
  }
  // Paused: the newest text went on its own, a frame after the interval, and it is shown.
  const paused = worker.sent.slice(whileStreaming.length);
  expect(paused.map(({ text, phase }) => ({ text, phase }))).toEqual([{ text: words(80), phase: 'timers' }]);
  expect(paused[0]!.at - last.at).toBeGreaterThanOrEqual(32 + FRAME_MS);
  expect(view.container.textContent).toBe(words(80));
});
