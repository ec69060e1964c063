/**
 * What insights keep of a question's text, and how questions that mean the same are found without
 * a model: secrets masked before anything is stored; the index's own terms (`queryTerms`: stop
 * words out, light stemming) as each question's words; a question's "form" (its terms sorted) as
 * the key its counts roll up under; and forms grouped greedily by the cosine of their term vectors
 * (IDF-weighted words plus character trigrams of each word, so "colour" meets "colors").
 */
import { queryTerms } from '../retrieval/search-index.js';

/**
 * Words that say how a question is asked, not what about: "can you explain …", "where do I find
 * information on …". Dropped on top of the index's stop words so paraphrases share a form.
 */
const ASKING_WORDS = new Set([
  'explain',
  'help',
  'information',
  'info',
  'find',
  'know',
  'work',
  'doe',
  'possible',
  'anyon',
  'someon',
  'hi',
  'hello',
  'thank',
  'thanks',
  'question',
  'docs',
  'doc',
  'documentation',
  'mean',
  'anything',
  'something',
]);

/** Masks of what must never be stored: checked in this order (a key before a generic token). */
const SECRET_PATTERNS: Array<[RegExp, string]> = [
  [/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, '[email]'],
  [/\bBearer\s+[\w~+/.=-]+/gi, 'Bearer [token]'],
  [/\b(svc_dsc_|svc_|sk-|sk_|pk_|ghp_|gho_|xox[abpr]-)[\w-]{6,}/g, '[key]'],
  [/\b[0-9a-f]{24,}\b/gi, '[token]'],
  [/(?<![\w/+])[A-Za-z0-9+/_-]{32,}={0,2}(?![\w/+])/g, '[token]'],
];

/** `text` with e-mail addresses, keys, bearer tokens and long hex or base64 strings masked. */
export function maskSecrets(text: string): string {
  let masked = text;
  for (const [pattern, mask] of SECRET_PATTERNS) masked = masked.replace(pattern, mask);
  return masked;
}

/** A question's content terms, as the search index reads them, without the asking words. */
export function questionTerms(text: string): string[] {
  return queryTerms(maskSecrets(text)).filter((term) => !ASKING_WORDS.has(term));
}

/** The key questions with the same words roll up under: their terms, sorted ("" for none). */
export function questionForm(text: string): string {
  return [...new Set(questionTerms(text))].sort().join(' ');
}

type Vector = Map<string, number>;

/** Weight of a word's character trigrams against the word itself. */
const TRIGRAM_WEIGHT = 0.35;

function addFeatures(vector: Vector, term: string, weight: number): void {
  vector.set(`w:${term}`, (vector.get(`w:${term}`) ?? 0) + weight);
  const padded = ` ${term} `;
  const grams = Math.max(1, padded.length - 2);
  for (let i = 0; i + 3 <= padded.length; i++) {
    const gram = `g:${padded.slice(i, i + 3)}`;
    vector.set(gram, (vector.get(gram) ?? 0) + (weight * TRIGRAM_WEIGHT) / Math.sqrt(grams));
  }
}

const norm = (vector: Vector): number => Math.sqrt([...vector.values()].reduce((sum, v) => sum + v * v, 0));

export function cosine(a: Vector, b: Vector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [key, value] of small) dot += value * (large.get(key) ?? 0);
  const denominator = norm(a) * norm(b);
  return denominator ? dot / denominator : 0;
}

export interface FormCount {
  form: string;
  /** How many questions had this form (the weight of the form in its group). */
  count: number;
}

export interface FormGroup<T extends FormCount> {
  /** The group's largest form: its id and label come from it. */
  lead: T;
  members: T[];
  count: number;
}

/** Cosine from which a form joins a group. Tuned on the labelled set of tests/server/insights-*. */
export const GROUP_SIMILARITY = 0.5;

/**
 * Groups forms by meaning, largest first: each form (most asked first) joins the group whose summed
 * vector it is closest to when that is at least `GROUP_SIMILARITY`, else starts a group. Words are
 * weighted by their inverse frequency among the forms, so the words every question shares say less.
 */
export function groupForms<T extends FormCount>(forms: T[], similarity = GROUP_SIMILARITY): FormGroup<T>[] {
  const sorted = [...forms].sort((a, b) => b.count - a.count || a.form.localeCompare(b.form));
  const documents = new Map<string, number>();
  for (const { form } of sorted)
    for (const term of new Set(form.split(' '))) documents.set(term, (documents.get(term) ?? 0) + 1);
  const idf = (term: string) => Math.log(1 + sorted.length / (documents.get(term) ?? 1));
  const groups: Array<FormGroup<T> & { vector: Vector }> = [];
  for (const entry of sorted) {
    const vector: Vector = new Map();
    for (const term of entry.form.split(' ').filter(Boolean)) addFeatures(vector, term, idf(term));
    let best: (typeof groups)[number] | undefined;
    let bestScore = similarity;
    for (const group of groups) {
      const score = cosine(vector, group.vector);
      if (score >= bestScore) {
        best = group;
        bestScore = score;
      }
    }
    if (!best || !entry.form) {
      groups.push({ lead: entry, members: [entry], count: entry.count, vector });
      continue;
    }
    best.members.push(entry);
    best.count += entry.count;
    for (const [key, value] of vector) best.vector.set(key, (best.vector.get(key) ?? 0) + value);
  }
  return groups
    .map(({ lead, members, count }) => ({ lead, members, count }))
    .sort((a, b) => b.count - a.count || a.lead.form.localeCompare(b.lead.form));
}
