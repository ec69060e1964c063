/**
 * Which words of a result to mark for a query, and a short excerpt around the first of them. Pure
 * text in, text segments out: the UI renders each segment as a text node (a match in `<mark>`), so a
 * result's text can never become markup.
 */

/** The query's words, lower-cased, longest first (so "stream" marks before "st"). */
export function queryWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}_-]+/gu) ?? [];
  return [...new Set(words.filter((word) => word.length > 1 || /\d/.test(word)))].sort(
    (a, b) => b.length - a.length,
  );
}

const escapeRegExp = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A pattern for the words at the start of a word of the text (the service matches prefixes too). */
function wordPattern(words: string[]): RegExp | null {
  return words.length
    ? new RegExp(`(?<![\\p{L}\\p{N}_])(?:${words.map(escapeRegExp).join('|')})`, 'giu')
    : null;
}

export interface Segment {
  text: string;
  match: boolean;
}

/** `text` cut into plain and matching segments. */
export function highlight(text: string, words: string[]): Segment[] {
  const pattern = wordPattern(words);
  if (!pattern) return [{ text, match: false }];
  const segments: Segment[] = [];
  let at = 0;
  for (const found of text.matchAll(pattern)) {
    const start = found.index ?? 0;
    if (start > at) segments.push({ text: text.slice(at, start), match: false });
    segments.push({ text: found[0], match: true });
    at = start + found[0].length;
  }
  if (at < text.length) segments.push({ text: text.slice(at), match: false });
  return segments;
}

/**
 * About `max` characters of `content` (Markdown: code fences and inline code's backticks dropped,
 * the excerpt is plain text), starting a little before the first match.
 */
export function excerpt(content: string, words: string[], max = 160): string {
  const text = content
    .replace(/```[^\n]*\n?/g, '')
    .replace(/`+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= max) return text;
  const first = wordPattern(words)?.exec(text)?.index ?? 0;
  let start = Math.max(0, Math.min(first - 30, text.length - max));
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  const cut = text.slice(start, start + max);
  const end = cut.length === max ? cut.lastIndexOf(' ') : -1;
  return `${start > 0 ? '…' : ''}${end > max / 2 ? cut.slice(0, end) : cut}${start + max < text.length ? '…' : ''}`;
}
