/**
 * The service's term index scores as MiniSearch does (`server/retrieval/term-index.ts` replaced
 * MiniSearch's search for speed): the same sections, the same scores and the same matched query
 * terms, over this repository's docs and a generated corpus, for the retrieval questions and for
 * queries that exercise prefix and fuzzy matching, repeated words, identifiers and document boosts.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';
import { seeded } from '../../bench/corpus';
import {
  type EvalQuestion,
  FIELD_BOOST,
  loadDocs,
  processTerm,
  SEARCH_FIELDS,
  type SearchRecord,
  searchRecord,
  TERM_MATCHING,
  tokenize,
} from '../../packages/docs-assistant-server/src/retrieval';
import { TermIndex } from '../../packages/docs-assistant-server/src/retrieval/term-index';

const DOCS = fileURLToPath(new URL('../../docs', import.meta.url));
const { questions } = JSON.parse(
  readFileSync(new URL('./fixtures/retrieval-questions.json', import.meta.url), 'utf8'),
) as { questions: EvalQuestion[] };

const QUERIES = [
  ...questions.map((q) => q.question),
  // Prefixes ("config" → "configure", "configuration"), typos (fuzzy from 6 letters), repeats.
  'config them',
  'retreival page sise',
  'strem streaming streamed',
  'theme theme theme colors',
  'retrievalPageSize svc_dsc_ apiKey',
  'x',
  'the and of',
  '',
];

interface Scored {
  score: number;
  terms: string[];
}

type Search = (text: string, boosts?: number[]) => Map<string, Scored>;

/** The old way: MiniSearch with the service's fields, boosts and term matching. */
function miniSearch(records: SearchRecord[]): Search {
  const mini = new MiniSearch<SearchRecord>({ fields: [...SEARCH_FIELDS], tokenize, processTerm });
  mini.addAll(records);
  const position = new Map(records.map((record, i) => [record.id, i]));
  return (text, boosts) => {
    const results = mini.search(text, {
      boost: FIELD_BOOST,
      ...TERM_MATCHING,
      ...(boosts ? { boostDocument: (id: string) => boosts[position.get(id)!]! } : {}),
    });
    return new Map(results.map((r) => [r.id, { score: r.score, terms: r.queryTerms }]));
  };
}

function termIndex(records: SearchRecord[]): Search {
  const index = new TermIndex(
    records.map((record) => SEARCH_FIELDS.map((field) => record[field])),
    { tokenize, processTerm },
  );
  return (text, boosts) => {
    const result = index.score(text, {
      fieldBoost: SEARCH_FIELDS.map((field) => FIELD_BOOST[field]),
      matching: TERM_MATCHING,
      ...(boosts ? { docBoost: Float64Array.from(boosts) } : {}),
    });
    return new Map(
      result.matched.map((doc) => [
        records[doc]!.id,
        { score: result.scores[doc]!, terms: result.termsOf(doc) },
      ]),
    );
  };
}

function expectSameScores(expected: Map<string, Scored>, actual: Map<string, Scored>, text: string) {
  expect([...actual.keys()].sort(), text).toEqual([...expected.keys()].sort());
  for (const [id, want] of expected) {
    const got = actual.get(id)!;
    expect(Math.abs(got.score - want.score) / want.score, `${text} → ${id}`).toBeLessThan(1e-12);
    expect(got.terms, `${text} → ${id}`).toEqual(want.terms);
  }
}

let docs: SearchRecord[];
let expected: Search;
let actual: Search;
beforeAll(async () => {
  const pages = await loadDocs([DOCS], { warn: () => {} });
  docs = pages.flatMap((page) => page.sections).map(searchRecord);
  expected = miniSearch(docs);
  actual = termIndex(docs);
});

describe('TermIndex scores as MiniSearch does', () => {
  it('over docs/, for the retrieval questions and the edge queries', () => {
    expect(docs.length).toBeGreaterThan(50);
    for (const text of QUERIES) expectSameScores(expected(text), actual(text), text);
  });

  it('with document boosts, 0 leaving a document out', () => {
    const random = seeded(5);
    const boosts = docs.map(() => [0, 1, 1, 1.6][Math.floor(random() * 4)]!);
    let left = 0;
    for (const text of QUERIES.slice(0, 12)) {
      const boosted = expected(text, boosts);
      expectSameScores(boosted, actual(text, boosts), text);
      left += expected(text).size - boosted.size;
    }
    // The zeros did leave documents out, or the case proves nothing.
    expect(left).toBeGreaterThan(0);
  });

  it('over a generated corpus where most sections share most words', () => {
    const random = seeded(11);
    const words =
      'widget theme themes theming color colour install installing configure config key keys'.split(' ');
    const text = (n: number) =>
      Array.from({ length: n }, () => words[Math.floor(random() * words.length)]).join(' ');
    const records: SearchRecord[] = Array.from({ length: 400 }, (_, i) => ({
      id: `/p${i}#s`,
      title: text(3),
      headings: text(4),
      text: text(40 + Math.floor(random() * 200)),
      code: i % 3 ? '' : `const ${text(1)}Key = ${text(2)};`,
    }));
    const [want, got] = [miniSearch(records), termIndex(records)];
    for (const query of ['configure the widget theme', 'colr instal', 'keys key', 'themeing']) {
      expectSameScores(want(query), got(query), query);
    }
  });
});
