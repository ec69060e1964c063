import { memo } from 'react';
import { useLabels } from '../labels/index.js';
import { searchResultLinks } from '../protocol/search-results.js';
import { sameContext, sameToolInvocation } from './equality.js';
import type { ToolInvocationProps } from './types.js';

/** The tool whose results are documentation search results (DESIGN.md). */
export const SEARCH_TOOL_NAME = 'search';

/** The query of a `search` call; args may still be partial (or absent) while the call streams. */
export function searchQueryOf(args: unknown): string {
  if (typeof args !== 'object' || args === null) return '';
  const query = (args as { query?: unknown }).query;
  return typeof query === 'string' ? query.trim() : '';
}

/** Tool data is shown as text; a value JSON cannot represent is shown as its string form. */
function toJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The default tool renderer. While a call runs: what it is doing (`searchingDocs(query)` for the
 * docs search). Once it has a result: `searchedDocs(query)` and the number of results for the
 * search, `toolCalled(name)` with the arguments and result as JSON for any other tool.
 */
export const ToolInvocationPart = memo(
  function ToolInvocationPart({ toolInvocation }: ToolInvocationProps) {
    const labels = useLabels();
    // Shown as text only: a name that is not a string (a hand-made part) shows as "tool".
    const toolName = typeof toolInvocation.toolName === 'string' ? toolInvocation.toolName : 'tool';
    const isSearch = toolName === SEARCH_TOOL_NAME;
    const query = isSearch ? searchQueryOf(toolInvocation.args) : '';

    if (toolInvocation.state !== 'result') {
      return (
        <p data-tool-progress="" aria-busy="true">
          {isSearch && query ? labels.searchingDocs(query) : labels.toolCalling(toolName)}
        </p>
      );
    }

    if (isSearch) {
      const count = searchResultLinks(toolInvocation.result).length;
      const countLabel = labels.searchResultCount;
      return (
        <p data-tool-summary="">
          {query ? labels.searchedDocs(query) : labels.toolCalled(toolName)}{' '}
          <span data-result-count={count}>({countLabel(count)})</span>
        </p>
      );
    }

    return (
      <details data-tool-summary="">
        <summary>{labels.toolCalled(toolName)}</summary>
        <pre>
          <code>{toJson({ args: toolInvocation.args, result: toolInvocation.result })}</code>
        </pre>
      </details>
    );
  },
  (prev, next) => sameToolInvocation(prev.toolInvocation, next.toolInvocation) && sameContext(prev, next),
);
ToolInvocationPart.displayName = 'ToolInvocationPart';
