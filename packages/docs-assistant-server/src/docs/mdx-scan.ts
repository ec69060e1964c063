/**
 * The one MDX/Markdown scanner of the docs pipeline: fenced code, headings, code spans, JSX/HTML
 * tags, expressions, comments and ESM, as both readers of a page need them (`parse.ts` for the
 * index's sections, `agents/markdown.ts` for the agents' Markdown, the static export through it).
 *
 * Why by hand and not remark/mdast: docs MDX is often not valid MDX (a stray `<` or `{` fails a
 * whole page in the MDX parser, `micromark-extension-mdxjs`, which is not even installed), and the
 * index reads every page at each start. Measured 2026-12-06 on this 2-core machine over the 201
 * pages of tests/fixtures/sites: `fromMarkdown` with GFM alone (no MDX) took 630–1,020 ms a pass,
 * `parseDocument` as a whole 21–45 ms (medians: 14 to 23 times less); moving both readers onto this
 * scanner left `parseDocument`'s time as it was (after/before 0.9–1.1 in alternating runs). The
 * CommonMark detail it does not need to own (where a link's destination is) stays with mdast
 * (`agents/markdown.ts`).
 */

// ---------------------------------------------------------------------------------------------
// Lines: fenced code and headings.

/** An opening code fence: its indentation, its marker (```` ``` ```` or `~~~`, any length), its info string. */
export interface Fence {
  indent: number;
  marker: string;
  /** The whole info string, trimmed: `js title="a.js"`. */
  info: string;
  /** The language: the info string's first word, without attributes (```` ```js{1,3} ```` is `js`). */
  lang: string;
}

const FENCE = /^([ \t]*)(`{3,}|~{3,})[ \t]*([^\n]*)$/;

/**
 * The fence a line opens, or null. Any indentation (a fence may sit in a list item or a
 * component); a backtick fence's info string holds no backtick (CommonMark 4.5).
 */
export function fenceOpening(line: string): Fence | null {
  const match = FENCE.exec(line);
  if (!match) return null;
  const marker = match[2]!;
  const info = match[3]!.trim();
  if (marker[0] === '`' && info.includes('`')) return null;
  return { indent: match[1]!.length, marker, info, lang: /^[^\s`{[]*/.exec(info)![0] };
}

/** Whether `line` closes `fence`: the same character, at least as many, nothing after them. */
export function closesFence(line: string, fence: Pick<Fence, 'marker'>): boolean {
  const match = FENCE.exec(line);
  return (
    !!match &&
    match[2]![0] === fence.marker[0] &&
    match[2]!.length >= fence.marker.length &&
    !match[3]!.trim()
  );
}

/** Follows fenced code line by line, for the passes that treat code as opaque. */
export class FenceTracker {
  fence: Fence | null = null;

  /** Whether `line` belongs to fenced code: its opening line, its code or its closing line. */
  step(line: string): boolean {
    if (this.fence) {
      if (closesFence(line, this.fence)) this.fence = null;
      return true;
    }
    this.fence = fenceOpening(line);
    return this.fence !== null;
  }
}

/** An ATX heading: its `#`s and its text, without a closing run of `#` (`## Title ##`). */
export const HEADING = /^ {0,3}(#{1,6})[ \t]+(\S.*?)(?:[ \t]+#+)?[ \t]*$/;

/** Index of the end of the line holding `from` (its `\n`, or the text's end). */
export function lineEnd(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end < 0 ? text.length : end;
}

// ---------------------------------------------------------------------------------------------
// Inline pieces: code spans, brackets, tags, ESM.

/** `<https://…>` and `<someone@example.com>`: autolinks keep their text. */
export const AUTOLINK = /^<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)>/;
/** `{/* … *\/}`: an MDX comment. */
export const JSX_COMMENT = /\{\/\*[\s\S]*?\*\/\}/g;
const TAG_NAME = /[A-Za-z][\w.:-]*/y;

/** Index of the run of exactly `ticks` backticks closing a code span opened before `from`, or -1. */
export function closingTicks(text: string, from: number, ticks: number): number {
  for (let i = text.indexOf('`', from); i >= 0; i = text.indexOf('`', i)) {
    let end = i;
    while (text.charCodeAt(end) === 96) end++;
    if (end - i === ticks) return i;
    i = end;
  }
  return -1;
}

/**
 * End of the code span whose backticks start at `from`; a span does not cross a blank line. For a
 * run of backticks nothing closes, the end of the run (literal backticks).
 */
export function codeSpanEnd(text: string, from: number): number {
  let run = from;
  while (text[run] === '`') run++;
  const close = closingTicks(text, run, run - from);
  return close >= 0 && !text.slice(run, close).includes('\n\n') ? close + (run - from) : run;
}

/**
 * Index just past the `close` bracket matching the `open` one at `from` (nesting counted, quoted
 * strings and code spans skipped), or -1. Stops at a blank line: brackets do not span paragraphs.
 */
export function matchingBracket(
  text: string,
  from: number,
  open: string,
  close: string,
  strings: boolean,
): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\') {
      i++;
    } else if (char === '\n' && text[i + 1] === '\n') {
      return -1;
    } else if (strings && (char === '"' || char === "'" || char === '`')) {
      const end = text.indexOf(char, i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (!strings && char === '`') {
      i = codeSpanEnd(text, i) - 1;
    } else if (char === open) {
      depth++;
    } else if (char === close && --depth === 0) {
      return i + 1;
    }
  }
  return -1;
}

/** A JSX/HTML tag as read: where it ends, its name (`''` for a fragment) and its literal attributes. */
export interface Tag {
  end: number;
  name: string;
  closing: boolean;
  selfClosing: boolean;
  attributes: Record<string, string>;
}

/** A string a JSX expression attribute holds (`{"x"}`, `{'x'}`, `` {`x`} ``), else undefined. */
function literalOf(expression: string): string | undefined {
  const match = /^\{\s*(?:"([^"]*)"|'([^']*)'|`([^`$]*)`)\s*\}$/.exec(expression);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

/**
 * The tag at `from` (a `<`), or null when `<` starts no tag (`a < b`, `a <b and c`). An attribute
 * value may hold `>` in quotes or braces; a bare attribute (`required`) is `'true'`; an expression
 * attribute is kept only when it is a string literal. A component left open (no `>` before a blank
 * line) is broken JSX: the tag is its first line, and the lines after it are text again.
 */
export function readTag(text: string, from: number): Tag | null {
  let at = from + 1;
  const closing = text[at] === '/';
  if (closing) at++;
  if (text[at] === '>') return { end: at + 1, name: '', closing, selfClosing: false, attributes: {} };
  TAG_NAME.lastIndex = at;
  const name = TAG_NAME.exec(text)?.[0];
  if (!name) return null;
  at += name.length;
  const attributes: Record<string, string> = {};
  while (at < text.length) {
    const char = text[at]!;
    if (char === '>') return { end: at + 1, name, closing, selfClosing: false, attributes };
    if (char === '/' && text[at + 1] === '>')
      return { end: at + 2, name, closing, selfClosing: true, attributes };
    if (char === '\n' && text[at + 1] === '\n') break;
    if (char === '{') {
      // `{...props}`: nothing a reader sees.
      const end = matchingBracket(text, at, '{', '}', true);
      if (end < 0) break;
      at = end;
      continue;
    }
    const attribute = /^([\w:.-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|(\{)))?/.exec(text.slice(at, at + 2000));
    if (attribute?.[1]) {
      at += attribute[0].length;
      if (attribute[4]) {
        const end = matchingBracket(text, at - 1, '{', '}', true);
        if (end < 0) break;
        const literal = literalOf(text.slice(at - 1, end));
        if (literal !== undefined) attributes[attribute[1]] = literal;
        at = end;
      } else {
        attributes[attribute[1]] = attribute[2] ?? attribute[3] ?? 'true';
      }
      continue;
    }
    at++;
  }
  if (!/^[A-Z]/.test(name)) return null;
  return { end: lineEnd(text, from), name, closing, selfClosing: true, attributes: {} };
}

/** End of an ESM statement starting at `from` (a line start): where its brackets close at a line end. */
export function esmEnd(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"' || char === "'" || char === '`') {
      const end = text.indexOf(char, i + 1);
      i = end < 0 ? text.length : end;
    } else if (char === '{' || char === '(' || char === '[') depth++;
    else if (char === '}' || char === ')' || char === ']') depth--;
    else if (char === '\n') {
      // A blank line always ends it; otherwise a line that leaves no bracket open.
      if (depth <= 0 || text[i + 1] === '\n') {
        const rest = /^[ \t]*([.,=+?:|&]|from\b)/.test(text.slice(i + 1, i + 12));
        if (!rest || text[i + 1] === '\n') return i;
      }
    }
  }
  return text.length;
}

// ---------------------------------------------------------------------------------------------
// The scan.

/** What the scan reports, in source order. */
export interface MdxVisitor {
  /** Text as written: prose, code spans, escapes, whole lines of fenced code (with their `\n`). */
  text(text: string): void;
  /** A tag; `at` is its `<` in the scanned body. */
  tag(tag: Tag, at: number): void;
  /** An ESM statement (MDX only), whole; it is not text. */
  esm?(statement: string): void;
  /** A line outside fenced code and ESM, before its content is reported (to follow headings). */
  line?(line: string): void;
}

// Where the scan has something to look at; text between is reported in one slice.
const SPECIAL = /[`\\<{\n]/g;

/**
 * Reads a page body (front matter removed; MDX comments removed by the caller, `JSX_COMMENT`)
 * into text and tags. Fenced code and code spans are text as written, inside components too;
 * HTML comments, JSX expressions and (with `mdx`) ESM are not reported as text.
 */
export function scanMdx(body: string, mdx: boolean, visitor: MdxVisitor): void {
  const fences = new FenceTracker();
  let i = 0;
  let afterSpace = false;
  const text = (value: string) => {
    visitor.text(value);
    afterSpace = value.endsWith(' ');
  };
  while (i < body.length) {
    if (i === 0 || body[i - 1] === '\n') {
      const end = lineEnd(body, i);
      const line = body.slice(i, end);
      if (fences.step(line)) {
        text(`${line}\n`);
        i = end + 1;
        continue;
      }
      if (mdx && /^(import|export)\s/.test(line)) {
        const statementEnd = esmEnd(body, i);
        visitor.esm?.(body.slice(i, statementEnd));
        i = statementEnd + 1;
        continue;
      }
      visitor.line?.(line);
    }
    const char = body[i]!;
    if (char === '`') {
      const end = codeSpanEnd(body, i);
      text(body.slice(i, end));
      i = end;
    } else if (char === '\\') {
      text(body.slice(i, i + 2));
      i += 2;
    } else if (char === '<') {
      i = scanAngle(body, i, visitor, text);
    } else if (char === '{' && mdx) {
      const end = matchingBracket(body, i, '{', '}', true);
      // An expression left open: its line goes, the rest is read again.
      i = end < 0 ? lineEnd(body, i) : end;
      // `the {value} here` reads `the here`, with one space.
      if (afterSpace && body[i] === ' ') i++;
    } else if (char === '\n') {
      text(char);
      i++;
    } else {
      SPECIAL.lastIndex = i + 1;
      const next = SPECIAL.exec(body)?.index ?? body.length;
      text(body.slice(i, next));
      i = next;
    }
  }
}

/** A `<` of the scan: an HTML comment (skipped), an autolink or a lone `<` (text), or a tag. */
function scanAngle(body: string, at: number, visitor: MdxVisitor, text: (value: string) => void): number {
  if (body.startsWith('<!--', at)) {
    const end = body.indexOf('-->', at + 4);
    return end < 0 ? body.length : end + 3;
  }
  const tag = AUTOLINK.test(body.slice(at, at + 300)) ? null : readTag(body, at);
  if (!tag) {
    text('<');
    return at + 1;
  }
  // `<script>` and `<style>` hold code for a browser, not text: skipped whole, as raw text elements.
  if (RAW_TEXT.has(tag.name.toLowerCase()) && !tag.closing && !tag.selfClosing) {
    const close = body.toLowerCase().indexOf(`</${tag.name.toLowerCase()}`, tag.end);
    return close < 0 ? body.length : pastClosingTag(body, close);
  }
  visitor.tag(tag, at);
  return tag.end;
}

const RAW_TEXT = new Set(['script', 'style']);

/** Just past the `>` of the closing tag at `from`. */
const pastClosingTag = (body: string, from: number): number => {
  const end = body.indexOf('>', from);
  return end < 0 ? body.length : end + 1;
};
