import { type HTMLAttributes, useId } from 'react';
import { useLabels } from '../labels/index.js';
import { usePartClassNames } from './part-class-names.js';

/** A follow-up link from a `suggestions` block. */
export interface Suggestion {
  title: string;
  href: string;
}

// `(Title)[/path]`, optionally as a list item; the title may hold brackets of its own.
const SUGGESTION_LINE = /^\s*(?:[-*+]\s+)?\((.+)\)\[([^\]\s]+)\]\s*$/;

/**
 * Reads the lines of a ```` ```suggestions ```` block. Lines that are not `(Title)[/path]` and
 * links that `resolveHref` refuses are skipped, so a half-streamed line never shows.
 */
export function parseSuggestions(code: string, resolveHref: (href: string) => string | null): Suggestion[] {
  const suggestions: Suggestion[] = [];
  for (const line of code.split('\n')) {
    const match = SUGGESTION_LINE.exec(line);
    if (!match) continue;
    const title = match[1]!.trim();
    const href = resolveHref(match[2]!);
    if (title && href) suggestions.push({ title, href });
  }
  return suggestions;
}

export interface SuggestionsProps extends HTMLAttributes<HTMLDivElement> {
  suggestions: Suggestion[];
  /** Decides which links open in a new tab. */
  isExternal: (href: string) => boolean;
}

/**
 * Follow-up links under the `suggestionsHeading` label, as a list named by it. Not a `nav`
 * landmark: each answer may have its own, and landmarks sharing one name cannot be told apart.
 */
export function Suggestions({ suggestions, isExternal, ...props }: SuggestionsProps) {
  const labels = useLabels();
  const headingId = useId();
  const className = usePartClassNames().suggestion;
  if (suggestions.length === 0) return null;
  return (
    <div data-suggestions="" {...props}>
      <p id={headingId}>{labels.suggestionsHeading}</p>
      <ul aria-labelledby={headingId}>
        {suggestions.map((suggestion, index) => (
          // Lines may repeat a link; the position keeps keys unique and stable while streaming.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={`${index}:${suggestion.href}`}>
            <a
              href={suggestion.href}
              className={className}
              data-docs-assistant="suggestion"
              {...(isExternal(suggestion.href) ? externalLinkProps : undefined)}
            >
              {suggestion.title}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export const externalLinkProps = { target: '_blank', rel: 'noopener noreferrer' } as const;
