/**
 * The frame batches of `line-batch.ts`: one batch per animation frame at most, the first line of a
 * frame at once, nothing left pending at the end. Frames come from a clock the test advances, so
 * nothing here depends on time.
 */
import { formatDataStreamPart } from 'ai';
import { describe, expect, it } from 'vitest';
import { batchLines, type FrameClock } from '../../packages/docs-assistant/src/chat/line-batch';
import { tapDataStream } from '../../packages/docs-assistant/src/chat/line-tap';
import { createRequestTrace } from '../../packages/docs-assistant/src/chat/trace';
import { finishLine } from './helpers';

// Longer than any test runs: only a frame or the end of the source can release held lines.
const LONG_MS = 60_000;

/** A frame clock the test advances with `frame()`. */
function manualFrames() {
  let callbacks: Array<() => void> = [];
  const clock: FrameClock = {
    request(callback) {
      callbacks.push(callback);
      return () => {
        callbacks = callbacks.filter((item) => item !== callback);
      };
    },
  };
  return {
    clock,
    frame() {
      const due = callbacks;
      callbacks = [];
      for (const callback of due) callback();
    },
    requested: () => callbacks.length,
  };
}

function batched(frames: FrameClock) {
  const encoder = new TextEncoder();
  let source!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      source = controller;
    },
  });
  const reader = batchLines(
    tapDataStream(body, createRequestTrace()),
    LONG_MS,
    undefined,
    frames,
  ).getReader();
  const decoder = new TextDecoder();
  return {
    write: (line: string) => source.enqueue(encoder.encode(line)),
    close: () => source.close(),
    read: async () => {
      const { done, value } = await reader.read();
      return done ? null : decoder.decode(value);
    },
  };
}

/** Lets the streams move every line written so far as far as they go. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

const text = (value: string) => formatDataStreamPart('text', value);

describe('batchLines: one batch per animation frame', () => {
  it('hands the first line of a frame over at once and holds the rest for the next frame, merged', async () => {
    const frames = manualFrames();
    const stream = batched(frames.clock);
    stream.write(text('a'));
    expect(await stream.read()).toBe(text('a'));
    expect(frames.requested()).toBe(1);

    let next: string | null | undefined;
    const reading = stream.read().then((value) => {
      next = value;
    });
    for (const token of ['b', 'c', 'd']) stream.write(text(token));
    await settle();
    // Same frame: held.
    expect(next).toBeUndefined();

    frames.frame();
    await reading;
    expect(next).toBe(text('bcd'));
  });

  it('a line after a frame with nothing to hand over goes at once; the end leaves no frame requested', async () => {
    const frames = manualFrames();
    const stream = batched(frames.clock);
    stream.write(text('a'));
    expect(await stream.read()).toBe(text('a'));
    // A quiet frame: the next line is the first of its frame.
    frames.frame();
    stream.write(text('b'));
    expect(await stream.read()).toBe(text('b'));

    stream.write(text('c'));
    stream.write(finishLine());
    stream.close();
    // The source ended: the held lines go without waiting for a frame.
    expect(await stream.read()).toBe(text('c') + finishLine());
    expect(await stream.read()).toBeNull();
    expect(frames.requested()).toBe(0);
  });

  it('delivers at most one batch per frame however fast the lines come, each only of its own lines', async () => {
    const frames = manualFrames();
    const stream = batched(frames.clock);
    const chunks: string[] = [];
    const perFrame: number[] = [];
    const reading = (async () => {
      for (let chunk = await stream.read(); chunk !== null; chunk = await stream.read()) chunks.push(chunk);
    })();
    for (let frame = 0; frame < 20; frame++) {
      const before = chunks.length;
      for (let token = 0; token < 10; token++) stream.write(text('x'));
      await settle();
      perFrame.push(chunks.length - before);
      frames.frame();
    }
    stream.write(finishLine());
    stream.close();
    await reading;
    expect(Math.max(...perFrame)).toBeLessThanOrEqual(1);
    expect(chunks.join('').match(/x/g)).toHaveLength(200);
    // Nothing grows with the answer: a batch holds what arrived in its frame, never the text before.
    for (const chunk of chunks) expect(chunk.match(/x/g)?.length ?? 0).toBeLessThanOrEqual(10);
  });
});
