/**
 * The `search` tool's results and the citable sources, built together so they agree: the widget
 * lists the search results and the `h:` source parts in one list, de-duplicated by link, in part
 * order (the tool result comes first). A source part with the same `url` and `title` as the result
 * it cites folds into that entry, so `[n]` in an answer is the n-th entry of the list.
 */
import { type DataStreamWriter, formatDataStreamPart } from 'ai';
import type { SearchResult } from 'docs-assistant/protocol';
import type { RetrievalHit } from '../retrieval/search-index.js';
import type { SourceRef } from './types.js';

// Characters of a search result's snippet.
const SNIPPET_CHARS = 200;

function snippet(hit: RetrievalHit): string {
  const text = [...hit.section.blocks, ...hit.section.rows].join(' ') || hit.section.code[0]?.code || '';
  if (text.length <= SNIPPET_CHARS) return text;
  const cut = text.slice(0, SNIPPET_CHARS);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), SNIPPET_CHARS - 40))}…`;
}

export interface SearchOutput {
  /**
   * The `search` tool's result, best first, one item per retrieved section: an array, as the real
   * service sends it, each item with `path`, `url` and `metadata.title` (what its example client
   * reads) plus a top-level `title` and a `snippet`.
   */
  results: SearchResult[];
  /**
   * The same entries as citable sources, numbered from 1. Section ids are unique, so are the
   * links built from them: the widget's de-duplication leaves every entry, and the numbers hold.
   */
  sources: SourceRef[];
}

/** The search results and the sources an answer cites them by, from the retrieved sections. */
export function searchOutput(hits: RetrievalHit[], urlFor: (path: string) => string): SearchOutput {
  const results: SearchResult[] = [];
  const sources: SourceRef[] = [];
  for (const hit of hits) {
    const { id, pagePath, pageTitle, anchor, headingPath } = hit.section;
    const title = headingPath.length ? `${pageTitle} › ${headingPath[headingPath.length - 1]}` : pageTitle;
    const url = `${urlFor(pagePath)}${anchor ? `#${anchor}` : ''}`;
    results.push({ title, path: pagePath, url, snippet: snippet(hit), metadata: { title } });
    sources.push({ id, title, path: pagePath, url });
  }
  return { results, sources };
}

/** The 1-based number of the source of a section (0 when it is not among them). */
export const sourceNumber = (sources: SourceRef[], sectionId: string): number =>
  sources.findIndex((source) => source.id === sectionId) + 1;

/** Sources in list order, so `h:` parts arrive in the order of their numbers. */
export const inListOrder = (cited: SourceRef[], sources: SourceRef[]): SourceRef[] =>
  [...cited].sort((a, b) => sources.indexOf(a) - sources.indexOf(b));

/** Sends the sources an answer cited as `h:` source parts, in the order given. */
export function writeSources(stream: DataStreamWriter, cited: SourceRef[]): void {
  for (const source of cited) {
    stream.write(
      formatDataStreamPart('source', {
        sourceType: 'url',
        id: source.id,
        url: source.url,
        title: source.title,
      }),
    );
  }
}
