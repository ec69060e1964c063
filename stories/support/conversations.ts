/**
 * Recorded answers the stories replay: what a docs assistant server streams for each state. The
 * wording follows this repository's own docs, so the links point at real pages.
 */
import {
  answerStream,
  errorPart,
  finishStep,
  type Reply,
  reasoningDeltas,
  source,
  startStep,
  textDeltas,
  toolCall,
  toolCallStreaming,
  toolResult,
} from './replay';

export const QUESTIONS = {
  short: 'How do I install it?',
  long: 'How do I theme the widget?',
  reasoning: 'Why does the widget refuse my key?',
  search: 'Where do I set the retrieval page size?',
  rtl: 'كيف أغير الألوان؟',
  hebrew: 'איך משנים את הצבעים?',
} as const;

export const STARTER_QUESTIONS = [
  'How do I install it?',
  'How do I change the colors?',
  'Can I keep conversations between visits?',
];

export const SHORT_ANSWER =
  'Install the package with `npm install docs-assistant`, import `docs-assistant/styles.css` once, and render `<DocsAssistant>` with your domain, assistant key and base URL.';

export const LONG_ANSWER = `## Theming the widget

The look comes from one stylesheet, themed with **\`--da-*\` CSS variables** set on the widget's root.

### The three themes

1. \`theme="system"\` follows the reader's color scheme (the default).
2. \`theme="light"\` and \`theme="dark"\` pin one.
3. Your own colors go in the variables, for both themes or per theme.

### Variables most sites change

| Variable | Light default | What it sets |
| --- | --- | --- |
| \`--da-accent\` | \`#2563eb\` | Launcher, send button and links |
| \`--da-font\` | \`system-ui\` | Font family |
| \`--da-radius\` | \`12px\` | Corner radius of the panel |

Set them in CSS:

\`\`\`css
[data-docs-assistant='root'] {
  --da-accent: #7c3aed;
  --da-radius: 16px;
}
\`\`\`

Or inline, through the \`style\` prop:

\`\`\`tsx
<DocsAssistant {...connection} style={{ '--da-accent': '#7c3aed' } as React.CSSProperties} />
\`\`\`

- Every variable has a fallback, so setting a few is fine.
- Use \`unstyled\` to drop the defaults and bring your own CSS.
`;

export const REASONING =
  'The reader says the key is refused. Keys that start with svc_ but not svc_dsc_ are admin keys. The widget checks the prefix before sending anything, so this is a configuration error, not a server answer.';

export const REASONING_ANSWER =
  'Your key starts with `svc_` but not `svc_dsc_`: that is an **admin key**, a server-side secret. The widget refuses it and sends nothing. Use the assistant key (`svc_dsc_…`) from the API keys page instead.';

export const SEARCH_ARGS = { query: 'retrievalPageSize' };

/** The `search` tool's result as the real service (and the reference service) sends it: an array of items with `path`/`url` and `metadata.title`. */
export const SEARCH_RESULT = [
  {
    path: '/props',
    url: '/props#request-props-fp-retrievalpagesize-filter-currentpath',
    metadata: { title: 'Props of DocsAssistant' },
    snippet: 'How many documentation search results the answer is built from.',
  },
  {
    path: '/api-protocol',
    url: '/api-protocol',
    metadata: { title: 'API and protocol' },
    snippet: 'retrievalPageSize: number of documentation search results used to produce the answer.',
  },
  {
    path: '/reference-service',
    url: '/reference-service',
    metadata: { title: 'Reference service' },
    snippet: 'The service answers from search results over the docs folder.',
  },
];

export const SEARCH_ANSWER =
  'Pass `retrievalPageSize` to `<DocsAssistant>`. It is the number of search results each answer is built from; 5 is the default and the recommended value.';

export const SUGGESTIONS_ANSWER = `Conversations are kept per domain in \`localStorage\` by default. Pass \`storage="memory"\` to keep them for the page only, or your own adapter.

\`\`\`suggestions
(Threads and storage)[/threads-and-storage]
(Props of DocsAssistant)[/props]
(Headless hook)[/headless-hook]
\`\`\`
`;

export const RTL_ANSWER =
  'غيّر المتغيرات `--da-*` على جذر الأداة. مثلاً `--da-accent` يغيّر لون الزر والروابط، و`--da-radius` يغيّر استدارة الزوايا. التخطيط ينعكس تلقائياً في الصفحات من اليمين إلى اليسار.';

export const HEBREW_ANSWER =
  'שנו את משתני `--da-*` על שורש הרכיב. למשל `--da-accent` קובע את צבע הכפתור והקישורים.';

/** The widget's strings in Arabic, for the right-to-left stories. */
export const ARABIC_LABELS = {
  title: 'اسأل التوثيق',
  launcher: 'اسأل الذكاء الاصطناعي',
  inputLabel: 'سؤالك',
  inputPlaceholder: 'اكتب سؤالاً عن التوثيق…',
  send: 'إرسال',
  stop: 'إيقاف',
  newConversation: 'محادثة جديدة',
  starterQuestionsHeading: 'جرّب أن تسأل',
  sourcesHeading: 'المصادر',
  copy: 'نسخ الإجابة',
  close: 'إغلاق',
};

const SEARCH_ID = 'call_search_1';

export const replies = {
  short: (): Reply => answerStream('msg_short', textDeltas(SHORT_ANSWER)),
  long: (): Reply => answerStream('msg_long', textDeltas(LONG_ANSWER, 4)),
  /** Reasoning that streams in, then the answer. */
  reasoning: (): Reply =>
    answerStream('msg_reason', [...reasoningDeltas(REASONING), ...textDeltas(REASONING_ANSWER)]),
  /** Reasoning that is still arriving: the stream holds after a few deltas. */
  reasoningStreaming: (): Reply => ({
    kind: 'stream',
    steps: [startStep('msg_reason_live'), ...reasoningDeltas(REASONING).slice(0, 8), { hold: true }],
  }),
  /** The search call's arguments are still streaming (`partial-call`). */
  toolPartialCall: (): Reply => ({
    kind: 'stream',
    steps: [
      startStep('msg_tool_partial'),
      ...toolCallStreaming(SEARCH_ID, 'search', SEARCH_ARGS).slice(0, 2),
      { hold: true },
    ],
  }),
  /** The search call is complete and running (`call`). */
  toolCall: (): Reply => ({
    kind: 'stream',
    steps: [
      startStep('msg_tool_call'),
      ...toolCallStreaming(SEARCH_ID, 'search', SEARCH_ARGS),
      toolCall(SEARCH_ID, 'search', SEARCH_ARGS),
      { hold: true },
    ],
  }),
  /** partial-call → call → result, then the answer; the sources come from the tool result. */
  toolResult: (): Reply =>
    answerStream('msg_tool_result', [
      ...toolCallStreaming(SEARCH_ID, 'search', SEARCH_ARGS),
      toolCall(SEARCH_ID, 'search', SEARCH_ARGS),
      { pause: 300 },
      toolResult(SEARCH_ID, SEARCH_RESULT),
      finishStep('tool-calls'),
      startStep('msg_tool_result_2'),
      ...textDeltas(SEARCH_ANSWER),
    ]),
  /** Sources as `source` parts after the text. */
  sourceParts: (): Reply =>
    answerStream('msg_sources', [
      ...textDeltas(SHORT_ANSWER),
      source('src_1', '/getting-started', 'Getting started'),
      source('src_2', '/props', 'Props of DocsAssistant'),
    ]),
  suggestions: (): Reply => answerStream('msg_suggest', textDeltas(SUGGESTIONS_ANSWER, 4)),
  /** An answer that is long enough to stop mid-way: it holds after its first sentences. */
  stoppable: (): Reply => ({
    kind: 'stream',
    steps: [startStep('msg_stop'), ...textDeltas(LONG_ANSWER, 4).slice(0, 12), { hold: true }],
  }),
  /** The connection drops after part of the answer arrived. */
  dropped: (): Reply => ({
    kind: 'stream',
    steps: [startStep('msg_drop'), ...textDeltas(LONG_ANSWER, 4).slice(0, 10), { drop: 'network error' }],
  }),
  /** The server reports an error in the stream after part of the answer. */
  errorPart: (): Reply => ({
    kind: 'stream',
    steps: [
      startStep('msg_err'),
      ...textDeltas(LONG_ANSWER, 4).slice(0, 10),
      errorPart('The model provider timed out.'),
    ],
  }),
  rtl: (): Reply =>
    answerStream('msg_rtl', [...textDeltas(RTL_ANSWER), source('src_rtl', '/theming', 'السمات')]),
  hebrew: (): Reply => answerStream('msg_he', textDeltas(HEBREW_ANSWER)),
  unauthorized: (): Reply => ({
    kind: 'http',
    status: 401,
    body: { error: { code: 'unauthorized', message: 'The assistant key is not valid for this domain.' } },
  }),
  forbidden: (): Reply => ({
    kind: 'http',
    status: 403,
    body: { error: { code: 'forbidden', message: 'This key may not use the assistant of this domain.' } },
  }),
  rateLimited: (): Reply => ({
    kind: 'http',
    status: 429,
    headers: { 'Retry-After': '30' },
    body: { error: { code: 'rate_limited', message: 'Too many requests from this address.' } },
  }),
  networkFailure: (): Reply => ({ kind: 'network-error', message: 'Failed to fetch' }),
} satisfies Record<string, () => Reply>;
