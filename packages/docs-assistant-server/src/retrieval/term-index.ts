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
  /**
   * The same tokens as `tokenize`, in the same order, given as places in the text where they are
   * plain slices of it (`word`) and as strings otherwise (`part`). With it, building reads a
   * token it has seen without copying it out of the text.
   */
  scan?: (text: string, word: (start: number, end: number) => void, part: (token: string) => void) => void;
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

/**
 * The tokens seen while building, found from a place in a text without copying the token out: an
 * open-addressing table keyed by a hash of the characters, each slot confirmed against the token.
 * Per token: its term's number (-1 for a dropped word) and where it was last counted.
 */
class TokenTable {
  readonly tokens: string[] = [];
  term: Int32Array = new Int32Array(1024);
  stamp: Int32Array = new Int32Array(1024);
  private hashes: Int32Array = new Int32Array(1024);
  // Slot → token number + 1 (0: empty).
  private slots = new Int32Array(2048);

  /** The number of the token `text[start, end)`, or -1 when it is not in the table. */
  find(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]! - 1;
      if (entry < 0) return -1;
      if (this.hashes[entry] !== hash) continue;
      const token = this.tokens[entry]!;
      if (token.length !== end - start) continue;
      let same = true;
      for (let i = 0; i < token.length; i++) {
        if (token.charCodeAt(i) !== text.charCodeAt(start + i)) {
          same = false;
          break;
        }
      }
      if (same) return entry;
    }
  }

  add(token: string, hash: number, term: number): number {
    const entry = this.tokens.length;
    if (entry === this.term.length) {
      this.term = grow(this.term);
      this.stamp = grow(this.stamp);
      this.hashes = grow(this.hashes);
    }
    this.tokens.push(token);
    this.term[entry] = term;
    this.hashes[entry] = hash;
    if ((entry + 1) * 2 > this.slots.length) this.rehash();
    this.place(entry);
    return entry;
  }

  private place(entry: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hashes[entry]! & mask;
    while (this.slots[slot]) slot = (slot + 1) & mask;
    this.slots[slot] = entry + 1;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    for (let entry = 0; entry < this.tokens.length; entry++) this.place(entry);
  }
}

/** FNV-1a over the UTF-16 code units of `text[start, end)`. */
function hashOf(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

function grow(array: Int32Array): Int32Array {
  const grown = new Int32Array(array.length * 2);
  grown.set(array);
  return grown;
}

/**
 * A term index as flat arrays (what `snapshot()` gives and the constructor restores): the terms in
 * code-unit order, per term and field how many postings it has (`counts`, terms × fields), and
 * the postings themselves one after the other, each term's and field's by ascending document.
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

/** A growing list of 32-bit integers: postings while they are collected, with no boxed numbers for the collector to copy. */
class IntList {
  data: Int32Array = new Int32Array(4096);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) this.data = grow(this.data);
    this.data[this.length++] = value;
  }
}

/**
 * Postings collected document by document (or taken over from an earlier index), then grouped by
 * term and field. Each distinct token is looked up once per occurrence, in one map that leads
 * straight to its term's number; a term's count within a field adds up in one array.
 */
class Collector {
  /** Term by number, in the order first seen. */
  readonly terms: string[] = [];
  private readonly termIds = new Map<string, number>();
  private readonly tokens = new TokenTable();
  private freq = new Uint32Array(1024);
  private readonly touched: number[] = [];
  private stamp = 0;
  private length = 0;
  private readonly word: (start: number, end: number) => void;
  private readonly part: (token: string) => void;
  private text = '';
  // One entry per (term, field, document): `term * fields + field`, the document, the count.
  readonly keys = new IntList();
  readonly docs = new IntList();
  readonly freqs = new IntList();
  /** Whether the entries are in document order (they are unless taken over from an index). */
  inDocOrder = true;

  constructor(
    private readonly options: TermIndexOptions,
    readonly fieldCount: number,
  ) {
    // Made once: the scan calls them for every token.
    this.word = (start, end) => this.count(this.text, start, end);
    this.part = (token) => this.count(token, 0, token.length);
  }

  termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.termIds.set(term, id);
      if (id === this.freq.length) {
        const grown = new Uint32Array(this.freq.length * 2);
        grown.set(this.freq);
        this.freq = grown;
      }
    }
    return id;
  }

  /** Adds a field of a document; returns its length in distinct tokens. */
  addField(doc: number, field: number, text: string): number {
    this.stamp++;
    this.length = 0;
    if (this.options.scan) {
      this.text = text;
      this.options.scan(text, this.word, this.part);
      this.text = '';
    } else {
      for (const token of this.options.tokenize(text)) this.count(token, 0, token.length);
    }
    for (const term of this.touched) {
      this.keys.push(term * this.fieldCount + field);
      this.docs.push(doc);
      this.freqs.push(this.freq[term]!);
      this.freq[term] = 0;
    }
    this.touched.length = 0;
    return this.length;
  }

  /** Counts the token `text[start, end)` in the field being added. */
  private count(text: string, start: number, end: number): void {
    const tokens = this.tokens;
    const hash = hashOf(text, start, end);
    let entry = tokens.find(text, start, end, hash);
    if (entry < 0) {
      const token = start === 0 && end === text.length ? text : text.slice(start, end);
      const term = this.options.processTerm(token);
      entry = tokens.add(token, hash, term ? this.termId(term) : -1);
    }
    // Distinct tokens of the field: a token counts the first time it is met in it.
    if (tokens.stamp[entry] !== this.stamp) {
      tokens.stamp[entry] = this.stamp;
      this.length++;
    }
    const term = tokens.term[entry]!;
    if (term >= 0 && this.freq[term]!++ === 0) this.touched.push(term);
  }

  /** Takes over an index's postings of the documents kept (`renumber[old]`, -1 for one dropped). */
  addPostings(from: TermIndexSnapshot, renumber: Int32Array): void {
    const fields = from.fieldLengths.length;
    let at = 0;
    from.terms.forEach((term, t) => {
      const id = this.termId(term);
      for (let f = 0; f < fields; f++) {
        const end = at + from.counts[t * fields + f]!;
        for (; at < end; at++) {
          const doc = renumber[from.docs[at]!]!;
          if (doc < 0) continue;
          this.keys.push(id * this.fieldCount + f);
          this.docs.push(doc);
          this.freqs.push(from.freqs[at]!);
        }
      }
    });
    this.inDocOrder = false;
  }
}

/** Stable counting sort: the positions of `buckets` ordered by their value (each below `count`). */
function countingOrder(buckets: Int32Array, count: number): Int32Array {
  const starts = new Uint32Array(count + 1);
  const n = buckets.length;
  for (let i = 0; i < n; i++) starts[buckets[i]! + 1]!++;
  for (let b = 0; b < count; b++) starts[b + 1]! += starts[b]!;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[starts[buckets[i]!]!++] = i;
  return order;
}

// Plain code-unit order: the dictionary is filled in it, so the same terms always make the same
// tree whatever order they were met in (scores add up in the tree's order, to the last bit).
const compareCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The collected entries grouped by term (code-unit order) and field, each group by ascending document. */
function group(
  collected: Collector,
  size: number,
): Pick<TermIndexSnapshot, 'terms' | 'counts' | 'docs' | 'freqs'> {
  const fields = collected.fieldCount;
  const n = collected.keys.length;
  const keys = collected.keys.data;
  const docs = collected.docs.data;
  const freqs = collected.freqs.data;
  // Entries taken over from an index come term by term: put them in document order first.
  const byDoc = collected.inDocOrder ? undefined : countingOrder(docs.subarray(0, n), size);
  // Terms with no posting left (their documents all gone) are dropped, as a build would not see them.
  const held = new Uint8Array(collected.terms.length);
  for (let i = 0; i < n; i++) held[(keys[i]! / fields) | 0] = 1;
  const kept = collected.terms.map((_, id) => id).filter((id) => held[id]);
  kept.sort((a, b) => compareCodeUnits(collected.terms[a]!, collected.terms[b]!));
  const rank = new Int32Array(collected.terms.length);
  kept.forEach((id, r) => {
    rank[id] = r;
  });
  // Each entry's group (term rank × fields + field), in document order.
  const slots = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const key = keys[byDoc ? byDoc[i]! : i]!;
    const term = (key / fields) | 0;
    slots[i] = rank[term]! * fields + (key - term * fields);
  }
  const order = countingOrder(slots, kept.length * fields);
  const counts = new Uint32Array(kept.length * fields);
  const outDocs = new Int32Array(n);
  const outFreqs = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const at = order[i]!;
    const from = byDoc ? byDoc[at]! : at;
    counts[slots[at]!]!++;
    outDocs[i] = docs[from]!;
    outFreqs[i] = freqs[from]!;
  }
  return { terms: kept.map((id) => collected.terms[id]!), counts, docs: outDocs, freqs: outFreqs };
}

/** Per field, the mean document length, as MiniSearch computes it (a running mean) to the last bit. */
function averageLengths(fieldLengths: Uint32Array[], size: number): number[] {
  return fieldLengths.map((lengths) => {
    let average = 0;
    for (let doc = 0; doc < size; doc++) average = (average * doc + lengths[doc]!) / (doc + 1);
    return average;
  });
}

/** Throws when a snapshot's parts do not fit together (a corrupt saved index). */
function checkSnapshot(snapshot: TermIndexSnapshot): void {
  const fieldCount = snapshot.fieldLengths.length;
  const { terms, counts, docs, freqs } = snapshot;
  if (counts.length !== terms.length * fieldCount) {
    throw new Error(
      `term index snapshot: ${counts.length} counts for ${terms.length} terms × ${fieldCount} fields`,
    );
  }
  let total = 0;
  for (let i = 0; i < counts.length; i++) total += counts[i]!;
  if (total !== docs.length || docs.length !== freqs.length) {
    throw new Error(`term index snapshot: postings do not add up (${total} counted, ${docs.length} stored)`);
  }
}

/** The dictionary of a snapshot; postings are views into its arrays, not copies. */
function dictionaryOf(snapshot: TermIndexSnapshot): SearchableMap<TermPostings> {
  const fieldCount = snapshot.fieldLengths.length;
  const { terms, counts, docs, freqs } = snapshot;
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
  return dictionary;
}

/** A document of `TermIndex.update`: its fields' texts, or its number in the index updated (unchanged). */
export type UpdatedDocument = readonly string[] | number;

/** Builds the flat index of `documents`, taking over `previous`'s postings for the documents given by number. */
function buildSnapshot(
  documents: ReadonlyArray<UpdatedDocument>,
  options: TermIndexOptions,
  previous: TermIndexSnapshot | undefined,
): TermIndexSnapshot {
  const size = documents.length;
  const firstTexts = documents.find((doc): doc is readonly string[] => typeof doc !== 'number');
  const fieldCount = previous?.fieldLengths.length ?? firstTexts?.length ?? 0;
  const collected = new Collector(options, fieldCount);
  const fieldLengths = Array.from({ length: fieldCount }, () => new Uint32Array(size));
  const renumber = new Int32Array(previous?.size ?? 0).fill(-1);
  documents.forEach((document, doc) => {
    if (typeof document === 'number') {
      if (!previous || document < 0 || document >= previous.size || renumber[document]! >= 0) {
        throw new Error(`term index update: document ${document} is not one of the earlier index, once`);
      }
      renumber[document] = doc;
      for (let f = 0; f < fieldCount; f++) fieldLengths[f]![doc] = previous.fieldLengths[f]![document]!;
      return;
    }
    for (let f = 0; f < fieldCount; f++)
      fieldLengths[f]![doc] = collected.addField(doc, f, document[f] ?? '');
  });
  const kept = previous && renumber.some((doc) => doc >= 0) ? previous : undefined;
  let postings: Pick<TermIndexSnapshot, 'terms' | 'counts' | 'docs' | 'freqs'>;
  if (kept && keepsOrder(renumber)) {
    // The usual change (pages edited, added or removed, the rest in their order): the kept
    // postings stay in document order, so the new ones are merged into them term by term.
    postings = merge(kept, renumber, group(collected, size));
  } else {
    if (kept) collected.addPostings(kept, renumber);
    postings = group(collected, size);
  }
  return { size, fieldLengths, averageLengths: averageLengths(fieldLengths, size), ...postings };
}

/** Whether the documents kept keep their order (`renumber[old]` rises, -1 for one dropped). */
function keepsOrder(renumber: Int32Array): boolean {
  let last = -1;
  for (let i = 0; i < renumber.length; i++) {
    const doc = renumber[i]!;
    if (doc < 0) continue;
    if (doc < last) return false;
    last = doc;
  }
  return true;
}

type Postings = Pick<TermIndexSnapshot, 'terms' | 'counts' | 'docs' | 'freqs'>;

/**
 * The postings of `previous`, renumbered (dropped documents left out), merged with the new
 * documents' `added` (both in code-unit order of terms, each group by ascending document): what
 * `group` gives for all of them, in one pass and without collecting the kept ones again.
 */
function merge(previous: TermIndexSnapshot, renumber: Int32Array, added: Postings): Postings {
  const fields = previous.fieldLengths.length;
  const docs = new Int32Array(previous.docs.length + added.docs.length);
  const freqs = new Uint32Array(docs.length);
  const terms: string[] = [];
  const counts: number[] = [];
  let out = 0;
  // Read positions: term, and posting within the old and the added arrays.
  let a = 0;
  let b = 0;
  let atA = 0;
  let atB = 0;
  while (a < previous.terms.length || b < added.terms.length) {
    const termA = previous.terms[a];
    const termB = added.terms[b];
    const order = termA === undefined ? 1 : termB === undefined ? -1 : compareCodeUnits(termA, termB);
    const start = out;
    const groupCounts: number[] = [];
    for (let f = 0; f < fields; f++) {
      const groupStart = out;
      const endA = order <= 0 ? atA + previous.counts[a * fields + f]! : atA;
      const endB = order >= 0 ? atB + added.counts[b * fields + f]! : atB;
      // Merge by document: the old ones renumbered (skipping dropped), the added ones as they are.
      while (atA < endA || atB < endB) {
        const oldDoc = atA < endA ? renumber[previous.docs[atA]!]! : -1;
        if (atA < endA && oldDoc < 0) {
          atA++;
          continue;
        }
        if (atB >= endB || (atA < endA && oldDoc < added.docs[atB]!)) {
          docs[out] = oldDoc;
          freqs[out++] = previous.freqs[atA++]!;
        } else {
          docs[out] = added.docs[atB]!;
          freqs[out++] = added.freqs[atB++]!;
        }
      }
      groupCounts.push(out - groupStart);
    }
    // A term whose documents are all gone is dropped, as a build would not see it.
    if (out > start) {
      terms.push((order <= 0 ? termA : termB)!);
      counts.push(...groupCounts);
    }
    if (order <= 0) a++;
    if (order >= 0) b++;
  }
  return { terms, counts: Uint32Array.from(counts), docs: docs.slice(0, out), freqs: freqs.slice(0, out) };
}

export class TermIndex {
  /** Number of documents. */
  readonly size: number;
  private readonly options: TermIndexOptions;
  private readonly flat: TermIndexSnapshot;
  // Made at the first search: an index that is only updated from (a saved one a restart replaces,
  // the one before a watched change) never needs it.
  private terms: SearchableMap<TermPostings> | undefined;
  // Per field: each document's length in distinct tokens, and the mean of those lengths.
  private readonly fieldLengths: Uint32Array[];
  private readonly averageLengths: number[];
  private read = 0;

  /** `documents[d][f]` is the text of field `f` of document `d`. */
  constructor(documents: ReadonlyArray<readonly string[]>, options: TermIndexOptions);
  /** An index saved by `snapshot()`, with the same options it was built with. */
  constructor(snapshot: TermIndexSnapshot, options: TermIndexOptions);
  constructor(source: ReadonlyArray<readonly string[]> | TermIndexSnapshot, options: TermIndexOptions) {
    this.options = options;
    this.flat = Array.isArray(source)
      ? buildSnapshot(source as ReadonlyArray<readonly string[]>, options, undefined)
      : (source as TermIndexSnapshot);
    this.size = this.flat.size;
    this.fieldLengths = this.flat.fieldLengths;
    this.averageLengths = this.flat.averageLengths;
    checkSnapshot(this.flat);
    if (Array.isArray(source)) this.read = source.length;
  }

  /** Documents whose texts were read to make this index (none when restored, the changed ones when updated). */
  get readDocuments(): number {
    return this.read;
  }

  /**
   * The index of a changed list of documents: a document given by its number here is taken over
   * unchanged (its postings renumbered, not read again), one given by its texts is read. The
   * result equals an index built from all the texts, to the last bit of every score.
   */
  update(documents: ReadonlyArray<UpdatedDocument>): TermIndex {
    const next = new TermIndex(buildSnapshot(documents, this.options, this.flat), this.options);
    next.read = documents.filter((document) => typeof document !== 'number').length;
    return next;
  }

  /**
   * The index as flat arrays, to save and restore (`new TermIndex(snapshot, options)`) without
   * reading the documents again. Restoring costs one dictionary insert per distinct term, at the first search.
   */
  snapshot(): TermIndexSnapshot {
    return {
      ...this.flat,
      averageLengths: [...this.flat.averageLengths],
      fieldLengths: [...this.fieldLengths],
    };
  }

  private get dictionary(): SearchableMap<TermPostings> {
    this.terms ??= dictionaryOf(this.flat);
    return this.terms;
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
