/**
 * A BM25+ inverted index over a fixed list of documents with a few text fields, scored as
 * MiniSearch 7 scores a search with field boosts, prefix and fuzzy term matching and OR between
 * terms: the same formula and parameters, the same weights for prefix and fuzzy matches, and the
 * same final factor of how many of the query's terms a document matched. `tests/server/term-index`
 * holds it to MiniSearch's scores.
 *
 * Why not MiniSearch itself: it builds a result object per matching document for every term and
 * merges them through maps. When common words match most sections (10,000 pages of docs that all
 * say "widget" and "configure"), that was 150–250 ms of one core per question. Here the postings
 * are typed arrays and the scores add up in one array, so a question costs a few milliseconds.
 * MiniSearch's radix tree (`SearchableMap`) still finds the prefix and fuzzy expansions.
 */
import SearchableMap from 'minisearch/SearchableMap';

// MiniSearch's BM25+ parameters, which the retrieval was tuned with.
const BM25_K = 1.2;
const BM25_B = 0.7;
const BM25_D = 0.5;
// MiniSearch's cap on a fuzzy match's edit distance.
const MAX_FUZZY = 6;

/** The documents holding a term in one field (ascending) and how often each holds it. */
interface FieldPostings {
  docs: Int32Array;
  freqs: Uint32Array;
}

/** A term's postings, one entry per field (absent where no document holds it in that field). */
type TermPostings = Array<FieldPostings | undefined>;

export interface TermMatching {
  /** Whether a query term also matches the longer terms it begins. */
  prefix: (term: string) => boolean;
  /** Edits allowed for a query term: a share of its length below 1, a count from 1; false for none. */
  fuzzy: (term: string) => number | false;
  /** Score factors of prefix and fuzzy matches (an exact match counts 1). */
  weights: { prefix: number; fuzzy: number };
}

export interface TermIndexOptions {
  /** Splits a field's text into tokens. */
  tokenize: (text: string) => string[];
  /** Turns a token into an index term; `null` drops it. Used for documents and queries alike. */
  processTerm: (token: string) => string | null;
}

export interface ScoreOptions {
  /** Score factor of each field, in the order of the documents' fields. */
  fieldBoost: readonly number[];
  matching: TermMatching;
  /** Score factor of each document; 0 leaves the document out. Default 1 for all. */
  docBoost?: Float64Array;
}

/** The documents a query matched, with their scores. */
export interface TermScores {
  /** Score of each document, indexed like the documents; 0 where it matched nothing. */
  scores: Float64Array;
  /** The documents that matched, in no particular order. */
  matched: number[];
  /** The query's terms, once each, in query order. */
  terms: string[];
  /** The query terms a document matched, in query order. */
  termsOf: (doc: number) => string[];
}

/** Growing postings of one term while the index is built: per field, (document, count) pairs. */
type Building = number[][];

/** A token seen while building: its term's postings, and where it was last counted. */
interface TokenEntry {
  building: Building | null;
  stamp: number;
}

/**
 * A term index as flat arrays (what `snapshot()` gives and the constructor restores): the terms in
 * dictionary order, per term and field how many postings it has (`counts`, terms × fields), and
 * the postings themselves one after the other.
 */
export interface TermIndexSnapshot {
  size: number;
  averageLengths: number[];
  /** Per field, each document's length in distinct tokens. */
  fieldLengths: Uint32Array[];
  terms: string[];
  counts: Uint32Array;
  docs: Int32Array;
  freqs: Uint32Array;
}

/** The dictionary of a snapshot; postings are views into its arrays, not copies. */
function restoreDictionary(snapshot: TermIndexSnapshot): SearchableMap<TermPostings> {
  const fieldCount = snapshot.fieldLengths.length;
  const { terms, counts, docs, freqs } = snapshot;
  if (counts.length !== terms.length * fieldCount) {
    throw new Error(
      `term index snapshot: ${counts.length} counts for ${terms.length} terms × ${fieldCount} fields`,
    );
  }
  const dictionary = new SearchableMap<TermPostings>();
  let at = 0;
  terms.forEach((term, t) => {
    const perField: TermPostings = [];
    for (let f = 0; f < fieldCount; f++) {
      const n = counts[t * fieldCount + f]!;
      perField.push(n ? { docs: docs.subarray(at, at + n), freqs: freqs.subarray(at, at + n) } : undefined);
      at += n;
    }
    dictionary.set(term, perField);
  });
  if (at !== docs.length || docs.length !== freqs.length) {
    throw new Error(`term index snapshot: postings do not add up (${at} counted, ${docs.length} stored)`);
  }
  return dictionary;
}

export class TermIndex {
  /** Number of documents. */
  readonly size: number;
  private readonly options: TermIndexOptions;
  private readonly dictionary: SearchableMap<TermPostings>;
  // Per field: each document's length in distinct tokens, and the mean of those lengths.
  private readonly fieldLengths: Uint32Array[];
  private readonly averageLengths: number[];

  /** `documents[d][f]` is the text of field `f` of document `d`. */
  constructor(documents: ReadonlyArray<readonly string[]>, options: TermIndexOptions);
  /** An index saved by `snapshot()`, with the same options it was built with. */
  constructor(snapshot: TermIndexSnapshot, options: TermIndexOptions);
  constructor(source: ReadonlyArray<readonly string[]> | TermIndexSnapshot, options: TermIndexOptions) {
    this.options = options;
    if (!Array.isArray(source)) {
      const snapshot = source as TermIndexSnapshot;
      this.size = snapshot.size;
      this.fieldLengths = snapshot.fieldLengths;
      this.averageLengths = snapshot.averageLengths;
      this.dictionary = restoreDictionary(snapshot);
      return;
    }
    const documents = source as ReadonlyArray<readonly string[]>;
    this.size = documents.length;
    const fieldCount = documents[0]?.length ?? 0;
    this.fieldLengths = Array.from({ length: fieldCount }, () => new Uint32Array(documents.length));
    this.averageLengths = Array.from({ length: fieldCount }, () => 0);
    // One map lookup per token: a token leads straight to its term's postings (shared by every
    // token with the same term; `null` for stop words), and remembers the last field it was
    // counted in, which counts the distinct tokens of a field without a set per field. Postings
    // grow as one array per term and field of (document, count) pairs: half the arrays, and far
    // less for the garbage collector to copy, than an array of each.
    const tokens = new Map<string, TokenEntry>();
    const terms = new Map<string, Building>();
    for (let doc = 0; doc < documents.length; doc++) {
      const fields = documents[doc]!;
      for (let field = 0; field < fields.length; field++) {
        const stamp = doc * fieldCount + field + 1;
        let length = 0;
        for (const token of options.tokenize(fields[field]!)) {
          let entry = tokens.get(token);
          if (entry === undefined) {
            const term = options.processTerm(token);
            let building: Building | null = null;
            if (term) {
              building = terms.get(term) ?? Array.from({ length: fieldCount }, () => []);
              terms.set(term, building);
            }
            entry = { building, stamp: 0 };
            tokens.set(token, entry);
          }
          if (entry.stamp !== stamp) {
            entry.stamp = stamp;
            length++;
          }
          const building = entry.building;
          if (building === null) continue;
          const pairs = building[field]!;
          const last = pairs.length - 2;
          // Documents are added in order, so a repeat of the term is always the last pair.
          if (last >= 0 && pairs[last] === doc) pairs[last + 1]!++;
          else pairs.push(doc, 1);
        }
        this.fieldLengths[field]![doc] = length;
        // A running mean, computed as MiniSearch does so the scores match it to the last bit.
        this.averageLengths[field] = (this.averageLengths[field]! * doc + length) / (doc + 1);
      }
    }
    this.dictionary = new SearchableMap<TermPostings>();
    for (const [term, building] of terms) {
      this.dictionary.set(
        term,
        building.map((pairs) => {
          if (!pairs.length) return undefined;
          const docs = new Int32Array(pairs.length / 2);
          const freqs = new Uint32Array(pairs.length / 2);
          for (let i = 0; i < docs.length; i++) {
            docs[i] = pairs[2 * i]!;
            freqs[i] = pairs[2 * i + 1]!;
          }
          return { docs, freqs };
        }),
      );
    }
  }

  /**
   * The index as flat arrays, to save and restore (`new TermIndex(snapshot, options)`) without
   * reading the documents again. Restoring costs one dictionary insert per distinct term.
   */
  snapshot(): TermIndexSnapshot {
    const fieldCount = this.fieldLengths.length;
    const terms: string[] = [];
    const counts: number[] = [];
    let total = 0;
    for (const [term, perField] of this.dictionary) {
      terms.push(term);
      for (let f = 0; f < fieldCount; f++) {
        const n = perField[f]?.docs.length ?? 0;
        counts.push(n);
        total += n;
      }
    }
    const docs = new Int32Array(total);
    const freqs = new Uint32Array(total);
    let at = 0;
    for (const [, perField] of this.dictionary) {
      for (let f = 0; f < fieldCount; f++) {
        const postings = perField[f];
        if (!postings) continue;
        docs.set(postings.docs, at);
        freqs.set(postings.freqs, at);
        at += postings.docs.length;
      }
    }
    return {
      size: this.size,
      averageLengths: [...this.averageLengths],
      fieldLengths: this.fieldLengths,
      terms,
      counts: Uint32Array.from(counts),
      docs,
      freqs,
    };
  }

  /** The query's index terms, repeats kept (a repeated word counts again, as in MiniSearch). */
  private analyze(text: string): string[] {
    const terms: string[] = [];
    for (const token of this.options.tokenize(text)) {
      const term = this.options.processTerm(token);
      if (term) terms.push(term);
    }
    return terms;
  }

  /** Index terms matching a query term, each with its weight: itself, prefix and fuzzy matches. */
  private expand(term: string, matching: TermMatching): Array<[TermPostings, number]> {
    const found: Array<[TermPostings, number]> = [];
    const exact = this.dictionary.get(term);
    if (exact) found.push([exact, 1]);
    const prefixed = new Set<string>();
    if (matching.prefix(term)) {
      for (const [longer, postings] of this.dictionary.atPrefix(term)) {
        const distance = longer.length - term.length;
        if (!distance) continue;
        prefixed.add(longer);
        // Weights fall slowly with the extra length, more slowly than for fuzzy matches.
        found.push([postings, (matching.weights.prefix * longer.length) / (longer.length + 0.3 * distance)]);
      }
    }
    const fuzzy = matching.fuzzy(term);
    if (fuzzy) {
      const maxDistance = fuzzy < 1 ? Math.min(MAX_FUZZY, Math.round(term.length * fuzzy)) : fuzzy;
      if (maxDistance) {
        for (const [near, [postings, distance]] of this.dictionary.fuzzyGet(term, maxDistance)) {
          // A term that is also a prefix match counts once, as the prefix match.
          if (!distance || prefixed.has(near)) continue;
          found.push([postings, (matching.weights.fuzzy * near.length) / (near.length + distance)]);
        }
      }
    }
    return found;
  }

  /** Scores every document against the text's terms (OR: a document needs one of them). */
  score(text: string, options: ScoreOptions): TermScores {
    const { fieldBoost, matching, docBoost } = options;
    const scores = new Float64Array(this.size);
    const matched: number[] = [];
    // Each distinct term once, with how often the text repeats it.
    const repeats = new Map<string, number>();
    for (const term of this.analyze(text)) repeats.set(term, (repeats.get(term) ?? 0) + 1);
    const terms = [...repeats.keys()];
    // How many distinct query terms each document matched, and which (one bit set per term).
    const termCount = new Uint16Array(this.size);
    const termBits = terms.map(() => new Uint32Array(Math.ceil(this.size / 32)));
    terms.forEach((term, t) => {
      const bits = termBits[t]!;
      const count = repeats.get(term)!;
      for (const [postings, weight] of this.expand(term, matching)) {
        postings.forEach((field, f) => {
          if (!field) return;
          const boost = count * weight * (fieldBoost[f] ?? 1);
          const lengths = this.fieldLengths[f]!;
          const average = this.averageLengths[f]!;
          const holding = field.docs.length;
          const idf = Math.log(1 + (this.size - holding + 0.5) / (holding + 0.5));
          for (let i = 0; i < holding; i++) {
            const doc = field.docs[i]!;
            const factor = docBoost ? docBoost[doc]! : 1;
            if (!factor) continue;
            const freq = field.freqs[i]!;
            const norm = BM25_K * (1 - BM25_B + (BM25_B * lengths[doc]!) / average);
            scores[doc]! += boost * factor * idf * (BM25_D + (freq * (BM25_K + 1)) / (freq + norm));
            const word = doc >>> 5;
            const bit = 1 << (doc & 31);
            if (bits[word]! & bit) continue;
            bits[word]! |= bit;
            if (termCount[doc]!++ === 0) matched.push(doc);
          }
        });
      }
    });
    // MiniSearch's last step: a document's score times the number of query terms it matched.
    for (const doc of matched) scores[doc]! *= termCount[doc]!;
    const termsOf = (doc: number) => terms.filter((_, t) => termBits[t]![doc >>> 5]! & (1 << (doc & 31)));
    return { scores, matched, terms, termsOf };
  }
}
