/**
 * The conversation a support request carries: the whole of it for a callback, and for a link an
 * excerpt within the link's limit (mailto under 1,800 characters, URLs under 8,000) that says it
 * was cut, encoded so that every character comes back as it was.
 */
import { messageText } from '../../packages/docs-assistant/src/chat/message-notes';
import type { AssistantMessage } from '../../packages/docs-assistant/src/chat/types';
import {
  boundedExcerpt,
  MAX_MAILTO_CHARS,
  MAX_URL_CHARS,
  supportHref,
  supportLinkKind,
  supportTranscript,
  transcriptMarkdown,
} from '../../packages/docs-assistant/src/views/support/transcript';

const user = (id: string, text: string): AssistantMessage => ({
  id,
  role: 'user',
  content: text,
  parts: [{ type: 'text', text }],
});
const answer = (
  id: string,
  text: string,
  sources: { url: string; title: string }[] = [],
): AssistantMessage => ({
  id,
  role: 'assistant',
  content: text,
  parts: [
    { type: 'text', text },
    ...sources.map((source, n) => ({
      type: 'source' as const,
      source: { sourceType: 'url' as const, id: `${id}-${n}`, ...source },
    })),
  ],
});

const short = [
  user('u1', 'How do I change the colours?'),
  answer('a1', 'Set `--accent` in your theme & reload (see #theming).', [
    { url: 'https://docs.example.com/guides/theming#colors', title: 'Theming' },
  ]),
];

function long(turns: number): AssistantMessage[] {
  const list: AssistantMessage[] = [];
  for (let i = 1; i <= turns; i++) {
    list.push(user(`u${i}`, `Question ${i}: what about option ${i} & the “quotes” + #hash?`));
    list.push(
      answer(`a${i}`, `Answer ${i}. ${'Long explanation with spaces and ünïcödé 🎨. '.repeat(40)}`, [
        { url: `https://docs.example.com/p/${i}`, title: `Page ${i}` },
      ]),
    );
  }
  return list;
}

// Mail clients percent-decode the body (a `+` stays a plus).
const bodyOf = (href: string) => decodeURIComponent(href.slice(href.indexOf('&body=') + 6));

describe('the transcript as Markdown', () => {
  it('has every question and answer with its sources as links', () => {
    const markdown = transcriptMarkdown(short, 'https://docs.example.com/start', messageText);
    expect(markdown).toBe(
      [
        'Conversation with the docs assistant on https://docs.example.com/start',
        '**Question:** How do I change the colours?',
        '**Answer:** Set `--accent` in your theme & reload (see #theming).\n\nSources: [Theming](https://docs.example.com/guides/theming#colors)',
      ].join('\n\n'),
    );
  });

  it('gives a callback the messages and the whole Markdown, never cut', () => {
    const messages = long(12);
    const transcript = supportTranscript('menu', messages, 'https://docs.example.com/x', messageText);
    expect(transcript.messages).toBe(messages);
    expect(transcript.trigger).toBe('menu');
    expect(transcript.markdown).toContain('Question 1:');
    expect(transcript.markdown).toContain('Question 12:');
    expect(transcript.markdown).not.toContain('Excerpt');
  });
});

describe('a mailto link', () => {
  it('carries a short conversation whole, with a subject, encoded', () => {
    const href = supportHref(
      'mailto:help@example.com',
      short,
      'https://docs.example.com/start',
      'Docs question',
      messageText,
    );
    expect(href.startsWith('mailto:help@example.com?subject=Docs%20question&body=')).toBe(true);
    expect(href.length).toBeLessThanOrEqual(MAX_MAILTO_CHARS);
    // Nothing unencoded that would end the body early or start another field.
    expect(href.slice(href.indexOf('body=') + 5)).not.toMatch(/[&#\s]/);
    expect(bodyOf(href)).toBe(transcriptMarkdown(short, 'https://docs.example.com/start', messageText));
  });

  it('stays under 1,800 characters for a long conversation, newest first kept, and says it was cut', () => {
    const href = supportHref(
      'mailto:help@example.com',
      long(20),
      'https://docs.example.com/x',
      'Docs question',
      messageText,
    );
    expect(href.length).toBeLessThanOrEqual(MAX_MAILTO_CHARS);
    const body = bodyOf(href);
    expect(body.startsWith('(Excerpt: cut to fit this link; earlier messages left out.)')).toBe(true);
    expect(body).toContain('Question 20: what about option 20 & the “quotes” + #hash?');
    expect(body).not.toContain('Question 1:');
    expect(body).toContain('… (cut)');
  });

  it('keeps a subject the address already has', () => {
    const href = supportHref('mailto:help@example.com?subject=Help', short, '', 'Docs question', messageText);
    expect(href).toMatch(/^mailto:help@example\.com\?subject=Help&body=/);
    expect(href.length).toBeLessThanOrEqual(MAX_MAILTO_CHARS);
  });

  it('fits one question too long for the link by shortening it', () => {
    const huge = [user('u1', 'word '.repeat(2000))];
    const href = supportHref('mailto:help@example.com', huge, '', 'Docs question', messageText);
    expect(href.length).toBeLessThanOrEqual(MAX_MAILTO_CHARS);
    expect(bodyOf(href)).toMatch(/^\(Excerpt[^\n]+\n\n\*\*Question:\*\* word word .* … \(cut\)$/s);
  });
});

describe('a support URL', () => {
  it('puts the excerpt in place of {transcript}', () => {
    const href = supportHref(
      'https://github.com/acme/docs/issues/new?title=Docs&body={transcript}',
      short,
      'https://docs.example.com/start',
      'x',
      messageText,
    );
    const url = new URL(href);
    expect(url.searchParams.get('title')).toBe('Docs');
    expect(url.searchParams.get('body')).toBe(
      transcriptMarkdown(short, 'https://docs.example.com/start', messageText),
    );
  });

  it('adds a transcript parameter otherwise, within the URL limit for long conversations', () => {
    const href = supportHref('https://help.example.com/new?team=docs', long(40), '', 'x', messageText);
    expect(href.length).toBeLessThanOrEqual(MAX_URL_CHARS);
    const url = new URL(href);
    expect(url.searchParams.get('team')).toBe('docs');
    const transcript = url.searchParams.get('transcript') ?? '';
    expect(transcript.startsWith('(Excerpt')).toBe(true);
    expect(transcript).toContain('Question 40:');
  });

  it('is offered only for http(s) and mailto, or a callback', () => {
    expect(supportLinkKind('https://help.example.com')).toBe('url');
    expect(supportLinkKind('mailto:help@example.com')).toBe('mailto');
    expect(supportLinkKind(() => {})).toBe('callback');
    expect(supportLinkKind('javascript:alert(1)')).toBeNull();
    expect(supportLinkKind('/relative/path')).toBeNull();
    expect(supportLinkKind(undefined)).toBeNull();
  });

  it('measures the excerpt as encoded, not as typed', () => {
    const { text, cut } = boundedExcerpt(long(3), '', 600, messageText);
    expect(cut).toBe(true);
    expect(encodeURIComponent(text).length).toBeLessThanOrEqual(600);
  });
});
