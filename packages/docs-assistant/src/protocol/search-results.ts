/**
 * The result of the `search` tool: either an array of results or `{ results: [...] }`, each with
 * `url` or `path`, and `title` or `metadata.title` (DESIGN.md). The reference service sends an
 * array, like the real service, whose items carry both titles; the widget reads any of them.
 */

/** One item of the `search` tool's result array. */
export interface SearchResult {
  title: string;
  path: string;
  url: string;
  snippet: string;
  /** Where the real service puts the title (`source.metadata.title` in its example client). */
  metadata?: { title: string };
}

/** A result normalised for display: where it points and what it is called. */
export interface SourceLink {
  href: string;
  title: string;
}

/** A plain object (not `null`, not an array); the widget's hand-written shape checks share it. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads the links out of a `search` tool result of either shape; anything unreadable is skipped. */
export function searchResultLinks(result: unknown): SourceLink[] {
  const items = Array.isArray(result)
    ? result
    : isRecord(result) && Array.isArray(result.results)
      ? result.results
      : [];
  const links: SourceLink[] = [];
  for (const item of items) {
    if (!isRecord(item)) continue;
    const href =
      typeof item.url === 'string' && item.url ? item.url : typeof item.path === 'string' ? item.path : '';
    if (!href) continue;
    const metadata = isRecord(item.metadata) ? item.metadata : undefined;
    const title =
      typeof item.title === 'string' && item.title
        ? item.title
        : typeof metadata?.title === 'string' && metadata.title
          ? metadata.title
          : href;
    links.push({ href, title });
  }
  return links;
}
