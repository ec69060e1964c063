/**
 * The default engine: no model, no network. It quotes the passages of the docs that answer the
 * question as a short Markdown answer with numbered citations, then lists related pages. Same
 * question, same docs, same answer.
 *
 * The lead comes from the section that answers the question's intent (`lead.ts`): a heading that
 * acts against the question never leads, and a procedure is quoted from the section the lead
 * cites. A question about a selected passage or code block is answered from that passage
 * (`passage.ts`). Text written for AI agents or for the docs' authors is never quoted.
 */
import { formatDataStreamPart } from 'ai';
import type { CodeBlock, DocStep } from '../docs/parse.js';
import type { RetrievalHit } from '../retrieval/search-index.js';
import {
  declineText,
  escapeMarkdown,
  fence,
  relatedPages,
  suggestionsBlock,
  withCitation,
} from './format.js';
import { answerTerms, HOW_TO, notForReaders, opposes } from './intent.js';
import { bestSentences, chooseLead, headingOf, type LeadChoice, overlap, sentences } from './lead.js';
import { asksAboutPassage, passageParts } from './passage.js';
import { inListOrder, sourceNumber, writeSources } from './sources.js';
import type { AnswerContext, AnswerEngine, AnswerOutcome, SourceRef } from './types.js';

export { sentences } from './lead.js';

/** How much of the docs one answer quotes, and how it is streamed. */
const ANSWER_SHAPE = {
  /** Supporting bullets taken from sections other than the lead's. */
  maxBullets: 2,
  /** A supporting section must score at least this share of the best one to be quoted. */
  supportScoreRatio: 0.3,
  /** Longest code block quoted in an answer (in lines); longer ones are left to the linked page. */
  maxCodeLines: 20,
  /** Words per streamed text chunk. */
  wordsPerChunk: 3,
  /** Steps of a procedure quoted at most; the rest are left to the linked page. */
  maxSteps: 8,
  /** Sentences of one step quoted at most. */
  maxStepSentences: 2,
} as const;

const PROCEDURAL =
  /\b(how|install|setup|set up|configure|example|code|snippet|usage|import|render|write|add)\b/i;

const quotable = (block: CodeBlock): boolean =>
  block.code.split('\n').length <= ANSWER_SHAPE.maxCodeLines && !notForReaders(block.code);

/** The code block that directly follows a quoted sentence, when the sentence ends its paragraph. */
function codeAfter(
  hit: RetrievalHit,
  sentence: { last: boolean; block: number } | undefined,
): CodeBlock | undefined {
  if (!sentence?.last || sentence.block < 0) return undefined;
  const at = hit.section.codeAfter?.indexOf(sentence.block) ?? -1;
  const block = at >= 0 ? hit.section.code[at] : undefined;
  return block && quotable(block) ? block : undefined;
}

/** Whether a sentence was already quoted (on its own or inside a longer quote). */
const quotedIn = (quoted: Set<string>, sentence: string): boolean =>
  quoted.has(sentence) || [...quoted].some((text) => text.includes(sentence));

/**
 * A numbered list of steps: each with its title in bold, its first sentences and its first short
 * code block, indented under the item so it stays part of the step.
 */
function stepsList(steps: DocStep[], shown: Set<CodeBlock>): string {
  const items = steps.slice(0, ANSWER_SHAPE.maxSteps).map((step, i) => {
    const marker = `${i + 1}. `;
    const indent = ' '.repeat(marker.length);
    const block = step.code.find(quotable);
    const said = sentences(step.text).slice(0, ANSWER_SHAPE.maxStepSentences).join(' ');
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
  if (steps.length > ANSWER_SHAPE.maxSteps)
    items.push(
      `${ANSWER_SHAPE.maxSteps + 1}. …and ${steps.length - ANSWER_SHAPE.maxSteps} more on the page.`,
    );
  return items.join('\n');
}

export interface ExtractiveAnswer {
  text: string;
  cited: SourceRef[];
}

/** What an answer is being built from, shared by its parts. */
interface Draft {
  context: AnswerContext;
  terms: Set<string>;
  parts: string[];
  cited: SourceRef[];
  /** Code already in the answer, so the closing example does not repeat it. */
  shown: Set<CodeBlock>;
  quoted: Set<string>;
}

/**
 * `[n]` is the section's place in the source list the reader sees (the search results), so the
 * numbers need not start at 1 or run without gaps; empty for a section that is not a source.
 */
function cite(draft: Draft, sectionId: string): string {
  const number = sourceNumber(draft.context.sources, sectionId);
  const source = draft.context.sources[number - 1];
  if (!source) return '';
  if (!draft.cited.includes(source)) draft.cited.push(source);
  return ` [${number}]`;
}

/** The lead: the section's procedure, or its sentences that answer (with the code they introduce). */
function writeLead(draft: Draft, lead: LeadChoice): void {
  const { hit, steps } = lead;
  const marker = cite(draft, hit.section.id);
  if (steps) {
    draft.parts.push(
      `From **${escapeMarkdown(headingOf(hit.section))}** in *${escapeMarkdown(hit.section.pageTitle)}*${marker}:`,
    );
    draft.parts.push(stepsList(steps, draft.shown));
    for (const step of steps) draft.quoted.add(step.text);
    return;
  }
  const said = bestSentences(hit.section, draft.terms, 2, lead.strong);
  if (!said.length) {
    draft.parts.push(
      `**${escapeMarkdown(headingOf(hit.section))}** in *${escapeMarkdown(hit.section.pageTitle)}* covers this${marker}.`,
    );
    return;
  }
  const block = codeAfter(hit, said[said.length - 1]);
  draft.parts.push(withCitation(escapeMarkdown(said.map((s) => s.text).join(' ')), marker, !!block));
  if (block) {
    draft.parts.push(fence(block));
    draft.shown.add(block);
  }
  for (const sentence of said) draft.quoted.add(sentence.text);
}

/** Up to two sentences of other sections that speak to the question too; none that merely share a word. */
function writeBullets(draft: Draft, hits: RetrievalHit[], lead: RetrievalHit): void {
  const top = hits[0]!;
  const needed = Math.min(2, draft.terms.size);
  const bullets: string[] = [];
  for (const hit of hits) {
    if (bullets.length >= ANSWER_SHAPE.maxBullets || hit.score < top.score * ANSWER_SHAPE.supportScoreRatio)
      break;
    if (hit === lead || hit.questionTerms.length === 0) continue;
    if (opposes(draft.context.question, headingOf(hit.section))) continue;
    const sentence = bestSentences(hit.section, draft.terms, 1)
      .map((s) => s.text)
      .join(' ');
    if (!sentence || overlap(sentence, draft.terms) < needed || quotedIn(draft.quoted, sentence)) continue;
    draft.quoted.add(sentence);
    bullets.push(
      `- **${escapeMarkdown(headingOf(hit.section))}**: ${withCitation(escapeMarkdown(sentence), cite(draft, hit.section.id))}`,
    );
  }
  if (bullets.length) draft.parts.push(bullets.join('\n'));
}

/** For a question about doing or writing something, a short example from the lead's section. */
function writeExample(draft: Draft, lead: RetrievalHit): void {
  if (!PROCEDURAL.test(draft.context.question) || draft.shown.size) return;
  const block = lead.section.code.find(quotable);
  if (block)
    draft.parts.push(
      `For example, from *${escapeMarkdown(headingOf(lead.section))}*${cite(draft, lead.section.id)}:\n\n${fence(block)}`,
    );
}

/** The answer's text with its related pages, and the sources it cited in list order. */
function finish(draft: Draft): ExtractiveAnswer {
  // The widget titles a `suggestions` block itself ("Related pages"), so no line introduces it.
  const related = relatedPages(draft.context, new Set(draft.cited.map((source) => source.path)));
  if (related.length) draft.parts.push(suggestionsBlock(related));
  return { text: draft.parts.join('\n\n'), cited: inListOrder(draft.cited, draft.context.sources) };
}

/** Builds the answer text (exported for tests and for the static demo). */
export function composeExtractiveAnswer(context: AnswerContext): ExtractiveAnswer {
  const { retrieval } = context;
  const { terms, own } = answerTerms(context);
  const draft: Draft = {
    context,
    terms,
    parts: [],
    cited: [],
    shown: new Set(),
    quoted: new Set(),
  };
  // The sources are in another language than the reader's: say so first.
  if (context.scope?.notice) draft.parts.push(`*${context.scope.notice}*`);
  const item = asksAboutPassage(context);
  const about = item ? passageParts(context, item, (id) => cite(draft, id)) : undefined;
  if (about) {
    draft.parts.push(...about);
    return finish(draft);
  }
  if (!retrieval.confident || !retrieval.hits.length) return { text: declineText(context), cited: [] };
  const wantsSteps = HOW_TO.test(context.question);
  const lead = chooseLead(retrieval.hits, { question: context.question, terms, own, wantsSteps });
  if (!lead || (!lead.steps && !lead.strong && !bestSentences(lead.hit.section, draft.terms, 1)[0]?.score)) {
    // Nothing retrieved answers the question as asked: one sentence and the closest pages.
    draft.parts.push(
      `I could not tell which part of the ${context.siteTitle} docs answers this; these pages are the closest.`,
    );
    return finish(draft);
  }
  writeLead(draft, lead);
  writeBullets(draft, retrieval.hits, lead.hit);
  writeExample(draft, lead.hit);
  return finish(draft);
}

/** Splits text into small chunks that join back to exactly the same text. */
export function chunkText(text: string, wordsPerChunk: number = ANSWER_SHAPE.wordsPerChunk): string[] {
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
