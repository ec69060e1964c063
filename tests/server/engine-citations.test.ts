/**
 * The `openai` engine's citation check (`engines/citations.ts`): a model's `[n]` that names no
 * source sent is dropped as the text streams, however the text is cut into chunks.
 */
import { citationFilter } from '../../packages/docs-assistant-server/src/engines/citations';

/** Runs text through a filter in the given chunks. */
function filtered(count: number, chunks: string[]): string {
  const filter = citationFilter(count);
  return chunks.map((chunk) => filter.push(chunk)).join('') + filter.flush();
}

/** Every way of cutting a text in two. */
const cuts = (text: string): string[][] =>
  Array.from({ length: text.length + 1 }, (_, i) => [text.slice(0, i), text.slice(i)]);

describe('citation check of a streamed answer', () => {
  it('keeps citations of sources sent and drops the others, with the space before them', () => {
    expect(filtered(3, ['Set it [1]. Or [4]. Both [2, 5] and [0] and [3,3].'])).toBe(
      'Set it [1]. Or. Both [2] and and [3].',
    );
  });

  it('gives the same text however the stream is cut', () => {
    const text = 'Use `items[1]` [2] then arr[9] [9], see [link](/a) [1].\n```\nx = [7]\n```\nDone [3].';
    const whole = filtered(2, [text]);
    expect(whole).toBe('Use `items[1]` [2] then arr[9], see [link](/a) [1].\n```\nx = [7]\n```\nDone.');
    for (const chunks of cuts(text)) expect(filtered(2, chunks)).toBe(whole);
    expect(filtered(2, Array.from(text))).toBe(whole);
  });

  it('lets through brackets that are not citations, and an unclosed one at the end', () => {
    expect(filtered(1, ['A [note] and [12345678901234567890 and [1'])).toBe(
      'A [note] and [12345678901234567890 and [1',
    );
    expect(filtered(0, ['No sources [1].'])).toBe('No sources.');
  });
});
