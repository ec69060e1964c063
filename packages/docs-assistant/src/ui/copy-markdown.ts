/**
 * An answer, or a whole conversation, as the Markdown a reader pastes elsewhere: the answer's own
 * Markdown, its follow-up suggestions as a list of links under their heading (the service's
 * ```` ```suggestions ```` block with `(Title)[/path]` lines is ours to read, not the reader's to
 * paste), its sources as links, and a stopped answer said to be stopped. Links go through the
 * widget's link policy (`resolveHref`): absolute on the docs site, unsafe ones left out.
 */
import { messageText, noteOf } from '../chat/message-notes.js';
import type { AssistantMessage } from '../chat/types.js';
import { collectSources } from '../parts/sources.js';
import { parseSuggestions } from '../parts/suggestions.js';

export interface CopyWords {
  you: string;
  assistant: string;
  sourcesHeading: string;
  suggestionsHeading: string;
  stopped: string;
}

// A fenced block whose info string is `suggestions` (closed, or running to the end of the answer).
const SUGGESTIONS_FENCE =
  /^ {0,3}(`{3,}|~{3,})[ \t]*suggestions[ \t]*\n([\s\S]*?)(?:^ {0,3}\1[`~]*[ \t]*$|(?![\s\S]))/gm;

// A link's text and address, so that neither ends the link early.
const linkText = (text: string) => text.replace(/([[\]\\])/g, '\\$1').replace(/\s+/g, ' ');
const linkTarget = (href: string) => href.replace(/[()<>\s]/g, encodeURIComponent);
const links = (heading: string, items: { title: string; href: string }[]) =>
  `${heading}:\n\n${items.map((item) => `- [${linkText(item.title)}](${linkTarget(item.href)})`).join('\n')}`;

/** One answer as Markdown (see the module's comment). */
export function answerMarkdown(
  message: AssistantMessage,
  resolveHref: (href: string) => string | null,
  words: CopyWords,
): string {
  const suggestions: { title: string; href: string }[] = [];
  const body = messageText(message)
    .replace(SUGGESTIONS_FENCE, (_block, _fence, lines: string) => {
      suggestions.push(...parseSuggestions(lines, resolveHref));
      return '';
    })
    .trim();
  const blocks = body ? [body] : [];
  if (noteOf(message).stopped) blocks.push(`_(${words.stopped})_`);
  if (suggestions.length) blocks.push(links(words.suggestionsHeading, suggestions));
  const sources = collectSources(message, resolveHref);
  if (sources.length) blocks.push(links(words.sourcesHeading, sources));
  return blocks.join('\n\n');
}

/** The conversation: each question and answer in order, under who said it, turns apart by a rule. */
export function conversationMarkdown(
  messages: readonly AssistantMessage[],
  resolveHref: (href: string) => string | null,
  words: CopyWords,
): string {
  const blocks: string[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const text = messageText(message);
      if (text) blocks.push(`**${words.you}:** ${text.replace(/\n+/g, '\n\n')}`);
    } else if (message.role === 'assistant') {
      const answer = answerMarkdown(message, resolveHref, words);
      if (answer) blocks.push(`**${words.assistant}:**\n\n${answer}`);
    }
  }
  return `${blocks.join('\n\n---\n\n')}\n`;
}
