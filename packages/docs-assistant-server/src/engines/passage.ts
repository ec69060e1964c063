/**
 * Answers about a passage the reader pointed at: a selected sentence ("Explain this in simpler
 * words") or a code block ("What does this do?") sent as the request's context. The passage is
 * found in the docs (its page first, then the retrieved sections) and explained from its section:
 * the section's opening and the sentences around the passage, or the text that introduces the code.
 */
import type { DocSection } from '../docs/parse.js';
import { normalizePath, queryTerms } from '../retrieval/search-index.js';
import { escapeMarkdown, withCitation } from './format.js';
import { notForReaders, POINTS_AT } from './intent.js';
import { headingOf, overlap, sentences } from './lead.js';
import type { AnswerContext } from './types.js';

// Share of the passage's words a section must hold to be where the passage comes from.
const MIN_PASSAGE_SHARE = 0.6;
// Sentences quoted to explain a passage.
const MAX_PASSAGE_SENTENCES = 3;

type ContextItem = AnswerContext['context'][number];

/** Whether the question is about the passage sent with it rather than a question of its own. */
export function asksAboutPassage(context: AnswerContext): ContextItem | undefined {
  const item = context.context.findLast((entry) => entry.value.trim());
  if (!item) return undefined;
  const own = context.retrieval.confident && context.retrieval.terms.length > 2;
  return POINTS_AT.test(context.question) || !own ? item : undefined;
}

/** The pages an item's `path` may name: the reader's URL can carry a base path before the page's. */
function pagesAt(context: AnswerContext, path: string | undefined) {
  if (!path) return [];
  const at = normalizePath(path);
  return context.index.pages.filter(
    (page) => at === page.path || (page.path !== '/' && at.endsWith(page.path)),
  );
}

/** The section that holds the passage: on the item's page first, then among the retrieved sections. */
export function findPassage(context: AnswerContext, item: ContextItem): DocSection | undefined {
  const words = new Set(queryTerms(item.value));
  if (!words.size) return context.retrieval.hits[0]?.section;
  const candidates = [
    ...pagesAt(context, item.path).flatMap((page) => page.sections),
    ...context.retrieval.hits.map((hit) => hit.section),
  ];
  let best: DocSection | undefined;
  let bestShare = 0;
  for (const section of candidates) {
    const text = [...section.blocks, ...section.rows, ...section.code.map((block) => block.code)].join('\n');
    const share = overlap(text, words) / words.size;
    if (share > bestShare) {
      best = section;
      bestShare = share;
    }
  }
  return bestShare >= MIN_PASSAGE_SHARE ? best : context.retrieval.hits[0]?.section;
}

/** The paragraph a code block follows, when the passage is one of the section's code blocks. */
function codeIntro(section: DocSection, words: Set<string>): string[] {
  let at = -1;
  let most = 0;
  section.code.forEach((block, i) => {
    const shared = overlap(block.code, words);
    if (shared > most) {
      most = shared;
      at = i;
    }
  });
  const paragraph = at >= 0 ? section.blocks[section.codeAfter?.[at] ?? -1] : undefined;
  return paragraph ? sentences(paragraph).slice(-2) : [];
}

/** The sentences of a selection and the one after it, in the section's text. */
function aroundSelection(section: DocSection, words: Set<string>): string[] {
  const all = section.blocks.flatMap((block) => sentences(block));
  let at = -1;
  let most = 0;
  all.forEach((sentence, i) => {
    const shared = overlap(sentence, words);
    if (shared > most) {
      most = shared;
      at = i;
    }
  });
  return at >= 0 ? all.slice(at, at + 2) : [];
}

/** The explanation of a passage: where it is, and its section's words around it. */
export function passageParts(
  context: AnswerContext,
  item: ContextItem,
  cite: (sectionId: string) => string,
): string[] | undefined {
  const section = findPassage(context, item);
  if (!section) return undefined;
  const words = new Set(queryTerms(item.value));
  const opening = sentences(section.blocks[0] ?? '').slice(0, 1);
  const near = item.type === 'code' ? codeIntro(section, words) : aroundSelection(section, words);
  const quoted = [...new Set([...opening, ...near])]
    .filter((sentence) => !notForReaders(sentence))
    .slice(0, MAX_PASSAGE_SENTENCES);
  const marker = cite(section.id);
  const where = `**${escapeMarkdown(headingOf(section))}** in *${escapeMarkdown(section.pageTitle)}*`;
  const link =
    marker || ` (${context.urlFor(section.pagePath)}${section.anchor ? `#${section.anchor}` : ''})`;
  if (!quoted.length) return [`This ${item.type === 'code' ? 'code' : 'passage'} is from ${where}${link}.`];
  const what = item.type === 'code' ? 'This code is from' : 'This passage is from';
  return [`${what} ${where}, which says: ${withCitation(escapeMarkdown(quoted.join(' ')), link)}`];
}
