/**
 * How much of an answer the Markdown renderer takes. Parsing is the one step whose cost grows
 * faster than the text: micromark re-checks every open container on every line, so a list nested
 * 1,000 deep (~1 MB) held the main thread for 23-45 s, and some flat inputs (a run of `[a](`,
 * a long table) cost seconds per 100 kB. Past either limit the answer goes on as plain text.
 *
 * - Depth: 32 levels of lists and block quotes. Docs answers nest 3-4 deep; 32 leaves room for any
 *   real outline while keeping the per-line container work small. Lines inside a fenced code block
 *   only count their container markers up to 128 levels (256 columns): deeply indented code is
 *   text to the parser, and the looser bound still holds if the fence is misread.
 * - Size: 100,000 characters per Markdown text (one text or reasoning part). A long answer is
 *   4,000-16,000 tokens (16-64 kB); 100 kB is some 25,000 tokens, past any model's answer length,
 *   and halves the worst case of 200 kB.
 *
 * Depth is measured per line, before parsing, from what opens a container at the start of a line:
 * `>` and list markers count one level each, and every two further columns of indentation one more
 * (a nested list item needs at least two). That over-counts rather than under-counts, so no line
 * the parser would nest deeper than the limit gets through.
 */

/** Deepest nesting of lists and block quotes rendered as Markdown. */
export const MARKDOWN_MAX_DEPTH = 32;
/** Deepest nesting counted on a line inside a fenced code block. */
const FENCED_MAX_DEPTH = 128;
/** Most characters of one Markdown text rendered as Markdown. */
export const MARKDOWN_MAX_CHARS = 100_000;

export type MarkdownLimitReason = 'size' | 'depth';

export interface LimitedMarkdown {
  /** The text rendered as Markdown. */
  markdown: string;
  /** The text after the cut, rendered as plain text ('' when nothing was cut). */
  rest: string;
  /** Why the text was cut; `null` when it was not. */
  reason: MarkdownLimitReason | null;
}

/** Where a scan stopped, so a streaming text is only scanned from its last complete line. */
export interface MarkdownLimitState extends LimitedMarkdown {
  /** The text scanned so far (ends at a line start). */
  scanned: string;
  /** The fence open at the end of `scanned` ('' for none), e.g. "```". */
  fence: string;
  /** Where the text is cut (its length when it is not). */
  cut: number;
}

interface LineStart {
  depth: number;
  /** Where the line's content starts, after its container markers and indentation. */
  content: number;
  /** Columns of indentation right before the content. */
  indent: number;
}

const isSpace = (code: number) => code === 32 || code === 9;
const isDigit = (code: number) => code >= 48 && code <= 57;

/** The nesting depth a line's start can open, over-counted (see the module comment). */
function lineStart(text: string, start: number, end: number): LineStart {
  let markers = 0;
  let columns = 0;
  let indent = 0;
  let i = start;
  while (i < end) {
    indent = 0;
    while (i < end && isSpace(text.charCodeAt(i))) {
      // A tab is at most four columns: counted as four.
      const width = text.charCodeAt(i) === 9 ? 4 : 1;
      columns += width;
      indent += width;
      i++;
    }
    if (i >= end) break;
    const code = text.charCodeAt(i);
    let after = -1;
    if (code === 62 /* > */) {
      after = i + 1;
    } else if (code === 45 || code === 43 || code === 42 /* - + * */) {
      if (i + 1 >= end || isSpace(text.charCodeAt(i + 1))) after = i + 1;
    } else if (isDigit(code)) {
      let j = i;
      while (j < end && j - i < 9 && isDigit(text.charCodeAt(j))) j++;
      const delimiter = text.charCodeAt(j);
      if (
        (delimiter === 46 || delimiter === 41) /* . ) */ &&
        (j + 1 >= end || isSpace(text.charCodeAt(j + 1)))
      ) {
        after = j + 1;
      }
    }
    if (after < 0) break;
    markers++;
    i = after;
    // The one space that separates a marker from its content is part of the marker.
    if (i < end && isSpace(text.charCodeAt(i))) i++;
  }
  return { depth: markers + Math.floor(columns / 2), content: i, indent };
}

/** The fence a line opens or closes (```` ``` ````, `~~~`, longer runs), or '' for none. */
function fenceRun(text: string, at: LineStart, end: number): string {
  if (at.indent > 3) return '';
  const char = text[at.content];
  if (char !== '`' && char !== '~') return '';
  let i = at.content;
  while (i < end && text[i] === char) i++;
  return i - at.content >= 3 ? text.slice(at.content, i) : '';
}

/**
 * Cuts `text` where it stops being safe to parse: at the first line nested deeper than
 * `MARKDOWN_MAX_DEPTH`, or at the last line break within `MARKDOWN_MAX_CHARS`. Give it the state it
 * returned for the previous text: when the new text continues it (a streaming answer), only lines
 * not scanned yet are scanned, and a cut once made stays where it is.
 */
export function limitMarkdown(text: string, previous?: MarkdownLimitState): MarkdownLimitState {
  const value = typeof text === 'string' ? text : '';
  const continues = previous !== undefined && value.startsWith(previous.scanned);
  if (continues && previous.reason !== null) {
    const rest = value.slice(previous.cut);
    return rest === previous.rest ? previous : { ...previous, rest };
  }
  let position = continues ? previous.scanned.length : 0;
  let fence = continues ? previous.fence : '';
  const limit = Math.min(value.length, MARKDOWN_MAX_CHARS);
  let cut = -1;
  let reason: MarkdownLimitReason | null = null;
  while (position < limit) {
    const newline = value.indexOf('\n', position);
    const complete = newline >= 0 && newline < value.length;
    const end = complete ? newline : value.length;
    if (end >= limit && value.length > MARKDOWN_MAX_CHARS) {
      // This line crosses the size limit: the cut is at its start (or mid-line for a text
      // without line breaks, so there is always some Markdown).
      cut = position > 0 ? position : MARKDOWN_MAX_CHARS;
      reason = 'size';
      break;
    }
    const start = lineStart(value, position, end);
    if (start.depth > (fence ? FENCED_MAX_DEPTH : MARKDOWN_MAX_DEPTH)) {
      cut = position;
      reason = 'depth';
      break;
    }
    // The last line of a streaming text may still change: scanned again next time.
    if (!complete) break;
    const run = fenceRun(value, start, end);
    if (!fence && run) fence = run;
    else if (
      fence &&
      run &&
      run[0] === fence[0] &&
      run.length >= fence.length &&
      !value.slice(start.content + run.length, end).trim()
    )
      fence = '';
    position = newline + 1;
  }
  if (reason === null && value.length > MARKDOWN_MAX_CHARS) {
    cut = position;
    reason = 'size';
  }
  if (reason === null) {
    return {
      markdown: value,
      rest: '',
      reason: null,
      scanned: value.slice(0, position),
      fence,
      cut: value.length,
    };
  }
  return {
    markdown: value.slice(0, cut),
    rest: value.slice(cut),
    reason,
    scanned: value.slice(0, cut),
    fence,
    cut,
  };
}
