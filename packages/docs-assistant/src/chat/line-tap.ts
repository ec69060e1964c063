/**
 * The tap on the raw data stream (`tapDataStream`): passes every well-formed line to the chat
 * client unchanged, one line per chunk, and records in the request's trace what the client cannot
 * tell us (the spec's `threadId` in the finish part, which the v4 client drops; error parts;
 * malformed lines; a stream that ends without its finish part).
 *
 * A line that is not a data stream part (unknown code, bad JSON, cut off at the end) is dropped and
 * the stream ends with a `MalformedStreamError` after the lines before it were delivered: the client
 * keeps the partial answer and reports the error. So does a stream that ends without its finish part
 * (`d:`, the protocol's last part): the answer was cut off at a line boundary, or the body was
 * empty, which the client alone would take as a success.
 */
import { parseStreamLine } from '../protocol/index.js';
import {
  bodyStart,
  MalformedStreamError,
  NotDataStreamError,
  type RequestTrace,
  recordThread,
  UnfinishedStreamError,
} from './trace.js';

// What a data stream line starts with: a one-character part code and a colon. A first line that
// does not is another kind of body (`<!doctype html>`, `{"ok":true}`), not a broken stream.
const PART_LINE_START = /^[0-9a-z]:/;

export const NEWLINE = 0x0a;

/**
 * How much of a stream is read after an error part, looking for the thread (in characters); the
 * finish part follows within a few lines, so anything longer is not a stream worth reading on.
 */
const MAX_CHARS_AFTER_ERROR = 64 * 1024;

const EMPTY = new Uint8Array(0);

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

type Seen = 'ok' | 'last' | 'malformed';

/** One tapped stream: the state its `pull` keeps between reads. */
class LineTap {
  private readonly decoder = new TextDecoder();
  private pending: Uint8Array = EMPTY;
  private failure: Error | undefined;
  private finished = false;
  private parts = 0;
  private finishSeen = false;
  output!: ReadableStreamDefaultController<Uint8Array>;

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly trace: RequestTrace,
    private readonly signal: AbortSignal | null | undefined,
  ) {}

  /** Records what a line says: `malformed`, `last` (an error part: the client stops there) or `ok`. */
  private inspect(bytes: Uint8Array): Seen {
    const { trace } = this;
    const line = this.decoder.decode(bytes).replace(/\r$/, '');
    if (line === '') return 'ok';
    const parsed = parseStreamLine(line);
    if (!parsed.ok) {
      if (this.parts === 0 && !PART_LINE_START.test(line)) {
        trace.notDataStream = { start: bodyStart(line) };
        this.failure = new NotDataStreamError(`The response is not a data stream: ${bodyStart(line)}`);
      } else {
        trace.malformedLine = parsed.reason;
        this.failure = new MalformedStreamError(`Malformed data stream line: ${parsed.reason}`);
      }
      return 'malformed';
    }
    this.parts += 1;
    if (parsed.name === 'finishMessage') this.finishSeen = true;
    recordThread(trace, parsed);
    if (parsed.name !== 'error') return 'ok';
    trace.errorPart = typeof parsed.value === 'string' ? parsed.value : JSON.stringify(parsed.value);
    return 'last';
  }

  /** Ends this stream's own work: no more reads, no abort listener. */
  private finish(): void {
    this.finished = true;
    this.signal?.removeEventListener('abort', this.onAbort);
  }

  stopSource(reason?: unknown): void {
    this.finish();
    this.reader.cancel(reason).catch(() => {});
  }

  readonly onAbort = (): void => {
    if (this.finished) return;
    const { signal } = this;
    this.stopSource(signal?.reason);
    this.output.error(signal?.reason ?? new DOMException('The request was aborted.', 'AbortError'));
  };

  /** Errors the stream with the failure now, or (lines were just queued) at the next read. */
  private fail(delivered: number): void {
    if (delivered > 0) return;
    this.finish();
    this.output.error(this.failure);
  }

  async pull(): Promise<void> {
    // A malformed line (or the end without a finish part) was found while earlier lines were still
    // queued: they have been read now.
    if (this.failure) return this.fail(0);
    let delivered = 0;
    while (delivered === 0) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await this.reader.read();
      } catch (error) {
        if (this.finished) return;
        this.finish();
        this.output.error(error);
        return;
      }
      if (this.finished) return;
      if (chunk.done) return this.end();
      delivered = this.lines(concat(this.pending, chunk.value));
      if (delivered < 0) return;
    }
  }

  /**
   * Hands over each whole line of `bytes` and keeps the rest for the next read. Gives how many lines
   * went, or -1 when the stream ended here (a malformed line, or an error part).
   */
  private lines(bytes: Uint8Array): number {
    let delivered = 0;
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      const seen = this.inspect(bytes.subarray(start, end));
      if (seen === 'malformed') {
        this.stopSource();
        this.fail(delivered);
        return -1;
      }
      this.output.enqueue(bytes.slice(start, end + 1));
      delivered += 1;
      start = end + 1;
      if (seen === 'last') {
        // The client throws at an error part and reads nothing after it; the rest of the stream is
        // read here for the thread, while the client reports the error.
        this.finish();
        this.trace.afterError = readRestForThread(this.reader, this.trace, this.signal, bytes.slice(start));
        this.output.close();
        return -1;
      }
    }
    this.pending = bytes.slice(start);
    return delivered;
  }

  /** The source ended: the last line, then the end (or the error of a stream without its finish part). */
  private end(): void {
    const { pending } = this;
    // A last line without its newline is still a line (the client reads it too).
    const seen = pending.length > 0 ? this.inspect(pending) : 'ok';
    if (seen === 'malformed') {
      this.stopSource();
      this.fail(0);
      return;
    }
    if (pending.length > 0) {
      this.output.enqueue(pending);
      this.pending = EMPTY;
    }
    // An error part ends a stream early on purpose; anything else must end with `d:`. The error
    // waits for the next read when a line was queued, so the client gets it first.
    if (seen !== 'last' && !this.finishSeen) {
      this.trace.unfinished = this.parts === 0 ? 'empty' : 'cut-off';
      this.failure = new UnfinishedStreamError(
        this.parts === 0
          ? 'The response held no data stream part.'
          : 'The data stream ended without its finish part (d:).',
      );
      this.fail(pending.length);
      return;
    }
    this.finish();
    this.output.close();
  }
}

/**
 * Reads what follows an error part (`rest` is what was already read of it) for the thread only: the
 * client stops at the error, but the AI SDK's server helpers still write the finish part with the
 * `threadId`. Lines that cannot be read are skipped; a stop, a broken connection or more than
 * `MAX_CHARS_AFTER_ERROR` ends the reading, and the lines read until then count.
 */
async function readRestForThread(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  trace: RequestTrace,
  signal: AbortSignal | null | undefined,
  rest: Uint8Array,
): Promise<void> {
  const decoder = new TextDecoder();
  const stop = () => void reader.cancel(signal?.reason).catch(() => {});
  trace.stopAfterError = stop;
  if (signal?.aborted) stop();
  else signal?.addEventListener('abort', stop);
  let text = decoder.decode(rest, { stream: true });
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += decoder.decode(chunk.value, { stream: true });
      if (text.length > MAX_CHARS_AFTER_ERROR) {
        stop();
        break;
      }
    }
  } catch {
    // Stopped or broken: the thread is whatever was read before.
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  for (const line of text.split('\n')) {
    const parsed = parseStreamLine(line.replace(/\r$/, ''));
    if (parsed.ok) recordThread(trace, parsed);
  }
}

/**
 * Passes a data stream through, recording the thread, error parts and malformed lines in `trace`.
 * Aborting `signal` ends the stream with the abort reason even when the source ignores the signal,
 * so `stop()` works with any `fetch`.
 */
export function tapDataStream(
  body: ReadableStream<Uint8Array>,
  trace: RequestTrace,
  signal?: AbortSignal | null,
): ReadableStream<Uint8Array> {
  const tap = new LineTap(body.getReader(), trace, signal);
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        tap.output = controller;
        if (signal?.aborted) tap.onAbort();
        else signal?.addEventListener('abort', tap.onAbort);
      },
      pull: () => tap.pull(),
      cancel: (reason) => tap.stopSource(reason),
    },
    // Pull only when the client reads, so queued lines are delivered before a deferred error.
    { highWaterMark: 0 },
  );
}
