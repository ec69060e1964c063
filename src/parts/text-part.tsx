import { memo, useDeferredValue } from 'react';
import { sameContext, sameTextPart } from './equality';
import { Markdown } from './markdown';
import type { TextPartProps } from './types';

/** The default text renderer: the part's Markdown, links resolved against the docs. */
export const TextPart = memo(
  function TextPart({ part, isStreaming, resolveHref }: TextPartProps) {
    // Parsing Markdown is the expensive step, so it never happens in the chat client's update
    // (a synchronous render): the text is a deferred value, rendered in the background, one block
    // at a time with pauses for input and frames, and skipping intermediate texts when rendering
    // falls behind the stream. A part that mounts while streaming starts empty, so even a first
    // batch holding much of the answer is parsed that way; one that mounts finished (a restored
    // conversation) renders at once. When the stream ends, the deferred text catches up the same
    // way, without one last synchronous parse.
    const text = useDeferredValue(part.text, isStreaming ? '' : part.text);
    return <Markdown text={text} resolveHref={resolveHref} />;
  },
  (prev, next) => sameTextPart(prev.part, next.part) && sameContext(prev, next),
);
TextPart.displayName = 'TextPart';
