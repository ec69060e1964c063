/**
 * Admonitions in each syntax a docs framework publishes, read into what they mean (a labelled
 * quote): `:::note`, `:::note Title`, `:::note[Title]` (Docusaurus, VitePress, Starlight; nested
 * by a longer run of colons or by counting), MkDocs `!!! note "Title"` and the collapsible
 * `??? note` / `???+ note` with their indented body, and the callout components (Mintlify `<Note>`,
 * `<Tip>`, `<Warning>`, `<Info>`, `<Check>`, `<Danger>`, `<Callout>`; Starlight `<Aside type>`;
 * Docusaurus `<Admonition type>`). Each reader renders the meaning its own way: `agents/markdown.ts`
 * as a blockquote led by the label in bold, `parse.ts` as text led by the label.
 */
import { FenceTracker, HEADING } from './mdx-scan.js';

/** The label a reader sees for each kind of admonition and callout component (lower case). */
const LABELS: Record<string, string> = {
  note: 'Note',
  tip: 'Tip',
  info: 'Info',
  warning: 'Warning',
  caution: 'Caution',
  danger: 'Danger',
  important: 'Important',
  check: 'Check',
  success: 'Success',
  error: 'Error',
  callout: 'Note',
  aside: 'Note',
  admonition: 'Note',
  // MkDocs Material's other types.
  abstract: 'Abstract',
  summary: 'Summary',
  tldr: 'TL;DR',
  hint: 'Tip',
  attention: 'Attention',
  failure: 'Failure',
  bug: 'Bug',
  example: 'Example',
  quote: 'Quote',
  question: 'Question',
  faq: 'FAQ',
};

const capitalize = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** The label of an admonition type: `caution` → `Caution`; an unknown one capitalized (`Experimental`). */
export const admonitionLabel = (type: string): string =>
  LABELS[type.toLowerCase()] ?? capitalize(type.toLowerCase());

/**
 * The label of a callout component (`<Note>`, `<Aside type="caution">`, `<Callout type="warning">`),
 * or undefined when the component is no callout.
 */
export function calloutLabel(name: string, attributes: Record<string, string>): string | undefined {
  const own = LABELS[name.toLowerCase()];
  if (!own) return undefined;
  const type = attributes.type?.toLowerCase();
  return (type && LABELS[type]) || own;
}

// Containers that only change how their body is shown (VitePress `::: v-pre`, `::: raw`).
const PLAIN_CONTAINERS = new Set(['v-pre', 'raw']);

/**
 * The label of an admonition that is a callout (`Note`, `Caution`); undefined for a content tab, a
 * code group, details, or a container that only changes how its body is shown (`::: v-pre`).
 */
export function admonitionCallout(admonition: Pick<Admonition, 'syntax' | 'type'>): string | undefined {
  const { syntax, type } = admonition;
  if (syntax === 'tab') return undefined;
  if (syntax === 'container' && (type === 'code-group' || type === 'details' || PLAIN_CONTAINERS.has(type)))
    return undefined;
  return admonitionLabel(type);
}

/** One admonition as found: its kind and type, its title, its body (already read itself). */
export interface Admonition {
  /**
   * `container` for `:::type`, `mkdocs` for `!!!`/`???`, `tab` for MkDocs' `=== "Tab"`, `alert`
   * for a GitHub alert (`> [!NOTE]`, which VitePress reads too).
   */
  syntax: 'container' | 'mkdocs' | 'tab' | 'alert';
  /** Lower-case type: `note`, `code-group`, `details`; a tab's is `tab`. */
  type: string;
  title?: string;
  /** The body, dedented, its own admonitions already rendered. */
  body: string;
  /** Whether the block starts at the left margin (not in a list item or another block). */
  topLevel: boolean;
  /** Depth of the last heading above the block (0 before any). */
  headingDepth: number;
}

const CONTAINER_OPEN =
  /^([ \t]*)(:{3,})[ \t]*([A-Za-z][\w-]*)[ \t]*(?:\[([^\]]*)\])?[ \t]*(\{[^}]*\})?[ \t]*(.*)$/;
const CONTAINER_CLOSE = /^[ \t]*(:{3,})[ \t]*$/;
const MKDOCS_ADMONITION = /^([ \t]*)(?:!!!|\?\?\?\+?)[ \t]+([A-Za-z][\w-]*)(?:[^"\n]*"([^"]*)")?[ \t]*$/;
const MKDOCS_TAB = /^([ \t]*)===\+?[ \t]+"([^"]*)"[ \t]*$/;
const ALERT = /^([ \t]*)>[ \t]*\[!(note|tip|important|warning|caution)\][ \t]*$/i;
// Text that may hold an admonition: without any of these, a page is returned as it is.
const MAY_HOLD = /:::|!!!|\?\?\?|===|\[!/;

/** Removes the indentation the lines share. */
function dedent(lines: string[]): string {
  const counted = lines.filter((line) => line.trim());
  const indent = Math.min(...counted.map((line) => /^[ \t]*/.exec(line)![0].length));
  const text =
    counted.length && indent ? lines.map((line) => line.slice(Math.min(indent, line.length))) : lines;
  return text.join('\n').replace(/^\n+|\s+$/g, '');
}

/**
 * Index of the line closing the `:::` container opened at `open` (a run of as many colons; inner
 * containers of the same run counted), outside fenced code; `lines.length` when it is never closed
 * (it then runs to the end, as a fenced block does).
 */
function containerEnd(lines: string[], open: number, colons: number): number {
  let depth = 0;
  const fences = new FenceTracker();
  for (let j = open + 1; j < lines.length; j++) {
    const line = lines[j]!;
    if (fences.step(line)) continue;
    if (CONTAINER_OPEN.exec(line)?.[2]?.length === colons) depth++;
    if (CONTAINER_CLOSE.exec(line)?.[1]?.length === colons && depth-- === 0) return j;
  }
  return lines.length;
}

/** Index just past the indented body of a MkDocs block opened at `open` (blank lines inside allowed). */
function indentedEnd(lines: string[], open: number, indent: number): number {
  let end = open + 1;
  while (end < lines.length && (!lines[end]!.trim() || /^[ \t]*/.exec(lines[end]!)![0].length >= indent + 4))
    end++;
  while (end > open + 1 && !lines[end - 1]!.trim()) end--;
  return end;
}

/** A `title="…"` among a container's `{…}` attributes (`:::note{title="Read this"}`). */
const attributeTitle = (attributes: string | undefined): string | undefined =>
  attributes ? /title=["']([^"']*)["']/.exec(attributes)?.[1] : undefined;

/**
 * Finds the admonitions of a Markdown text (outside fenced code) and puts `render`'s text in
 * their place, indented as the block was. A closing `:::` with nothing open is dropped: a reader
 * never sees a raw `:::` line.
 */
export function rewriteAdmonitions(text: string, render: (admonition: Admonition) => string): string {
  if (!MAY_HOLD.test(text)) return text;
  const lines = text.split('\n');
  const out: string[] = [];
  const fences = new FenceTracker();
  let headingDepth = 0;
  const place = (indent: string, admonition: Omit<Admonition, 'topLevel' | 'headingDepth'>) => {
    const rendered = render({ ...admonition, topLevel: indent === '', headingDepth });
    out.push('', rendered.replace(/^(?=.)/gm, indent), '');
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fences.step(line)) {
      out.push(line);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) headingDepth = heading[1]!.length;
    const container = CONTAINER_OPEN.exec(line);
    if (container) {
      const [, indent, colons, type, bracketTitle, attributes, restTitle] = container;
      const end = containerEnd(lines, i, colons!.length);
      const title = bracketTitle ?? attributeTitle(attributes) ?? restTitle;
      const body = rewriteAdmonitions(dedent(lines.slice(i + 1, end)), render);
      place(indent!, {
        syntax: 'container',
        type: type!.toLowerCase(),
        ...(title?.trim() ? { title: title.trim() } : {}),
        body,
      });
      i = end;
      continue;
    }
    if (CONTAINER_CLOSE.test(line)) continue;
    const alert = ALERT.exec(line);
    if (alert) {
      // The alert is the blockquote it opens: the lines after it that go on quoting.
      let end = i + 1;
      const quoted = new RegExp(`^${alert[1]}>`);
      while (end < lines.length && quoted.test(lines[end]!)) end++;
      const inner = lines
        .slice(i + 1, end)
        .map((quotedLine) => quotedLine.slice(alert[1]!.length).replace(/^> ?/, ''));
      place(alert[1]!, {
        syntax: 'alert',
        type: alert[2]!.toLowerCase(),
        body: rewriteAdmonitions(dedent(inner), render),
      });
      i = end - 1;
      continue;
    }
    const mkdocs = MKDOCS_ADMONITION.exec(line);
    const tab = mkdocs ? null : MKDOCS_TAB.exec(line);
    if (mkdocs || tab) {
      const indent = (mkdocs ?? tab)![1]!;
      const end = indentedEnd(lines, i, indent.length);
      const body = rewriteAdmonitions(dedent(lines.slice(i + 1, end)), render);
      const title = mkdocs ? mkdocs[3]?.trim() : tab![2]!.trim();
      place(indent, {
        syntax: mkdocs ? 'mkdocs' : 'tab',
        type: mkdocs ? mkdocs[2]!.toLowerCase() : 'tab',
        ...(title ? { title } : {}),
        body,
      });
      i = end - 1;
      continue;
    }
    out.push(line);
  }
  return out.join('\n');
}
