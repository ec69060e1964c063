/**
 * The default engine: no model, no network. It quotes the best-matching passages of the docs as a
 * short Markdown answer with numbered citations, then lists related pages. Same question, same
 * docs, same answer.
 */
import { formatDataStreamPart } from 'ai';
import type { CodeBlock, DocSection, DocStep } from '../docs/parse.js';
import type { RetrievalHit } from '../retrieval/search-index.js';
import { queryTerms } from '../retrieval/search-index.js';
import { inListOrder, sourceNumber, writeSources } from './sources.js';
import type { AnswerContext, AnswerEngine, AnswerOutcome, SourceRef } from './types.js';

// Supporting bullets taken from sections other than the best one.
const MAX_BULLETS = 2;
// A supporting section must score at least this share of the best one to be quoted.
const SUPPORT_SCORE_RATIO = 0.3;
// Longest code block quoted in an answer (in lines); longer ones are left to the linked page.
const MAX_CODE_LINES = 20;
// Related pages listed in the closing `suggestions` block.
const MAX_SUGGESTIONS = 3;
// Words per streamed text chunk.
const WORDS_PER_CHUNK = 3;

// Steps of a procedure quoted at most; the rest are left to the linked page.
const MAX_STEPS = 8;
// Sentences of one step quoted at most.
const MAX_STEP_SENTENCES = 2;
// A section with steps leads a "how do I…" answer if it scores this share of the best hit.
const STEPS_SCORE_RATIO = 0.5;

/** "How do I…", "how to…", "how can we…", "steps to…": a question that wants a procedure. */
const HOW_TO =
  /\b(how (do|can|should|would|could|to) |how I |steps? (to|for)\b|walk me through|set ?up|install|configure|add(ing)? an?\b)/i;

const PROCEDURAL =
  /\b(how|install|setup|set up|configure|example|code|snippet|usage|import|render|write|add)\b/i;

/** Splits prose into sentences, keeping quotations whole. */
// Abbreviations whose full stop does not end a sentence ("e.g. `docs.json`").
const ABBREVIATION = /(^|\s|\()(e\.g|i\.e|etc|vs|cf|approx|incl|no|fig)\.$/i;

export function sentences(block: string): string[] {
  const pieces: string[] = [];
  for (const piece of block.split(/(?<=[.!?]["')]?)\s+(?=[A-Z0-9`"'([*<])/)) {
    const last = pieces[pieces.length - 1];
    if (last !== undefined && ABBREVIATION.test(last)) pieces[pieces.length - 1] = `${last} ${piece}`;
    else pieces.push(piece);
  }
  const result: string[] = [];
  let open = '';
  for (const piece of pieces) {
    open = open ? `${open} ${piece}` : piece;
    // A quotation that holds a full stop ("Too many requests. Try again.") stays one sentence.
    if ((open.match(/"/g)?.length ?? 0) % 2 === 0) {
      result.push(open.trim());
      open = '';
    }
  }
  if (open.trim()) result.push(open.trim());
  return result.filter(Boolean);
}

const overlap = (text: string, terms: Set<string>): number =>
  queryTerms(text).reduce((count, term) => count + (terms.has(term) ? 1 : 0), 0);

interface Sentence {
  text: string;
  index: number;
  block: number;
  /** Whether it ends its block (what follows it in the page is the next block or code). */
  last: boolean;
  score: number;
}

// Sentences that lean on the one before them.
const DEPENDENT = /^(it|this|that|they|these|those|then|so|also|otherwise)\b/i;

/** The sentences of a section that best match the terms, in document order. */
function bestSentences(hit: RetrievalHit, terms: Set<string>, max: number): Sentence[] {
  // Prose first; a section that is only a table is quoted by its rows.
  const prose = hit.section.blocks.length > 0;
  const blocks = prose ? hit.section.blocks : hit.section.rows;
  const all: Sentence[] = [];
  blocks.forEach((block, blockIndex) => {
    const split = sentences(block);
    split.forEach((text, i) => {
      // A sentence ending in ":" introduces a list, a table or code, so it says little on its own.
      const score = overlap(text, terms) - (text.endsWith(':') ? 0.5 : 0);
      all.push({
        text,
        index: all.length,
        block: prose ? blockIndex : -2,
        last: i === split.length - 1,
        score,
      });
    });
  });
  if (!all.length) return [];
  // A question in the docs (an FAQ entry's or an accordion's title) asks, it does not answer: it
  // leads only when the section has nothing else.
  const answers = all.filter((sentence) => !sentence.text.endsWith('?'));
  const first = [...(answers.length ? answers : all)].sort(
    (a, b) => b.score - a.score || a.index - b.index,
  )[0]!;
  const picked = [first];
  const previous = all[first.index - 1];
  const next = all[first.index + 1];
  if (DEPENDENT.test(first.text) && previous?.block === first.block) {
    picked.unshift(previous);
  } else if (max > 1 && next && next.block === first.block && (next.score > 0 || first.text.length < 90)) {
    // A short lead reads better with the sentence that follows it.
    picked.push(next);
  }
  return picked.slice(0, Math.max(max, picked.length));
}

/** The code block that directly follows a quoted sentence, when the sentence ends its paragraph. */
function codeAfter(section: DocSection, sentence: Sentence | undefined): CodeBlock | undefined {
  if (!sentence?.last || sentence.block < 0) return undefined;
  const at = section.codeAfter?.indexOf(sentence.block) ?? -1;
  const block = at >= 0 ? section.code[at] : undefined;
  return block && block.code.split('\n').length <= MAX_CODE_LINES ? block : undefined;
}

// Characters that would start Markdown syntax in quoted plain text (`<Foo>` from inline code
// would read as HTML, `*` as emphasis): escaped, so the reader sees the docs' words as written.
const escapeMarkdown = (text: string): string => text.replace(/[\\`*_[\]<~]/g, '\\$&');

const headingOf = (hit: RetrievalHit): string =>
  hit.section.headingPath[hit.section.headingPath.length - 1] ?? hit.section.pageTitle;

function fence(block: CodeBlock): string {
  const longest = Math.max(2, ...Array.from(block.code.matchAll(/`+/g), (m) => m[0].length));
  const marks = '`'.repeat(longest + 1);
  return `${marks}${block.lang}\n${block.code}\n${marks}`;
}

/** `(Title)[/path]` lines in a `suggestions` block, the format the widget renders as links. */
function suggestionsBlock(pages: { title: string; path: string }[]): string {
  if (!pages.length) return '';
  const lines = pages.map((page) => `(${page.title.replace(/[()[\]]/g, '')})[${page.path}]`);
  return `\`\`\`suggestions\n${lines.join('\n')}\n\`\`\``;
}

/** Related pages: other retrieved pages first, then pages near the best one, then any. */
function relatedPages(context: AnswerContext, exclude: Set<string>): { title: string; path: string }[] {
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

/**
 * Puts ` [n]` before the sentence's closing punctuation. A sentence ending in ":" keeps it only
 * when what it introduces follows (`introduces`); else it introduced a list that is not quoted.
 */
const withCitation = (text: string, marker: string, introduces = false): string => {
  const match = /[.!?:]$/.exec(text);
  const end = match?.[0] === ':' && !introduces ? '.' : match?.[0];
  return end ? `${text.slice(0, -1)}${marker}${end}` : `${text}${marker}`;
};

/** Whether a sentence was already quoted (on its own or inside a longer quote). */
const quotedIn = (quoted: Set<string>, sentence: string): boolean =>
  quoted.has(sentence) || [...quoted].some((text) => text.includes(sentence));

/**
 * The procedure a "how do I…" answer leads with: among the best hits, the first section with steps
 * that scores near the best and matches the question, and of its procedures the one that matches
 * the question's words most (the first on a tie).
 */
function findProcedure(
  hits: RetrievalHit[],
  terms: Set<string>,
): { hit: RetrievalHit; steps: DocStep[] } | undefined {
  const top = hits[0];
  if (!top) return undefined;
  for (const hit of hits.slice(0, 3)) {
    const procedures = hit.section.steps;
    if (!procedures?.length || hit.score < top.score * STEPS_SCORE_RATIO) continue;
    if (hit !== top && hit.questionTerms.length === 0) continue;
    let best = procedures[0]!;
    let bestOverlap = -1;
    for (const steps of procedures) {
      const words = overlap(steps.map((step) => `${step.title ?? ''} ${step.text}`).join(' '), terms);
      if (words > bestOverlap) {
        best = steps;
        bestOverlap = words;
      }
    }
    // A one-item "procedure" is a numbered note, not steps.
    if (best.length >= 2) return { hit, steps: best };
  }
  return undefined;
}

/**
 * A numbered list of steps: each with its title in bold, its first sentences and its first short
 * code block, indented under the item so it stays part of the step.
 */
function stepsList(steps: DocStep[], shown: Set<CodeBlock>): string {
  const items = steps.slice(0, MAX_STEPS).map((step, i) => {
    const marker = `${i + 1}. `;
    const indent = ' '.repeat(marker.length);
    const block = step.code.find((b) => b.code.split('\n').length <= MAX_CODE_LINES);
    const said = sentences(step.text).slice(0, MAX_STEP_SENTENCES).join(' ');
    // A step whose text introduced its code keeps its ":" only when the code is shown.
    const text = said && /:$/.test(said) && !block ? `${said.slice(0, -1)}.` : said;
    const title = step.title ? `**${escapeMarkdown(step.title)}**` : '';
    let item = `${marker}${[title, escapeMarkdown(text)].filter(Boolean).join(': ')}`;
    if (block) {
      shown.add(block);
      item += `\n\n${fence(block)
        .split('\n')
        .map((line) => (line ? indent + line : line))
        .join('\n')}`;
    }
    return item;
  });
  if (steps.length > MAX_STEPS)
    items.push(`${MAX_STEPS + 1}. …and ${steps.length - MAX_STEPS} more on the page.`);
  return items.join('\n');
}

export interface ExtractiveAnswer {
  text: string;
  cited: SourceRef[];
}

/** Builds the answer text (exported for tests and for the static demo). */
export function composeExtractiveAnswer(context: AnswerContext): ExtractiveAnswer {
  const { retrieval, sources } = context;
  const hits = retrieval.hits;
  if (!retrieval.confident || !hits.length) {
    const related = relatedPages(context, new Set());
    const text = [
      `The ${context.siteTitle} docs don't cover that: I found nothing about it in the documentation.`,
      related.length ? 'These pages may help you look further.' : '',
      suggestionsBlock(related),
    ]
      .filter(Boolean)
      .join('\n\n');
    return { text, cited: [] };
  }

  const terms = new Set([
    ...retrieval.terms,
    // A follow-up borrows its subject from the thread's last question.
    ...(retrieval.terms.length <= 1
      ? queryTerms(context.history[context.history.length - 1]?.question ?? '')
      : []),
  ]);
  const cited: SourceRef[] = [];
  // `[n]` is the section's place in the source list the reader sees (the search results), so the
  // numbers need not start at 1 or run without gaps.
  const cite = (hit: RetrievalHit): string => {
    const number = sourceNumber(sources, hit.section.id);
    const source = sources[number - 1];
    if (!source) return '';
    if (!cited.includes(source)) cited.push(source);
    return ` [${number}]`;
  };

  const top = hits[0]!;
  const parts: string[] = [];
  // The sources are in another language than the reader's: say so first.
  if (context.scope?.notice) parts.push(`*${context.scope.notice}*`);
  // Code already in the answer, so the closing example does not repeat it.
  const shown = new Set<CodeBlock>();
  const quoted = new Set<string>();

  // "How do I…": the steps of the best section that has them come first, as the docs number them.
  const procedure = HOW_TO.test(context.question) ? findProcedure(hits, terms) : undefined;
  if (procedure) {
    const { hit, steps } = procedure;
    parts.push(`From **${headingOf(hit)}** in *${hit.section.pageTitle}*${cite(hit)}:`);
    parts.push(stepsList(steps, shown));
    for (const step of steps) quoted.add(step.text);
  }

  const leadHit = procedure && procedure.hit !== top ? top : procedure ? undefined : top;
  const lead = leadHit ? bestSentences(leadHit, terms, 2) : [];
  if (leadHit && lead.length && !lead.every((s) => quotedIn(quoted, s.text))) {
    const block = codeAfter(leadHit.section, lead[lead.length - 1]);
    parts.push(withCitation(escapeMarkdown(lead.map((s) => s.text).join(' ')), cite(leadHit), !!block));
    if (block && !shown.has(block)) {
      parts.push(fence(block));
      shown.add(block);
    }
    for (const sentence of lead) quoted.add(sentence.text);
  } else if (leadHit && !procedure) {
    parts.push(`**${headingOf(leadHit)}** in *${leadHit.section.pageTitle}* covers this${cite(leadHit)}.`);
  }

  const bullets: string[] = [];
  for (const hit of hits.slice(1)) {
    if (bullets.length >= MAX_BULLETS) break;
    if (hit.score < top.score * SUPPORT_SCORE_RATIO) break;
    if (hit === procedure?.hit) continue;
    if (hit.questionTerms.length === 0 && retrieval.terms.length > 1) continue;
    const sentence = bestSentences(hit, terms, 1)
      .map((s) => s.text)
      .join(' ');
    if (!sentence || quotedIn(quoted, sentence)) continue;
    quoted.add(sentence);
    bullets.push(`- **${headingOf(hit)}**: ${withCitation(escapeMarkdown(sentence), cite(hit))}`);
  }
  if (bullets.length) parts.push(bullets.join('\n'));

  if (PROCEDURAL.test(context.question) && !shown.size) {
    const withCode = hits
      .slice(0, 2)
      .find((hit) => hit.section.code.some((block) => block.code.split('\n').length <= MAX_CODE_LINES));
    const block = withCode?.section.code.find((b) => b.code.split('\n').length <= MAX_CODE_LINES);
    if (withCode && block) {
      const marker = cite(withCode);
      parts.push(`For example, from *${headingOf(withCode)}*${marker}:\n\n${fence(block)}`);
    }
  }

  // The widget titles a `suggestions` block itself ("Related pages"), so no line introduces it.
  const related = relatedPages(context, new Set(cited.map((source) => source.path)));
  if (related.length) parts.push(suggestionsBlock(related));
  return { text: parts.join('\n\n'), cited: inListOrder(cited, sources) };
}

/** Splits text into small chunks that join back to exactly the same text. */
export function chunkText(text: string, wordsPerChunk = WORDS_PER_CHUNK): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerChunk)
    chunks.push(words.slice(i, i + wordsPerChunk).join(''));
  return chunks;
}

export function createExtractiveEngine(): AnswerEngine {
  return {
    name: 'extractive',
    async answer(context, stream): Promise<AnswerOutcome> {
      const { text, cited } = composeExtractiveAnswer(context);
      stream.write(formatDataStreamPart('start_step', { messageId: context.messageId }));
      writeSources(stream, cited);
      for (const chunk of chunkText(text)) {
        if (context.abortSignal?.aborted) break;
        stream.write(formatDataStreamPart('text', chunk));
        // Lets each chunk leave before the next is written, so the answer streams.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      const usage = { promptTokens: 0, completionTokens: 0 };
      stream.write(formatDataStreamPart('finish_step', { finishReason: 'stop', usage, isContinued: false }));
      return { text, cited, finishReason: 'stop', usage };
    },
  };
}
