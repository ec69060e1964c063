/**
 * What a reader sees first (issue 37): the question set of `bench/questions/answers.json` asked
 * through the real service over HTTP (v1 endpoint, extractive engine), one service per site. Per
 * site and overall: hit@1 / hit@5 of the search results against plain BM25 (minisearch with its
 * defaults over the files of the site's published pages), and how many answers' leads contain the
 * question's expected fact. `runAnswersBench()` records `bench/results/answers-quality.json`;
 * `answersSection()` renders it for `bench/results.md`. `tests/server/answer-quality.test.ts`
 * runs the same set and holds the lead share to a ratchet.
 *
 * Run: `npm run bench -- --answers` (or `npx tsx bench/answers-quality.ts`, `--json` for every
 * answer's lead).
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';
import {
  authHeaders,
  parseStream,
  type RunningService,
  startService,
  userMessage,
} from '../tests/server/helpers';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ANSWER_QUESTIONS = join(ROOT, 'bench', 'questions', 'answers.json');
export const ANSWERS_RESULTS = join(ROOT, 'bench', 'results', 'answers-quality.json');
const K = 5;

export interface AnswerQuestion {
  site: string;
  kind: string;
  question: string;
  /** Page path that answers it. */
  page: string;
  /** Case-insensitive regular expression a correct lead contains. */
  fact: string;
  language?: string;
  /** Earlier questions of the thread, asked first. */
  history?: string[];
  /** The request's context parts (a selected passage, a code block). */
  context?: { type: 'textSelection' | 'code'; value: string; path?: string }[];
}

export interface AnswerSet {
  sites: Record<string, { dir: string; layout: string }>;
  questions: AnswerQuestion[];
}

export interface AskedAnswer extends AnswerQuestion {
  lead: string;
  text: string;
  /** Result pages, best first. */
  results: string[];
  rank: number;
  bm25Rank: number;
  leadHasFact: boolean;
}

export interface SiteFigures {
  site: string;
  layout: string;
  pages: number;
  questions: number;
  hitAt1: number;
  hitAt5: number;
  bm25HitAt1: number;
  bm25HitAt5: number;
  leads: number;
}

export interface AnswersQuality {
  at: string;
  k: number;
  sites: SiteFigures[];
  total: Omit<SiteFigures, 'site' | 'layout' | 'pages'>;
  asked: AskedAnswer[];
}

/** Reads and checks the question set, with errors that say which question to fix. */
export function loadAnswerSet(file = ANSWER_QUESTIONS): AnswerSet {
  const set = JSON.parse(readFileSync(file, 'utf8')) as AnswerSet;
  set.questions.forEach((q, i) => {
    const where = `${file}: questions[${i}] ("${q.question}")`;
    if (!set.sites[q.site]) throw new Error(`${where}: site ${q.site} is not in "sites"`);
    if (!q.page?.startsWith('/')) throw new Error(`${where}: page must be a path starting with /`);
    if (!q.fact) throw new Error(`${where}: fact must be a non-empty regular expression`);
    new RegExp(q.fact, 'i');
  });
  return set;
}

/** `/guides/sidebar/`, `/guide/a.html` → `/guides/sidebar`, `/guide/a`: links as the site may write them. */
const samePage = (path: string): string => path.replace(/(\/index)?(\.html)?\/?$/, '') || '/';

// Lines that go on with a list after a blank line: an item, or text indented under one.
const LIST_CONTINUES = /^(\s{2,}\S|\d+\.\s|- )/;

/** Whether a line goes on with the list that starts with `first` (indented text, or an item of its kind). */
const sameList = (first: string, line: string): boolean =>
  /^\s/.test(line)
    ? /^(\d+\.|- )/.test(first)
    : /^\d+\./.test(first) === /^\d+\./.test(line) && /^(\d+\.|- )/.test(first);

/**
 * The blocks of an answer (paragraphs, lists with their indented code, fenced code), up to its
 * `suggestions` block.
 */
export function answerBlocks(text: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fenced = false;
  let blank = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) {
      if (!fenced && /^```suggestions/.test(line)) break;
      fenced = !fenced;
    }
    if (!fenced && !line.trim()) {
      blank = current.length > 0;
      continue;
    }
    const listGoesOn = blank && LIST_CONTINUES.test(line) && sameList(current[0] ?? '', line);
    if (blank && !listGoesOn) {
      blocks.push(current.join('\n'));
      current = [];
    }
    blank = false;
    current.push(line);
  }
  if (current.length) blocks.push(current.join('\n'));
  return blocks;
}

/**
 * The lead: the answer's first block (after a note on the sources' language), with what it
 * introduces when it ends in ":" (a procedure, code). Markdown escapes are removed, so the fact is
 * matched against the words a reader sees.
 */
export function leadOf(text: string): string {
  const blocks = answerBlocks(text).filter((block) => !/^\*[^*].*\*$/.test(block));
  const first = blocks[0] ?? '';
  // What the first paragraph introduces, or the code it is quoted with.
  const follows = blocks[1] && (/:\s*$/.test(first) || blocks[1].startsWith('```')) ? blocks[1] : '';
  const lead = follows ? `${first}\n\n${follows}` : first;
  return lead.replace(/\\([\\`*_[\]<>~#])/g, '$1');
}

async function ask(
  running: RunningService,
  domain: string,
  messages: unknown[],
  context?: AnswerQuestion['context'],
) {
  const response = await fetch(running.endpoint(domain), {
    method: 'POST',
    headers: authHeaders(),
    body: JSON.stringify({
      fp: 'anonymous',
      messages,
      retrievalPageSize: K,
      ...(context ? { context } : {}),
    }),
  });
  const raw = await response.text();
  if (response.status !== 200) throw new Error(`status ${response.status}: ${raw}`);
  return parseStream(raw);
}

/** Asks one question of the set: its thread's earlier questions first, as a reader would. */
export async function askQuestion(running: RunningService, domain: string, q: AnswerQuestion) {
  const messages: unknown[] = [];
  for (const [i, earlier] of (q.history ?? []).entries()) {
    const answer = await ask(running, domain, [...messages, userMessage(earlier, `h${i}`)]);
    messages.push(userMessage(earlier, `h${i}`), {
      id: `a${i}`,
      role: 'assistant',
      content: answer.text,
      parts: [{ type: 'text', text: answer.text }],
    });
  }
  const answer = await ask(running, domain, [...messages, userMessage(q.question, 'q')], q.context);
  return { text: answer.text, results: answer.searchResults.map((r) => samePage(r.path)) };
}

/** Plain BM25: minisearch with its defaults over the files of the published pages. */
function bm25(pages: { path: string; sourceFile?: string; file: string }[], dir: string) {
  const search = new MiniSearch<{ id: string; text: string }>({ fields: ['text'] });
  const seen = new Set<string>();
  for (const page of pages) {
    const file = page.sourceFile ?? join(dir, page.file);
    if (seen.has(page.path) || !existsSync(file)) continue;
    seen.add(page.path);
    search.add({ id: samePage(page.path), text: readFileSync(file, 'utf8') });
  }
  return (question: string) =>
    search
      .search(question)
      .slice(0, K)
      .map((result) => result.id as string);
}

/** Asks every question of one site through a service of its own. */
export async function runSite(
  set: AnswerSet,
  site: string,
): Promise<{ pages: number; asked: AskedAnswer[] }> {
  const dir = join(ROOT, set.sites[site]!.dir);
  const running = await startService({ docs: dir, domain: site });
  try {
    const index = await running.service.index(site);
    const baseline = bm25([...index.pages], dir);
    const asked: AskedAnswer[] = [];
    for (const q of set.questions.filter((item) => item.site === site)) {
      if (!index.page(q.page) && !index.page(`${q.page}/`))
        throw new Error(`${site}: "${q.question}" expects page ${q.page}, which the site does not publish`);
      const { text, results } = await askQuestion(running, site, q);
      const lead = leadOf(text);
      asked.push({
        ...q,
        lead,
        text,
        results,
        rank: results.indexOf(q.page) + 1,
        bm25Rank: baseline(q.question).indexOf(q.page) + 1,
        leadHasFact: new RegExp(q.fact, 'i').test(lead),
      });
    }
    return { pages: index.pages.length, asked };
  } finally {
    await running.close();
  }
}

function count(asked: AskedAnswer[]) {
  return {
    questions: asked.length,
    hitAt1: asked.filter((a) => a.rank === 1).length,
    hitAt5: asked.filter((a) => a.rank > 0).length,
    bm25HitAt1: asked.filter((a) => a.bm25Rank === 1).length,
    bm25HitAt5: asked.filter((a) => a.bm25Rank > 0).length,
    leads: asked.filter((a) => a.leadHasFact).length,
  };
}

/** Runs the whole set, site by site. */
export async function measureAnswers(set = loadAnswerSet()): Promise<AnswersQuality> {
  const sites: SiteFigures[] = [];
  const all: AskedAnswer[] = [];
  for (const site of Object.keys(set.sites)) {
    const { pages, asked } = await runSite(set, site);
    sites.push({ site, layout: set.sites[site]!.layout, pages, ...count(asked) });
    all.push(...asked);
  }
  return { at: new Date().toISOString(), k: K, sites, total: count(all), asked: all };
}

export async function runAnswersBench(): Promise<AnswersQuality> {
  const result = await measureAnswers();
  await mkdir(dirname(ANSWERS_RESULTS), { recursive: true });
  await writeFile(ANSWERS_RESULTS, `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

const share = (part: number, whole: number) => `${part}/${whole} (${Math.round((part / whole) * 100)}%)`;

/** The section of `bench/results.md`; empty when no run has been recorded. */
export function answersSection(file = ANSWERS_RESULTS): string {
  if (!existsSync(file)) return '';
  const data = JSON.parse(readFileSync(file, 'utf8')) as AnswersQuality;
  const row = (name: string, layout: string, f: AnswersQuality['total']) =>
    `| ${name} | ${layout} | ${f.questions} | ${f.hitAt1} / ${f.hitAt5} | ${f.bm25HitAt1} / ${f.bm25HitAt5} | ${share(f.leads, f.questions)} |`;
  const misses = data.asked
    .filter((a) => !a.leadHasFact)
    .map((a) => `- ${a.site}, ${a.kind}: "${a.question}" (expects \`${a.fact}\`)`);
  return `## What the answer leads with (\`npm run bench -- --answers\`)

The question set of \`bench/questions/answers.json\` (issue 37): ${data.total.questions} questions over
${data.sites.length} sites in their frameworks' layouts (how-to, option, concept, troubleshooting,
French, follow-ups, a selected passage or code block as context; the demo's starter questions
included), each with the page that answers it and a fact a correct lead contains, chosen before
running. Asked over HTTP (v1 endpoint, extractive engine, ${data.k} sources); the lead is the
answer's first paragraph and what it introduces (steps, code). BM25 is minisearch with its
defaults over the files of the published pages. Recorded ${data.at}.

| site | layout | questions | hit@1 / hit@5 | BM25 hit@1 / hit@5 | lead has the fact |
| --- | --- | --- | --- | --- | --- |
${data.sites.map((s) => row(s.site, s.layout, s)).join('\n')}
${row('**all**', '', data.total)}

${misses.length ? `Leads without their fact:\n\n${misses.join('\n')}\n` : ''}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const result = await runAnswersBench();
  if (process.argv.includes('--json')) console.log(JSON.stringify(result.asked, null, 2));
  else console.log(answersSection());
}
