import { formatDataStreamPart } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { parseRetryAfter } from '../../packages/docs-assistant/src/chat/errors';
import {
  batchLines,
  coalesceDeltas,
  createRequestTrace,
  createTappedFetch,
  MalformedStreamError,
  NotDataStreamError,
  resolveThread,
  tapDataStream,
  UnfinishedStreamError,
} from '../../packages/docs-assistant/src/chat/stream-tap';
import { finishLine } from './helpers';

const encoder = new TextEncoder();

/** A source stream that delivers the given byte chunks. */
function source(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

/** Splits bytes into chunks of `size` (cutting lines and multi-byte characters). */
function split(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.slice(i, i + size));
  return chunks;
}

async function readAll(stream: ReadableStream<Uint8Array>) {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { chunks, error: undefined };
      chunks.push(value);
    }
  } catch (error) {
    return { chunks, error };
  }
}

const join = (chunks: Uint8Array[]) => new TextDecoder().decode(Buffer.concat(chunks));

describe('tapDataStream', () => {
  const wire = [
    formatDataStreamPart('text', 'Grüße — 日本語 '),
    formatDataStreamPart('message_annotations', [{ other: 1 }, { threadId: 'from-annotation' }]),
    formatDataStreamPart('text', 'done'),
    finishLine({ threadId: 'from-finish', threadKey: 'key' }),
  ].join('');

  it('passes the bytes through unchanged, one line per chunk, however the source cuts them', async () => {
    for (const size of [1, 3, 7, 64, 4096]) {
      const trace = createRequestTrace();
      const { chunks, error } = await readAll(
        tapDataStream(source(split(encoder.encode(wire), size)), trace),
      );
      expect(error).toBeUndefined();
      expect(join(chunks)).toBe(wire);
      expect(chunks).toHaveLength(4);
      expect(chunks.every((chunk) => chunk[chunk.length - 1] === 0x0a)).toBe(true);
      expect(trace.thread.finish).toEqual({ threadId: 'from-finish', threadKey: 'key' });
      expect(trace.thread.annotation).toEqual({ threadId: 'from-annotation' });
      expect(resolveThread(trace)).toEqual({ threadId: 'from-finish', threadKey: 'key' });
    }
  });

  it('delivers the lines before a malformed one, then errors and drops the rest', async () => {
    const trace = createRequestTrace();
    const text = `${formatDataStreamPart('text', 'kept')}{oops}\n${formatDataStreamPart('text', 'lost')}`;
    const { chunks, error } = await readAll(tapDataStream(source([encoder.encode(text)]), trace));
    expect(join(chunks)).toBe(formatDataStreamPart('text', 'kept'));
    expect(error).toBeInstanceOf(MalformedStreamError);
    expect(trace.malformedLine).toMatch(/no part code/);
  });

  it('reads a last line without its newline, and calls a cut-off last line malformed', async () => {
    const unterminated = `0:"end"\n${finishLine().trimEnd()}`;
    const whole = await readAll(tapDataStream(source([encoder.encode(unterminated)]), createRequestTrace()));
    expect(join(whole.chunks)).toBe(unterminated);
    expect(whole.error).toBeUndefined();

    const trace = createRequestTrace();
    const cut = await readAll(tapDataStream(source([encoder.encode('0:"a"\n0:"cut of')]), trace));
    expect(join(cut.chunks)).toBe('0:"a"\n');
    expect(cut.error).toBeInstanceOf(MalformedStreamError);
    expect(trace.malformedLine).toMatch(/valid JSON/);
  });

  it('records an error part and ends the stream after it', async () => {
    const trace = createRequestTrace();
    const text = `${formatDataStreamPart('error', 'provider failed')}${formatDataStreamPart('text', 'after')}`;
    const { chunks, error } = await readAll(tapDataStream(source([encoder.encode(text)]), trace));
    expect(error).toBeUndefined();
    expect(join(chunks)).toBe(formatDataStreamPart('error', 'provider failed'));
    expect(trace.errorPart).toBe('provider failed');
    await trace.afterError;
    expect(trace.thread).toEqual({});
  });

  it('reads on after an error part for the thread of the finish part, without handing it to the client', async () => {
    const trace = createRequestTrace();
    const finishStep = formatDataStreamPart('finish_step', {
      finishReason: 'error',
      usage: { promptTokens: 1, completionTokens: 1 },
      isContinued: false,
    });
    const answer = formatDataStreamPart('text', 'Half an answer');
    const failed = formatDataStreamPart('error', 'provider failed');
    const finish = finishLine({ threadId: 'thread-after-error', threadKey: 'key-after-error' });
    // The finish part arrives in later chunks, cut mid-line, as a network may deliver it.
    const { chunks, error } = await readAll(
      tapDataStream(
        source([encoder.encode(answer + failed + finishStep), ...split(encoder.encode(finish), 7)]),
        trace,
      ),
    );
    expect(error).toBeUndefined();
    expect(join(chunks)).toBe(answer + failed);
    await trace.afterError;
    expect(resolveThread(trace)).toEqual({ threadId: 'thread-after-error', threadKey: 'key-after-error' });
  });

  it('errors a stream that ends without its finish part, after the lines before the end', async () => {
    const trace = createRequestTrace();
    const text = formatDataStreamPart('text', 'Partial answer. ');
    const { chunks, error } = await readAll(tapDataStream(source([encoder.encode(text)]), trace));
    expect(join(chunks)).toBe(text);
    expect(error).toBeInstanceOf(UnfinishedStreamError);
    expect(trace.unfinished).toBe('cut-off');

    // A last line without its newline counts, and is delivered before the error.
    const unterminated = createRequestTrace();
    const cut = await readAll(tapDataStream(source([encoder.encode('0:"a"\n0:"b"')]), unterminated));
    expect(join(cut.chunks)).toBe('0:"a"\n0:"b"');
    expect(cut.error).toBeInstanceOf(UnfinishedStreamError);
    expect(unterminated.unfinished).toBe('cut-off');
  });

  it('errors an empty stream', async () => {
    for (const body of [[], [encoder.encode('\n\n')]]) {
      const trace = createRequestTrace();
      const { chunks, error } = await readAll(tapDataStream(source(body), trace));
      expect(error).toBeInstanceOf(UnfinishedStreamError);
      expect(trace.unfinished).toBe('empty');
      expect(join(chunks).trim()).toBe('');
    }
  });

  it('calls a first line that is no part at all not a data stream (an HTML page, JSON)', async () => {
    for (const body of ['<!doctype html>\n<html></html>', '{"ok":true}']) {
      const trace = createRequestTrace();
      const { chunks, error } = await readAll(tapDataStream(source([encoder.encode(body)]), trace));
      expect(chunks).toEqual([]);
      expect(error).toBeInstanceOf(NotDataStreamError);
      expect(trace.notDataStream?.start).toBe(body.split('\n')[0]);
      expect(trace.malformedLine).toBeUndefined();
    }
    // After a good line, a bad one is a broken stream, not another kind of body.
    const trace = createRequestTrace();
    const later = await readAll(tapDataStream(source([encoder.encode('0:"a"\n<html>\n')]), trace));
    expect(later.error).toBeInstanceOf(MalformedStreamError);
    expect(trace.notDataStream).toBeUndefined();
  });

  it('a stop after the last line and before the missing-finish error ends with an AbortError', async () => {
    const controller = new AbortController();
    const reader = tapDataStream(
      source([encoder.encode(formatDataStreamPart('text', 'a'))]),
      createRequestTrace(),
      controller.signal,
    ).getReader();
    expect((await reader.read()).value).toBeDefined();
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('ends with an AbortError when the signal aborts, even if the source ignores it', async () => {
    const controller = new AbortController();
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(encoder.encode(formatDataStreamPart('text', 'a')));
      },
      cancel() {
        cancelled = true;
      },
    });
    const reader = tapDataStream(endless, createRequestTrace(), controller.signal).getReader();
    expect((await reader.read()).value).toBeDefined();
    const pending = reader.read();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(cancelled).toBe(true);
  });
});

describe('createTappedFetch', () => {
  it('records the thread headers, non-2xx bodies and network errors', async () => {
    let trace = createRequestTrace();
    let accepted = 0;
    let next: () => Promise<Response> = async () =>
      new Response(`${formatDataStreamPart('text', 'x')}${finishLine()}`, {
        headers: { 'X-Thread-Id': 'h1', 'X-Thread-Key': 'k1' },
      });
    const tapped = createTappedFetch({
      getFetch: () => () => next(),
      getTrace: () => trace,
      onAccepted: () => {
        accepted += 1;
      },
    });

    const ok = await tapped('https://x.test', {});
    expect(await ok.text()).toBe(`${formatDataStreamPart('text', 'x')}${finishLine()}`);
    expect(resolveThread(trace)).toEqual({ threadId: 'h1', threadKey: 'k1' });
    expect(accepted).toBe(1);

    trace = createRequestTrace();
    next = async () => new Response('{"error":{"code":"forbidden","message":"no"}}', { status: 403 });
    const denied = await tapped('https://x.test', {});
    expect(denied.status).toBe(403);
    expect(await denied.text()).toContain('forbidden');
    expect(trace.httpError).toMatchObject({ status: 403, body: expect.stringContaining('no') });
    expect(accepted).toBe(1);

    trace = createRequestTrace();
    next = async () => {
      throw new TypeError('fetch failed');
    };
    await expect(tapped('https://x.test', {})).rejects.toThrow('fetch failed');
    expect(trace.networkError).toBeInstanceOf(TypeError);
  });
});

describe('batchLines', () => {
  // Longer than any test runs: only the end of the source (or an error) can release held lines.
  const LONG_MS = 60_000;
  const lines = ['a', 'b', 'c', 'd'].map((text) => formatDataStreamPart('text', text));

  it('hands the first lines over at once and the held ones as soon as the source ends', async () => {
    const { chunks, error } = await readAll(
      batchLines(
        tapDataStream(source([encoder.encode(lines.join('') + finishLine())]), createRequestTrace()),
        LONG_MS,
      ),
    );
    expect(error).toBeUndefined();
    // The held text lines arrive merged into one (see coalesceDeltas).
    expect(chunks.map((chunk) => new TextDecoder().decode(chunk))).toEqual([
      lines[0],
      formatDataStreamPart('text', 'bcd') + finishLine(),
    ]);
  });

  it('holds a batch with one timer however many lines it reads, and merges them', async () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
    });
    const reader = batchLines(tapDataStream(body, createRequestTrace()), 20).getReader();
    const decode = (chunk: Uint8Array | undefined) => new TextDecoder().decode(chunk);
    controller.enqueue(encoder.encode(lines[0]!));
    expect(decode((await reader.read()).value)).toBe(lines[0]);
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      const next = reader.read();
      // A fast stream: one line per task, as many as arrive before the batch's deadline.
      for (let i = 0; i < 200; i++) {
        controller.enqueue(encoder.encode(formatDataStreamPart('text', 'x')));
        await new Promise((resolve) => setImmediate(resolve));
      }
      const batch = decode((await next).value);
      expect(batch).toMatch(/^0:"x+"\n$/);
      // One deadline for the whole batch (a timer per line cost a fast stream more than its parsing).
      expect(timers).toHaveBeenCalledTimes(1);
      controller.enqueue(encoder.encode(finishLine()));
      controller.close();
      let rest = '';
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
        rest += decode(chunk.value);
      expect((batch + rest).match(/x/g)).toHaveLength(200);
    } finally {
      timers.mockRestore();
    }
  });

  it('passes an error on after the lines read before it', async () => {
    const broken = `${lines[0]}${lines[1]}0:"unterminated\n${lines[2]}`;
    const { chunks, error } = await readAll(
      batchLines(tapDataStream(source([encoder.encode(broken)]), createRequestTrace()), LONG_MS),
    );
    expect(join(chunks)).toBe(`${lines[0]}${lines[1]}`);
    expect(error).toBeInstanceOf(MalformedStreamError);
  });

  it('hands nothing more over once aborted', async () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
      },
    });
    const abort = new AbortController();
    const reader = batchLines(
      tapDataStream(body, createRequestTrace(), abort.signal),
      LONG_MS,
      abort.signal,
    ).getReader();
    controller.enqueue(encoder.encode(lines[0]!));
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(lines[0]);
    const next = reader.read();
    controller.enqueue(encoder.encode(lines[1]!));
    controller.enqueue(encoder.encode(lines[2]!));
    // Let the held lines reach the batch before stopping.
    await new Promise((resolve) => setImmediate(resolve));
    abort.abort();
    await expect(next).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('coalesceDeltas', () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  const decode = (lines: Uint8Array[]) => lines.map((line) => new TextDecoder().decode(line)).join('');

  it('merges runs of text and of reasoning lines, keeping every other part and the order', () => {
    const lines = [
      formatDataStreamPart('reasoning', 'Think'),
      formatDataStreamPart('reasoning', 'ing.'),
      formatDataStreamPart('text', 'Hel'),
      formatDataStreamPart('text', 'lo "'),
      formatDataStreamPart('text', 'wörld"\n'),
      formatDataStreamPart('source', { sourceType: 'url', id: 's1', url: '/a', title: 'A' }),
      formatDataStreamPart('text', '!'),
    ].map(encode);
    coalesceDeltas(lines);
    expect(decode(lines)).toBe(
      [
        formatDataStreamPart('reasoning', 'Thinking.'),
        formatDataStreamPart('text', 'Hello "wörld"\n'),
        formatDataStreamPart('source', { sourceType: 'url', id: 's1', url: '/a', title: 'A' }),
        formatDataStreamPart('text', '!'),
      ].join(''),
    );
    expect(lines).toHaveLength(4);
  });

  it('joins string bodies that end in an escape or hold escapes, and passes odd lines through', () => {
    const lines = [
      formatDataStreamPart('text', 'C:\\'),
      formatDataStreamPart('text', '"\u2028\t'),
      '0: "spaced"\n',
      formatDataStreamPart('text', 'end'),
    ].map(encode);
    coalesceDeltas(lines);
    expect(decode(lines)).toBe(
      [
        formatDataStreamPart('text', 'C:\\"\u2028\t'),
        '0: "spaced"\n',
        formatDataStreamPart('text', 'end'),
      ].join(''),
    );
  });

  it('leaves a batch without runs as it was', () => {
    const original = [
      formatDataStreamPart('text', 'a'),
      formatDataStreamPart('finish_step', { finishReason: 'stop', isContinued: false }),
    ].map(encode);
    const lines = [...original];
    coalesceDeltas(lines);
    expect(lines[0]).toBe(original[0]);
    expect(lines[1]).toBe(original[1]);
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
