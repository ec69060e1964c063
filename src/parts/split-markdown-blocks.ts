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
const ATX_HEADING = /^#{1,6}(?:[ \t]|$)/;
const INDENTED = /^[ \t]/;

interface Fence {
  char: string;
  length: number;
}

function openFence(line: string): Fence | null {
  const match = FENCE_OPEN.exec(line);
  if (!match) return null;
  const marker = match[1]!;
  const info = match[2] ?? '';
  // A backtick fence's info string may not contain backticks (CommonMark 4.5); `` ```x``` `` is
  // inline code, not a fence.
  if (marker[0] === '`' && info.includes('`')) return null;
  return { char: marker[0]!, length: marker.length };
}

function closesFence(line: string, fence: Fence): boolean {
  const trimmed = line.trim();
  if (trimmed.length < fence.length) return false;
  for (const char of trimmed) if (char !== fence.char) return false;
  return true;
}

/** Top-level blocks of `markdown`, in order, without the blank lines between them. */
export function splitMarkdownBlocks(markdown: string): string[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: string[] = [];
  let current: string[] = [];
  let blankLines = 0;
  let fence: Fence | null = null;
  let hasList = false;
  let lastWasHeading = false;

  const flush = () => {
    if (current.length > 0) blocks.push(current.join('\n'));
    current = [];
    hasList = false;
    lastWasHeading = false;
  };

  for (const line of lines) {
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

    current.push(line);
    fence = openFence(line);
    hasList ||= isListItem;
    lastWasHeading = isHeading;
  }
  flush();
  return blocks;
}
