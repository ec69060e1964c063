/**
 * Plain text for a screen reader announcement from an answer's Markdown: the syntax is dropped,
 * code blocks become a short mention, the `suggestions` fence (rendered as links) goes, links read
 * as their text, and the result is cut to a length worth hearing.
 */

import { SUGGESTIONS_LANGUAGE } from '../parts/markdown.js';
import { closesFence, type Fence, openFence } from '../parts/split-markdown-blocks.js';

/** Longest announcement (in characters) before it is cut at a word with "…". */
export const ANNOUNCEMENT_MAX_LENGTH = 300;

/**
 * `codeBlock` replaces each fenced code block ("" drops them). Markdown this does not know is left
 * as it is: the announcement is a summary, the answer itself stays in the log. With `enough`, lines
 * stop being read once the text holds more than that many characters: its first `enough` are then
 * those of the whole answer's text (all `truncateAtWord` keeps), without reading a long answer to
 * its end.
 */
export function markdownToPlainText(markdown: string, codeBlock: string, enough = Infinity): string {
  const lines: string[] = [];
  let fence: Fence | null = null;
  // The length of the text of the lines read so far (at most: code block mentions are left out).
  let length = 0;
  for (const line of linesOf(markdown)) {
    if (length > enough) break;
    if (fence) {
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    fence = openFence(line);
    if (fence) {
      // Suggestions show as links under the answer; the reader finds them there.
      if (fence.language !== SUGGESTIONS_LANGUAGE && codeBlock) lines.push(codeBlock);
      continue;
    }
    const plain = plainLine(line);
    lines.push(plain);
    const words = plain.replace(/\s+/g, ' ').trim();
    if (words) length += (length ? 1 : 0) + words.length;
  }
  return lines
    .filter((line) => line.trim() !== '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The lines of `text` (split at `\n` or `\r\n`), one at a time: a long text is not split whole. */
function* linesOf(text: string): Generator<string> {
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    yield text.slice(start, end > start && text[end - 1] === '\r' ? end - 1 : end);
    start = end + 1;
  }
  yield text.slice(start);
}

function plainLine(line: string): string {
  // A table's delimiter row or a thematic break says nothing.
  if (/^[\s|:]*-[\s|:-]*$/.test(line)) return '';
  // Escaped characters are kept out of the way of the rules below, then put back as themselves.
  const escaped: string[] = [];
  return (
    line
      .replace(/\\([!-/:-@[-`{-~])/g, (_, char: string) => `\uE000${escaped.push(char) - 1}\uE001`)
      // Block markers: headings, quotes, list bullets and numbers, task boxes.
      .replace(/^\s*(#{1,6}\s+|(>\s?)+|([-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?)/, '')
      // Images and links read as their text; autolinks as their address; HTML tags go.
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<(?:(https?:[^>\s]+)|\/?[a-zA-Z][^>]*)>/g, '$1')
      // Inline code keeps its text.
      .replace(/(`+)([^`]+?)\1/g, '$2')
      // Emphasis and strike-through: `**x**`, `__x__`, `~~x~~`, `*x*`, `_x_` (not snake_case).
      .replace(/(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\1/g, '$2')
      .replace(/(^|\W)([*_])(?=\S)(.+?)(?<=\S)\2(?!\w)/g, '$1$3')
      // Table rows: the cells, one after another.
      .replace(/^\s*\||\|\s*$/g, '')
      .replace(/\s*\|\s*/g, ', ')
      .replace(/\uE000(\d+)\uE001/g, (_, index: string) => escaped[Number(index)] ?? '')
  );
}

/** Cuts `text` to at most `max` characters at a word boundary, marking the cut with "…". */
export function truncateAtWord(text: string, max = ANNOUNCEMENT_MAX_LENGTH): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  // One long "word" (a URL) is cut where it must be.
  const head = space > max / 2 ? cut.slice(0, space) : cut;
  return `${head.replace(/[\s,.;:!?–—-]+$/, '')}…`;
}
