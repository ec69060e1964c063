/**
 * The pace at which an answer reaches the chat client (`batchLines`): lines of the tapped stream are
 * handed over in batches, at most one batch per animation frame, so the client updates the message
 * (and the page re-renders) once per frame instead of once per token. Runs of text lines of a batch
 * are merged into one line (`coalesceDeltas`), so a batch costs the client one message update
 * whatever number of tokens it holds; nothing here is done per token over the answer so far.
 */
import { NEWLINE } from './line-tap.js';

/** When the next frame starts: `request` calls back then and gives a function that cancels it. */
export interface FrameClock {
  request(callback: () => void): () => void;
}

/**
 * The page's animation frames; where there are none (a server, a worker) nothing ever calls back,
 * and the batches go at the fallback interval. A background tab runs no frames either.
 */
export const animationFrames: FrameClock = {
  request(callback) {
    if (typeof requestAnimationFrame !== 'function') return () => {};
    const id = requestAnimationFrame(callback);
    return () => cancelAnimationFrame(id);
  },
};

const OPEN = Symbol('open');

const COLON = 0x3a;
// Part codes that put something of the answer on screen (text, reasoning, a file, a source, a tool
// call or result); the others only carry data, annotations or the steps around them.
const ANSWER_CODES = '0gikhb9a';

/** Whether a line (one per chunk, as the tap hands them over) is a part of the answer. */
const isAnswerLine = (line: Uint8Array) =>
  line[1] === COLON && ANSWER_CODES.includes(String.fromCharCode(line[0]!));

/** One batched stream: what its `pull` keeps between batches. */
class FrameBatches {
  // A read that outlived its batch's wait; the next batch starts with it.
  private pendingRead: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  private deferredError: { error: unknown } | undefined;
  // Set from a delivery until the next frame starts (or `fallbackMs` passed): the frame had its batch.
  private gate: Promise<typeof OPEN> | undefined;
  closeGate = () => {};

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly fallbackMs: number,
    private readonly signal: AbortSignal | null | undefined,
    private readonly frames: FrameClock,
    private onAnswer: (() => void) | undefined,
  ) {}

  private read() {
    this.pendingRead ??= this.reader.read();
    return this.pendingRead;
  }

  private deliver(controller: ReadableStreamDefaultController<Uint8Array>, batch: Uint8Array[]): void {
    if (batch.length === 0) return;
    if (this.onAnswer && batch.some(isAnswerLine)) {
      this.onAnswer();
      this.onAnswer = undefined;
    }
    controller.enqueue(joinLines(batch));
    this.closeGate();
    const gate = new Promise<typeof OPEN>((resolve) => {
      // One timer per batch, not per read: a fast stream brings a line per token.
      const timer = setTimeout(() => open(), this.fallbackMs);
      const cancelFrame = this.frames.request(() => open());
      const open = (resolved = true) => {
        clearTimeout(timer);
        cancelFrame();
        if (this.gate === gate) this.gate = undefined;
        if (resolved) resolve(OPEN);
      };
      this.closeGate = () => open(false);
    });
    this.gate = gate;
  }

  async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    if (this.deferredError) {
      controller.error(this.deferredError.error);
      return;
    }
    const batch: Uint8Array[] = [];
    try {
      for (;;) {
        const { gate } = this;
        const result = await (batch.length > 0 && gate ? Promise.race([this.read(), gate]) : this.read());
        if (result === OPEN) break;
        this.pendingRead = undefined;
        if (result.done) {
          this.deliver(controller, batch);
          this.closeGate();
          controller.close();
          return;
        }
        batch.push(result.value);
        if (!this.gate) break;
      }
    } catch (error) {
      this.pendingRead = undefined;
      this.closeGate();
      // Stopped: the reader asked for nothing more, so nothing more is handed over.
      if (this.signal?.aborted || batch.length === 0) {
        controller.error(error);
        return;
      }
      this.deferredError = { error };
    }
    this.deliver(controller, batch);
    if (this.deferredError) this.closeGate();
  }
}

/**
 * Hands the lines of a tapped stream to the chat client in batches: a line that arrives when
 * nothing was handed over in the current frame goes at once; the lines after it wait for the next
 * animation frame and go together. Where no frame comes (a background tab, a page that does not
 * render) a batch waits at most `fallbackMs` after the one before it. The last lines go as soon as
 * the source ends, so the client has the whole answer before it reports the request finished (its
 * `status` never says `ready` while text is still held back), and nothing is left pending after the
 * request: `useChat`'s own `experimental_throttle` fires its last update on a timer after the
 * request ended, into whatever conversation the client shows by then. `onAnswer` is called once, as
 * the first batch holding a part of the answer is handed over (the client then shows it).
 *
 * An error of the source is passed on after the lines read before it (a malformed line keeps the
 * answer up to it); an abort is passed on at once, and nothing read after it reaches the client.
 */
export function batchLines(
  body: ReadableStream<Uint8Array>,
  fallbackMs: number,
  signal?: AbortSignal | null,
  frames: FrameClock = animationFrames,
  onAnswer?: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const batches = new FrameBatches(reader, fallbackMs, signal, frames, onAnswer);
  return new ReadableStream<Uint8Array>(
    {
      pull: (controller) => batches.pull(controller),
      cancel(reason) {
        batches.closeGate();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** One chunk of a batch's lines, runs of text merged (see `coalesceDeltas`). */
function joinLines(batch: Uint8Array[]): Uint8Array {
  coalesceDeltas(batch);
  if (batch.length === 1) return batch[0]!;
  const joined = new Uint8Array(batch.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of batch) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  return joined;
}

/** Part codes whose values are string deltas the client appends (text, reasoning). */
const DELTA_CODES = new Set([0x30 /* 0 */, 0x67 /* g */]);
const QUOTE = 0x22;

/**
 * Whether a line is `C:"…"\n` with C a delta code: a JSON string value with nothing around it. The
 * tap has already checked that the line's JSON is valid, so the bytes between the first and the
 * last quote are a complete string body, and bodies can be joined without decoding them.
 */
function isDeltaLine(line: Uint8Array): boolean {
  const n = line.length;
  return (
    n >= 5 &&
    DELTA_CODES.has(line[0]!) &&
    line[1] === COLON &&
    line[2] === QUOTE &&
    line[n - 2] === QUOTE &&
    line[n - 1] === NEWLINE
  );
}

/** `C:"` + every body of a run of delta lines + `"\n`. */
function mergeRun(run: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(run.reduce((total, line) => total + line.length - 5, 5));
  joined.set(run[0]!.subarray(0, 3));
  let offset = 3;
  for (const line of run) {
    const body = line.subarray(3, line.length - 2);
    joined.set(body, offset);
    offset += body.length;
  }
  joined[offset] = QUOTE;
  joined[offset + 1] = NEWLINE;
  return joined;
}

/**
 * Merges runs of consecutive text (or reasoning) lines of a batch into one line each, in place. The
 * client updates the message once per line, so a batch of K tokens would otherwise still cost K
 * message copies and K renders in one task; merged, it costs one. The end state is the same: the
 * client appends the deltas either way. Works on the bytes (no decoding or JSON), and expects one
 * line per chunk, as the tap delivers them; any other line is passed on as it is.
 */
export function coalesceDeltas(lines: Uint8Array[]): void {
  let kept = 0;
  for (let start = 0, end = 1; start < lines.length; start = end, end = start + 1) {
    const first = lines[start]!;
    if (isDeltaLine(first)) {
      while (end < lines.length && lines[end]![0] === first[0] && isDeltaLine(lines[end]!)) end += 1;
    }
    lines[kept++] = end - start > 1 ? mergeRun(lines.slice(start, end)) : first;
  }
  lines.length = kept;
}
