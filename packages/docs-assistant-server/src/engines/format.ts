/** Markdown pieces both engines write: quoted text, code fences, citations, the closing pages. */
import type { CodeBlock } from '../docs/parse.js';
import type { AnswerContext } from './types.js';

// Characters that would start Markdown syntax in quoted plain text (`<Foo>` from inline code
// would read as HTML, `*` as emphasis): escaped, so the reader sees the docs' words as written.
// Inline code (`` `docs.json` ``, kept as code by the parser) stays code, so it is left as it is.
export const escapeMarkdown = (text: string): string =>
  text
    .split(/(`[^`\n]+`)/)
    .map((piece, i) => (i % 2 ? piece : piece.replace(/[\\`*_[\]<~]/g, '\\$&')))
    .join('');

export function fence(block: CodeBlock): string {
  const longest = Math.max(2, ...Array.from(block.code.matchAll(/`+/g), (m) => m[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${block.lang}\n${block.code}\n${marks}`;
}

/**
 * Puts ` [n]` before the sentence's closing punctuation. A sentence ending in ":" keeps it only
 * when what it introduces follows (`introduces`); else it introduced a list that is not quoted.
 */
export const withCitation = (text: string, marker: string, introduces = false): string => {
  const match = /[.!?:]$/.exec(text);
  const end = match?.[0] === ':' && !introduces ? '.' : match?.[0];
  return end ? `${text.slice(0, -1)}${marker}${end}` : `${text}${marker}`;
};

/** `(Title)[/path]` lines in a `suggestions` block, the format the widget renders as links. */
export function suggestionsBlock(pages: { title: string; path: string }[]): string {
  if (!pages.length) return '';
  const lines = pages.map((page) => `(${page.title.replace(/[()[\]]/g, '')})[${page.path}]`);
  return `\`\`\`suggestions\n${lines.join('\n')}\n\`\`\``;
}

// Related pages listed in the closing `suggestions` block.
const MAX_SUGGESTIONS = 3;

/** Related pages: other retrieved pages first, then pages near the best one, then any. */
export function relatedPages(
  context: AnswerContext,
  exclude: Set<string>,
): { title: string; path: string }[] {
  const picked: { title: string; path: string }[] = [];
  const add = (path: string, title: string) => {
    if (picked.length >= MAX_SUGGESTIONS || exclude.has(path) || picked.some((p) => p.path === path)) return;
    // Suggestions stay in the reader's language and version (engineer C, issue 17).
    const page = context.index.page(path);
    if (page && context.scope && !context.scope.allows(page)) return;
    picked.push({ title, path });
  };
  // Sources are sections; a suggestion is a page, under the page's own title.
  for (const source of context.sources)
    add(source.path, context.index.page(source.path)?.title ?? source.title);
  for (const page of context.related) add(page.path, page.title);
  const best = context.sources[0]?.path ?? '/';
  const folder = best.slice(0, best.lastIndexOf('/') + 1);
  if (folder !== '/') {
    for (const page of context.index.pages) {
      if (picked.length >= MAX_SUGGESTIONS) return picked;
      if (page.path.startsWith(folder)) add(page.path, page.title);
    }
  }
  // Shallow pages first: an overview is a better place to start browsing than a deep page.
  for (const page of context.index.pagesByDepth) {
    if (picked.length >= MAX_SUGGESTIONS) break;
    add(page.path, page.title);
  }
  return picked;
}

/** The decline when the docs have nothing on the question: names the site, offers the closest pages. */
export function declineText(context: AnswerContext): string {
  const related = relatedPages(context, new Set());
  return [
    `The ${context.siteTitle} docs don't cover that: I found nothing about it in the documentation.`,
    related.length ? 'These pages may help you look further.' : '',
    suggestionsBlock(related),
  ]
    .filter(Boolean)
    .join('\n\n');
}
