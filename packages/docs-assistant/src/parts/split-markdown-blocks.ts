/**
 * Splits Markdown into top-level blocks so a streaming answer re-parses only its last block.
 *
 * The rule is "blank lines separate blocks", made safe for Markdown:
 * - never inside a fenced code block (``` or ~~~), and an unterminated fence (still streaming)
 *   keeps everything after it in one block;
 * - a list stays one block across blank lines (loose lists, indented continuation paragraphs),
 *   so ordered lists keep their numbering;
 * - indented lines after a blank line stay with the block above (list continuations, indented
 *   code);
 * - an ATX heading (`# Title`) is a block of its own even without blank lines around it.
 *
 * Joining too much is always harmless (a block is rendered as Markdown of its own, blank lines
 * included); splitting wrongly is not, so every doubtful case joins. Pure function, no React.
 */

// A fence may be indented (inside a list item, say); indentation only ever joins more.
const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})(.*)$/;
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
// Only unindented: an indented `#` may belong to a list item above.
export const ATX_HEADING = /^#{1,6}(?:[ \t]|$)/;
const INDENTED = /^[ \t]/;

export interface Fence {
  char: string;
  length: number;
  /** The info string's first word (the language), `''` when there is none. */
  language: string;
}

/** The fence a line opens (```` ``` ```` or `~~~`, possibly indented), or null. */
export function openFence(line: string): Fence | null {
  const match = FENCE_OPEN.exec(line);
  if (!match) return null;
  const marker = match[1]!;
  const info = match[2] ?? '';
  // A backtick fence's info string may not contain backticks (CommonMark 4.5); `` ```x``` `` is
  // inline code, not a fence.
  if (marker[0] === '`' && info.includes('`')) return null;
  return { char: marker[0]!, length: marker.length, language: info.trim().split(/\s/, 1)[0]! };
}

/** Whether `line` closes `fence`. */
export function closesFence(line: string, fence: Fence): boolean {
  const trimmed = line.trim();
  if (trimmed.length < fence.length) return false;
  for (const char of trimmed) if (char !== fence.char) return false;
  return true;
}

/** Blocks with where each starts, for re-splitting only the tail when text is appended. */
export interface MarkdownBlocks {
  /** The text split (line endings normalised to `\n`). */
  text: string;
  blocks: string[];
  /** Offset in `text` of each block's first character. */
  starts: number[];
  /** The text as given, before its line endings were normalised. */
  source: string;
}

function scan(text: string, offset: number, blocks: string[], starts: number[]): void {
  let current: string[] = [];
  let currentStart = 0;
  let blankLines = 0;
  let fence: Fence | null = null;
  let hasList = false;
  let lastWasHeading = false;

  const flush = () => {
    if (current.length > 0) {
      blocks.push(current.join('\n'));
      starts.push(offset + currentStart);
    }
    current = [];
    hasList = false;
    lastWasHeading = false;
  };

  let lineStart = 0;
  while (lineStart <= text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd);
    const at = lineStart;
    lineStart = lineEnd + 1;

    if (fence) {
      current.push(line);
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    if (line.trim() === '') {
      if (current.length > 0) blankLines++;
      continue;
    }

    const isListItem = LIST_ITEM.test(line);
    const isHeading = ATX_HEADING.test(line);
    if (current.length > 0) {
      const startsNew =
        blankLines > 0 ? !INDENTED.test(line) && !(isListItem && hasList) : isHeading || lastWasHeading;
      if (startsNew) {
        flush();
      } else {
        for (; blankLines > 0; blankLines--) current.push('');
      }
    }
    blankLines = 0;

    if (current.length === 0) currentStart = at;
    current.push(line);
    fence = openFence(line);
    hasList ||= isListItem;
    lastWasHeading = isHeading;
  }
  flush();
}

const normalise = (markdown: string) => markdown.replace(/\r\n?/g, '\n');

/** Top-level blocks of `markdown`, in order, without the blank lines between them. */
export function splitMarkdownBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  scan(normalise(markdown), 0, blocks, []);
  return blocks;
}

/**
 * `splitMarkdownBlocks` for a growing text: when `markdown` extends the text of `previous`, only
 * what was appended is normalised and only its last two blocks are split again (the boundary
 * before the last block may still move while that block's first line is being written), so the
 * work per update follows the last blocks, not the whole answer. The finished blocks keep their
 * string instances. The result always equals a full split.
 */
export function updateMarkdownBlocks(previous: MarkdownBlocks | undefined, markdown: string): MarkdownBlocks {
  if (previous?.source === markdown) return previous;
  // A `\r` at the end may be the first half of a `\r\n` that the appended text completes.
  const base =
    previous && !previous.source.endsWith('\r') && markdown.startsWith(previous.source)
      ? previous
      : undefined;
  const text = base ? base.text + normalise(markdown.slice(base.source.length)) : normalise(markdown);
  const kept = base ? Math.max(base.blocks.length - 2, 0) : 0;
  const blocks = base ? base.blocks.slice(0, kept) : [];
  const starts = base ? base.starts.slice(0, kept) : [];
  const from = base && kept > 0 ? base.starts[kept]! : 0;
  scan(from > 0 ? text.slice(from) : text, from, blocks, starts);
  return { text, blocks, starts, source: markdown };
}
