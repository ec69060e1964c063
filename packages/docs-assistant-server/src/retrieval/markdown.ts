/**
 * Turns one Markdown/MDX file into a page with one section per heading. Pure (no file system), so
 * it runs anywhere and is easy to test.
 */
import { parse as parseYaml } from 'yaml';

export interface CodeBlock {
  lang: string;
  code: string;
}

export interface DocSection {
  /** Unique in an index: `pagePath#anchor`. */
  id: string;
  pagePath: string;
  pageTitle: string;
  /** GitHub-style slug of the heading; empty for the text before the first heading. */
  anchor: string;
  /** Headings from the page's top level down to this section (the page title excluded). */
  headingPath: string[];
  /** Paragraphs and list items as plain text, in order. */
  blocks: string[];
  /** Table rows as plain text, cells joined with ` — `. */
  rows: string[];
  code: CodeBlock[];
  version?: string;
  language?: string;
}

export interface DocPage {
  path: string;
  /** The file it came from, relative to its docs folder. */
  file: string;
  title: string;
  description?: string;
  version?: string;
  language?: string;
  /**
   * Set by site-aware loading (`retrieval/sites/`): the groups of the site's navigation above this
   * page, outermost first (`['Guides', 'Setup']`); the page's own title is not in it.
   */
  breadcrumb?: string[];
  /** Place of the page in its site's navigation (0 first); absent for pages the navigation does not list. */
  navOrder?: number;
  /** A page the site builds but does not list in its navigation (indexed only when the site says so). */
  hidden?: boolean;
  /** The file the page came from, as an absolute path (set by site-aware loading). */
  sourceFile?: string;
  sections: DocSection[];
}

export interface FrontMatter {
  data: Record<string, unknown>;
  body: string;
  /** Set when a front matter block was there but was not valid YAML (the page is still read). */
  error?: string;
}

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

export function parseFrontMatter(source: string): FrontMatter {
  const text = source.replace(/^\uFEFF/, '');
  const match = FRONT_MATTER.exec(text);
  if (!match) return { data: {}, body: text };
  const body = text.slice(match[0].length);
  try {
    const data: unknown = parseYaml(match[1] ?? '');
    if (data && typeof data === 'object' && !Array.isArray(data)) {
      return { data: data as Record<string, unknown>, body };
    }
    return { data: {}, body };
  } catch (error) {
    return { data: {}, body, error: error instanceof Error ? error.message : String(error) };
  }
}

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
// A code span: a run of backticks closed by a run of the same length (CommonMark 6.1).
const CODE_SPAN = /(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;
// A backslash before ASCII punctuation makes it literal (CommonMark 2.4).
const ESCAPE = /\\([!-/:-@[-`{-~])/g;

/**
 * Inline Markdown to plain text: links and images keep their text, emphasis, tags and code marks
 * go. Code spans and backslash-escaped characters are kept verbatim, so `` `<DocsAssistant>` ``
 * stays `<DocsAssistant>` and `\*` stays `*`.
 */
export function inlineToText(markdown: string): string {
  const held: string[] = [];
  const hold = (text: string): string => `${HOLD_OPEN}${held.push(text) - 1}${HOLD_CLOSE}`;
  const text = markdown
    .replace(CODE_SPAN, (_match, _ticks: string, code: string) => {
      const flat = code.replace(/\r?\n/g, ' ');
      // One space of padding on both sides is syntax (it lets a span start or end with a backtick).
      return hold(/^ [\s\S]*[^ ][\s\S]* $/.test(flat) ? flat.slice(1, -1) : flat);
    })
    .replace(ESCAPE, (_match, char: string) => hold(char))
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1')
    .replace(/<\/?[A-Za-z][^>]*>/g, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_\s][^*_]*?)[*_](?=[^\w*]|$)/g, '$1$2')
    .replace(/~~(.+?)~~/g, '$1');
  return text
    .replace(HELD, (match, index: string) => held[Number(index)] ?? match)
    .replace(/\s+/g, ' ')
    .trim();
}

/** GitHub's heading slug: lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(heading: string): string {
  return inlineToText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** Gives each slug a `-1`, `-2`… suffix on repeats, as GitHub does. */
export function createSlugger(): (heading: string) => string {
  const seen = new Map<string, number>();
  return (heading) => {
    const base = githubSlug(heading);
    let slug = base;
    let count = seen.get(base) ?? 0;
    while (seen.has(slug)) slug = `${base}-${++count}`;
    seen.set(base, count);
    seen.set(slug, 0);
    return slug;
  };
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$/;
// MDX: ESM lines and lines that are only a JSX tag (a capitalised component or a fragment).
const MDX_ESM = /^(import|export)\s/;
const JSX_ONLY_LINE = /^\s*(<\/?[A-Z][\w.]*(\s[^<>]*)?\/?>|<\/?>)\s*$/;
const JSX_COMMENT = /\{\/\*[\s\S]*?\*\/\}/g;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;

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

/** Splits a section's Markdown lines into plain-text blocks (paragraphs, list items) and table rows. */
function toBlocks(lines: string[]): { blocks: string[]; rows: string[] } {
  const blocks: string[] = [];
  const rows: string[] = [];
  let current: string[] = [];
  const flush = () => {
    const text = inlineToText(current.join(' '));
    if (text) blocks.push(text);
    current = [];
  };
  for (const raw of lines) {
    const line = raw.replace(/^\s*>\s?/, '');
    if (!line.trim()) {
      flush();
      continue;
    }
    if (/^\s*\|?\s*:?-{3,}/.test(line) && line.includes('-') && /^[\s|:-]+$/.test(line)) continue;
    if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      flush();
      current.push(line.replace(/^\s*([-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?/, ''));
      continue;
    }
    if (/^\s*\|.*\|\s*$/.test(line)) {
      flush();
      const row = tableCells(line).map(inlineToText).filter(Boolean).join(' — ');
      if (row) rows.push(row);
      continue;
    }
    current.push(line.trim());
  }
  flush();
  return { blocks, rows };
}

export interface ParseOptions {
  /** Whether to strip MDX syntax (ESM and JSX-only lines). @default true for `.mdx` files */
  mdx?: boolean;
}

/** Parses a Markdown/MDX source into a page. `file` is the path relative to its docs folder. */
export function parseDocument(file: string, source: string, options: ParseOptions = {}): DocPage {
  const { data, body } = parseFrontMatter(source);
  const mdx = options.mdx ?? /\.mdx$/i.test(file);
  const path = pagePathFromFile(file);
  const slug = createSlugger();

  const drafts: SectionDraft[] = [{ anchor: '', headingPath: [], lines: [], code: [] }];
  const stack: { depth: number; text: string }[] = [];
  let h1: string | undefined;
  let fence: { marker: string; lang: string; lines: string[] } | null = null;

  const text = body.replace(HTML_COMMENT, '').replace(mdx ? JSX_COMMENT : /$^/g, '');
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
        current.code.push({ lang: fence.lang, code: fence.lines.join('\n') });
        fence = null;
      } else {
        fence.lines.push(line);
      }
      continue;
    }
    const open = FENCE.exec(line);
    if (open) {
      fence = { marker: open[2]!, lang: open[3] ?? '', lines: [] };
      continue;
    }
    if (mdx && (MDX_ESM.test(line) || JSX_ONLY_LINE.test(line))) continue;
    const heading = HEADING.exec(line);
    if (heading) {
      const depth = heading[1]!.length;
      const headingText = inlineToText(heading[2]!);
      // The first H1 names the page; it is not a section of its own.
      if (depth === 1 && h1 === undefined && stack.length === 0) {
        h1 = headingText;
        slug(heading[2]!);
        continue;
      }
      while (stack.length && stack[stack.length - 1]!.depth >= depth) stack.pop();
      stack.push({ depth, text: headingText });
      drafts.push({ anchor: slug(heading[2]!), headingPath: stack.map((s) => s.text), lines: [], code: [] });
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
  const sections: DocSection[] = [];
  for (const draft of drafts) {
    const { blocks, rows } = toBlocks(draft.lines);
    if (draft.anchor === '' && description && !blocks.includes(description)) blocks.unshift(description);
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
    sections,
  };
}
