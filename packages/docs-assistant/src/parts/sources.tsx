import { memo, useId } from 'react';
import type { AssistantMessage } from '../chat/types.js';
import { useLabels } from '../labels/index.js';
import { isRecord, type SourceLink, searchResultLinks } from '../protocol/search-results.js';
import { sameContext, sameSources } from './equality.js';
import { createIsExternal } from './href.js';
import { usePartClassNames } from './part-class-names.js';
import { externalLinkProps } from './suggestions.js';
import { SEARCH_TOOL_NAME } from './tool-invocation-part.js';
import type { SourcesProps } from './types.js';

/**
 * The sources of a message, in order of appearance: `source` parts and the results of the
 * `search` tool (either shape). Links are resolved with `resolveHref`; unsafe ones are dropped;
 * the same resolved link is listed once (with the first real title seen for it).
 */
export function collectSources(
  message: Pick<AssistantMessage, 'parts'>,
  resolveHref: (href: string) => string | null,
): SourceLink[] {
  const found: SourceLink[] = [];
  for (const part of Array.isArray(message.parts) ? message.parts : []) {
    // The v4 client checks only that a source is an object: every field is checked here, so a
    // title that is an object (React cannot render it) falls back to the URL.
    if (!isRecord(part)) continue;
    if (part.type === 'source') {
      const source: unknown = part.source;
      if (!isRecord(source)) continue;
      const { url, title } = source;
      if (typeof url === 'string' && url) {
        found.push({ href: url, title: typeof title === 'string' && title.trim() ? title : url });
      }
    } else if (
      part.type === 'tool-invocation' &&
      isRecord(part.toolInvocation) &&
      part.toolInvocation.toolName === SEARCH_TOOL_NAME &&
      part.toolInvocation.state === 'result'
    ) {
      found.push(...searchResultLinks(part.toolInvocation.result));
    }
  }

  const byHref = new Map<string, SourceLink>();
  // Links listed under their own URL for want of a title; a later real title replaces it.
  const untitled = new Set<string>();
  for (const source of found) {
    const href = resolveHref(source.href);
    if (!href) continue;
    const hasTitle = source.title !== source.href;
    const seen = byHref.get(href);
    if (!seen) {
      byHref.set(href, { href, title: source.title });
      if (!hasTitle) untitled.add(href);
    } else if (hasTitle && untitled.has(href)) {
      seen.title = source.title;
      untitled.delete(href);
    }
  }
  return [...byHref.values()];
}

/**
 * The default sources renderer: a heading and a numbered list of titled links, named by the heading.
 * Not a landmark: every answer has its own list, and landmarks that share a name ("Sources") are
 * indistinguishable in a screen reader's landmark menu.
 */
export const SourcesList = memo(
  function SourcesList({ sources, resolveHref }: SourcesProps) {
    const labels = useLabels();
    const headingId = useId();
    const className = usePartClassNames().source;
    if (sources.length === 0) return null;
    const isExternal = createIsExternal(resolveHref);
    return (
      <div data-sources="">
        <h3 id={headingId}>{labels.sourcesHeading}</h3>
        <ol aria-labelledby={headingId}>
          {sources.map((source, index) => (
            <li key={source.href} value={index + 1}>
              <a
                href={source.href}
                className={className}
                data-docs-assistant="source"
                data-source-index={index + 1}
                {...(isExternal(source.href) ? externalLinkProps : undefined)}
              >
                {/* Sources may come from a host's own code: only text is ever rendered. */}
                {typeof source.title === 'string' ? source.title : source.href}
              </a>
            </li>
          ))}
        </ol>
      </div>
    );
  },
  (prev, next) => sameSources(prev.sources, next.sources) && sameContext(prev, next),
);
SourcesList.displayName = 'SourcesList';
