/**
 * Measures retrieval against a hand-written set of questions, each with the page(s) that answer
 * it: hit@1 (the first result is on such a page) and hit@k (one of the first k is). Used by the
 * quality test and `bench/retrieval-quality.ts`; point it at your own docs and questions to check
 * that the assistant finds your pages.
 */
import { type DocsIndex, normalizePath } from './search-index.js';

export interface EvalQuestion {
  question: string;
  /** Paths of the pages that answer it (any one counts). */
  pages: string[];
  /** Kept out of tuning, to see whether a change generalises. */
  heldOut?: boolean;
}

export interface EvalOutcome {
  question: string;
  pages: string[];
  heldOut: boolean;
  /** Pages of the results, in order (a page can repeat: results are sections). */
  found: string[];
  /** 1-based rank of the first result on an expected page; 0 when none is in the first k. */
  rank: number;
}

export interface EvalReport {
  k: number;
  count: number;
  /** Share of questions whose first result is on an expected page (0–1). */
  hitAt1: number;
  /** Share of questions with an expected page among the first k results (0–1). */
  hitAtK: number;
  outcomes: EvalOutcome[];
}

/** Checks a question set before it is used, so a typo in a page path is not read as a miss. */
export function checkEvalQuestions(index: DocsIndex, questions: EvalQuestion[]): void {
  if (!questions.length)
    throw new Error('The question set is empty; add questions with the pages that answer them.');
  for (const [i, q] of questions.entries()) {
    if (typeof q.question !== 'string' || !q.question.trim()) {
      throw new Error(`questions[${i}].question must be a non-empty string.`);
    }
    if (!Array.isArray(q.pages) || !q.pages.length) {
      throw new Error(`questions[${i}].pages must list at least one page path ("${q.question}").`);
    }
    for (const page of q.pages) {
      if (!index.page(normalizePath(page))) {
        throw new Error(`questions[${i}] ("${q.question}") expects page ${page}, which is not in the docs.`);
      }
    }
  }
}

/** Runs every question through the index as the assistant endpoint does (no thread, no page). */
export function evaluateRetrieval(index: DocsIndex, questions: EvalQuestion[], k = 5): EvalReport {
  checkEvalQuestions(index, questions);
  const outcomes = questions.map((q): EvalOutcome => {
    const expected = new Set(q.pages.map(normalizePath));
    const found = index.query({ question: q.question, limit: k }).hits.map((hit) => hit.section.pagePath);
    const at = found.findIndex((page) => expected.has(page));
    return { question: q.question, pages: q.pages, heldOut: q.heldOut === true, found, rank: at + 1 };
  });
  const share = (hit: (o: EvalOutcome) => boolean) => outcomes.filter(hit).length / outcomes.length;
  return {
    k,
    count: outcomes.length,
    hitAt1: share((o) => o.rank === 1),
    hitAtK: share((o) => o.rank > 0),
    outcomes,
  };
}
