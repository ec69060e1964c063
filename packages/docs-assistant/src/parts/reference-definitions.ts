/**
 * Reference links (`[text][label]` with `[label]: /url` anywhere in the answer) and footnotes
 * (`[^n]` with `[^n]: text`) across the Markdown blocks of an answer.
 *
 * Each block is parsed on its own (see `split-markdown-blocks.ts`), and the parser only makes a
 * reference of `[label]` when the definition is in the same text. So the blocks are scanned for
 * definitions and for the labels they use, and a block that uses a label defined in another block
 * is parsed with that definition appended (`extra`): a link definition as written, a footnote as a
 * stub whose only job is to make the call parse (the footnote's text is shown once, at the end).
 * A block that uses no defined label gets no `extra`, so it stays memoised like any other.
 * Pure functions, no React.
 */
import { ATX_HEADING, closesFence, type Fence, openFence } from './split-markdown-blocks.js';

// `[label]: destination "optional title"` on one line (CommonMark 4.7; a definition spread over
// lines is left to the block it is in).
const LINK_DEFINITION =
  /^ {0,3}\[((?:[^\\[\]]|\\.)+)\]:[ \t]*(?:<[^<>\n]*>|[^\s<]\S*)(?:[ \t]+(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\)))?[ \t]*$/;
// `[^label]: text`; GFM footnote labels hold no whitespace.
const FOOTNOTE_DEFINITION = /^ {0,3}\[\^([^\s[\]]+)\]:[ \t]*(.*)$/;
// `[label]` and `[^label]` wherever they are; brackets cannot nest inside a label.
const LABEL = /\[((?:[^\\[\]]|\\.)+)\]/g;
// HTML blocks that run to the end of the text until their end marker (CommonMark 4.6, kinds 1-5):
// anything appended to such a block would show up inside it.
const HTML_RUNS_ON = /^ {0,3}<(?:[!?]|(?:script|pre|style|textarea)(?:[\s>]|$))/im;
// A footnote's continuation lines are indented up to this much (or by a tab).
const FOOTNOTE_INDENT = /^(?: {1,4}|\t)/;

/** The way the parser compares labels: case-insensitive, runs of whitespace as one space. */
export function normalizeLabel(label: string): string {
  return label
    .replace(/[\t\n\r ]+/g, ' ')
    .trim()
    .toLowerCase()
    .toUpperCase();
}

export interface FootnoteDefinition {
  /** The normalised label. */
  key: string;
  /** The footnote's Markdown, continuation lines unindented. */
  content: string;
}

/** What one block defines and uses. */
export interface BlockReferences {
  /** Link definitions: normalised label and the definition line as written. */
  links: [key: string, line: string][];
  footnotes: FootnoteDefinition[];
  /** Labels the block may use, normalised; footnote labels start with `^`. */
  uses: string[];
  /** Appending to the block would land inside it (an unclosed fence or raw HTML block). */
  sealed: boolean;
}

/**
 * Scans one block. `lastLineIncomplete`: the block's last line may still be streaming, so a link
 * definition on it (whose URL may be cut short) is not taken yet.
 */
export function scanBlock(block: string, lastLineIncomplete = false): BlockReferences {
  const links: BlockReferences['links'] = [];
  const footnotes: FootnoteDefinition[] = [];
  // Most blocks have no brackets at all: nothing to define, nothing to use.
  if (!block.includes('[')) return { links, footnotes, uses: [], sealed: false };
  const lines = block.split('\n');
  let fence: Fence | null = null;
  // The line before continues a paragraph, which a definition cannot interrupt.
  let inParagraph = false;
  // The footnote whose text the lines are, up to the next definition: within one block a blank
  // line is always followed by an indented continuation (see `split-markdown-blocks.ts`).
  let note: FootnoteDefinition | undefined;

  lines.forEach((line, index) => {
    const footnote = FOOTNOTE_DEFINITION.exec(line);
    const link = footnote ? null : LINK_DEFINITION.exec(line);
    if (note && !footnote && !link) {
      note.content += `\n${line.replace(FOOTNOTE_INDENT, '')}`;
      return;
    }
    note = undefined;
    if (fence) {
      if (closesFence(line, fence)) fence = null;
    } else if (!line.trim()) {
      inParagraph = false;
    } else if (footnote && !inParagraph) {
      note = { key: normalizeLabel(footnote[1]!), content: footnote[2]! };
      footnotes.push(note);
    } else if (link && !inParagraph && link[1]![0] !== '^' && link[1]!.trim()) {
      if (!lastLineIncomplete || index < lines.length - 1)
        links.push([normalizeLabel(link[1]!), line.trim()]);
    } else {
      fence = openFence(line);
      inParagraph = !fence && !ATX_HEADING.test(line);
    }
  });

  const uses = new Set<string>();
  for (const [, label] of block.matchAll(LABEL)) {
    uses.add(label![0] === '^' ? `^${normalizeLabel(label!.slice(1))}` : normalizeLabel(label!));
  }
  return { links, footnotes, uses: [...uses], sealed: fence !== null || HTML_RUNS_ON.test(block) };
}

/** A footnote as shown at the end of the answer. */
export interface Footnote extends FootnoteDefinition {
  /** 1-based, in the order the definitions appear (so numbers never change as the answer grows). */
  number: number;
}

/** What a block needs from the rest of the answer. */
export interface BlockExtras {
  /** Definitions to parse the block with (empty when it uses none from elsewhere). */
  extra: string;
  /** `KEY number` for each footnote the block calls (labels hold no spaces), one per line. */
  notes: string;
}

export interface AnswerReferences {
  /** Per block, in order. */
  blocks: BlockExtras[];
  /** Footnotes in definition order, the first definition of a label winning (as in CommonMark). */
  footnotes: Footnote[];
  /** Per footnote, what its own text needs. */
  footnoteExtras: BlockExtras[];
}

const NO_EXTRAS: BlockExtras = { extra: '', notes: '' };

/** Ties the blocks' uses to the definitions anywhere in the answer. */
export function collectReferences(scans: BlockReferences[]): AnswerReferences {
  const links = new Map<string, string>();
  const notes = new Map<string, Footnote>();
  for (const scan of scans) {
    for (const [key, line] of scan.links) if (!links.has(key)) links.set(key, line);
    for (const note of scan.footnotes) {
      if (!notes.has(note.key)) notes.set(note.key, { ...note, number: notes.size + 1 });
    }
  }

  const extrasOf = (scan: BlockReferences): BlockExtras => {
    if (scan.uses.length === 0 || (links.size === 0 && notes.size === 0)) return NO_EXTRAS;
    const definitions: string[] = [];
    const stubs: string[] = [];
    const numbers: string[] = [];
    for (const use of scan.uses) {
      if (use.startsWith('^')) {
        const key = use.slice(1);
        const note = notes.get(key);
        if (!note) continue;
        numbers.push(`${key} ${note.number}`);
        if (!scan.footnotes.some((own) => own.key === key)) stubs.push(`[^${key}]: ${note.number}`);
      } else {
        const line = links.get(use);
        if (line && !scan.links.some(([own]) => own === use)) definitions.push(line);
      }
    }
    if (definitions.length === 0 && numbers.length === 0) return NO_EXTRAS;
    const extra = scan.sealed ? '' : [definitions.join('\n'), ...stubs].filter(Boolean).join('\n\n');
    return { extra, notes: numbers.join('\n') };
  };

  const footnotes = [...notes.values()];
  return {
    blocks: scans.map(extrasOf),
    footnotes,
    footnoteExtras: footnotes.map((note) => extrasOf(scanBlock(note.content))),
  };
}
