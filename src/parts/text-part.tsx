import { memo, useDeferredValue } from 'react';
import { sameContext, sameTextPart } from './equality';
import { Markdown } from './markdown';
import type { TextPartProps } from './types';

/** The default text renderer: the part's Markdown, links resolved against the docs. */
export const TextPart = memo(
  function TextPart({ part, isStreaming, resolveHref }: TextPartProps) {
    // While the text streams, parsing its last block is the expensive step; a deferred value lets
    // React skip intermediate texts when rendering falls behind the stream instead of queueing them.
    const deferredText = useDeferredValue(part.text);
    return <Markdown text={isStreaming ? deferredText : part.text} resolveHref={resolveHref} />;
  },
  (prev, next) => sameTextPart(prev.part, next.part) && sameContext(prev, next),
);
TextPart.displayName = 'TextPart';
