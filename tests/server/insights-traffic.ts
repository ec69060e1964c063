/**
 * A deterministic traffic generator for insights: questions drawn from the fixture sites' headings
 * (each heading a labelled topic, asked in several paraphrases, some with a typo), questions the
 * docs cannot answer (declined), follow-ups in the same conversation, searches (some without
 * results, some clicked), votes (some changed), agent calls, several languages and readers. The
 * expected figures are counted here as the events are made, independently of the service.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { InsightEvent } from '../../packages/docs-assistant-server/src/insights/record';
import { groupForms, questionForm } from '../../packages/docs-assistant-server/src/insights/text';

export const SITES = join(import.meta.dirname, '..', 'fixtures', 'sites');

/** A seeded PRNG (mulberry32): the same seed, the same traffic. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : markdownFiles(path);
      return /\.mdx?$/.test(name) ? [path] : [];
    });
}

/**
 * Topics: headings of the fixture sites with at least two content words, one per form, and none
 * that the grouping would already put with another heading (so each label is one meaning).
 */
export function headingTopics(max: number): string[] {
  const headings = new Map<string, string>();
  for (const file of markdownFiles(SITES)) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const match = /^#{1,4}\s+([A-Za-z][A-Za-z0-9 ,'-]{6,60})$/.exec(line.trim());
      if (!match) continue;
      const text = match[1]!.trim();
      const form = questionForm(text);
      if (form.split(' ').length >= 2 && !headings.has(form)) headings.set(form, text);
    }
  }
  const forms = [...headings.keys()].map((form) => ({ form, count: 1 }));
  const distinct = groupForms(forms).filter((group) => group.members.length === 1);
  return distinct.map((group) => headings.get(group.lead.form)!).slice(0, max);
}

/** Topics the fixture docs say nothing about. */
export const UNANSWERABLE = [
  'Kubernetes helm chart values',
  'billing invoices and refunds',
  'Salesforce CRM synchronisation',
  'GDPR data deletion requests',
  'Windows XP compatibility',
  'COBOL mainframe integration',
  'blockchain wallet payments',
  'Apple Watch companion app',
];

/** Ways readers ask about a topic `t` (lower-cased heading). */
const PARAPHRASES: Array<(t: string, typo: string) => string> = [
  (t) => t,
  (t) => `How do I ${t}?`,
  (t) => `how to ${t}`,
  (t) => `Can you explain ${t}?`,
  (t) => `Where can I find information about ${t}?`,
  (t) => `${t} - how does it work?`,
  (t) => `I need help with ${t} please`,
  (_t, typo) => `${typo}?`,
];

/** The topic with one letter pair of its longest word swapped, as a hurried reader types it. */
function withTypo(topic: string): string {
  const words = topic.split(' ');
  let longest = 0;
  for (let i = 1; i < words.length; i++) if (words[i]!.length > words[longest]!.length) longest = i;
  const word = words[longest]!;
  if (word.length < 6) return topic;
  const at = Math.floor(word.length / 2);
  words[longest] = word.slice(0, at - 1) + word[at] + word[at - 1] + word.slice(at + 1);
  return words.join(' ');
}

export interface LabelledQuestion {
  text: string;
  topic: string;
}

export interface Expected {
  days: string[];
  daily: Map<
    string,
    {
      questions: number;
      conversations: number;
      searches: number;
      agentCalls: number;
      uncertain: number;
      up: number;
      down: number;
      readers: Set<string>;
    }
  >;
  readers: Set<string>;
  noResults: number;
  searchClicks: number;
  languages: Map<string, number>;
  /** Uncertain questions per unanswerable topic. */
  unanswerable: Map<string, number>;
  labelled: LabelledQuestion[];
}

/**
 * The daily series `GET …/stats` must answer for this traffic: one row per day, readers counted,
 * the fields in the order of the CSV's columns.
 */
export function expectedDaily(expected: Expected) {
  return expected.days.map((date) => {
    const day = expected.daily.get(date)!;
    return {
      date,
      questions: day.questions,
      conversations: day.conversations,
      readers: day.readers.size,
      searches: day.searches,
      agentCalls: day.agentCalls,
      uncertain: day.uncertain,
      up: day.up,
      down: day.down,
    };
  });
}

export interface Traffic {
  events: InsightEvent[];
  expected: Expected;
  topics: string[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
const PAGES = ['/getting-started', '/guides/theming', '/reference/api', '/guides/install', '/faq'];
const SEARCHES_PER_QUESTION = 0.3;

/**
 * `questions` questions over `days` days ending on `lastDay` (UTC), from `seed`. Follow-ups make
 * conversations of one to three questions; a tenth of the questions are unanswerable (declined).
 */
export function generateTraffic(options: {
  questions: number;
  days: number;
  lastDay: string;
  seed: number;
  domain: string;
}): Traffic {
  const next = random(options.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const topics = headingTopics(60);
  const start = Date.parse(options.lastDay) - (options.days - 1) * DAY_MS;
  const expected: Expected = {
    days: Array.from({ length: options.days }, (_, i) =>
      new Date(start + i * DAY_MS).toISOString().slice(0, 10),
    ),
    daily: new Map(),
    readers: new Set(),
    noResults: 0,
    searchClicks: 0,
    languages: new Map(),
    unanswerable: new Map(),
    labelled: [],
  };
  const dayOf = (at: number) => {
    const day = new Date(at).toISOString().slice(0, 10);
    let entry = expected.daily.get(day);
    if (!entry) {
      entry = {
        questions: 0,
        conversations: 0,
        searches: 0,
        agentCalls: 0,
        uncertain: 0,
        up: 0,
        down: 0,
        readers: new Set(),
      };
      expected.daily.set(day, entry);
    }
    return entry;
  };
  const events: InsightEvent[] = [];
  let made = 0;
  let thread = 0;
  while (made < options.questions) {
    thread++;
    const at0 = start + Math.floor(next() * options.days * DAY_MS);
    const fp = `reader-${Math.floor(next() * 3000)}`;
    const language = next() < 0.85 ? 'en' : next() < 0.67 ? 'fr' : 'de';
    const follow = 1 + Math.floor(next() * 3);
    for (let turn = 0; turn < follow && made < options.questions; turn++, made++) {
      const at = Math.min(at0 + turn * 60_000, start + options.days * DAY_MS - 1);
      const unanswerable = next() < 0.1;
      const topic = unanswerable ? pick(UNANSWERABLE) : pick(topics);
      const lower = topic.toLowerCase();
      const text = pick(PARAPHRASES)(lower, withTypo(lower));
      const day = dayOf(at);
      const threadId = `thr_gen_${options.seed}_${thread}`;
      const messageId = `msg_${thread}_${turn}`;
      day.questions++;
      if (turn === 0) day.conversations++;
      day.readers.add(fp);
      expected.readers.add(fp);
      expected.languages.set(language, (expected.languages.get(language) ?? 0) + 1);
      expected.labelled.push({ text, topic });
      const sources = unanswerable
        ? []
        : [{ path: pick(PAGES), title: topic, score: 10 + Math.round(next() * 100) / 10 }];
      events.push({
        type: 'question',
        domain: options.domain,
        at,
        threadId,
        messageId,
        newThread: turn === 0,
        fp,
        language,
        ...(next() < 0.6 ? { currentPath: pick(PAGES) } : {}),
        caller: next() < 0.85 ? 'widget' : 'api',
        text,
        answer: unanswerable ? 'I could not find this in the docs.' : `About ${topic}: see the page.`,
        sources,
        declined: unanswerable,
        ttftMs: Math.floor(next() * 40),
      });
      let vote: 'up' | 'down' | undefined;
      if (next() < 0.12) {
        vote = next() < 0.75 ? 'up' : 'down';
        events.push({ type: 'vote', domain: options.domain, threadId, messageId, vote });
        // A reader who changes their mind: only the last vote counts.
        if (next() < 0.1) {
          vote = vote === 'up' ? 'down' : 'up';
          events.push({ type: 'vote', domain: options.domain, threadId, messageId, vote });
        }
      }
      if (vote === 'up') day.up++;
      if (vote === 'down') day.down++;
      if (unanswerable || vote === 'down') day.uncertain++;
      if (unanswerable) expected.unanswerable.set(topic, (expected.unanswerable.get(topic) ?? 0) + 1);
    }
    if (next() < SEARCHES_PER_QUESTION * follow) {
      const at = Math.min(at0 + 1000, start + options.days * DAY_MS - 1000);
      const none = next() < 0.08;
      const query = none
        ? pick(UNANSWERABLE).split(' ')[0]!.toLowerCase()
        : pick(topics).split(' ').slice(0, 2).join(' ');
      events.push({ type: 'search', domain: options.domain, at, query, results: none ? 0 : 5, fp });
      dayOf(at).searches++;
      dayOf(at).readers.add(fp);
      if (none) expected.noResults++;
      if (!none && next() < 0.4) {
        events.push({
          type: 'search-click',
          domain: options.domain,
          at: at + 500,
          path: pick(PAGES),
          query,
          fp,
        });
        expected.searchClicks++;
      }
    }
    if (next() < 0.05) {
      events.push({ type: 'agent-call', domain: options.domain, at: at0, tool: 'search' });
      dayOf(at0).agentCalls++;
    }
  }
  return { events, expected, topics };
}

/**
 * Pairwise precision and recall of a grouping against the labels: of the pairs of questions put
 * in one group, the share with one topic; of the pairs with one topic, the share put in one group.
 */
export function pairScores(
  labelled: LabelledQuestion[],
  groupOf: (text: string) => string,
): { precision: number; recall: number } {
  const cells = new Map<string, number>();
  const byGroup = new Map<string, number>();
  const byTopic = new Map<string, number>();
  for (const { text, topic } of labelled) {
    const group = groupOf(text);
    cells.set(`${group}\n${topic}`, (cells.get(`${group}\n${topic}`) ?? 0) + 1);
    byGroup.set(group, (byGroup.get(group) ?? 0) + 1);
    byTopic.set(topic, (byTopic.get(topic) ?? 0) + 1);
  }
  const pairs = (n: number) => (n * (n - 1)) / 2;
  const together = [...cells.values()].reduce((sum, n) => sum + pairs(n), 0);
  const grouped = [...byGroup.values()].reduce((sum, n) => sum + pairs(n), 0);
  const same = [...byTopic.values()].reduce((sum, n) => sum + pairs(n), 0);
  return { precision: grouped ? together / grouped : 1, recall: same ? together / same : 1 };
}
