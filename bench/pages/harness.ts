/**
 * Runs inside the benchmark page (all three variants): a `fetch` that streams the AI SDK v4 data
 * stream format from memory at full speed, and the page-side measurements (frames, key-to-paint
 * delays). Node drives it through `window.__bench` (see `bench/browser.ts`).
 */
import { formatDataStreamPart } from '@ai-sdk/ui-utils';

export interface RunOptions {
  /** Stop streaming after this long (ms): a run that cannot keep up is cut, and reported as cut. */
  capMs: number;
  /** Text that is on screen once the whole answer has rendered. */
  endMark: string;
  /**
   * One token every this many ms (a model's pace: 12 ms is 83 tokens a second), instead of a token
   * per task as fast as the page takes them.
   */
  paceMs?: number;
}

export interface RunResult {
  finished: boolean;
  tokensSent: number;
  elapsedMs: number;
  frames: number;
  droppedFrames: number;
  longestFrameMs: number;
  keyDelaysMs: number[];
  longTasks: number[];
}

export interface BenchPage {
  /**
   * Hands the page the next run's answer, before anything is measured: the tokens arrive in one
   * DevTools message, whose decoding (20,000 strings) held the main thread for 25-60 ms, and the
   * network chunks are encoded here, as a network would have them ready, not by the page's script.
   */
  load(tokens: string[]): void;
  /** Sends one question; resolves when the page shows the end of the answer (or the cap cut it). */
  run(options: RunOptions): Promise<RunResult>;
}

declare global {
  interface Window {
    __bench?: BenchPage;
    __benchReady?: boolean;
  }
}

/** How long after the cap a page may take to show the end of its answer before it is given up on (ms). */
const SHOW_WITHIN_MS = 10_000;

// One frame at 60 Hz (in ms): a gap of two of these between frames is one dropped frame.
const FRAME_MS = 1000 / 60;

// One channel for the whole page. A new MessageChannel per chunk left 40,000 MessagePorts for a
// 20,000-token answer to Blink's heap, and finalizing them made a major GC pause of 50-110 ms in
// the middle of the widget's run (trace: MajorGC, mostly V8.GC_HEAP_EMBEDDER_TRACING_EPILOGUE).
// A real network stream makes no such garbage, so the harness must not either.
const taskChannel = new MessageChannel();
const taskWaiters: (() => void)[] = [];
// Messages on one port arrive in the order posted, so the oldest waiter is the one to wake.
taskChannel.port1.onmessage = () => taskWaiters.shift()?.();

/** A macrotask boundary without timer clamping: each network chunk arrives in a task of its own. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    taskWaiters.push(resolve);
    taskChannel.port2.postMessage(null);
  });
}

interface Stream {
  chunks: Uint8Array[];
  capMs: number;
  paceMs?: number;
  sent: number;
  closed: boolean;
  cut: boolean;
  startedAt: number;
}

let current: Stream | null = null;

/** The next run's network chunks, one per token (`BenchPage.load`). */
let loaded: Uint8Array[] = [];
const encoder = new TextEncoder();

/**
 * The page's `fetch` for the assistant endpoint: a v4 data stream whose text parts are the run's
 * tokens, one token per network chunk, each in its own task, as fast as the page takes them (or one
 * every `paceMs`).
 */
export const benchFetch: typeof fetch = async () => {
  const stream = current;
  if (!stream) throw new Error('bench: no run in progress');
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(formatDataStreamPart('start_step', { messageId: 'answer' })));
      for (const chunk of stream.chunks) {
        if (stream.paceMs) await new Promise((resolve) => setTimeout(resolve, stream.paceMs));
        else await nextTask();
        if (performance.now() - stream.startedAt > stream.capMs) {
          stream.cut = true;
          break;
        }
        controller.enqueue(chunk);
        stream.sent++;
      }
      const usage = { promptTokens: 10, completionTokens: stream.sent };
      controller.enqueue(
        encoder.encode(
          formatDataStreamPart('finish_step', { finishReason: 'stop', usage, isContinued: false }) +
            formatDataStreamPart('finish_message', { finishReason: 'stop', usage }),
        ),
      );
      controller.close();
      stream.closed = true;
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};

/**
 * Installs `window.__bench`: `ask` sends the question the variant's own way, `answerShown` says
 * whether the end of the answer is on screen.
 */
export function installBench(ask: (question: string) => void, answerShown: (endMark: string) => boolean) {
  const keyDelays: number[] = [];
  // Key press → the frame that shows it: the event's timestamp (when the browser received the
  // press) to just after the next frame's paint (a task queued from requestAnimationFrame runs
  // after that frame is painted).
  window.addEventListener(
    'keydown',
    (event) => {
      const pressed = event.timeStamp;
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          keyDelays.push(performance.now() - pressed);
          channel.port1.close();
        };
        channel.port2.postMessage(null);
      });
    },
    true,
  );

  window.__bench = {
    load(tokens) {
      loaded = tokens.map((token) => encoder.encode(formatDataStreamPart('text', token)));
    },
    async run({ capMs, endMark, paceMs }) {
      if (loaded.length === 0) throw new Error('bench: no answer loaded (call load first)');
      // The question is asked in a task of its own, as a click or a key press would ask it, not in
      // the task that receives the DevTools call (whose own work, decoding and running the driver's
      // call, would count as the page's).
      await nextTask();
      keyDelays.length = 0;
      const longTasks: number[] = [];
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) longTasks.push(entry.duration);
      });
      observer.observe({ type: 'longtask', buffered: false });

      const startedAt = performance.now();
      const stream: Stream = { chunks: loaded, capMs, paceMs, sent: 0, closed: false, cut: false, startedAt };
      loaded = [];
      current = stream;
      let frames = 0;
      let dropped = 0;
      let longestFrame = 0;
      let last = startedAt;
      performance.mark('bench:start');
      return new Promise<RunResult>((resolve) => {
        const onFrame = (now: number) => {
          frames++;
          const gap = now - last;
          longestFrame = Math.max(longestFrame, gap);
          dropped += Math.max(0, Math.round(gap / FRAME_MS) - 1);
          last = now;
          // Done once the stream has ended and its last words are painted (or the run was cut).
          // A page that never shows them (a broken build under study) is given up on, not waited
          // for: the run ends as not finished.
          const givenUp = now - startedAt > capMs + SHOW_WITHIN_MS;
          if ((stream.closed && (stream.cut || answerShown(endMark))) || givenUp) {
            if (givenUp) stream.cut = true;
            performance.mark('bench:end');
            performance.measure('bench:run', 'bench:start', 'bench:end');
            observer.disconnect();
            current = null;
            resolve({
              finished: !stream.cut,
              tokensSent: stream.sent,
              elapsedMs: performance.now() - startedAt,
              frames,
              droppedFrames: dropped,
              longestFrameMs: longestFrame,
              keyDelaysMs: [...keyDelays],
              longTasks,
            });
            return;
          }
          requestAnimationFrame(onFrame);
        };
        requestAnimationFrame(onFrame);
        ask('How do I configure the widget?');
      });
    },
  };
  window.__benchReady = true;
}

/**
 * The "answer shown" check of the two `useChat` pages (naive, floor): the page's `<main>` carries
 * the chat status, and the last assistant message holds the end mark.
 */
export function chatPageAnswerShown(endMark: string): boolean {
  const main = document.querySelector('main');
  const answers = document.querySelectorAll('[data-role="assistant"]');
  return main?.dataset.status === 'ready' && !!answers[answers.length - 1]?.textContent?.includes(endMark);
}
