/**
 * A whole conversation as Markdown, for "Copy conversation": each question and answer in order,
 * an answer's sources (its source parts and the docs search's results, as the answer lists them)
 * as links under it. The answer's own Markdown is kept as it is.
 */
import type { AssistantMessage } from '../../chat/types.js';
import type { collectSources } from '../../parts/sources.js';

/** The panel's `collectSources`, handed over: imported, esbuild would move it (and the AI SDK helpers under it) into a chunk shared with the panel. */
export type CollectSources = typeof collectSources;

/** The text of a message: its text parts, else its content. */
function textOf(message: AssistantMessage): string {
  const texts = (message.parts ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : []));
  return (texts.length ? texts.join('\n\n') : message.content).trim();
}

// A link's text and address, so that neither ends the link early.
const linkText = (text: string) => text.replace(/([[\]\\])/g, '\\$1').replace(/\s+/g, ' ');
const linkTarget = (href: string) => href.replace(/[()<>\s]/g, encodeURIComponent);

export interface MarkdownWords {
  you: string;
  assistant: string;
  sourcesHeading: string;
}

/**
 * The conversation as Markdown. `resolveHref` makes the sources' links absolute on the docs site
 * (the widget's link policy); links it refuses are left out.
 */
export function conversationMarkdown(
  messages: readonly AssistantMessage[],
  resolveHref: (href: string) => string | null,
  words: MarkdownWords,
  collectSources: CollectSources,
): string {
  const blocks: string[] = [];
  for (const message of messages) {
    const text = textOf(message);
    if (message.role === 'user') {
      if (text) blocks.push(`**${words.you}:** ${text.replace(/\n+/g, '\n\n')}`);
      continue;
    }
    if (message.role !== 'assistant') continue;
    const sources = collectSources(message, resolveHref);
    if (!text && sources.length === 0) continue;
    const parts = [`**${words.assistant}:**`];
    if (text) parts.push(text);
    if (sources.length) {
      parts.push(
        `${words.sourcesHeading}:\n\n${sources.map((source) => `- [${linkText(source.title)}](${linkTarget(source.href)})`).join('\n')}`,
      );
    }
    blocks.push(parts.join('\n\n'));
  }
  return `${blocks.join('\n\n---\n\n')}\n`;
}
