/**
 * A docs page as clean Markdown for agents: the page's own source with its MDX components turned
 * into what they mean in Markdown (steps → a numbered list, tabs and code groups → headed blocks,
 * callouts and admonitions → blockquotes, cards → links), no JSX, no ESM, no expressions, no front
 * matter, and links between pages resolved to the pages' `.md` URLs. Pure (no file system): the
 * caller passes the source (`pageMarkdown` in `index.ts` reads it from the page's file).
 *
 * The Markdown itself is kept as written: the components are read by the docs pipeline's one
 * lenient scanner (`docs/mdx-scan.ts`, which says why it is not remark) into a tree rendered here,
 * the admonition syntaxes (`:::note`, `::: code-group`, MkDocs `!!! note` and `=== "Tab"`) are
 * found by `docs/mdx-admonitions.ts`, and the links with `mdast-util-from-markdown` (CommonMark +
 * GFM), rewritten in place. The static export renders its HTML from this Markdown too.
 */
import type { Definition, Image, Link, Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import {
  type Admonition,
  admonitionCallout,
  calloutLabel,
  rewriteAdmonitions,
} from '../docs/mdx-admonitions.js';
import {
  FenceTracker,
  fenceOpening,
  HEADING,
  JSX_COMMENT,
  lineEnd,
  scanMdx,
  type Tag,
} from '../docs/mdx-scan.js';
import { type DocPage, pagePathFromFile, parseFrontMatter } from '../docs/parse.js';
import { dropHeadingIds, markHeadingIds } from '../docs/slugs.js';
import { normalizePath } from '../retrieval/search-index.js';

/** The other pages of the site, for links between pages (a `DocsIndex` is one). */
export interface PageLookup {
  readonly pages: readonly DocPage[];
  page(path: string): DocPage | undefined;
}

export interface PageMarkdownOptions {
  /** The site's pages: links to them become their `.md` URLs. Without it, no link is taken for a page. */
  pages?: PageLookup;
  /**
   * Where the Markdown pages are served, without a trailing `/`: `https://docs.example.com` makes
   * links `https://docs.example.com/guides/setup.md`. @default '' (root-relative: `/guides/setup.md`)
   */
  markdownBase?: string;
  /**
   * Where the site's other files (images, pages not in the index) are: links to them become
   * absolute under it. @default markdownBase
   */
  siteBase?: string;
  /**
   * The URL of the `llms.txt` named in the first line; `null` leaves the line out (`llms-full.txt`
   * joins pages without it). @default the page language's `llms.txt` under `markdownBase`
   */
  llmsTxtUrl?: string | null;
  /** Overrides how a page's Markdown URL is written (the static bundle writes relative ones). */
  markdownUrl?: (path: string) => string;
  /** Overrides how a link to a file that is not a page (an image) is written; `path` is absolute. */
  fileUrl?: (path: string) => string;
  /**
   * Reads an MDX snippet a page imports (`import Support from '/snippets/support.mdx'`), so
   * `<Support />` becomes the snippet's Markdown. `specifier` as written, `fromFile` the importing
   * file relative to the site's folder; answers the source and its file, or undefined (left out).
   */
  readSnippet?: (specifier: string, fromFile: string) => { source: string; file: string } | undefined;
  /** Leaves links as written, for a caller that rewrites them itself (the static export's HTML). */
  keepLinks?: boolean;
  /**
   * Leaves each heading's own anchor at its end as ` \{#id\}` (`docs/slugs.ts`), for a caller
   * that gives headings their ids itself (the static export's HTML); else it is left out.
   */
  headingIds?: boolean;
}

/** `/guides/setup` → `/guides/setup.md`, `/` → `/index.md`. */
export const markdownPath = (path: string): string =>
  `${path === '/' ? '/index' : path.replace(/\/+$/, '')}.md`;

/** Path of the `llms.txt` of a language: `/llms.txt`, or `/fr/llms.txt` for a site's other languages. */
export function llmsTxtPath(page: Pick<DocPage, 'language' | 'site'>, file = 'llms.txt'): string {
  const languages = page.site?.languages ?? [];
  const language = page.language;
  return language && languages.length > 1 && language !== languages[0] ? `/${language}/${file}` : `/${file}`;
}

// ---------------------------------------------------------------------------------------------
// The MDX scanner: source → a tree of text and elements.

interface MdxElement {
  name: string;
  attributes: Record<string, string>;
  children: MdxNode[];
  /** Column of the `<`: a block element is re-indented to it (it may sit in a list item). */
  column: number;
  /** The tag is the first thing on its line. */
  block: boolean;
  /** Content starts on the opening tag's line (`<Check>Done</Check>`). */
  sameLine: boolean;
  /** Depth of the last Markdown heading before the element (0 before any). */
  headingDepth: number;
  /** How many elements enclose it. */
  nesting: number;
  /** Offset of its opening `<` in the source. */
  start: number;
}
type MdxNode = string | MdxElement;

const VOID_HTML = new Set([
  'img',
  'br',
  'hr',
  'input',
  'source',
  'meta',
  'link',
  'wbr',
  'col',
  'area',
  'embed',
]);

// `import Name from './file.mdx'`: a snippet whose element is its content.
const SNIPPET_IMPORT = /^import\s+([A-Z][\w$]*)\s+from\s+['"]([^'"]+\.mdx?)['"]/;
/** Snippets inside snippets are expanded this deep, no deeper (a snippet may import itself). */
const MAX_SNIPPET_DEPTH = 3;

interface SnippetScope {
  read: NonNullable<PageMarkdownOptions['readSnippet']>;
  /** The file being read, relative to the site's folder. */
  file: string;
  depth: number;
}

/** A snippet's content in place of its element, converted as a page is (`readSnippet`). */
function expandSnippet(element: MdxElement, specifier: string, snippets: SnippetScope): void {
  const read = snippets.read(specifier, snippets.file);
  if (!read) return;
  const body = parseFrontMatter(read.source).body.replace(/\r\n?/g, '\n');
  const inner = scan(body, /\.mdx$/i.test(read.file), {
    ...snippets,
    file: read.file,
    depth: snippets.depth + 1,
  });
  element.name = '#snippet';
  element.children.push(renderChildren(inner.children));
}

/** Builds the tree of one body from the scanner's text and tags (`docs/mdx-scan.ts`). */
class TreeBuilder {
  readonly root: MdxElement = {
    name: '#root',
    attributes: {},
    children: [],
    column: 0,
    block: true,
    sameLine: false,
    headingDepth: 0,
    nesting: -1,
    start: 0,
  };
  readonly imports = new Map<string, string>();
  private readonly stack: MdxElement[] = [this.root];
  private text = '';
  headingDepth = 0;

  constructor(
    private readonly body: string,
    private readonly snippets: SnippetScope | undefined,
  ) {}

  flush(): void {
    if (this.text) this.stack[this.stack.length - 1]!.children.push(this.text);
    this.text = '';
  }

  addText(text: string): void {
    this.text += text;
  }

  close(name: string, end: number): void {
    const at = this.stack.findLastIndex((element) => element.name === name);
    if (at <= 0) return;
    this.flush();
    const element = this.stack[at]!;
    // Opened and closed on one line with text after it: a span of a paragraph.
    const after = this.body.slice(end, lineEnd(this.body, end));
    if (!this.body.slice(element.start, end).includes('\n') && after.trim()) element.block = false;
    this.stack.length = at;
  }

  open(tag: Tag, at: number): void {
    this.flush();
    const { body } = this;
    const lineStart = body.lastIndexOf('\n', at - 1) + 1;
    const rest = body.slice(tag.end, lineEnd(body, tag.end)).trim();
    const element: MdxElement = {
      name: tag.name,
      attributes: tag.attributes,
      children: [],
      column: at - lineStart,
      block: /^[ \t]*$/.test(body.slice(lineStart, at)),
      sameLine: rest !== '',
      headingDepth: this.headingDepth,
      nesting: this.stack.length - 1,
      start: at,
    };
    const selfClosing = tag.selfClosing || VOID_HTML.has(tag.name.toLowerCase());
    const specifier = this.imports.get(tag.name);
    if (specifier && this.snippets && this.snippets.depth < MAX_SNIPPET_DEPTH)
      expandSnippet(element, specifier, this.snippets);
    // A lone tag with text after it on its line (`<Version /> is current`) is part of that text.
    if (selfClosing && rest) element.block = false;
    this.stack[this.stack.length - 1]!.children.push(element);
    if (!selfClosing) this.stack.push(element);
  }
}

/** Reads components, code and text into a tree. Fenced code and code spans are kept as written. */
function scan(body: string, mdx: boolean, snippets?: SnippetScope): MdxElement {
  const tree = new TreeBuilder(body, snippets);
  scanMdx(body, mdx, {
    text: (text) => tree.addText(text),
    tag: (tag, at) => {
      if (!tag.name) return;
      if (tag.closing) tree.close(tag.name, tag.end);
      else tree.open(tag, at);
    },
    esm: (statement) => {
      const snippet = SNIPPET_IMPORT.exec(statement);
      if (snippet) tree.imports.set(snippet[1]!, snippet[2]!);
    },
    line: (line) => {
      const heading = HEADING.exec(line);
      if (heading) tree.headingDepth = heading[1]!.length;
    },
  });
  tree.flush();
  return tree.root;
}

// ---------------------------------------------------------------------------------------------
// Rendering the tree as Markdown.

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Removes the indentation the lines share (the first line left out when it follows a tag). */
function dedent(text: string, skipFirst: boolean): string {
  const lines = text.replace(/^[ \t]*\n/, '').split('\n');
  const counted = lines.filter((line, index) => line.trim() && !(index === 0 && skipFirst));
  const indent = Math.min(...counted.map((line) => /^[ \t]*/.exec(line)![0].length), Number.MAX_SAFE_INTEGER);
  if (!counted.length || !indent) return lines.join('\n').trim();
  return lines
    .map((line, index) =>
      index === 0 && skipFirst
        ? line.trimStart()
        : line.slice(Math.min(indent, /^[ \t]*/.exec(line)![0].length)),
    )
    .join('\n')
    .trim();
}

const indentLines = (text: string, indent: string): string =>
  indent ? text.replace(/^(?=.)/gm, indent) : text;

const blockquote = (text: string): string =>
  text
    .split('\n')
    .map((line) => (line.trim() ? `> ${line}` : '>'))
    .join('\n');

/** A label line: a heading at the page's level when the block is at the top level, else bold text. */
const labelLine = (label: string, depth: number | null): string =>
  depth ? `${'#'.repeat(depth)} ${label}` : `**${label}**`;

/** Depth of the headings a block's labels get: one below the section it is in; null inside other blocks. */
const labelDepth = (element: Pick<MdxElement, 'column' | 'nesting' | 'headingDepth'>): number | null =>
  element.column === 0 && element.nesting === 0 ? Math.min(6, Math.max(2, element.headingDepth + 1)) : null;

/**
 * Fenced code blocks each under a label (its title from the info string: ```` ```js index.js ````,
 * ```` ```sh [npm] ````, `title="…"`, else the language); other lines kept.
 */
export function headedFences(text: string, depth: number | null): string {
  const out: string[] = [];
  const fences = new FenceTracker();
  for (const line of text.split('\n')) {
    if (fences.fence) {
      out.push(line);
      fences.step(line);
      continue;
    }
    const open = fenceOpening(line);
    if (open) {
      fences.fence = open;
      const { info, lang } = open;
      const rest = info.slice(lang.length).trim();
      const title =
        /title=["']([^"']+)["']/.exec(rest)?.[1] ??
        /\[([^\]]+)\]/.exec(rest)?.[1] ??
        (rest.replace(/\{[^}]*\}/g, '').trim() || lang || 'Code');
      if (out.length && out[out.length - 1]!.trim()) out.push('');
      out.push(labelLine(oneLine(title), depth), '', `${line.slice(0, open.indent)}${open.marker}${lang}`);
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}

function renderChildren(children: MdxNode[]): string {
  let out = '';
  for (const child of children) {
    if (typeof child === 'string') {
      out += out.endsWith(' ') && child.startsWith(' ') ? child.slice(1) : child;
      continue;
    }
    const rendered = renderElement(child);
    if (!child.block) {
      // A dropped inline tag (`with <Icon /> an icon`) leaves one space, not two.
      out = rendered || !out.endsWith(' ') ? out + rendered : out.replace(/ +$/, ' ');
      continue;
    }
    // A block element: on lines of its own, indented as its tag was (it may sit in a list item).
    out = out.replace(/[ \t]+$/, '');
    if (out && !out.endsWith('\n')) out += '\n';
    if (out && !out.endsWith('\n\n')) out += '\n';
    out += rendered.trim() ? `${indentLines(rendered.trim(), ' '.repeat(child.column))}\n\n` : '';
  }
  return out;
}

const inner = (element: MdxElement): string =>
  tidy(dedent(renderChildren(element.children), element.sameLine)).trim();
const innerInline = (element: MdxElement): string => oneLine(renderChildren(element.children));

const firstAttribute = (element: MdxElement, names: string[]): string | undefined =>
  names.map((name) => element.attributes[name]).find((value) => value?.trim());

function renderSteps(element: MdxElement): string {
  const steps = element.children.filter((child): child is MdxElement => typeof child !== 'string');
  if (!steps.some((step) => step.name === 'Step')) return inner(element);
  return steps
    .filter((step) => step.name === 'Step')
    .map((step, index) => {
      const marker = `${index + 1}. `;
      const title = firstAttribute(step, ['title']);
      const body = inner(step);
      const first = title ? `**${oneLine(title)}**` : '';
      const text = [first, body].filter(Boolean).join('\n\n');
      return `${marker}${indentLines(text, ' '.repeat(marker.length)).trimStart()}`;
    })
    .join('\n\n');
}

function renderTabs(element: MdxElement): string {
  const depth = labelDepth(element);
  const tabs = element.children.filter((child): child is MdxElement => typeof child !== 'string');
  if (!tabs.length) return inner(element);
  return tabs
    .map((tab, index) => {
      const label = firstAttribute(tab, ['title', 'label', 'value']) ?? `Tab ${index + 1}`;
      return `${labelLine(oneLine(label), depth)}\n\n${inner(tab)}`;
    })
    .join('\n\n');
}

function renderField(element: MdxElement): string {
  const name = firstAttribute(element, ['name', 'path', 'query', 'body', 'header', 'param']) ?? '';
  const facts = [
    element.attributes.type ? `\`${oneLine(element.attributes.type)}\`` : '',
    element.attributes.required === 'true' ? 'required' : '',
    element.attributes.default ? `default: \`${oneLine(element.attributes.default)}\`` : '',
  ].filter(Boolean);
  const head = [name ? `**\`${oneLine(name)}\`**` : '', ...facts].filter(Boolean).join(' · ');
  return [head, inner(element)].filter(Boolean).join('\n\n');
}

function renderElement(element: MdxElement): string {
  const name = element.name;
  const lower = name.toLowerCase();
  if (!element.block) {
    // Inline: links, images and code keep their meaning, any other tag its text.
    if (lower === 'a' && element.attributes.href)
      return `[${innerInline(element)}](${element.attributes.href})`;
    if (lower === 'img' && element.attributes.src)
      return `![${element.attributes.alt ?? ''}](${element.attributes.src})`;
    if (lower === 'br') return ' ';
    if (lower === 'code' || lower === 'kbd') return `\`${innerInline(element)}\``;
    if (lower === 'strong' || lower === 'b') return `**${innerInline(element)}**`;
    if (lower === 'em' || lower === 'i') return `*${innerInline(element)}*`;
    if (!element.children.length) return '';
    if (name === '#snippet') return renderChildren(element.children).trim();
    return renderChildren(element.children);
  }
  const title = firstAttribute(element, ['title', 'label']);
  const callout = calloutLabel(name, element.attributes);
  if (callout) return calloutOf(callout, title, inner(element));
  switch (name) {
    case 'Steps':
      return renderSteps(element);
    case 'Step':
      return [title ? `**${oneLine(title)}**` : '', inner(element)].filter(Boolean).join('\n\n');
    case 'Tabs':
      return renderTabs(element);
    case 'Tab':
    case 'TabItem':
      return [title ? labelLine(oneLine(title), null) : '', inner(element)].filter(Boolean).join('\n\n');
    case 'CodeGroup':
    case 'CodeBlocks':
      return headedFences(inner(element), labelDepth(element));
    case 'Card':
    case 'LinkCard':
    case 'Update': {
      const href = element.attributes.href;
      const text = title ? oneLine(title) : href;
      const head = text ? (href ? `**[${text}](${href})**` : `**${text}**`) : '';
      const description = element.attributes.description ? oneLine(element.attributes.description) : '';
      return [head, description, inner(element)].filter(Boolean).join('\n\n');
    }
    case 'Accordion':
    case 'Expandable':
      return [title ? `**${oneLine(title)}**` : '', inner(element)].filter(Boolean).join('\n\n');
    case 'ParamField':
    case 'ResponseField':
    case 'Field':
      return renderField(element);
    case 'Frame': {
      const caption = element.attributes.caption;
      return [inner(element), caption ? `*${oneLine(caption)}*` : ''].filter(Boolean).join('\n\n');
    }
    default:
      break;
  }
  if (lower === 'img' && element.attributes.src)
    return `![${element.attributes.alt ?? ''}](${element.attributes.src})`;
  if (lower === 'a' && element.attributes.href)
    return `[${innerInline(element)}](${element.attributes.href})`;
  if (lower === 'hr') return '---';
  if (/^h[1-6]$/.test(lower)) return `${'#'.repeat(Number(lower[1]))} ${innerInline(element)}`;
  if (lower === 'details') {
    const summary = element.children.find(
      (child): child is MdxElement => typeof child !== 'string' && child.name.toLowerCase() === 'summary',
    );
    const rest = { ...element, children: element.children.filter((child) => child !== summary) };
    const head = summary ? innerInline(summary) : title;
    return [head ? `**${head}**` : '', inner(rest)].filter(Boolean).join('\n\n');
  }
  if (lower === 'summary') return `**${innerInline(element)}**`;
  // Any other component: its children, with its visible title (an accordion-like box) first.
  const body = inner(element);
  return [title ? `**${oneLine(title)}**` : '', body].filter(Boolean).join('\n\n');
}

// ---------------------------------------------------------------------------------------------
// Admonitions and the other directive syntaxes (`docs/mdx-admonitions.ts`): `:::note`,
// `::: code-group`, `::: details`, MkDocs `!!! note`, `??? note` and `=== "Tab"`.

/**
 * An admonition's meaning: a blockquote led by its label in bold, `> **Note:** text` (the label
 * on the first paragraph) or `> **Caution: Title**` over the body.
 */
function calloutOf(label: string, title: string | undefined, body: string): string {
  if (title?.trim())
    return blockquote([`**${label}: ${oneLine(title)}**`, body].filter(Boolean).join('\n\n'));
  // The label leads the first paragraph; before a list, a quote, code or a heading it stands alone.
  const opensParagraph =
    body && !/^([-*+>#|]|\d+[.)]|```|~~~| {4})/.test(body) && !fenceOpening(body.split('\n')[0]!);
  return blockquote(
    opensParagraph ? `**${label}:** ${body}` : [`**${label}:**`, body].filter(Boolean).join('\n\n'),
  );
}

function renderAdmonition(admonition: Admonition): string {
  const body = tidy(admonition.body).trim();
  const { title, type } = admonition;
  const top = admonition.topLevel ? Math.min(6, Math.max(2, admonition.headingDepth + 1)) : null;
  const label = admonitionCallout(admonition);
  if (label) return calloutOf(label, title, body);
  if (admonition.syntax === 'tab') return `${labelLine(oneLine(title ?? ''), top)}\n\n${body}`;
  if (type === 'code-group') return headedFences(body, top);
  if (type === 'details') return [title ? `**${oneLine(title)}**` : '', body].filter(Boolean).join('\n\n');
  return body;
}

// ---------------------------------------------------------------------------------------------
// Links.

const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;
const filesByLookup = new WeakMap<readonly DocPage[], Map<string, DocPage>>();

function pageOfFile(lookup: PageLookup, file: string): DocPage | undefined {
  let byFile = filesByLookup.get(lookup.pages);
  if (!byFile) {
    byFile = new Map();
    for (const page of lookup.pages) if (!byFile.has(page.file)) byFile.set(page.file, page);
    filesByLookup.set(lookup.pages, byFile);
  }
  return byFile.get(file);
}

const isIndexFile = (file: string): boolean => /(^|\/)index\.mdx?$/i.test(file);

/** Where a link of `page` points, written for agents; undefined keeps it as written. */
function resolveUrl(url: string, page: DocPage, options: PageMarkdownOptions): string | undefined {
  if (!url || url.startsWith('#') || EXTERNAL.test(url)) return undefined;
  const hashAt = url.search(/[?#]/);
  const pathPart = hashAt < 0 ? url : url.slice(0, hashAt);
  const hash = hashAt < 0 ? '' : (/#.*$/.exec(url.slice(hashAt))?.[0] ?? '');
  if (!pathPart) return undefined;
  const lookup = options.pages;
  let target: DocPage | undefined;
  let path: string;
  let decoded: string;
  try {
    decoded = decodeURI(pathPart);
  } catch {
    decoded = pathPart;
  }
  if (/\.mdx?$/i.test(decoded) && !decoded.startsWith('/')) {
    // A link to a source file, relative to the linking file (`./setup.md`, `../api/keys.mdx`).
    const file = new URL(decoded, `http://x/${page.file}`).pathname.slice(1);
    target = lookup ? pageOfFile(lookup, file) : undefined;
    path = target?.path ?? pagePathFromFile(file);
  } else {
    // A URL path, relative to the page's URL (an index page's URL is its folder).
    const base = `http://x${page.path === '/' ? '/' : isIndexFile(page.file) ? `${page.path}/` : page.path}`;
    path = new URL(decoded, base).pathname;
  }
  const bare = normalizePath(path.replace(/\.(mdx?|html?)$/i, ''));
  target ??= lookup?.page(bare) ?? lookup?.page(bare.toLowerCase());
  const markdownBase = (options.markdownBase ?? '').replace(/\/+$/, '');
  if (target)
    return `${options.markdownUrl ? options.markdownUrl(target.path) : `${markdownBase}${markdownPath(target.path)}`}${hash}`;
  if (options.fileUrl) return `${options.fileUrl(path)}${hash}`;
  const siteBase = (options.siteBase ?? markdownBase).replace(/\/+$/, '');
  return `${siteBase}${encodeURI(path)}${hash}`;
}

/** Where the destination of a link, image or definition is in its source, or null. */
function destinationRange(markdown: string, node: Link | Image | Definition): [number, number] | null {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  if (start === undefined || end === undefined) return null;
  let at: number;
  if (node.type === 'definition') {
    at = markdown.indexOf(']:', start);
    if (at < 0 || at > end) return null;
    at += 2;
  } else {
    if (markdown[end - 1] !== ')') return null;
    const label =
      node.type === 'link' ? node.children[node.children.length - 1]?.position?.end.offset : undefined;
    at = markdown.indexOf('](', label ?? start);
    if (at < 0 || at > end) return null;
    at += 2;
  }
  while (at < end && /\s/.test(markdown[at]!)) at++;
  if (markdown[at] === '<') {
    const close = markdown.indexOf('>', at);
    return close < 0 || close > end ? null : [at + 1, close];
  }
  let stop = at;
  let depth = 0;
  while (stop < end && !/\s/.test(markdown[stop]!)) {
    if (markdown[stop] === '(') depth++;
    if (markdown[stop] === ')' && depth-- === 0) break;
    stop++;
  }
  return [at, stop];
}

/**
 * The page's top-level blocks as `[start, end)` offsets: a block starts at a line at the left
 * margin after a blank line (outside fenced code); indented lines after a blank one (a list item's
 * paragraphs, indented code) stay with the block above, so each parses as it does in the page.
 */
function topLevelBlocks(markdown: string): [number, number][] {
  const blocks: [number, number][] = [];
  let start = 0;
  let blank = false;
  const fences = new FenceTracker();
  for (let at = 0; at < markdown.length; ) {
    const next = markdown.indexOf('\n', at);
    const end = next < 0 ? markdown.length : next + 1;
    const line = markdown.slice(at, end).replace(/\n$/, '');
    const inCode = fences.fence !== null;
    fences.step(line);
    if (inCode) {
      // Code: no block starts inside it.
    } else if (!line.trim()) {
      blank = true;
    } else {
      if (blank && !/^\s/.test(line) && at > start) {
        blocks.push([start, at]);
        start = at;
      }
      blank = false;
    }
    at = end;
  }
  if (start < markdown.length) blocks.push([start, markdown.length]);
  return blocks;
}

function rewriteLinks(markdown: string, page: DocPage, options: PageMarkdownOptions): string {
  // Every inline link and image has `](`, every definition `]:`: without them, nothing to parse.
  if (!markdown.includes('](') && !markdown.includes(']:')) return markdown;
  const edits: { from: number; to: number; url: string }[] = [];
  // Only the blocks that may hold a link are parsed: the parser reads about 1 MB/s, the rest of
  // the conversion fifty times faster. CommonMark is enough: a GFM table row's links are inline
  // links to it too, GFM autolinks are external.
  for (const [start, end] of topLevelBlocks(markdown)) {
    const block = markdown.slice(start, end);
    if (!block.includes('](') && !block.includes(']:')) continue;
    const visit = (node: Nodes) => {
      // A footnote (`[^1]: note`) reads as a definition to CommonMark: not a link.
      const footnote = node.type === 'definition' && node.label?.startsWith('^');
      if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && !footnote) {
        const resolved = resolveUrl(node.url, page, options);
        const range = resolved === undefined ? null : destinationRange(block, node);
        if (range && resolved !== undefined) {
          const written = /[\s()<>]/.test(resolved) ? `<${resolved}>` : resolved;
          edits.push({ from: start + range[0], to: start + range[1], url: written });
        }
      }
      if ('children' in node) for (const child of node.children) visit(child);
    };
    visit(fromMarkdown(block));
  }
  edits.sort((a, b) => b.from - a.from);
  let out = markdown;
  for (const edit of edits) out = out.slice(0, edit.from) + edit.url + out.slice(edit.to);
  return out;
}

/** Blank lines run together, outside code; trailing blank lines go. */
function tidy(markdown: string): string {
  const out: string[] = [];
  const fences = new FenceTracker();
  for (const line of markdown.split('\n')) {
    const inCode = fences.fence !== null;
    fences.step(line);
    if (inCode) {
      out.push(line);
      continue;
    }
    if (!line.trim() && (!out.length || !out[out.length - 1]!.trim())) continue;
    out.push(line.trim() ? line.replace(/[ \t]+$/, (spaces) => (spaces.length >= 2 ? '  ' : '')) : '');
  }
  while (out.length && !out[out.length - 1]!.trim()) out.pop();
  return `${out.join('\n')}\n`;
}

/** The body of a page (front matter removed) as clean Markdown: components converted, links resolved. */
export function convertBody(body: string, page: DocPage, options: PageMarkdownOptions = {}): string {
  const mdx = /\.mdx$/i.test(page.file) || (page.sourceFile ? /\.mdx$/i.test(page.sourceFile) : false);
  const text = markHeadingIds(body.replace(/\r\n?/g, '\n'), page.site);
  const components = renderChildren(
    scan(
      mdx ? text.replace(JSX_COMMENT, '') : text,
      mdx,
      options.readSnippet ? { read: options.readSnippet, file: page.file, depth: 0 } : undefined,
    ).children,
  );
  const converted = tidy(rewriteAdmonitions(tidy(components), renderAdmonition));
  const markdown = options.headingIds ? converted : dropHeadingIds(converted, page.site);
  return options.keepLinks ? markdown : rewriteLinks(markdown, page, options);
}

/**
 * The page's Markdown from its source: a one-line pointer to `llms.txt`, the title as H1 (unless
 * the body opens with one), the description, then the body converted by `convertBody`.
 */
export function markdownOfSource(page: DocPage, source: string, options: PageMarkdownOptions = {}): string {
  const { body } = parseFrontMatter(source);
  const converted = convertBody(body, page, options);
  const opensWithTitle = /^#[ \t]+\S/.test(converted);
  const description = page.description && !converted.includes(page.description) ? page.description : '';
  // The title as H1 (the body's own when it opens with one), the description under it.
  const [title, rest] = opensWithTitle
    ? [converted.slice(0, converted.indexOf('\n')).trim(), converted.slice(converted.indexOf('\n') + 1)]
    : [`# ${page.title}`, converted];
  const parts = [title, description, rest.trim()].filter(Boolean);
  return withPointer(`${parts.join('\n\n')}\n`, page, options);
}

/** Puts the one-line pointer to `llms.txt` above a page's Markdown (unless `llmsTxtUrl` is null). */
export function withPointer(markdown: string, page: DocPage, options: PageMarkdownOptions): string {
  if (options.llmsTxtUrl === null) return markdown;
  const url = options.llmsTxtUrl ?? `${(options.markdownBase ?? '').replace(/\/+$/, '')}${llmsTxtPath(page)}`;
  return `> Documentation index for agents: [llms.txt](${url}) lists every page as Markdown.\n\n${markdown}`;
}
