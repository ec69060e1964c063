/**
 * What an extractive answer leads with: the section that answers the question's intent (not only
 * the best-scoring one), and the sentences of it a reader needs first.
 */
import type { DocSection, DocStep } from '../docs/parse.js';
import type { RetrievalHit } from '../retrieval/search-index.js';
import { queryTerms } from '../retrieval/search-index.js';
import { notForReaders, opposes } from './intent.js';

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

export const overlap = (text: string, terms: Set<string>): number =>
  queryTerms(text).reduce((count, term) => count + (terms.has(term) ? 1 : 0), 0);

export interface Sentence {
  text: string;
  index: number;
  block: number;
  /** Whether it ends its block (what follows it in the page is the next block or code). */
  last: boolean;
  score: number;
}

// Sentences that lean on the one before them.
const DEPENDENT = /^(it|this|that|they|these|those|then|so|also|otherwise)\b/i;
// Bonus of a section's first sentence when its heading is the question: authors answer first.
const FIRST_SENTENCE_BONUS = 1.5;

export const headingOf = (section: DocSection): string =>
  section.headingPath[section.headingPath.length - 1] ?? section.pageTitle;

/**
 * How many of the terms the section's heading names (the page title for the text before the first
 * heading); `strong` when it names at least half of the question's words.
 */
export function headingMatch(section: DocSection, terms: Set<string>): { words: number; strong: boolean } {
  const words = overlap(headingOf(section), terms);
  return { words, strong: words > 0 && words >= Math.ceil(terms.size / 2) };
}

/** The sentences of a section, for readers only, scored against the terms. */
function scoredSentences(section: DocSection, terms: Set<string>, firstBonus: number): Sentence[] {
  // Prose first; a section that is only a table is quoted by its rows.
  const prose = section.blocks.length > 0;
  const blocks = prose ? section.blocks : section.rows;
  const all: Sentence[] = [];
  blocks.forEach((block, blockIndex) => {
    const split = sentences(block);
    split.forEach((text, i) => {
      if (notForReaders(text)) return;
      // A sentence ending in ":" introduces a list, a table or code, so it says little on its own.
      const introduces = text.endsWith(':');
      const bonus = all.length === 0 ? firstBonus : 0;
      const score = overlap(text, terms) + bonus - (introduces && !bonus ? 0.5 : 0);
      all.push({
        text,
        index: all.length,
        block: prose ? blockIndex : -2,
        last: i === split.length - 1,
        score,
      });
    });
  });
  return all;
}

/** The sentences of a section that best match the terms, in document order. */
export function bestSentences(
  section: DocSection,
  terms: Set<string>,
  max: number,
  preferFirst = false,
): Sentence[] {
  const all = scoredSentences(section, terms, preferFirst ? FIRST_SENTENCE_BONUS : 0);
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

// Hits considered for the lead, and the share of the best score they need.
const LEAD_CANDIDATES = 4;
const LEAD_SCORE_RATIO = 0.45;
// Weights of what makes a section the lead besides its best sentence's words.
const WEIGHT = { heading: 0.6, steps: 1, rank: 1.5, opening: 1.5, instruction: 1 };

/** "What is…", "what does … mean": a question the page's opening answers. */
const CONCEPT = /^\s*(what('s| is| are)|what does .* mean|define|explain)\b/i;
/** A sentence that tells the reader what to do: "To X, pass Y.", "Set …", "Run …". */
const INSTRUCTION =
  /^(to [^,]{3,60}, |(set|pass|add|run|use|open|select|install|create|call|put|wrap|choose|enter|copy|paste|remove|delete|send|give|import|override)\b)/i;

export interface LeadChoice {
  hit: RetrievalHit;
  /** The section's procedure that matches the question, when the question wants one. */
  steps?: DocStep[];
  /** Whether the heading names the question, so the section's opening answers it. */
  strong: boolean;
}

/**
 * The procedure of a section that matches the question's words most (the first on a tie), without
 * the steps written for an AI agent.
 */
function sectionProcedure(section: DocSection, terms: Set<string>): DocStep[] | undefined {
  let best: DocStep[] | undefined;
  let bestOverlap = -1;
  for (const all of section.steps ?? []) {
    // A step that speaks to an AI agent ("tell me before continuing") is not the reader's to do.
    const steps = all.filter((step) => !notForReaders(step.text));
    const words = overlap(steps.map((step) => `${step.title ?? ''} ${step.text}`).join(' '), terms);
    if (words > bestOverlap) {
      best = steps;
      bestOverlap = words;
    }
  }
  // A one-item "procedure" is a numbered note, not steps.
  return best && best.length >= 2 ? best : undefined;
}

/** What the question is: its words, its own words (without the thread's), and what it wants. */
export interface Asked {
  question: string;
  terms: Set<string>;
  own: Set<string>;
  wantsSteps: boolean;
}

/**
 * How well a section answers: its best sentence's words (the question's own words count twice in
 * a follow-up), its heading's words, its procedure for a "how do I…", its rank. A page's opening
 * (the text before the first heading) describes the page: it answers "what is…", and stands back
 * for a "how do I…".
 */
function leadValue(hit: RetrievalHit, rank: number, asked: Asked): LeadChoice & { value: number } {
  const opening = hit.section.headingPath.length === 0;
  const concept = CONCEPT.test(asked.question);
  const heading = opening ? { words: 0, strong: concept } : headingMatch(hit.section, asked.terms);
  const sentence = bestSentences(hit.section, asked.terms, 1, heading.strong)[0];
  const steps = asked.wantsSteps ? sectionProcedure(hit.section, asked.terms) : undefined;
  let value =
    (sentence?.score ?? 0) + WEIGHT.heading * heading.words + WEIGHT.rank * (1 - rank / LEAD_CANDIDATES);
  if (asked.own.size < asked.terms.size && sentence) value += overlap(sentence.text, asked.own);
  if (steps) value += WEIGHT.steps;
  if (asked.wantsSteps && sentence && INSTRUCTION.test(sentence.text)) value += WEIGHT.instruction;
  if (opening) value += concept ? WEIGHT.opening : asked.wantsSteps ? -WEIGHT.opening : -WEIGHT.opening / 2;
  return { hit, strong: heading.strong, value, ...(steps ? { steps } : {}) };
}

/**
 * The section to lead with: among the best hits, the one that answers best (`leadValue`) whose
 * heading does not act against the question. `undefined` when every candidate acts against it, or
 * when one that does ranks above the choice and matches a word of the question the choice lacks:
 * then the question is about that subject, and the choice only shares other words with it.
 */
export function chooseLead(hits: RetrievalHit[], asked: Asked): LeadChoice | undefined {
  const top = hits[0];
  if (!top) return undefined;
  let best: (LeadChoice & { value: number; rank: number }) | undefined;
  const opposed: { rank: number; terms: string[] }[] = [];
  hits.slice(0, LEAD_CANDIDATES).forEach((hit, rank) => {
    if (rank > 0 && hit.score < top.score * LEAD_SCORE_RATIO) return;
    if (opposes(asked.question, headingOf(hit.section))) {
      opposed.push({ rank, terms: hit.questionTerms });
      return;
    }
    const choice = leadValue(hit, rank, asked);
    if (!best || choice.value > best.value) best = { ...choice, rank };
  });
  if (!best) return undefined;
  const { value: _value, rank, ...choice } = best;
  const covered = new Set(choice.hit.questionTerms);
  const elsewhere = opposed.some((o) => o.rank < rank && o.terms.some((term) => !covered.has(term)));
  return elsewhere ? undefined : choice;
}
