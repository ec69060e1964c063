/** What an answer engine gets and gives. The service runs the search; an engine writes the answer. */
import type { DataStreamWriter } from 'ai';
import type { Context, Message, SearchResult } from 'docs-assistant/protocol';
import type { DocsIndex, RetrievalResult } from '../retrieval/index.js';
import type { ReaderScope } from '../retrieval/reader.js';
import type { ThreadTurn } from '../threads.js';

/**
 * A retrieved section an answer can cite: the same `url` and `title` as its `search` result, so
 * the widget lists the two as one entry; `[n]` in the text is the n-th of these.
 */
export interface SourceRef {
  /** The section's id (`/theming#dark-mode`). */
  id: string;
  title: string;
  /** Path of the section's page. */
  path: string;
  url: string;
}

export interface AnswerContext {
  /** The latest user question. */
  question: string;
  /** The conversation as the client sent it (the latest user message last). */
  messages: Message[];
  /** Earlier turns of the thread, oldest first. */
  history: ThreadTurn[];
  context: Context[];
  currentPath?: string;
  retrieval: RetrievalResult;
  /** The `search` tool's results, as sent to the client. */
  results: SearchResult[];
  /** The `results` as citable sources, in the same order, numbered from 1 for `[n]` citations. */
  sources: SourceRef[];
  /** Further pages that matched less well, best first: candidates for "related pages". */
  related: { title: string; path: string }[];
  index: DocsIndex;
  /**
   * Name of the docs, for sentences like "the Acme docs have nothing on that": the service's
   * `title`, else the name in the site's config (`docs/sites/published.ts` siteTitle), else the domain.
   */
  siteTitle: string;
  /**
   * The reader's language and version (`retrieval/reader.ts`): suggested pages stay in it,
   * and its `notice` says when the sources had to come from another language.
   */
  scope?: ReaderScope;
  /** Builds the link of a page path (absolute when the domain has a `siteUrl`). */
  urlFor: (path: string) => string;
  /** Id of the assistant message being streamed (for `f:` parts). */
  messageId: string;
  abortSignal?: AbortSignal;
}

export interface AnswerOutcome {
  text: string;
  /** The sources the answer cited (sent as `h:` parts). */
  cited: SourceRef[];
  finishReason: 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other' | 'unknown';
  usage: { promptTokens: number; completionTokens: number };
}

export interface AnswerEngine {
  readonly name: string;
  /**
   * Writes the answer step to the stream (`f:`, sources, text, `e:`), not the final `d:` part,
   * which the service writes with the thread id.
   */
  answer(context: AnswerContext, stream: DataStreamWriter): Promise<AnswerOutcome>;
}
