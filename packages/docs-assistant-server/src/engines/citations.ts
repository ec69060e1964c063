/**
 * Checks a model's `[n]` citations against the sources it was sent, as its text streams: a number
 * that names no source (`[7]` of five, `[0]`) is dropped from the text, with the space before it,
 * and `[2, 9]` keeps `[2]`. A citation split over chunks (`[` then `1]`) is held until it closes.
 * Brackets in code (`` `items[1]` ``, fenced blocks) and after a word (`arr[1]`) are not citations.
 */

// Longest text held back as a possible citation before it is let through as it is.
const MAX_HELD = 16;
const CITATION = /^\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]$/;

export interface CitationFilter {
  /** Takes a chunk of the model's text; returns what can be sent now. */
  push(chunk: string): string;
  /** The rest, at the end of the text. */
  flush(): string;
}

/** A filter for text citing sources numbered 1 to `count`. */
export function citationFilter(count: number): CitationFilter {
  let held = '';
  let space = '';
  let previous = '';
  let inCode = false;

  /** A closed `[…]`: the numbers that name a source, or nothing. */
  const resolve = (bracket: string): string => {
    const match = CITATION.exec(bracket);
    if (!match) return space + bracket;
    const numbers = [...new Set(match[1]!.split(',').map((n) => Number(n.trim())))];
    const known = numbers.filter((n) => n >= 1 && n <= count);
    return known.length ? `${space}[${known.join(', ')}]` : '';
  };

  const take = (char: string): string => {
    let out = '';
    if (held) {
      held += char;
      if (char === ']') {
        out = resolve(held);
        held = '';
        space = '';
      } else if (!/[\d,\s]/.test(char) || held.length > MAX_HELD) {
        out = space + held;
        held = '';
        space = '';
      }
    } else if (char === '`') {
      if (previous !== '`') inCode = !inCode;
      out = space + char;
      space = '';
    } else if (char === '[' && !inCode && !/\w/.test(previous)) {
      held = char;
    } else if (/[ \t]/.test(char) && !inCode) {
      // Spaces wait for what follows: a dropped citation takes the space before it along.
      space += char;
    } else {
      out = space + char;
      space = '';
    }
    previous = char;
    return out;
  };

  return {
    push: (chunk) => Array.from(chunk, take).join(''),
    flush: () => {
      const rest = space + held;
      held = '';
      space = '';
      return rest;
    },
  };
}
