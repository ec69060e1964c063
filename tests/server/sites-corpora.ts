/**
 * The docs-site corpora of `tests/fixtures/sites/` and what is measured on them: each question's
 * expected page through the real service over HTTP (hit@1, hit@5, the languages of the sources
 * and suggestions), next to a plain BM25 baseline (minisearch with its defaults over every Markdown
 * file of the folder, as a naive indexer would see it). Used by `sites-http.test.ts` and
 * `bench/retrieval-quality.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';
import type { DocPage } from '../../packages/docs-assistant-server/src/retrieval';
import { authHeaders, body, parseStream, type RunningService, startService } from './helpers';

// A string, not `new URL(…)`: under jsdom `URL` is jsdom's, which node:url does not accept.
export const SITES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'sites');

/** Corpora with a question set. */
export const CORPORA = ['mintlify', 'docusaurus', 'vitepress', 'mkdocs', 'starlight', 'folder'] as const;
export type Corpus = (typeof CORPORA)[number];

export interface SiteQuestion {
  question: string;
  /** Language the question is written in. */
  language: string;
  /** URL path of the page that answers it, as the site's navigation publishes it. */
  page: string;
  /** The page's file, relative to the corpus folder (for the baseline, which knows only files). */
  file: string;
}

export const corpusDir = (corpus: string): string => join(SITES_DIR, corpus);

export function siteQuestions(corpus: Corpus): SiteQuestion[] {
  const json = JSON.parse(readFileSync(join(corpusDir(corpus), 'questions.json'), 'utf8')) as {
    questions: SiteQuestion[];
  };
  return json.questions;
}

/** Every `.md`/`.mdx` file under a folder but `node_modules`: what a naive indexer reads. */
function allMarkdown(root: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[])
    .map((file) => file.replace(/\\/g, '/'))
    .filter((file) => /\.mdx?$/i.test(file) && !file.split('/').includes('node_modules'))
    .sort();
}

/** Ranks of the expected file under plain BM25 (minisearch defaults); 0 when not in the first k. */
export function bm25Ranks(corpus: Corpus, questions: SiteQuestion[], k = 5): number[] {
  const root = corpusDir(corpus);
  const files = allMarkdown(root);
  const search = new MiniSearch<{ id: string; text: string }>({ fields: ['text'] });
  search.addAll(files.map((file) => ({ id: file, text: readFileSync(join(root, file), 'utf8') })));
  return questions.map((q) => {
    const found = search.search(q.question).slice(0, k);
    return found.findIndex((result) => result.id === q.file) + 1;
  });
}

export interface AskedQuestion extends SiteQuestion {
  /** Page paths of the search results, best first. */
  results: string[];
  /** Result URLs as sent. */
  urls: string[];
  /** Links of the answer's `suggestions` block. */
  suggestions: string[];
  text: string;
  /** 1-based rank of the expected page among the results; 0 when missing. */
  rank: number;
}

const SUGGESTION = /^\(([^)]*)\)\[([^\]]+)\]$/;

/** The links of the `suggestions` blocks of an answer. */
export function suggestionLinks(text: string): string[] {
  const links: string[] = [];
  for (const block of text.matchAll(/```suggestions\n([\s\S]*?)```/g)) {
    for (const line of block[1]!.split('\n')) {
      const match = SUGGESTION.exec(line.trim());
      if (match) links.push(match[2]!);
    }
  }
  return links;
}

/** Asks one question over HTTP and reads the answer. */
export async function askOverHttp(
  running: RunningService,
  question: string,
  extra: Record<string, unknown> = {},
): Promise<{ results: string[]; urls: string[]; suggestions: string[]; text: string }> {
  const response = await fetch(running.endpoint(), {
    method: 'POST',
    headers: authHeaders(),
    body: JSON.stringify(body(question, extra)),
  });
  const raw = await response.text();
  if (response.status !== 200) throw new Error(`status ${response.status}: ${raw}`);
  const parsed = parseStream(raw);
  return {
    results: parsed.searchResults.map((r) => r.path),
    urls: parsed.searchResults.map((r) => r.url),
    suggestions: suggestionLinks(parsed.text),
    text: parsed.text,
  };
}

export interface CorpusRun {
  corpus: Corpus;
  pages: DocPage[];
  asked: AskedQuestion[];
  /** Plain BM25 ranks, per question. */
  baseline: number[];
}

/** Starts the real service on the corpus, asks every question, and runs the baseline. */
export async function runCorpus(corpus: Corpus): Promise<CorpusRun> {
  const running = await startService({ docs: corpusDir(corpus) });
  try {
    const index = await running.service.index(running.service.config.domains[0]!.domain);
    const questions = siteQuestions(corpus);
    const asked: AskedQuestion[] = [];
    for (const q of questions) {
      const answer = await askOverHttp(running, q.question);
      asked.push({ ...q, ...answer, rank: answer.results.indexOf(q.page) + 1 });
    }
    return { corpus, pages: [...index.pages], asked, baseline: bm25Ranks(corpus, questions) };
  } finally {
    await running.close();
  }
}

export interface CorpusFigures {
  corpus: Corpus;
  questions: number;
  pages: number;
  hitAt1: number;
  hitAt5: number;
  bm25HitAt1: number;
  bm25HitAt5: number;
  /** English questions with a source or suggestion in another language. */
  englishMixed: number;
  /** Questions (any language) whose sources are not all in the question's language. */
  mixed: number;
}

export function figures(run: CorpusRun): CorpusFigures {
  const languageOf = new Map(run.pages.map((page) => [page.path, page.language]));
  const crosses = (q: AskedQuestion) =>
    [...q.results, ...q.suggestions].some((path) => {
      const language = languageOf.get(path);
      return language !== undefined && language !== q.language;
    });
  const share = (ranks: number[], top: number) => ranks.filter((r) => r > 0 && r <= top).length;
  const ranks = run.asked.map((q) => q.rank);
  return {
    corpus: run.corpus,
    questions: run.asked.length,
    pages: run.pages.length,
    hitAt1: share(ranks, 1),
    hitAt5: share(ranks, 5),
    bm25HitAt1: share(run.baseline, 1),
    bm25HitAt5: share(run.baseline, 5),
    englishMixed: run.asked.filter((q) => q.language === 'en' && crosses(q)).length,
    mixed: run.asked.filter(crosses).length,
  };
}
