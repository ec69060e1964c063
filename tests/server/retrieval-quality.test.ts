/**
 * Retrieval quality on this repository's own docs: hand-written reader questions
 * (`fixtures/retrieval-questions.json`) through the real index. The floors sit below the measured
 * values (hit@1 80.0%, hit@5 95.6% on 45 questions; `npx tsx bench/retrieval-quality.ts`), so the
 * test fails when a change to the search or the docs makes retrieval clearly worse, not when one
 * question moves by a rank.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  checkEvalQuestions,
  DocsIndex,
  type EvalQuestion,
  evaluateRetrieval,
  loadDocs,
  queryTerms,
  stem,
} from '../../packages/docs-assistant-server/src/retrieval';

const DOCS = fileURLToPath(new URL('../../docs', import.meta.url));
const { questions } = JSON.parse(
  readFileSync(new URL('./fixtures/retrieval-questions.json', import.meta.url), 'utf8'),
) as { questions: EvalQuestion[] };

// Floors (shares of the questions), about 3 and 5 questions under the measured values.
const MIN_HIT_AT_5 = 0.9;
const MIN_HIT_AT_1 = 0.7;

let index: DocsIndex;
beforeAll(async () => {
  index = new DocsIndex(await loadDocs([DOCS], { warn: () => {} }));
});

describe('retrieval quality over docs/', () => {
  it('has a question set worth measuring: 25 or more, each naming pages that exist', () => {
    expect(questions.length).toBeGreaterThanOrEqual(25);
    expect(() => checkEvalQuestions(index, questions)).not.toThrow();
  });

  it(`finds an answering page in the top 5 for at least ${MIN_HIT_AT_5 * 100}% of the questions`, () => {
    const report = evaluateRetrieval(index, questions, 5);
    const misses = report.outcomes.filter((o) => o.rank === 0).map((o) => o.question);
    expect(report.hitAtK, `missed: ${misses.join(' | ')}`).toBeGreaterThanOrEqual(MIN_HIT_AT_5);
    expect(report.hitAt1).toBeGreaterThanOrEqual(MIN_HIT_AT_1);
  });

  it('refuses a question set that names a page the docs do not have', () => {
    expect(() => checkEvalQuestions(index, [{ question: 'Where is it?', pages: ['/no-such-page'] }])).toThrow(
      /expects page \/no-such-page, which is not in the docs/,
    );
    expect(() => checkEvalQuestions(index, [])).toThrow(/empty/);
  });
});

describe('terms as the index sees them', () => {
  it('stems plurals and verb endings to one form', () => {
    expect(['streams', 'streaming', 'streamed'].map(stem)).toEqual(['stream', 'stream', 'stream']);
    expect(['store', 'stored', 'storing', 'stores'].map(stem)).toEqual(['stor', 'stor', 'stor', 'stor']);
    expect(['libraries', 'colors', 'stopped', 'class', 'status', 'analysis'].map(stem)).toEqual([
      'library',
      'color',
      'stop',
      'class',
      'status',
      'analysis',
    ]);
    // Short words are left alone.
    expect(['ring', 'red', 'used'].map(stem)).toEqual(['ring', 'red', 'used']);
  });

  it('splits identifiers into their words and keeps the whole', () => {
    // Each term is stemmed like any word ("…size" → "…siz"; four letters stay whole).
    expect(queryTerms('What is retrievalPageSize?')).toEqual([
      'retrievalpagesiz',
      'retrieval',
      'page',
      'size',
    ]);
    expect(queryTerms('the svc_dsc_ prefix')).toEqual(['svc_dsc_', 'svc', 'dsc', 'prefix']);
  });
});
