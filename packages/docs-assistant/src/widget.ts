/**
 * `docs-assistant/widget`: the widget alone, for hosts whose bundler would otherwise load all of
 * `docs-assistant` up front. esbuild's code splitting keeps every module the main entry re-exports
 * (the headless hook, the part renderers) in the chunk the page loads first, even when the app
 * uses none of them; this entry re-exports nothing heavy, so the panel, the chat client and the
 * Markdown stay in the chunk that loads when the assistant is first opened, whatever the bundler.
 * The same `DocsAssistant` as `docs-assistant`'s.
 */

export type {
  AssistantError,
  AssistantErrorKind,
  AssistantMessage,
  AssistantStatus,
  ContextItem,
  Deployment,
  StoredThread,
  ThreadStorage,
} from './chat/types.js';
export { createContextStore } from './context/store.js';
export type { ContextStore } from './context/types.js';
// Events for site owners (`onEvent`) and the `feedback` prop.
export type {
  AnswerEvent,
  AskEvent,
  AskSource,
  AssistantErrorEvent,
  CopyEvent,
  DocsAssistantEvent,
  DocsAssistantEventType,
  FeedbackEvent,
  FeedbackOptions,
  FeedbackRating,
  NewConversationEvent,
  OpenSource,
  PanelCloseEvent,
  PanelOpenEvent,
  SourceClickEvent,
  SuggestionClickEvent,
} from './events/types.js';
export { defaultLabels } from './labels/defaults.js';
export type { Labels } from './labels/index.js';
// The renderer props, for `components` (types only: nothing of the renderers loads from here).
export type * from './parts/types.js';
// `export *`, not a named re-export, so esbuild can leave `defaultLabels` out of the launcher: a
// named re-export of what the app uses makes this module live for esbuild, whose code splitting
// then follows all its exports (`defaultLabels` too, which the panel loads) into a chunk the page
// loads up front. Through `export *` this module is never live when only `DocsAssistant` is used.
// `DocsAssistant` is the one export of docs-assistant.tsx: anything exported there is public.
// That module is the client boundary ("use client"), not this one: Next.js refuses `export *` in a
// "use client" module (`next build --webpack`, tests/consumers/next.test.ts); the labels and the
// context store exported here are plain values a server component may import.
export * from './ui/docs-assistant.js';
export type {
  ClassNames,
  CollectorOptions,
  ConsentOptions,
  DocsAssistantHandle,
  DocsAssistantProps,
  Features,
  HostTheme,
  StarterQuestionsOption,
  SupportOption,
  SupportTranscript,
  SupportTrigger,
  Theme,
  Variant,
} from './ui/types.js';
