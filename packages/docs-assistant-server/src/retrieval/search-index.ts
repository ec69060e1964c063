/**
 * Full-text retrieval over doc sections: BM25+ as MiniSearch scores it (`term-index.ts`). The
 * question is the main query; the reader's context items and the thread's earlier questions are
 * searched too, with lower weights, so a follow-up like "and in dark mode?" still finds the page
 * the thread is about.
 */
import type { DocPage, DocSection } from '../docs/parse.js';
import { siteName } from '../docs/sites/published.js';
import { TermIndex, type TermIndexSnapshot, type TermScores } from './term-index.js';

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

// A word with parts: an underscore or a lower-case letter followed by an upper-case one.
const IDENTIFIER = /_|\p{Ll}\p{Lu}/u;
// A character of a word outside ASCII (ASCII is classified by code, which is most of the text).
const WORD_CHAR = /^[\p{L}\p{N}_]$/u;

/** The parts of an identifier: `retrievalPageSize` → `retrieval`, `Page`, `Size`. */
const identifierParts = (word: string): string[] =>
  word
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .split(/[_\s]+/)
    .filter(Boolean);

/**
 * Words, plus the parts of identifiers: `retrievalPageSize` is also `retrieval`, `page`, `size`,
 * and `svc_dsc_` also `svc`, `dsc`, so readers who write the words find the names. Each word is
 * given as its place in the text (`word(start, end)`), each part as a string (`part`), in order.
 *
 * A hand-written scan rather than `split(/[^\p{L}\p{N}_]+/u)`: the same words, but Unicode
 * property regexps on every word were a third of the time to index 10,000 pages; and places
 * rather than strings, so the term index finds a word it knows without copying it out.
 */
export function scanTokens(
  text: string,
  word: (start: number, end: number) => void,
  part: (token: string) => void,
): void {
  let start = -1;
  // Whether the word so far may have parts: an underscore, a lower-case ASCII letter before an
  // upper-case one, or any non-ASCII letter (left to the Unicode test).
  let parts = false;
  let lower = false;
  // One step past the end: the last word ends there as at any other non-word character.
  for (let i = 0; i <= text.length; i++) {
    if (i === text.length) {
      if (start >= 0) endWord(text, start, i, parts, word, part);
      break;
    }
    const code = text.charCodeAt(i);
    let isWord: boolean;
    let width = 1;
    if (code < 128) {
      const isLower = code >= 97 && code <= 122;
      const isUpper = code >= 65 && code <= 90;
      isWord = isLower || isUpper || (code >= 48 && code <= 57) || code === 95;
      if (isWord) {
        if (code === 95 || (isUpper && lower)) parts = true;
        lower = isLower;
      }
    } else {
      // A character outside the Basic Multilingual Plane is two code units.
      width = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? 2 : 1;
      isWord = WORD_CHAR.test(text.slice(i, i + width));
      if (isWord) {
        parts = true;
        lower = false;
      }
    }
    if (isWord) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      endWord(text, start, i, parts, word, part);
      start = -1;
      parts = false;
      lower = false;
    }
    i += width - 1;
  }
}

/** A word found by `scanTokens`: given as its place, then its parts when it is an identifier. */
function endWord(
  text: string,
  start: number,
  end: number,
  parts: boolean,
  word: (start: number, end: number) => void,
  part: (token: string) => void,
): void {
  word(start, end);
  if (!parts) return;
  const whole = text.slice(start, end);
  if (!IDENTIFIER.test(whole)) return;
  const split = identifierParts(whole);
  if (split.length > 1) for (const piece of split) part(piece);
}

/** The tokens of a text as strings (`scanTokens`): words, and the parts of identifiers after each. */
export const tokenize = (text: string): string[] => {
  const tokens: string[] = [];
  scanTokens(
    text,
    (start, end) => tokens.push(text.slice(start, end)),
    (token) => tokens.push(token),
  );
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

// Weights of the secondary queries relative to the question (1). The thread's earlier questions
// weigh `HISTORY_WEIGHT` times the question's best score at most (their scores are scaled to the
// question's): a follow-up that leans on the thread ("how do I turn it off?") weighs it more.
export const HISTORY_WEIGHT = 0.25;
export const DEPENDENT_HISTORY_WEIGHT = 0.7;
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

// A question that starts to use the docs' subject (see `DocsIndex.startsToUse`): its verb, its
// terms (stemmed as `processTerm` stems them), the places it may name, and the words of the page
// that answers it, searched beside the question.
const SETUP_VERB = /\b(add|install|set ?up|integrate|embed|get started|start|begin)\b/i;
const SETUP_TERMS = new Set(['add', 'install', 'setup', 'set', 'integrat', 'embed', 'start', 'begin']);
const PLACES = new Set(['site', 'websit', 'app', 'application', 'page', 'project', 'doc', 'product']);
const GETTING_STARTED = 'getting started quickstart installation install setup';
const GETTING_STARTED_WEIGHT = 1.5;

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

// The getting-started words as written: "start" must not find `starterQuestions`.
const EXACT = { ...TERM_MATCHING, prefix: () => false, fuzzy: () => false as const };

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

/** The documents of the term index: a section's searched fields, in `SEARCH_FIELDS` order. */
const fieldTexts = (section: DocSection): string[] => {
  const record = searchRecord(section);
  return SEARCH_FIELDS.map((field) => record[field]);
};

const FIELD_BOOSTS = SEARCH_FIELDS.map((field) => FIELD_BOOST[field]);
const TERM_OPTIONS = { tokenize, processTerm, scan: scanTokens };

/**
 * Whether two sections give the term index the same texts. A page parsed once and placed again
 * (`persist.ts` keeps a file's parse while its content is unchanged) gives sections that share
 * their arrays, so this is a few reference checks; anything else counts as changed.
 */
const sameTexts = (a: DocSection, b: DocSection): boolean =>
  a.blocks === b.blocks &&
  a.rows === b.rows &&
  a.code === b.code &&
  a.headingPath === b.headingPath &&
  a.pageTitle === b.pageTitle;

// Plain code-unit order: `localeCompare` gave the same determinism at a second per 10,000 pages.
const compareCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export class DocsIndex {
  readonly pages: DocPage[];
  readonly sections: DocSection[];
  private readonly terms: TermIndex;
  // Per section: its page's index in `pages`, and its rank in id order (ties are broken by id).
  private readonly pageOf: Int32Array;
  private readonly idRank: Int32Array;
  private readonly byPath = new Map<string, DocPage>();
  private byDepth: DocPage[] | undefined;
  /** The terms of the site's name (`startsToUse`), once asked. */
  private subject: Set<string> | undefined;

  /**
   * `terms` restores the term index saved by `snapshot()` for the same pages (`persist.ts`), which
   * skips reading every section again; or it is the index these pages replace, whose terms are
   * taken over for every section it already held (`sameTexts`), so only new sections are read.
   */
  constructor(pages: DocPage[], terms?: TermIndexSnapshot | DocsIndex) {
    this.pages = pages;
    this.sections = pages.flatMap((page) => page.sections);
    // The first page of a path wins, as a search of the list would find it.
    for (const page of pages) if (!this.byPath.has(page.path)) this.byPath.set(page.path, page);
    this.pageOf = Int32Array.from(pages.flatMap((page, p) => page.sections.map(() => p)));
    this.idRank = new Int32Array(this.sections.length);
    [...this.sections.keys()]
      .sort((a, b) => compareCodeUnits(this.sections[a]!.id, this.sections[b]!.id))
      .forEach((section, rank) => {
        this.idRank[section] = rank;
      });
    if (terms instanceof DocsIndex) {
      this.terms = terms.termsFor(this.sections);
      return;
    }
    if (terms && terms.size !== this.sections.length) {
      throw new Error(`term index snapshot holds ${terms.size} sections, the pages ${this.sections.length}`);
    }
    this.terms = terms
      ? new TermIndex(terms, TERM_OPTIONS)
      : new TermIndex(this.sections.map(fieldTexts), TERM_OPTIONS);
  }

  /**
   * The term index of `sections` from this one: a section this index holds with the same texts
   * keeps its postings, the others are read. Equal to building it from nothing, score for score.
   */
  private termsFor(sections: DocSection[]): TermIndex {
    // Keyed by the section's blocks array (one per parse), which `sameTexts` then confirms; an
    // array held by two sections is no key at all.
    const byBlocks = new Map<readonly string[], number>();
    const shared = new Set<readonly string[]>();
    this.sections.forEach((section, s) => {
      if (byBlocks.has(section.blocks)) shared.add(section.blocks);
      byBlocks.set(section.blocks, s);
    });
    const taken = new Uint8Array(this.sections.length);
    const documents = sections.map((section) => {
      const s = shared.has(section.blocks) ? undefined : byBlocks.get(section.blocks);
      if (s === undefined || taken[s] || !sameTexts(this.sections[s]!, section)) return fieldTexts(section);
      taken[s] = 1;
      return s;
    });
    return this.terms.update(documents);
  }

  /** Sections whose texts were read into the term index (not restored or taken over). */
  get readSections(): number {
    return this.terms.readDocuments;
  }

  /** The term index as flat arrays, to save with the pages and restore with them. */
  snapshot(): TermIndexSnapshot {
    return this.terms.snapshot();
  }

  page(path: string): DocPage | undefined {
    return this.byPath.get(path);
  }

  /**
   * The pages, shallow ones first (then by path): where to start browsing. Sorted once, on first
   * use; sorting 10,000 pages per answer cost more than the answer's retrieval.
   */
  get pagesByDepth(): readonly DocPage[] {
    this.byDepth ??= [...this.pages].sort(
      (a, b) => a.path.split('/').length - b.path.split('/').length || a.path.localeCompare(b.path),
    );
    return this.byDepth;
  }

  /**
   * Per section, the factor its score gets: the version and language filter (0 leaves a section
   * out) and the boost of the page the reader is on. `undefined` when every factor would be 1.
   */
  private sectionFactors(filter: RetrievalQuery['filter'], currentPath?: string): Float64Array | undefined {
    const version = filter?.version;
    const language = filter?.language;
    if (!version && !language && !currentPath) return undefined;
    const pageFactors = this.pages.map((page) =>
      currentPath && onPage(currentPath, page.path) ? CURRENT_PAGE_BOOST : 1,
    );
    const factors = new Float64Array(this.sections.length);
    this.sections.forEach((section, s) => {
      // A section without a version or language holds for every version and language.
      const excluded =
        (version && section.version && section.version !== version) ||
        (language && section.language && section.language !== language);
      factors[s] = excluded ? 0 : pageFactors[this.pageOf[s]!]!;
    });
    return factors;
  }

  /**
   * Whether a question asks how to start using what the docs are about ("How do I add the
   * assistant to my site?", "how do I install it?"): a setup verb, and no other word but a place
   * (site, app, page) or the site's own name (its config's, else its home page's title).
   * Such a question is answered by the getting-started page, whose words ("install the package")
   * the reader's ("add it to my site") need not share.
   */
  private startsToUse(question: string, terms: string[]): boolean {
    const verb = SETUP_VERB.exec(question);
    if (!verb || !terms.some((term) => SETUP_TERMS.has(term))) return false;
    this.subject ??= new Set(queryTerms(`${siteName(this.pages) ?? ''} ${this.page('/')?.title ?? ''}`));
    const subject = this.subject;
    return terms.every(
      (term) =>
        SETUP_TERMS.has(term) ||
        PLACES.has(term) ||
        subject.has(term) ||
        (term === 'up' && /up/i.test(verb[0])),
    );
  }

  private run(text: string, docBoost: Float64Array | undefined, matching = TERM_MATCHING): TermScores {
    return this.terms.score(text, { fieldBoost: FIELD_BOOSTS, matching, docBoost });
  }

  query(query: RetrievalQuery): RetrievalResult {
    const currentPath = query.currentPath ? normalizePath(query.currentPath) : undefined;
    const question = query.question.slice(0, MAX_QUERY_CHARS);
    const terms = queryTerms(question);
    const docBoost = this.sectionFactors(query.filter, currentPath);
    const count = this.sections.length;
    const scores = new Float64Array(count);
    const candidates: number[] = [];
    const add = (results: TermScores, weight: number) => {
      for (const section of results.matched) {
        if (!scores[section]) candidates.push(section);
        scores[section]! += results.scores[section]! * weight;
      }
    };
    const fromQuestion = this.run(question, docBoost);
    add(fromQuestion, 1);
    if (this.startsToUse(question, terms)) {
      // The site's getting-started page, in its own words, weighs more than the question's words,
      // which are as likely to be another setup's ("set up" an editor, an API key).
      const fromStart = this.run(GETTING_STARTED, docBoost, EXACT);
      const questionBest = topScore(fromQuestion);
      const startBest = topScore(fromStart);
      add(fromStart, GETTING_STARTED_WEIGHT * (questionBest && startBest ? questionBest / startBest : 1));
    }
    const history = (query.history ?? [])
      .filter((q) => q.trim())
      .slice(-3)
      .map((q) => q.slice(0, MAX_QUERY_CHARS));
    if (history.length) {
      const dependent = leansOnThread(question, terms);
      // A dependent follow-up is searched together with the last question, so sections that
      // match both (the thread's subject and what is asked about it) come first.
      const fromHistory = this.run(
        dependent ? `${question}\n${history[history.length - 1]}` : history.join('\n'),
        docBoost,
      );
      const weight = dependent ? DEPENDENT_HISTORY_WEIGHT : HISTORY_WEIGHT;
      // Scaled to the question's scores: a long thread must not outweigh a new question by the
      // sheer number of its terms (BM25 scores grow with the terms a query matches).
      const questionBest = topScore(fromQuestion);
      const historyBest = topScore(fromHistory);
      add(fromHistory, questionBest && historyBest ? (weight * questionBest) / historyBest : weight);
    }
    const contextText = (query.context ?? [])
      .slice(0, 10)
      .map((item) => `${item.value.slice(0, MAX_CONTEXT_CHARS)} ${item.path ?? ''}`)
      .join('\n');
    if (contextText.trim()) add(this.run(contextText, docBoost), CONTEXT_WEIGHT);

    // A page that speaks to the question in several sections is more likely the one to read.
    const pageTotals = new Float64Array(this.pages.length);
    for (const section of candidates) pageTotals[this.pageOf[section]!]! += scores[section]!;
    const ranked = new Float64Array(count);
    for (const section of candidates) {
      const rest = pageTotals[this.pageOf[section]!]! - scores[section]!;
      ranked[section] = scores[section]! + PAGE_EVIDENCE_WEIGHT * rest;
    }

    const perPage = new Map<number, number>();
    const hits: RetrievalHit[] = [];
    // Best first; ties broken by id so the order never depends on insertion accidents.
    const best = bestFirst(
      candidates,
      (a, b) => ranked[b]! - ranked[a]! || this.idRank[a]! - this.idRank[b]!,
    );
    for (let section = best(); section !== undefined && hits.length < query.limit; section = best()) {
      const page = this.pageOf[section]!;
      const sections = perPage.get(page) ?? 0;
      if (sections >= MAX_SECTIONS_PER_PAGE) continue;
      perPage.set(page, sections + 1);
      hits.push({
        section: this.sections[section]!,
        score: ranked[section]!,
        questionTerms: fromQuestion.scores[section] ? fromQuestion.termsOf(section) : [],
      });
    }
    return { hits, terms, confident: isConfident(hits, terms, history.length > 0) };
  }
}

/** The highest score of a query's results (0 when nothing matched). */
function topScore(results: TermScores): number {
  let top = 0;
  for (const doc of results.matched) if (results.scores[doc]! > top) top = results.scores[doc]!;
  return top;
}

// Words by which a question points back at the thread's subject.
const BACK_REFERENCE =
  /\b(it|its|this|that|these|those|they|them|there|one|ones|same|also|too|instead|else|again)\b/i;

/**
 * Whether a question leans on the thread to be understood: few content words ("and in French?"),
 * or a pronoun in a short question ("how do I turn it off?"). Such a follow-up keeps the thread's
 * subject; a question that names its own subject gets its own pages first.
 */
export function leansOnThread(question: string, terms: string[]): boolean {
  if (terms.length <= 1) return true;
  return terms.length <= 3 && BACK_REFERENCE.test(question);
}

/**
 * Takes items in `order` one at a time (a binary heap): only the few taken are ever sorted, where
 * sorting every matching section cost more than scoring them at 10,000 pages.
 */
function bestFirst(items: number[], order: (a: number, b: number) => number): () => number | undefined {
  const heap = items.slice();
  const down = (from: number) => {
    for (let at = from; ; ) {
      const left = 2 * at + 1;
      if (left >= heap.length) return;
      const child = left + 1 < heap.length && order(heap[left + 1]!, heap[left]!) < 0 ? left + 1 : left;
      if (order(heap[child]!, heap[at]!) >= 0) return;
      [heap[at], heap[child]] = [heap[child]!, heap[at]!];
      at = child;
    }
  };
  for (let at = (heap.length >> 1) - 1; at >= 0; at--) down(at);
  return () => {
    if (!heap.length) return undefined;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      down(0);
    }
    return top;
  };
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
