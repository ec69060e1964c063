/**
 * Full-text retrieval over doc sections with MiniSearch (BM25+). The question is the main query;
 * the reader's context items and the thread's earlier questions are searched too, with lower
 * weights, so a follow-up like "and in dark mode?" still finds the page the thread is about.
 */
import MiniSearch, { type SearchResult as MiniResult } from 'minisearch';
import type { DocPage, DocSection } from './markdown';

// Words that say nothing about which page answers: questions are full of them.
const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does doing for from had has have how i if in ' +
    'into is it its me my no not of on or our so such than that the their them then there these they ' +
    'this those to too us was we were what when where which who whom why will with would you your ' +
    'yours am any about also just get got make need want please tell show should shall may might must ' +
    'use using used way ways thing things some s t'
  ).split(' '),
);

// Stems shorter than this are left whole: "ring" must not become "r".
const MIN_STEM = 3;

/**
 * Light English stemming: plurals ("colors" → "color", "libraries" → "library") and the common
 * verb endings ("streaming", "streamed", "streams" → "stream"; "stored", "storing" → "stor").
 * Both the docs and the questions go through it, so a stem only has to be the same, not a word.
 */
export function stem(term: string): string {
  let word = term;
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (
    word.length > 3 &&
    word.endsWith('s') &&
    !word.endsWith('ss') &&
    !word.endsWith('us') &&
    !word.endsWith('is')
  ) {
    word = word.slice(0, -1);
  }
  for (const ending of ['ing', 'ed']) {
    if (word.endsWith(ending) && word.length - ending.length >= MIN_STEM + 1) {
      word = word.slice(0, -ending.length);
      // "stopped" → "stopp" → "stop"; "running" → "run".
      if (word.length > MIN_STEM && word.at(-1) === word.at(-2) && !/[lsz]/.test(word.at(-1)!))
        word = word.slice(0, -1);
      return word;
    }
  }
  // "store", "stored" and "storing" meet at "stor".
  if (word.length > MIN_STEM + 1 && word.endsWith('e') && !word.endsWith('ee')) word = word.slice(0, -1);
  return word;
}

/** Lower-cases, drops stop words and stems; `null` drops the term. */
export function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  if (lower.length < 2 && !/\d/.test(lower)) return null;
  if (STOP_WORDS.has(lower)) return null;
  return stem(lower);
}

/**
 * Words, plus the parts of identifiers: `retrievalPageSize` is also `retrieval`, `page`, `size`,
 * and `svc_dsc_` also `svc`, `dsc`, so readers who write the words find the names.
 */
export const tokenize = (text: string): string[] => {
  const tokens: string[] = [];
  for (const word of text.split(/[^\p{L}\p{N}_]+/u)) {
    if (!word) continue;
    tokens.push(word);
    const parts = word
      .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
      .split(/[_\s]+/)
      .filter(Boolean);
    if (parts.length > 1) tokens.push(...parts);
  }
  return tokens;
};

/** The content terms of a text, as the index sees them. */
export function queryTerms(text: string): string[] {
  const terms: string[] = [];
  for (const token of tokenize(text)) {
    const term = processTerm(token);
    if (term && !terms.includes(term)) terms.push(term);
  }
  return terms;
}

export interface RetrievalContextItem {
  type: string;
  value: string;
  path?: string;
}

export interface RetrievalQuery {
  question: string;
  /** Earlier user questions of the thread, oldest first. */
  history?: string[];
  context?: RetrievalContextItem[];
  /** The page the reader is on; its sections rank higher. */
  currentPath?: string;
  filter?: { version?: string | undefined; language?: string | undefined } | null;
  /** Sections to return. */
  limit: number;
}

export interface RetrievalHit {
  section: DocSection;
  score: number;
  /** Terms of the question (not of the history or context) this section matched. */
  questionTerms: string[];
}

export interface RetrievalResult {
  hits: RetrievalHit[];
  /** The question's content terms. */
  terms: string[];
  /**
   * Whether the best hit answers the question well enough to build an answer on. False when the
   * question's own words barely appear in the docs.
   */
  confident: boolean;
}

// Weights of the secondary queries relative to the question (1).
export const HISTORY_WEIGHT = 0.5;
const CONTEXT_WEIGHT = 0.35;
// Share of the rest of its page's score added to a section's own.
export const PAGE_EVIDENCE_WEIGHT = 0.1;
// Score factor for sections of the page the reader is on.
const CURRENT_PAGE_BOOST = 1.6;
// At most this many sections of one page in a result list, so several pages get a say.
export const MAX_SECTIONS_PER_PAGE = 2;
// Longest context value folded into the query (in characters); a pasted file should not drown the question.
const MAX_CONTEXT_CHARS = 600;
// Share of the question's content terms the best hit must match to be worth answering from.
const MIN_COVERAGE = 0.4;
// Longest question searched (in characters): each term costs a prefix and fuzzy lookup, so a
// pasted novel must not turn into a hundred thousand lookups.
const MAX_QUERY_CHARS = 1000;

/** `/docs/guides/theming/?x#y` → `/docs/guides/theming`. */
export function normalizePath(path: string): string {
  const bare = path
    .split(/[?#]/)[0]!
    .replace(/\/index(\.html?)?$/, '')
    .replace(/\.html?$/, '');
  const trimmed = bare.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed || '/' : `/${trimmed}`;
}

function onPage(currentPath: string, pagePath: string): boolean {
  // The docs may be served under a prefix (`/docs/guides/theming` for page `/guides/theming`);
  // page paths start with `/`, so `endsWith` matches whole segments only.
  return currentPath === pagePath || (pagePath !== '/' && currentPath.endsWith(pagePath));
}

/** The searched fields of a section, each with its boost (headings say most, code least). */
export const SEARCH_FIELDS = ['title', 'headings', 'text', 'code'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];
export const FIELD_BOOST: Record<SearchField, number> = { headings: 2, title: 1.5, text: 1, code: 0.6 };

/** How query terms match: as prefixes from 4 letters, fuzzily (edits up to 0.15 of the length) from 6; both count less than an exact match. */
export const TERM_MATCHING = {
  prefix: (term: string) => term.length >= 4,
  fuzzy: (term: string) => (term.length >= 6 ? 0.15 : false),
  weights: { fuzzy: 0.3, prefix: 0.6 },
};

/** One section as the index sees it: its id and the searched fields. */
export type SearchRecord = { id: string } & Record<SearchField, string>;

export function searchRecord(section: DocSection): SearchRecord {
  return {
    id: section.id,
    title: section.pageTitle,
    headings: section.headingPath.join(' '),
    text: [...section.blocks, ...section.rows].join('\n'),
    code: section.code.map((block) => block.code).join('\n'),
  };
}

interface IndexedSection extends SearchRecord {
  pagePath: string;
  version: string;
  language: string;
}

export class DocsIndex {
  readonly pages: DocPage[];
  readonly sections: DocSection[];
  private readonly byId = new Map<string, DocSection>();
  private readonly search: MiniSearch<IndexedSection>;

  constructor(pages: DocPage[]) {
    this.pages = pages;
    this.sections = pages.flatMap((page) => page.sections);
    this.search = new MiniSearch<IndexedSection>({
      fields: [...SEARCH_FIELDS],
      storeFields: ['pagePath', 'version', 'language'],
      tokenize,
      processTerm,
    });
    const docs: IndexedSection[] = [];
    for (const section of this.sections) {
      this.byId.set(section.id, section);
      docs.push({
        ...searchRecord(section),
        pagePath: section.pagePath,
        version: section.version ?? '',
        language: section.language ?? '',
      });
    }
    this.search.addAll(docs);
  }

  page(path: string): DocPage | undefined {
    return this.pages.find((page) => page.path === path);
  }

  private run(
    text: string,
    options: { filter: RetrievalQuery['filter']; currentPath?: string },
  ): MiniResult[] {
    if (!queryTerms(text).length) return [];
    const { filter, currentPath } = options;
    return this.search.search(text, {
      boost: FIELD_BOOST,
      ...TERM_MATCHING,
      // A page without a version or language holds for every version and language.
      filter: (result) =>
        (!filter?.version || !result.version || result.version === filter.version) &&
        (!filter?.language || !result.language || result.language === filter.language),
      boostDocument: currentPath
        ? (_id, _term, stored) =>
            typeof stored?.pagePath === 'string' && onPage(currentPath, stored.pagePath)
              ? CURRENT_PAGE_BOOST
              : 1
        : undefined,
    });
  }

  query(query: RetrievalQuery): RetrievalResult {
    const currentPath = query.currentPath ? normalizePath(query.currentPath) : undefined;
    const question = query.question.slice(0, MAX_QUERY_CHARS);
    const terms = queryTerms(question);
    const scores = new Map<string, { score: number; questionTerms: string[] }>();
    const add = (results: MiniResult[], weight: number, fromQuestion: boolean) => {
      for (const result of results) {
        const entry = scores.get(result.id) ?? { score: 0, questionTerms: [] };
        entry.score += result.score * weight;
        if (fromQuestion) entry.questionTerms = result.queryTerms;
        scores.set(result.id, entry);
      }
    };
    const options = { filter: query.filter, currentPath };
    add(this.run(question, options), 1, true);
    const history = (query.history ?? [])
      .filter((q) => q.trim())
      .slice(-3)
      .map((q) => q.slice(0, MAX_QUERY_CHARS));
    if (history.length) add(this.run(history.join('\n'), options), HISTORY_WEIGHT, false);
    const contextText = (query.context ?? [])
      .slice(0, 10)
      .map((item) => `${item.value.slice(0, MAX_CONTEXT_CHARS)} ${item.path ?? ''}`)
      .join('\n');
    if (contextText.trim()) add(this.run(contextText, options), CONTEXT_WEIGHT, false);

    // A page that speaks to the question in several sections is more likely the one to read.
    const pageTotals = new Map<string, number>();
    for (const [id, entry] of scores) {
      const page = this.byId.get(id)!.pagePath;
      pageTotals.set(page, (pageTotals.get(page) ?? 0) + entry.score);
    }
    const ranked = [...scores.entries()]
      .map(([id, entry]) => {
        const section = this.byId.get(id)!;
        const rest = (pageTotals.get(section.pagePath) ?? 0) - entry.score;
        return {
          section,
          score: entry.score + PAGE_EVIDENCE_WEIGHT * rest,
          questionTerms: entry.questionTerms,
        };
      })
      // Ties broken by id so the order never depends on insertion accidents.
      .sort((a, b) => b.score - a.score || a.section.id.localeCompare(b.section.id));

    const perPage = new Map<string, number>();
    const hits: RetrievalHit[] = [];
    for (const hit of ranked) {
      const count = perPage.get(hit.section.pagePath) ?? 0;
      if (count >= MAX_SECTIONS_PER_PAGE) continue;
      perPage.set(hit.section.pagePath, count + 1);
      hits.push(hit);
      if (hits.length >= query.limit) break;
    }
    return { hits, terms, confident: isConfident(hits, terms, history.length > 0) };
  }
}

function isConfident(hits: RetrievalHit[], terms: string[], followUp: boolean): boolean {
  if (!hits.length) return false;
  // A follow-up may be all pronouns ("how do I turn it off?"): the thread carries its meaning.
  if (followUp && terms.length <= 1) return true;
  if (!terms.length) return false;
  const best = Math.max(...hits.slice(0, 3).map((hit) => hit.questionTerms.length));
  const needed = followUp ? 1 : Math.max(1, Math.ceil(terms.length * MIN_COVERAGE));
  return best >= needed;
}
