/**
 * Turns one Markdown/MDX file into a page with one section per heading. Pure (no file system), so
 * it runs anywhere and is easy to test. The scanning (fences, tags, code spans, ESM) is
 * `mdx-scan.ts`'s and the admonitions `mdx-admonitions.ts`'s, shared with the agents' Markdown;
 * what is here turns their output into sections of plain text (inline code kept as code).
 */
import { type FrontMatter, parseFrontMatter } from './front-matter.js';
import { type Admonition, admonitionCallout, calloutLabel, rewriteAdmonitions } from './mdx-admonitions.js';
import {
  AUTOLINK,
  closesFence,
  closingTicks,
  type Fence,
  fenceOpening,
  HEADING,
  JSX_COMMENT,
  matchingBracket,
  readTag,
  scanMdx,
  type Tag,
} from './mdx-scan.js';
import type { CodeBlock, DocPage, DocSection, DocStep } from './page.js';
import type { SiteFramework } from './sites/types.js';
import { createSlugger, headingWithId, markHeadingIds } from './slugs.js';

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

// Characters where the inline scan has something to look at; text between them is copied in one
// slice (a regexp finds the next one faster than a loop over characters).
const INLINE_SPECIAL = /[`\\[!<{]/g;

/** A span kept out of the emphasis rules: a placeholder when they will run, else the text itself. */
const hold = (held: string[], emphasis: boolean, text: string): string =>
  emphasis ? `${HOLD_OPEN}${held.push(text) - 1}${HOLD_CLOSE}` : text;

/** What a dropped inline tag leaves: a space between two words (`a<br/>b`), else nothing. */
const gap = (before: string, after: string | undefined): string =>
  /[\p{L}\p{N}]$/u.test(before) && after !== undefined && /[\p{L}\p{N}]/u.test(after) ? ' ' : '';

/**
 * Inline Markdown to plain text: links and images keep their text, emphasis and tags go. Code
 * spans and backslash-escaped characters are kept verbatim, so `\*` stays `*`; with `code`, code
 * spans keep their backticks (`` `<Tabs>` `` stays code for the answers, which write it as code),
 * else only their content (`<Tabs>`, for headings and their anchors). With `mdx`, JSX expressions
 * (`{…}`) go too.
 */
export function inlineToText(markdown: string, mdx = false, code = false): string {
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
      const marks = text.slice(i, run);
      // One space of padding on both sides is syntax (it lets a span start or end with a backtick).
      const content = /^ [\s\S]*[^ ][\s\S]* $/.test(flat) ? flat.slice(1, -1) : flat;
      out += hold(held, emphasis, code ? `${marks}${flat}${marks}` : content);
      i = close + ticks;
    } else if (char === '\\' && i + 1 < text.length && ESCAPABLE.test(text[i + 1]!)) {
      out += hold(held, emphasis, text[i + 1]!);
      i += 2;
    } else if (char === '[' || (char === '!' && text[i + 1] === '[')) {
      const link = linkText(text, i, mdx, code);
      out += link.text;
      i = link.next;
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
      INLINE_SPECIAL.lastIndex = i + 1;
      const next = INLINE_SPECIAL.exec(text)?.index ?? text.length;
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

/**
 * A link or an image at `at` (its `[` or `![`) as text: its label's text, and where the text goes
 * on past its destination. `[text]` on its own (or a shortcut reference) stays as written: only
 * its first character is taken, and the rest is read again.
 */
function linkText(text: string, at: number, mdx: boolean, code: boolean): { text: string; next: number } {
  const image = text[at] === '!';
  const open = image ? at + 1 : at;
  const labelEnd = matchingBracket(text, open, '[', ']', false);
  if (labelEnd < 0) return { text: text[at]!, next: at + 1 };
  let end = labelEnd;
  if (text[end] === '(') end = matchingBracket(text, end, '(', ')', false);
  else if (text[end] === '[') end = matchingBracket(text, end, '[', ']', false);
  else if (image) end = -1;
  if (end < 0) return { text: text[at]!, next: at + 1 };
  return { text: inlineToText(text.slice(open + 1, labelEnd - 1), mdx, code), next: end };
}

// Lines the MDX pass leaves for the block rules: where a `<Steps>` list and its `<Step>`s open
// and close, and where a code block stood (so a step keeps its code). Private-use characters.
const STEPS_OPEN = '\uE010';
const STEPS_CLOSE = '\uE011';
const STEP_OPEN = '\uE012';
const STEP_CLOSE = '\uE013';
const CODE_AT = '\uE014';
// A component tag at the left margin: it ends a numbered list, as a paragraph there would.
const BREAK = '\uE015';
// An admonition or callout: `LABEL` + its label (+ a tab and its title) opens it, `LABEL_END` ends
// it. Without a title, the label leads the first paragraph (`Note: text`).
const LABEL = '\uE016';
const LABEL_END = '\uE017';
// Components whose `title` (or `label`) is text a reader sees: a tab's name, a card's heading…
const TITLE_ATTRIBUTES = ['title', 'label'];
// Field components name a parameter: the name is the text (`<ParamField path="id">`).
const NAME_ATTRIBUTES = ['name', 'path', 'query', 'body', 'header'];

/** An admonition as the block rules read it: its label (and title) as a marker line, then its body. */
function admonitionText(admonition: Admonition): string {
  const label = admonitionCallout(admonition);
  const { title, body } = admonition;
  if (!label) return title ? `${title}\n\n${body}` : body;
  return `${LABEL}${label}${title ? `\t${title}` : ''}\n\n${body}\n${LABEL_END}`;
}

/**
 * MDX (and HTML in Markdown) to Markdown the block rules read: ESM lines, JSX expressions and
 * comments go; every tag goes, its children stay; `<Steps>`/`<Step>` and admonitions (each
 * syntax, `mdx-admonitions.ts`) become marker lines; the text of a component's `title` becomes a
 * line of its own. Fenced code and code spans are kept as written, inside components too.
 */
export function stripMarkup(body: string, mdx: boolean): string {
  const text = rewriteAdmonitions(body, admonitionText);
  let out = '';
  scanMdx(text, mdx, {
    text: (value) => {
      out += value;
    },
    tag: (tag) => {
      const margin = /(^|\n)$/.test(out);
      out += tagReplacement(tag, margin || /(^|\n)[ \t]*$/.test(out), gap(out, text[tag.end]));
      if (margin && tag.name !== 'Steps' && tag.name !== 'Step') out += `\n${BREAK}\n`;
    },
  });
  return out;
}

/** What a tag leaves: nothing inline; at a line start, a line break, its title, or a marker line. */
function tagReplacement(tag: Tag, atLineStart: boolean, inline: string): string {
  if (tag.name === 'Steps') return `\n${tag.closing ? STEPS_CLOSE : STEPS_OPEN}\n`;
  if (tag.name === 'Step') {
    if (tag.closing) return `\n${STEP_CLOSE}\n`;
    const title = tag.attributes.title?.replace(/\s+/g, ' ').trim() ?? '';
    return `\n${STEP_OPEN}${title}\n`;
  }
  if (!atLineStart) return inline;
  const titled = TITLE_ATTRIBUTES.map((name) => tag.attributes[name]).find((value) => value?.trim());
  const callout = calloutLabel(tag.name, tag.attributes);
  if (callout) {
    if (tag.closing) return `\n${LABEL_END}\n`;
    return `\n${LABEL}${callout}${titled ? `\t${titled.replace(/\s+/g, ' ').trim()}` : ''}\n\n`;
  }
  if (tag.closing) return '\n';
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
  // The label of an admonition without a title, for its first paragraph (`Note: …`).
  label: string | null = null;

  constructor(private readonly mdx: boolean) {}

  flush(): void {
    if (!this.current.length) return;
    let text = inlineToText(this.current.join(' '), this.mdx, true);
    this.current = [];
    if (!text) return;
    if (this.label) text = `${this.label}: ${text}`;
    this.label = null;
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

  /** Reads a marker line left by `stripMarkup` or `parseDocument`; false when `raw` is none. */
  marker(raw: string, code: CodeBlock[]): boolean {
    switch (raw.charAt(0)) {
      case STEPS_OPEN:
        this.endProcedure();
        this.procedure = { steps: [], component: true };
        return true;
      case STEPS_CLOSE:
        this.endProcedure();
        return true;
      case STEP_OPEN: {
        if (this.procedure && !this.procedure.component) this.endProcedure();
        const title = inlineToText(raw.slice(1), this.mdx, true);
        this.startStep(title || undefined);
        if (this.procedure) this.procedure.component = true;
        if (title) this.blocks.push(title);
        return true;
      }
      case STEP_CLOSE:
        this.flush();
        this.step = null;
        return true;
      case LABEL: {
        // Titled, the label and title are a line of their own; else the label leads the next paragraph.
        this.flush();
        const [label, title] = raw.slice(1).split('\t');
        this.label = title ? null : label!;
        if (title) this.blocks.push(`${label}: ${inlineToText(title, this.mdx, true)}`);
        return true;
      }
      case LABEL_END:
        this.flush();
        this.label = null;
        return true;
      case BREAK:
        if (this.procedure && !this.procedure.component) this.endProcedure();
        else this.flush();
        return true;
      case CODE_AT: {
        this.flush();
        const at = Number(raw.slice(1));
        const block = code[at];
        this.codeAfter[at] = this.blocks.length - 1;
        if (block && this.step) this.step.code.push(block);
        return true;
      }
      default:
        return false;
    }
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
    if (reader.marker(raw, code)) continue;
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
        .map((cell) => inlineToText(cell, mdx, true))
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
  /** MkDocs with `attr_list`: `## Setup { #setup }` names its own anchor. */
  attrList?: boolean;
}

/**
 * The body's sections as drafts, one per heading (the text before the first heading first, with
 * the anchor `''`), and the first H1, which names the page rather than starting a section.
 */
function sectionDrafts(
  body: string,
  mdx: boolean,
  options: ParseOptions,
): { drafts: SectionDraft[]; h1?: string } {
  const slug = createSlugger(options.framework);
  const drafts: SectionDraft[] = [{ anchor: '', headingPath: [], lines: [], code: [] }];
  const stack: { depth: number; text: string }[] = [];
  let h1: string | undefined;
  let fence: (Fence & { lines: string[] }) | null = null;

  const marked = markHeadingIds(body, options);
  const text = stripMarkup(mdx ? marked.replace(JSX_COMMENT, '') : marked, mdx);
  for (const line of text.split(/\r?\n/)) {
    const current = drafts[drafts.length - 1]!;
    if (fence) {
      if (closesFence(line, fence)) {
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
    const open = fenceOpening(line);
    if (open) {
      fence = { ...open, lines: [] };
      continue;
    }
    const heading = HEADING.exec(line);
    if (!heading) {
      current.lines.push(line);
      continue;
    }
    const depth = heading[1]!.length;
    const { text: written, own } = headingWithId(heading[2]!, options);
    const headingText = inlineToText(written, mdx);
    // The first H1 names the page; it is not a section of its own.
    if (depth === 1 && h1 === undefined && stack.length === 0) {
      h1 = headingText;
      slug(headingText, own);
      continue;
    }
    while (stack.length && stack[stack.length - 1]!.depth >= depth) stack.pop();
    stack.push({ depth, text: headingText });
    const anchor = slug(headingText, own);
    drafts.push({ anchor, headingPath: stack.map((s) => s.text), lines: [], code: [] });
  }
  // An unclosed fence still holds code worth keeping.
  if (fence) drafts[drafts.length - 1]!.code.push({ lang: fence.lang, code: fence.lines.join('\n') });
  return { drafts, ...(h1 !== undefined ? { h1 } : {}) };
}

/** Parses a Markdown/MDX source into a page. `file` is the path relative to its docs folder. */
export function parseDocument(file: string, source: string, options: ParseOptions = {}): DocPage {
  const { data, body } = options.frontMatter ?? parseFrontMatter(source);
  const mdx = options.mdx ?? /\.mdx$/i.test(file);
  const path = pagePathFromFile(file);
  const { drafts, h1 } = sectionDrafts(body, mdx, options);

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
