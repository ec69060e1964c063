/**
 * The public renderers: `Markdown`, `MessageParts`, `TextPart` and `ReasoningPart` with the
 * Markdown parser itself, so they render every block synchronously, on the server too, as the
 * package has always documented them. The widget renders the same components without it: its
 * blocks go to the Markdown worker, and the page loads a parser of its own only where the worker
 * cannot parse (`pageParser` in `parse-off-thread.ts`).
 */
import type { ComponentType, JSX } from 'react';
import { MarkdownParserContext, Markdown as WorkerMarkdown } from './markdown.js';
import { MessageParts as WorkerMessageParts } from './message-parts.js';
import { parseMarkdown } from './parse-markdown.js';
import { ReasoningPart as WorkerReasoningPart } from './reasoning-part.js';
import { TextPart as WorkerTextPart } from './text-part.js';

/** A public renderer, named for React DevTools. */
export interface NamedComponent<P> {
  (props: P): JSX.Element;
  displayName: string;
}

function withParser<P extends object>(Inner: ComponentType<P>, name: string): NamedComponent<P> {
  const WithParser = (props: P) => (
    <MarkdownParserContext.Provider value={parseMarkdown}>
      <Inner {...props} />
    </MarkdownParserContext.Provider>
  );
  WithParser.displayName = name;
  return WithParser;
}

export const Markdown = withParser(WorkerMarkdown, 'Markdown');
export const MessageParts = withParser(WorkerMessageParts, 'MessageParts');
export const TextPart = withParser(WorkerTextPart, 'TextPart');
export const ReasoningPart = withParser(WorkerReasoningPart, 'ReasoningPart');
