/**
 * The Markdown parser on the page's own thread, for the widget: loaded the first time a block needs
 * it, which is only where the Markdown worker cannot parse (no `Worker`, a worker that failed to
 * load or gave up, a text it could not parse). Where the worker runs, the page never loads a second
 * copy of the parser (micromark, mdast and GFM: about 25 kB gzip): the worker's is the only one.
 *
 * The public renderers (`Markdown`, `MessageParts`, `TextPart` from the package's entries) render
 * synchronously, on the server too: they pass the parser itself (`parts/with-parser.tsx`) through
 * `MarkdownParserContext`, and never wait for this one.
 */
import type { Root } from 'hast';

export type ParseMarkdown = (markdown: string) => Root;

let parser: ParseMarkdown | null = null;
let loading = false;
const listeners = new Set<() => void>();

/**
 * The page's parser if it has loaded; else starts loading it (once at a time; a load that failed is
 * tried again by the next call) and returns `null`: the block shows what it showed, and renders
 * again when the parser is there (`subscribeToPageParser`).
 */
export function pageParser(): ParseMarkdown | null {
  if (parser || loading) return parser;
  loading = true;
  import('./parse-markdown.js').then(
    (module) => {
      loading = false;
      parser = module.parseMarkdown;
      for (const listener of listeners) listener();
    },
    () => {
      // A chunk that did not load (the network): nothing to render with; a later render asks again.
      loading = false;
      for (const listener of listeners) listener();
    },
  );
  return null;
}

/** Calls `listener` when the page's parser has loaded (or failed to). */
export function subscribeToPageParser(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
