/**
 * The conversation as Markdown for a support request, and the link that carries it. A link has a
 * length limit (mail clients refuse `mailto:` links much past 2,000 characters; servers limit
 * URLs), so a link gets an excerpt: the newest messages that fit, long answers shortened, and a
 * first line that says what was cut. A callback gets the whole conversation instead.
 */
import type { AssistantMessage } from '../../chat/types.js';
import type { SupportOption, SupportTranscript, SupportTrigger } from './types.js';

/** Longest `mailto:` link made (encoded), so mail clients open it. */
export const MAX_MAILTO_CHARS = 1800;
/** Longest support URL made (encoded): within what servers and proxies accept. */
export const MAX_URL_CHARS = 8000;

const CUT_NOTE = '(Excerpt: cut to fit this link; earlier messages left out.)';
const SHORTENED = ' … (cut)';

/** The text of a message (the panel's `messageText`, handed over: one reading of a message's text). */
export type TextOf = (message: AssistantMessage) => string;

/** The `[title](url)` links of a message's source parts, without duplicates. */
export function sourceLinksOf(message: AssistantMessage): string[] {
  const links: string[] = [];
  for (const part of Array.isArray(message.parts) ? message.parts : []) {
    if (part.type !== 'source' || part.source?.sourceType !== 'url') continue;
    const { url, title } = part.source;
    const link = `[${(title || url).replace(/[[\]]/g, '')}](${url.replace(/[()\s]/g, encodeURIComponent)})`;
    if (!links.includes(link)) links.push(link);
  }
  return links;
}

/** One message as Markdown; its text shortened to `maxText` characters when given. */
function messageMarkdown(
  message: AssistantMessage,
  textOf: TextOf,
  maxText = Number.POSITIVE_INFINITY,
): string {
  let text = textOf(message);
  if (text.length > maxText) text = text.slice(0, Math.max(0, maxText)).trimEnd() + SHORTENED;
  if (message.role === 'user') return `**Question:** ${text}`;
  const sources = sourceLinksOf(message);
  return `**Answer:** ${text}${sources.length ? `\n\nSources: ${sources.join(', ')}` : ''}`;
}

const speaking = (messages: AssistantMessage[], textOf: TextOf) =>
  messages.filter((m) => (m.role === 'user' || m.role === 'assistant') && textOf(m));

/** The whole conversation as Markdown. */
export function transcriptMarkdown(messages: AssistantMessage[], pageUrl: string, textOf: TextOf): string {
  const head = pageUrl
    ? `Conversation with the docs assistant on ${pageUrl}`
    : 'Conversation with the docs assistant';
  return [head, ...speaking(messages, textOf).map((m) => messageMarkdown(m, textOf))].join('\n\n');
}

/**
 * The longest excerpt whose encoded form (`encode`) stays within `max` characters: the newest
 * messages first, answers shortened to `answerChars`, then fewer messages, then the question alone
 * shortened. Says when anything was cut.
 */
export function boundedExcerpt(
  messages: AssistantMessage[],
  pageUrl: string,
  max: number,
  textOf: TextOf,
  encode: (text: string) => string = encodeURIComponent,
): { text: string; cut: boolean } {
  const whole = transcriptMarkdown(messages, pageUrl, textOf);
  if (encode(whole).length <= max) return { text: whole, cut: false };
  const list = speaking(messages, textOf);
  const fits = (text: string) => encode(text).length <= max;
  const answerChars = Math.max(80, Math.floor(max / 8));
  // Newest last; drop the oldest until it fits.
  for (let from = 0; from < list.length; from++) {
    const text = [CUT_NOTE, ...list.slice(from).map((m) => messageMarkdown(m, textOf, answerChars))].join(
      '\n\n',
    );
    if (fits(text)) return { text, cut: true };
  }
  // Not even the last message fits: its text as long as fits.
  const last = list[list.length - 1];
  let low = 0;
  let high = last ? textOf(last).length : 0;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (last && fits(`${CUT_NOTE}\n\n${messageMarkdown(last, textOf, mid)}`)) low = mid;
    else high = mid - 1;
  }
  const text = last ? `${CUT_NOTE}\n\n${messageMarkdown(last, textOf, low)}` : CUT_NOTE;
  return { text: fits(text) ? text : '', cut: true };
}

/** Whether a `support` string is a link the widget can offer (http(s) or mailto). */
export function supportLinkKind(option: SupportOption | undefined): 'url' | 'mailto' | 'callback' | null {
  if (typeof option === 'function') return 'callback';
  if (typeof option !== 'string') return null;
  if (/^mailto:/i.test(option)) return 'mailto';
  try {
    const url = new URL(option.replace('{transcript}', ''));
    return url.protocol === 'http:' || url.protocol === 'https:' ? 'url' : null;
  } catch {
    return null;
  }
}

/**
 * The link for a `support` URL or `mailto:` address, carrying as much of the conversation as fits:
 * a mailto gets it as the body (and a subject unless it has one), within `MAX_MAILTO_CHARS`; a URL
 * in place of `{transcript}`, else as its `transcript` parameter, within `MAX_URL_CHARS`.
 */
export function supportHref(
  option: string,
  messages: AssistantMessage[],
  pageUrl: string,
  subject: string,
  textOf: TextOf,
): string {
  if (/^mailto:/i.test(option)) {
    const hasSubject = /[?&]subject=/i.test(option);
    const joiner = option.includes('?') ? '&' : '?';
    const base = `${option}${joiner}${hasSubject ? '' : `subject=${encodeURIComponent(subject)}&`}body=`;
    const { text } = boundedExcerpt(messages, pageUrl, MAX_MAILTO_CHARS - base.length, textOf);
    return base + encodeURIComponent(text);
  }
  if (option.includes('{transcript}')) {
    const room = MAX_URL_CHARS - option.length;
    return option.replace(
      '{transcript}',
      encodeURIComponent(boundedExcerpt(messages, pageUrl, room, textOf).text),
    );
  }
  const url = new URL(option);
  const room = MAX_URL_CHARS - url.href.length - '&transcript='.length;
  // URLSearchParams writes a space as `+`: measure the excerpt the way it is written.
  const encode = (text: string) => new URLSearchParams({ t: text }).toString().slice(2);
  url.searchParams.set('transcript', boundedExcerpt(messages, pageUrl, room, textOf, encode).text);
  return url.href;
}

/** What a `support` callback gets. */
export function supportTranscript(
  trigger: SupportTrigger,
  messages: AssistantMessage[],
  pageUrl: string,
  textOf: TextOf,
): SupportTranscript {
  return { trigger, messages, markdown: transcriptMarkdown(messages, pageUrl, textOf), pageUrl };
}
