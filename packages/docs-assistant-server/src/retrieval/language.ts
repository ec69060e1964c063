/**
 * Which language a question is written in, among the languages a site has. Dependency-free and
 * small on purpose: scripts decide Chinese, Japanese, Korean, Russian/Ukrainian (Cyrillic), Arabic,
 * Hebrew, Greek, Hindi and Thai; for Latin-script languages it counts common function words
 * (English, French, Spanish, German, Portuguese, Italian, Dutch) with a few accents as extra
 * hints. Limits: a question of only product names and code ("dns cname vercel") has no function
 * words and is not detected (the caller falls back to the site's default language); Spanish and
 * Portuguese, or Dutch and German, can tie on very short questions (no language is chosen then);
 * languages outside these lists are never detected.
 */

const FUNCTION_WORDS: Record<string, string> = {
  en: 'the a an is are how do does what which where when why can i my to of in on for with and or not it this that you your be from by as',
  fr: 'le la les un une des est sont comment quel quelle quels quelles où quand pourquoi je mon ma mes pour dans sur avec et ou pas ce cette vous votre être du au aux que qui il elle on peut faire',
  es: 'el la los las un una unos unas es son cómo como qué que cuál dónde cuándo por porque yo mi mis para en con y o no este esta usted su ser del al se puedo hacer hay',
  de: 'der die das ein eine ist sind wie was welche wo wann warum ich mein meine für mit und oder nicht dies diese sie ihr sein von zu im auf kann ich',
  pt: 'o a os as um uma é são como que qual onde quando por porque eu meu minha para em com e ou não este esta você seu ser do da no na posso fazer',
  it: 'il lo la i gli le un una è sono come che quale dove quando perché io mio mia per in con e o non questo questa lei suo essere del della posso fare',
  nl: 'de het een is zijn hoe wat welke waar wanneer waarom ik mijn voor in met en of niet dit deze u uw zijn van op kan',
};

/** Every function word of every language above: words that say nothing about which page answers. */
export const ALL_FUNCTION_WORDS: ReadonlySet<string> = new Set(
  Object.values(FUNCTION_WORDS).join(' ').split(' '),
);

const WORDS = new Map(
  Object.entries(FUNCTION_WORDS).map(([lang, words]) => [lang, new Set(words.split(' '))]),
);

// Letters one Latin-script language uses and the others in the list rarely do.
const LETTER_HINTS: [RegExp, string][] = [
  [/[¿¡ñ]/, 'es'],
  [/[çœêëîïû]/, 'fr'],
  [/[ãõ]/, 'pt'],
  [/[ßäöü]/, 'de'],
  [/[ìò]/, 'it'],
];

const SCRIPTS: [RegExp, string][] = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'ja'],
  [/\p{Script=Hangul}/u, 'ko'],
  [/\p{Script=Han}/u, 'zh'],
  [/\p{Script=Cyrillic}/u, 'ru'],
  [/\p{Script=Arabic}/u, 'ar'],
  [/\p{Script=Hebrew}/u, 'he'],
  [/\p{Script=Greek}/u, 'el'],
  [/\p{Script=Devanagari}/u, 'hi'],
  [/\p{Script=Thai}/u, 'th'],
];

/** `pt-BR` → `pt`, `zh_Hans` → `zh`. */
export const primaryLanguage = (code: string): string => code.split(/[-_]/)[0]!.toLowerCase();

/**
 * The language of `text` as one of `candidates` (the site's codes, as it writes them), or
 * undefined when the text does not say clearly.
 */
export function detectLanguage(text: string, candidates: readonly string[]): string | undefined {
  if (candidates.length < 2) return candidates[0];
  const byPrimary = new Map<string, string>();
  for (const code of candidates)
    if (!byPrimary.has(primaryLanguage(code))) byPrimary.set(primaryLanguage(code), code);
  const pick = (lang: string) => byPrimary.get(lang);

  // Kana means Japanese even among Han characters; Han alone is Chinese unless only Japanese is offered.
  for (const [script, lang] of SCRIPTS) {
    if (!script.test(text)) continue;
    if (lang === 'zh') return pick('zh') ?? pick('ja');
    if (lang === 'ru') return pick('ru') ?? pick('uk') ?? pick('bg') ?? pick('sr');
    return pick(lang);
  }
  const lower = text.toLowerCase();
  const scores = new Map<string, number>();
  for (const word of lower.split(/[^\p{L}']+/u)) {
    if (!word) continue;
    for (const [lang, words] of WORDS)
      if (byPrimary.has(lang) && words.has(word)) scores.set(lang, (scores.get(lang) ?? 0) + 1);
  }
  for (const [letters, lang] of LETTER_HINTS) {
    if (byPrimary.has(lang) && letters.test(lower)) scores.set(lang, (scores.get(lang) ?? 0) + 1.5);
  }
  const ranked = [...scores].sort((a, b) => b[1] - a[1]);
  const [first, second] = ranked;
  if (!first || (second && second[1] === first[1])) return undefined;
  return pick(first[0]);
}

const NAMES: Record<string, string> = {
  en: 'English',
  fr: 'French',
  es: 'Spanish',
  de: 'German',
  pt: 'Portuguese',
  it: 'Italian',
  nl: 'Dutch',
  zh: 'Chinese',
  ja: 'Japanese',
  ko: 'Korean',
  ru: 'Russian',
  uk: 'Ukrainian',
  ar: 'Arabic',
  he: 'Hebrew',
  el: 'Greek',
  hi: 'Hindi',
  th: 'Thai',
  pl: 'Polish',
  tr: 'Turkish',
  sv: 'Swedish',
  id: 'Indonesian',
  vi: 'Vietnamese',
};

/** `fr` → `French`; an unknown code is shown as written. */
export const languageName = (code: string): string => NAMES[primaryLanguage(code)] ?? code;
