/**
 * Turns one Markdown/MDX file into a page with one section per heading. Pure (no file system), so
 * it runs anywhere and is easy to test.
 */
import { type FrontMatter, parseFrontMatter } from './front-matter.js';
import type { CodeBlock, DocPage, DocSection, DocStep } from './page.js';
import type { SiteFramework } from './sites/types.js';
import { createSlugger } from './slugs.js';

export { type FrontMatter, parseFrontMatter } from './front-matter.js';
export type { CodeBlock, DocPage, DocSection, DocStep } from './page.js';

/** `guides/theming.md` → `/guides/theming`, `index.md` → `/`, `guides/index.mdx` → `/guides`. */
export function pagePathFromFile(relativeFile: string): string {
  const parts = relativeFile
    .replace(/\\/g, '/')
    .replace(/\.mdx?$/i, '')
    .split('/')
    .filter(Boolean);
  if (parts.length && parts[parts.length - 1]?.toLowerCase() === 'index') parts.pop();
  return `/${parts.join('/')}`;
}

// Placeholders for spans the inline rules must not touch: Unicode private-use characters, which
// Markdown source does not contain in practice.
const HOLD_OPEN = '\uE000';
const HOLD_CLOSE = '\uE001';
const HELD = /\uE000(\d+)\uE001/g;
// A backslash before ASCII punctuation makes it literal (CommonMark 2.4).
const ESCAPABLE = /[!-/:-@[-`{-~]/;
// `<https://…>` and `<someone@example.com>`: autolinks keep their text.
const AUTOLINK = /^<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)>/;
const TAG_NAME = /[A-Za-z][\w.:-]*/y;

/** Index of the run of exactly `ticks` backticks closing a code span opened before `from`, or -1. */
function closingTicks(text: string, from: number, ticks: number): number {
  for (let i = text.indexOf('`', from); i >= 0; i = text.indexOf('`', i)) {
    let end = i;
    while (text.charCodeAt(end) === 96) end++;
    if (end - i === ticks) return i;
    i = end;
  }
  return -1;
}

/**
 * Index just past the `close` bracket matching the `open` one at `from` (nesting counted, quoted
 * strings and code spans skipped), or -1. Stops at a blank line: brackets do not span paragraphs.
 */
function matchingBracket(text: string, from: number, open: string, close: string, strings: boolean): number {
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
      let run = i;
      while (text[run] === '`') run++;
      const end = closingTicks(text, run, run - i);
      if (end >= 0) i = end + (run - i) - 1;
      else i = run - 1;
    } else if (char === open) {
      depth++;
    } else if (char === close && --depth === 0) {
      return i + 1;
    }
  }
  return -1;
}

/**
 * Where a JSX/HTML tag starting at `from` (`<`) ends (just past its `>`), with its name and
 * attributes; `null` when `<` does not start a tag (`a < b`). An attribute value may hold `>` in
 * quotes or braces. A tag left open (no `>` before a blank line) ends at the end of its first
 * line: its markup is dropped and the lines after it are read as text.
 */
function readTag(
  text: string,
  from: number,
): { end: number; name: string; closing: boolean; attributes: Record<string, string> } | null {
  let at = from + 1;
  const closing = text[at] === '/';
  if (closing) at++;
  // A fragment: `<>` or `</>`.
  if (text[at] === '>') return { end: at + 1, name: '', closing, attributes: {} };
  TAG_NAME.lastIndex = at;
  const name = TAG_NAME.exec(text)?.[0];
  if (!name) return null;
  at += name.length;
  const attributes: Record<string, string> = {};
  while (at < text.length) {
    const char = text[at]!;
    if (char === '>') return { end: at + 1, name, closing, attributes };
    if (char === '\n' && text[at + 1] === '\n') break;
    if (char === '{') {
      const end = matchingBracket(text, at, '{', '}', true);
      if (end < 0) break;
      at = end;
      continue;
    }
    const attribute = /^([\w:.-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|(\{)))?/.exec(text.slice(at, at + 400));
    if (attribute?.[1]) {
      at += attribute[0].length;
      if (attribute[4]) {
        // `prop={…}`: an expression, not text; skipped whole.
        const end = matchingBracket(text, at - 1, '{', '}', true);
        if (end < 0) break;
        at = end;
      } else if (attribute[2] !== undefined || attribute[3] !== undefined) {
        attributes[attribute[1]] = attribute[2] ?? attribute[3] ?? '';
      }
      continue;
    }
    at++;
  }
  // Left open: the tag is its first line; what follows is read as text again.
  const lineEnd = text.indexOf('\n', from);
  return { end: lineEnd < 0 ? text.length : lineEnd, name, closing, attributes: {} };
}

// Characters where the inline and the block scans have something to look at; text between them
// is copied in one slice (a regexp finds the next one faster than a loop over characters).
const INLINE_SPECIAL = /[`\\[!<{]/g;
const BLOCK_SPECIAL = /[`\\<{\n]/g;
const nextSpecial = (pattern: RegExp, text: string, from: number): number => {
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? text.length;
};

/** A span kept out of the emphasis rules: a placeholder when they will run, else the text itself. */
const hold = (held: string[], emphasis: boolean, text: string): string =>
  emphasis ? `${HOLD_OPEN}${held.push(text) - 1}${HOLD_CLOSE}` : text;

/** What a dropped inline tag leaves: a space between two words (`a<br/>b`), else nothing. */
const gap = (before: string, after: string | undefined): string =>
  /[\p{L}\p{N}]$/u.test(before) && after !== undefined && /[\p{L}\p{N}]/u.test(after) ? ' ' : '';

/**
 * Inline Markdown to plain text: links and images keep their text, emphasis, tags and code marks
 * go. Code spans and backslash-escaped characters are kept verbatim, so `` `<DocsAssistant>` ``
 * stays `<DocsAssistant>` and `\*` stays `*`. With `mdx`, JSX expressions (`{…}`) go too.
 */
export function inlineToText(markdown: string, mdx = false): string {
  const held: string[] = [];
  // Code and escaped characters are held out of the emphasis rules; without emphasis marks in the
  // text there is nothing to hold them from, and most text has none.
  const emphasis = /[*_~]/.test(markdown);
  let out = '';
  const text = markdown;
  for (let i = 0; i < text.length; ) {
    const char = text[i]!;
    if (char === '`') {
      let run = i;
      while (text[run] === '`') run++;
      const ticks = run - i;
      const close = closingTicks(text, run, ticks);
      if (close < 0) {
        out += text.slice(i, run);
        i = run;
        continue;
      }
      const flat = text.slice(run, close).replace(/\r?\n/g, ' ');
      // One space of padding on both sides is syntax (it lets a span start or end with a backtick).
      out += hold(held, emphasis, /^ [\s\S]*[^ ][\s\S]* $/.test(flat) ? flat.slice(1, -1) : flat);
      i = close + ticks;
    } else if (char === '\\' && i + 1 < text.length && ESCAPABLE.test(text[i + 1]!)) {
      out += hold(held, emphasis, text[i + 1]!);
      i += 2;
    } else if (char === '[' || (char === '!' && text[i + 1] === '[')) {
      const open = char === '!' ? i + 1 : i;
      const labelEnd = matchingBracket(text, open, '[', ']', false);
      if (labelEnd < 0) {
        out += char;
        i++;
        continue;
      }
      const label = text.slice(open + 1, labelEnd - 1);
      let end = labelEnd;
      if (text[end] === '(') end = matchingBracket(text, end, '(', ')', false);
      else if (text[end] === '[') end = matchingBracket(text, end, '[', ']', false);
      else if (char === '!') end = -1;
      if (end < 0) {
        // `[text]` on its own (or a shortcut reference): the brackets stay as written.
        out += char === '!' ? '!' : '[';
        i = char === '!' ? i + 1 : i + 1;
        continue;
      }
      out += inlineToText(label, mdx);
      i = end;
    } else if (char === '<') {
      const autolink = AUTOLINK.exec(text.slice(i, i + 300));
      if (autolink) {
        out += hold(held, emphasis, autolink[1]!);
        i += autolink[0].length;
        continue;
      }
      const tag = readTag(text, i);
      if (!tag) {
        out += char;
        i++;
        continue;
      }
      out += gap(out, text[tag.end]);
      i = tag.end;
    } else if (char === '{' && mdx) {
      const end = matchingBracket(text, i, '{', '}', true);
      // An expression left open: nothing after its brace is text.
      i = end < 0 ? text.length : end;
    } else {
      // Copy plain text up to the next character that may start something.
      const next = nextSpecial(INLINE_SPECIAL, text, i + 1);
      out += text.slice(i, next);
      i = next;
    }
  }
  if (emphasis) {
    out = out
      .replace(/(\*\*|__)(.+?)\1/g, '$2')
      .replace(/(^|[^\w*])[*_]([^*_\s][^*_]*?)[*_](?=[^\w*]|$)/g, '$1$2')
      .replace(/~~(.+?)~~/g, '$1');
  }
  if (held.length) out = out.replace(HELD, (match, index: string) => held[Number(index)] ?? match);
  // Most text has single plain spaces only: the replace is skipped for it (plain searches for
  // the spacing that needs it cost less than one regexp over the text).
  const spaced = out.includes('  ') || out.includes('\n') || out.includes('\t') || out.includes('\u00a0');
  return (spaced ? out.replace(/\s+/g, ' ') : out).trim();
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$/;
const JSX_COMMENT = /\{\/\*[\s\S]*?\*\/\}/g;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;

// Lines the MDX pass leaves for the block rules: where a `<Steps>` list and its `<Step>`s open
// and close, and where a code block stood (so a step keeps its code). Private-use characters.
const STEPS_OPEN = '\uE010';
const STEPS_CLOSE = '\uE011';
const STEP_OPEN = '\uE012';
const STEP_CLOSE = '\uE013';
const CODE_AT = '\uE014';
// A component tag at the left margin: it ends a numbered list, as a paragraph there would.
const BREAK = '\uE015';
// Components whose `title` (or `label`) is text a reader sees: a tab's name, a card's heading…
const TITLE_ATTRIBUTES = ['title', 'label'];
// Field components name a parameter: the name is the text (`<ParamField path="id">`).
const NAME_ATTRIBUTES = ['name', 'path', 'query', 'body', 'header'];

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

/**
 * MDX (and HTML in Markdown) to Markdown the block rules read: ESM lines, JSX expressions and
 * comments go; every tag goes, its children stay; `<Steps>`/`<Step>` become marker lines; the
 * text of a component's `title` becomes a line of its own. Fenced code and code spans are kept as
 * written, inside components too.
 */
export function stripMarkup(body: string, mdx: boolean): string {
  const text = body.replace(HTML_COMMENT, '');
  let out = '';
  let fence: string | null = null;
  let i = 0;
  while (i < text.length) {
    const lineStart = i === 0 || text[i - 1] === '\n';
    if (lineStart) {
      const lineEnd = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
      const line = text.slice(i, lineEnd);
      const open = FENCE.exec(line);
      if (fence) {
        out += `${line}\n`;
        if (open && open[2]!.startsWith(fence[0]!) && open[2]!.length >= fence.length && !open[3])
          fence = null;
        i = lineEnd + 1;
        continue;
      }
      if (open) {
        fence = open[2]!;
        out += `${line}\n`;
        i = lineEnd + 1;
        continue;
      }
      if (mdx && /^(import|export)\s/.test(line)) {
        i = esmEnd(text, i) + 1;
        continue;
      }
    }
    const char = text[i]!;
    if (char === '`') {
      let run = i;
      while (text[run] === '`') run++;
      const close = closingTicks(text, run, run - i);
      // A code span may not cross a blank line; an unmatched run is literal backticks.
      const span = close >= 0 && !text.slice(run, close).includes('\n\n') ? close + (run - i) : run;
      out += text.slice(i, span);
      i = span;
    } else if (char === '\\' && i + 1 < text.length) {
      out += text.slice(i, i + 2);
      i += 2;
    } else if (char === '<' && !AUTOLINK.test(text.slice(i, i + 300))) {
      const tag = readTag(text, i);
      if (!tag) {
        out += char;
        i++;
        continue;
      }
      const margin = /(^|\n)$/.test(out);
      out += tagReplacement(tag, margin || /(^|\n)[ \t]*$/.test(out), gap(out, text[tag.end]));
      if (margin && tag.name !== 'Steps' && tag.name !== 'Step') out += `\n${BREAK}\n`;
      i = tag.end;
    } else if (char === '{' && mdx) {
      const end = matchingBracket(text, i, '{', '}', true);
      // An expression left open: its line goes, the rest of the page is read again.
      i = end < 0 ? (text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i)) : end;
    } else if (char === '\n') {
      out += char;
      i++;
    } else {
      const next = nextSpecial(BLOCK_SPECIAL, text, i + 1);
      out += text.slice(i, next);
      i = next;
    }
  }
  return out;
}

/** What a tag leaves: nothing inline; at a line start, a line break, its title, or a marker line. */
function tagReplacement(
  tag: { name: string; closing: boolean; attributes: Record<string, string> },
  atLineStart: boolean,
  inline: string,
): string {
  if (tag.name === 'Steps') return `\n${tag.closing ? STEPS_CLOSE : STEPS_OPEN}\n`;
  if (tag.name === 'Step') {
    if (tag.closing) return `\n${STEP_CLOSE}\n`;
    const title = tag.attributes.title?.replace(/\s+/g, ' ').trim() ?? '';
    return `\n${STEP_OPEN}${title}\n`;
  }
  if (!atLineStart) return inline;
  if (tag.closing) return '\n';
  const titled = TITLE_ATTRIBUTES.map((name) => tag.attributes[name]).find((value) => value?.trim());
  const named = NAME_ATTRIBUTES.map((name) => tag.attributes[name]).find((value) => value?.trim());
  const label = [named, titled].filter(Boolean).join(' — ');
  // A blank line after the label: it is a line of its own, not the start of the next paragraph.
  return label ? `\n${label.replace(/\s+/g, ' ').trim()}\n\n` : '\n';
}

const stringField = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim()
    ? value.trim()
    : typeof value === 'number'
      ? String(value)
      : undefined;

/** Title from the file name when the page has no title and no H1: `getting-started` → `Getting started`. */
function titleFromFile(file: string): string {
  const base = file.replace(/\\/g, '/').split('/').filter(Boolean);
  let name = (base.pop() ?? '').replace(/\.mdx?$/i, '');
  if (name.toLowerCase() === 'index') name = base.pop() ?? 'Home';
  const words = name.replace(/[-_]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Home';
}

interface SectionDraft {
  anchor: string;
  headingPath: string[];
  lines: string[];
  code: CodeBlock[];
}

/**
 * The cells of a GFM table row. `\\|` is a pipe inside a cell (also inside code, as GFM has it),
 * so type unions such as `'light' \\| 'dark'` stay in one cell; `\\\\|` is a backslash, then a
 * cell border.
 */
export function tableCells(row: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let endsOnBorder = false;
  const text = row.trim();
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    endsOnBorder = false;
    if (char === '\\' && i + 1 < text.length) {
      const next = text[i + 1]!;
      // `\|` becomes a plain pipe; any other escape is left for the inline rules.
      cell += next === '|' ? '|' : `${char}${next}`;
      i++;
    } else if (char === '|') {
      cells.push(cell);
      cell = '';
      endsOnBorder = true;
    } else {
      cell += char;
    }
  }
  if (!endsOnBorder) cells.push(cell);
  // The leading pipe is a border, not an empty first cell.
  if (text.startsWith('|')) cells.shift();
  return cells.map((c) => c.trim());
}

const ORDERED_ITEM = /^(\s*)\d+[.)]\s+/;
const LIST_ITEM = /^(\s*)([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?/;
const TABLE_DELIMITER = /^[\s|:-]+$/;

/**
 * What `toBlocks` builds up: blocks, rows, procedures, and the paragraph and step being read. A
 * class rather than closures: `toBlocks` runs once per section, 17,000 times for 10,000 pages.
 */
class BlockReader {
  readonly blocks: string[] = [];
  readonly rows: string[] = [];
  readonly steps: DocStep[][] = [];
  readonly codeAfter: number[] = [];
  current: string[] = [];
  // The procedure being read: from `<Steps>` (until `</Steps>`) or from a numbered list (until
  // a line after a blank one that is neither indented nor an item).
  procedure: { steps: DocStep[]; component: boolean } | null = null;
  step: DocStep | null = null;

  constructor(private readonly mdx: boolean) {}

  flush(): void {
    if (!this.current.length) return;
    const text = inlineToText(this.current.join(' '), this.mdx);
    this.current = [];
    if (!text) return;
    this.blocks.push(text);
    if (this.step) this.step.text = this.step.text ? `${this.step.text} ${text}` : text;
  }

  endProcedure(): void {
    this.flush();
    if (this.procedure?.steps.length) this.steps.push(this.procedure.steps);
    this.procedure = null;
    this.step = null;
  }

  startStep(title?: string): void {
    this.flush();
    this.procedure ??= { steps: [], component: false };
    this.step = { ...(title ? { title } : {}), text: '', code: [] };
    this.procedure.steps.push(this.step);
  }
}

/**
 * Splits a section's Markdown lines into plain-text blocks (paragraphs, list items), table rows
 * and procedures (numbered lists and `<Steps>`, each step with its prose and code).
 */
function toBlocks(
  lines: string[],
  code: CodeBlock[],
  mdx: boolean,
): { blocks: string[]; rows: string[]; steps: DocStep[][]; codeAfter: number[] } {
  const reader = new BlockReader(mdx);
  const { blocks, rows, codeAfter } = reader;
  let blank = false;
  for (const raw of lines) {
    const marker = raw.charAt(0);
    if (marker === STEPS_OPEN) {
      reader.endProcedure();
      reader.procedure = { steps: [], component: true };
      continue;
    }
    if (marker === STEPS_CLOSE) {
      reader.endProcedure();
      continue;
    }
    if (marker === STEP_OPEN) {
      if (reader.procedure && !reader.procedure.component) reader.endProcedure();
      const title = inlineToText(raw.slice(1), mdx);
      reader.startStep(title || undefined);
      if (reader.procedure) reader.procedure.component = true;
      if (title) blocks.push(title);
      continue;
    }
    if (marker === STEP_CLOSE) {
      reader.flush();
      reader.step = null;
      continue;
    }
    if (marker === BREAK) {
      if (reader.procedure && !reader.procedure.component) reader.endProcedure();
      else reader.flush();
      continue;
    }
    if (marker === CODE_AT) {
      reader.flush();
      const at = Number(raw.slice(1));
      const block = code[at];
      codeAfter[at] = blocks.length - 1;
      if (block && reader.step) reader.step.code.push(block);
      continue;
    }
    const line = raw.replace(/^\s*>\s?/, '');
    if (!line.trim()) {
      reader.flush();
      blank = true;
      continue;
    }
    const wasBlank = blank;
    blank = false;
    if (line.includes('-') && /^\s*\|?\s*:?-{3,}/.test(line) && TABLE_DELIMITER.test(line)) continue;
    const item = LIST_ITEM.exec(line);
    if (item) {
      reader.flush();
      const { procedure } = reader;
      const inComponentStep = procedure?.component && reader.step;
      if (!inComponentStep && ORDERED_ITEM.test(line) && !(procedure && item[1]!.length > 0)) {
        reader.startStep();
      } else if (procedure && !procedure.component && item[1]!.length === 0) {
        // An unordered item at the left margin ends a numbered list.
        reader.endProcedure();
      }
      reader.current.push(line.slice(item[0].length));
      continue;
    }
    if (reader.procedure && !reader.procedure.component && wasBlank && !/^\s/.test(line))
      reader.endProcedure();
    if (/^\s*\|.*\|\s*$/.test(line)) {
      reader.flush();
      const row = tableCells(line)
        .map((cell) => inlineToText(cell, mdx))
        .filter(Boolean)
        .join(' — ');
      if (row) rows.push(row);
      continue;
    }
    reader.current.push(line.trim());
  }
  reader.endProcedure();
  return { blocks, rows, steps: reader.steps, codeAfter };
}

export interface ParseOptions {
  /** Whether to read MDX syntax (ESM, JSX, expressions). @default true for `.mdx` files */
  mdx?: boolean;
  /** The source's front matter, already parsed (`parseFrontMatter(source)`): not parsed again. */
  frontMatter?: FrontMatter;
  /** The site's framework: heading anchors are written as it writes them (`slugs.ts`). @default 'folder' */
  framework?: SiteFramework;
}

/** Parses a Markdown/MDX source into a page. `file` is the path relative to its docs folder. */
export function parseDocument(file: string, source: string, options: ParseOptions = {}): DocPage {
  const { data, body } = options.frontMatter ?? parseFrontMatter(source);
  const mdx = options.mdx ?? /\.mdx$/i.test(file);
  const path = pagePathFromFile(file);
  const slug = createSlugger(options.framework);

  const drafts: SectionDraft[] = [{ anchor: '', headingPath: [], lines: [], code: [] }];
  const stack: { depth: number; text: string }[] = [];
  let h1: string | undefined;
  let fence: { marker: string; lang: string; indent: number; lines: string[] } | null = null;

  const text = stripMarkup(mdx ? body.replace(JSX_COMMENT, '') : body, mdx);
  for (const line of text.split(/\r?\n/)) {
    const current = drafts[drafts.length - 1]!;
    if (fence) {
      const close = FENCE.exec(line);
      if (
        close &&
        close[2]!.startsWith(fence.marker[0]!) &&
        close[2]!.length >= fence.marker.length &&
        !close[3]
      ) {
        current.lines.push(`${CODE_AT}${current.code.length}`);
        current.code.push({ lang: fence.lang, code: fence.lines.join('\n') });
        fence = null;
      } else {
        // A fence indented inside a list or a component: its code is indented as much.
        const indent = /^[ \t]*/.exec(line)![0].length;
        fence.lines.push(line.slice(Math.min(indent, fence.indent)));
      }
      continue;
    }
    const open = FENCE.exec(line);
    if (open) {
      fence = { marker: open[2]!, lang: open[3] ?? '', indent: open[1]!.length, lines: [] };
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const depth = heading[1]!.length;
      const headingText = inlineToText(heading[2]!, mdx);
      // The first H1 names the page; it is not a section of its own.
      if (depth === 1 && h1 === undefined && stack.length === 0) {
        h1 = headingText;
        slug(headingText);
        continue;
      }
      while (stack.length && stack[stack.length - 1]!.depth >= depth) stack.pop();
      stack.push({ depth, text: headingText });
      drafts.push({ anchor: slug(headingText), headingPath: stack.map((s) => s.text), lines: [], code: [] });
      continue;
    }
    current.lines.push(line);
  }
  // An unclosed fence still holds code worth keeping.
  if (fence) drafts[drafts.length - 1]!.code.push({ lang: fence.lang, code: fence.lines.join('\n') });

  const title = stringField(data.title) ?? h1 ?? titleFromFile(file);
  const description = stringField(data.description);
  const version = stringField(data.version);
  const language = stringField(data.language) ?? stringField(data.lang);
  const orderValue = data.order ?? data.sidebar_position;
  const order = typeof orderValue === 'number' && Number.isFinite(orderValue) ? orderValue : undefined;
  const sections: DocSection[] = [];
  for (const draft of drafts) {
    const { blocks, rows, steps, codeAfter } = toBlocks(draft.lines, draft.code, mdx);
    if (draft.anchor === '' && description && !blocks.includes(description)) {
      blocks.unshift(description);
      for (let c = 0; c < codeAfter.length; c++) codeAfter[c]! += 1;
    }
    if (!blocks.length && !rows.length && !draft.code.length && draft.anchor === '') continue;
    sections.push({
      id: `${path}#${draft.anchor}`,
      pagePath: path,
      pageTitle: title,
      anchor: draft.anchor,
      headingPath: draft.headingPath,
      blocks,
      rows,
      code: draft.code,
      ...(steps.length ? { steps } : {}),
      // An unclosed fence's code has no place among the blocks: it follows the last one.
      ...(draft.code.length
        ? { codeAfter: draft.code.map((_, c) => codeAfter[c] ?? blocks.length - 1) }
        : {}),
      ...(version ? { version } : {}),
      ...(language ? { language } : {}),
    });
  }
  return {
    path,
    file,
    title,
    ...(description ? { description } : {}),
    ...(version ? { version } : {}),
    ...(language ? { language } : {}),
    ...(order !== undefined ? { order } : {}),
    sections,
  };
}
