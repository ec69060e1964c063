/**
 * The Markdown worker: parses the blocks of an answer that is streaming, off the page's main
 * thread (`parse-off-thread.ts` sends them). One message in, the texts of a frame as `{ id, text }`
 * each, one out, `{ id, tree }` (the HTML tree) or `{ id, error }` each, in the same order: a
 * message costs the page more than its size. Positions are dropped but on footnote calls, whose offsets
 * number them (`markdown.tsx`): the tree is copied to the page, and most of a tree's objects are
 * positions.
 */
import type { Nodes, Root } from 'hast';
// Before the parser: it needs `document` as it loads.
import './worker-dom.js';
import { parseMarkdown } from './parse-markdown.js';

export interface ParseRequest {
  id: number;
  text: string;
}

export type ParseResponse = { id: number; tree: Root } | { id: number; error: string };

function dropPositions(node: Nodes): void {
  if (!(node.type === 'element' && node.properties.dataFootnoteRef !== undefined)) delete node.position;
  if ('children' in node) for (const child of node.children) dropPositions(child);
}

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<ParseRequest[]>) => void) | null;
  postMessage(message: ParseResponse[]): void;
};

function parse({ id, text }: ParseRequest): ParseResponse {
  try {
    const tree = parseMarkdown(text);
    dropPositions(tree);
    return { id, tree };
  } catch (error) {
    return { id, error: error instanceof Error ? error.message : String(error) };
  }
}

scope.onmessage = ({ data }) => scope.postMessage(data.map(parse));
