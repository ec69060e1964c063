import { memo } from 'react';
import { sameContext, sameTextPart } from './equality.js';
import { StreamingMarkdown } from './markdown.js';
import type { TextPartProps } from './types.js';

/** The default text renderer: the part's Markdown, links resolved against the docs. */
export const TextPart = memo(
  function TextPart({ part, isStreaming, resolveHref }: TextPartProps) {
    return <StreamingMarkdown text={part.text} isStreaming={isStreaming} resolveHref={resolveHref} />;
  },
  (prev, next) => sameTextPart(prev.part, next.part) && sameContext(prev, next),
);
TextPart.displayName = 'TextPart';
