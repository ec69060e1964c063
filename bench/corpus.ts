/**
 * Deterministic synthetic documentation: realistic docs Markdown for the streaming benchmark
 * (headings, paragraphs with inline code and links, lists, tables, fenced code) and pages for the
 * service benchmark. Same output on every run (a seeded generator), no I/O.
 */

/** A small seeded pseudo-random generator (LCG), so every run streams the same answer. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

const WORDS = (
  'widget panel theme color dark mode launcher keyboard focus token bearer key admin assistant ' +
  'export bundle job status progress page section heading anchor search index retrieval answer ' +
  'stream thread follow-up question context selection code snippet install configure deploy helm ' +
  'chart version language filter limit hour day request organization domain error retry header ' +
  'the a to of and in for with when you your it is can be this that each from on by as'
).split(' ');
const OPTIONS = ['domain', 'apiKey', 'baseUrl', 'variant', 'theme', 'shortcut', 'fp', 'filter', 'storage'];

/** Marks the end of every generated answer: the benchmark waits until it is on screen. */
export const END_MARK = 'ENDOFANSWER';

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function sentence(random: () => number): string {
  const words = Array.from({ length: 6 + Math.floor(random() * 14) }, () => pick(random, WORDS));
  // Inline code and links, as in real docs answers.
  if (random() < 0.3) words.splice(2, 0, `\`${pick(random, OPTIONS)}\``);
  if (random() < 0.2) words.push(`[the ${pick(random, WORDS)} guide](/docs/${pick(random, WORDS)})`);
  const text = words.join(' ');
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

const paragraph = (random: () => number) =>
  Array.from({ length: 2 + Math.floor(random() * 4) }, () => sentence(random)).join(' ');

function list(random: () => number): string {
  const ordered = random() < 0.4;
  return Array.from({ length: 3 + Math.floor(random() * 4) }, (_, i) => {
    const marker = ordered ? `${i + 1}.` : '-';
    const item = `${marker} ${sentence(random)}`;
    return random() < 0.2 ? `${item}\n  - ${sentence(random)}` : item;
  }).join('\n');
}

function table(random: () => number): string {
  const rows = Array.from(
    { length: 3 + Math.floor(random() * 5) },
    () =>
      `| \`${pick(random, OPTIONS)}\` | ${pick(random, ['string', 'number', 'boolean'])} | ${sentence(random)} |`,
  );
  return ['| Option | Type | Description |', '| --- | --- | --- |', ...rows].join('\n');
}

function code(random: () => number): string {
  const lines = Array.from({ length: 4 + Math.floor(random() * 10) }, (_, i) => {
    const option = pick(random, OPTIONS);
    return i === 0
      ? "import { DocsAssistant } from 'docs-assistant';"
      : `  ${option}: '${pick(random, WORDS)}-${Math.floor(random() * 100)}', // ${pick(random, WORDS)}`;
  });
  return ['```tsx', ...lines, '```'].join('\n');
}

/** Docs Markdown of about `tokens` tokens (a token is about four characters, as in GPT tokenizers). */
export function docsMarkdown(tokens: number, seed = 7): string {
  const random = seeded(seed);
  const target = tokens * 4;
  const blocks: string[] = [`# ${pick(random, WORDS)} ${pick(random, WORDS)}`, paragraph(random)];
  let length = blocks.join('\n\n').length;
  while (length < target) {
    const roll = random();
    const block =
      roll < 0.08
        ? `## ${pick(random, WORDS)} ${pick(random, WORDS)}`
        : roll < 0.5
          ? paragraph(random)
          : roll < 0.7
            ? list(random)
            : roll < 0.85
              ? table(random)
              : code(random);
    blocks.push(block);
    length += block.length + 2;
  }
  blocks.push(`That is all for this answer (${END_MARK}).`);
  return blocks.join('\n\n');
}

/**
 * Cuts text into stream tokens: words with their leading space, long words in pieces of four
 * characters, newlines on their own (how a model's text deltas look).
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.matchAll(/\n|[ \t]*[^\s]+|[ \t]+/g)) {
    const piece = match[0];
    for (let i = 0; i < piece.length; i += 4) tokens.push(piece.slice(i, i + 4));
  }
  return tokens;
}

/** An answer of exactly `count` stream tokens (the last ones carry the end mark). */
export function answerTokens(count: number): string[] {
  const tokens = tokenize(docsMarkdown(count));
  if (tokens.length < count) throw new Error(`corpus: ${tokens.length} tokens, wanted ${count}`);
  const tail = tokenize(`\n\nThat is all for this answer (${END_MARK}).`);
  const body = tokens.slice(0, count - tail.length);
  return [...body, ...tail];
}
