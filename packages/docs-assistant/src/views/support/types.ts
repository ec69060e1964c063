/**
 * The `support` option: where a reader goes when the docs do not help. Types only (the shell and
 * the props name them); the code is in this folder and loads with the panel's support view.
 */
import type { AssistantMessage } from '../../chat/types.js';

/** What made the widget offer a way to a human. */
export type SupportTrigger = 'no-answer' | 'thumbs-down' | 'menu';

/** What a `support` callback gets: the conversation so far. */
export interface SupportTranscript {
  trigger: SupportTrigger;
  /** The conversation's messages, as the widget holds them (oldest first). */
  messages: AssistantMessage[];
  /** The whole conversation as Markdown, sources as links (not cut). */
  markdown: string;
  /** The page the reader is on. */
  pageUrl: string;
}

/**
 * A URL (http or https; `{transcript}` in it is replaced by the excerpt, else a `transcript`
 * query parameter is added), a `mailto:` address (the excerpt becomes the body), or a callback
 * that gets the transcript.
 */
export type SupportOption = string | ((transcript: SupportTranscript) => void);
