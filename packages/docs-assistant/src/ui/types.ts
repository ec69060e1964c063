/**
 * Public props of `<DocsAssistant>`. The shell implements them; the README and docs/ document them.
 */
import type { HTMLAttributes } from 'react';
import type { DocsAssistantState, UseDocsAssistantOptions } from '../chat/types.js';
import type { AskSource, EventHandler, FeedbackOptions, OpenSource } from '../events/types.js';
import type { Labels } from '../labels/types.js';
import type { PartComponents } from '../parts/types.js';
import type { Context } from '../protocol/index.js';
import type { Features } from '../search/features.js';
import type { SupportOption, SupportTranscript, SupportTrigger } from '../views/support/types.js';
import type { ConsentOptions } from './consent.js';
import type { StarterQuestionsOption } from './starter-questions.js';

export type {
  ConsentOptions,
  Features,
  Labels,
  StarterQuestionsOption,
  SupportOption,
  SupportTranscript,
  SupportTrigger,
};

export type Variant = 'floating' | 'side-panel' | 'inline' | 'modal';
export type Theme = 'light' | 'dark' | 'system';

/**
 * The host page's own dark-mode switch on `<html>`, followed live: a class (`{ className: 'dark' }`,
 * Tailwind, VitePress) or an attribute (`{ attribute: 'data-theme', dark: 'dark' }`, Docusaurus).
 */
export interface HostTheme {
  /** Dark while `<html>` has this class. */
  className?: string;
  /** Dark while `<html>` has this attribute set to `dark`. */
  attribute?: string;
  /** The attribute's value that means dark. @default 'dark' */
  dark?: string;
  /** What to show while `<html>` has neither (before the host's script ran, say). @default 'light' */
  fallback?: Theme;
}

/** Class names per slot, added to (or, with `unstyled`, instead of) the defaults. */
export interface ClassNames {
  root?: string;
  launcher?: string;
  panel?: string;
  header?: string;
  messages?: string;
  message?: string;
  part?: string;
  composer?: string;
  input?: string;
  context?: string;
  source?: string;
  suggestion?: string;
  error?: string;
  starterQuestions?: string;
}

export interface CollectorOptions {
  /** Offer "Ask AI" on text selected in the page (outside the widget). @default true */
  selection?: boolean;
  /**
   * Add an "Ask AI" button to code blocks. `true` uses `pre`; a string is a CSS selector.
   * @default true
   */
  codeBlocks?: boolean | string;
}

export interface DocsAssistantProps
  extends Omit<UseDocsAssistantOptions, 'contextStore'>,
    Omit<HTMLAttributes<HTMLDivElement>, 'onError' | 'title'> {
  /** Floating launcher + dialog, a docked side panel, or inline in the page. @default 'floating' */
  variant?: Variant;
  /** Controlled open state (floating and side panel). */
  open?: boolean;
  /** Initial open state when uncontrolled. @default false */
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** Shortcut that opens the assistant; `false` turns it off. @default 'mod+i' (Cmd on macOS, Ctrl elsewhere) */
  shortcut?: string | false;
  /**
   * Questions offered in an empty conversation: one list, a function of the page's path
   * (`currentPath`, else `location.pathname`) giving the list, or lists by path prefix, e.g.
   * `{ '/': [...], '/api': [...] }`, where the longest prefix covering the path wins (`/api` covers
   * `/api/keys`, not `/apiary`).
   */
  starterQuestions?: StarterQuestionsOption;
  /** Overrides for any user-facing string. */
  labels?: Partial<Labels>;
  /**
   * `system` follows `prefers-color-scheme`; `{ followHost: { … } }` follows the host's dark-mode
   * class or attribute on `<html>` (see `HostTheme`).
   * @default 'system'
   */
  theme?: Theme | { followHost: HostTheme };
  /** Drop every default style; use `classNames` and your own CSS. @default false */
  unstyled?: boolean;
  classNames?: ClassNames;
  /** Per-type part renderers. */
  components?: PartComponents;
  /** Context collectors on the host page; `false` turns all of them off. @default { selection: true, codeBlocks: true } */
  collectors?: CollectorOptions | false;
  /** Base URL of the docs site, for relative links in answers. @default the page's origin */
  docsBaseUrl?: string;
  /**
   * Origins that images in answers may load from, e.g. `['https://docs.example.com',
   * 'https://cdn.example.com']`, plus `'data:'` for `data:` raster images. An image from anywhere
   * else shows as a link the reader can follow, so an answer cannot make the browser fetch a
   * third party's URL. `[]` loads no image at all.
   * @default the origin of `docsBaseUrl` (else the page's) and `'data:'`
   */
  allowedImageOrigins?: string[];
  /** When the assistant is unavailable (air-gapped): say so, or render nothing. @default 'message' */
  whenUnavailable?: 'message' | 'hidden';
  /**
   * What this deployment offers (spec §1): documentation search is on for `cloud`, off unless
   * `search: true` for `client-hosted`, and never on `air-gapped` (nothing is sent). `assistant:
   * false` leaves search alone, without the "Ask AI" row.
   */
  features?: Features;
  /**
   * What typing in the panel does first: `'search'` shows instant docs search results above an
   * "Ask AI" row; `'chat'` asks, and the header's "Search the docs" switches to search.
   * @default 'chat'
   */
  defaultView?: 'search' | 'chat';
  /**
   * What opening a search result or an answer's source does: follow the link, or show the page's
   * text in the panel (from the page endpoint, where search is available) with Back and a link.
   * @default 'link'
   */
  sourceAction?: 'link' | 'preview';
  /**
   * Readers may attach images (PNG, JPEG, GIF, WebP) and text or code files to a question, by
   * paste, drop or a file picker: up to 5 MB each and 10 per message (the protocol's
   * `MAX_ATTACHMENT_BYTES` and `MAX_ATTACHMENTS_PER_MESSAGE`), sent as data URLs in the message's
   * `experimental_attachments`. Off unless turned on (in the script-tag build too).
   * @default false
   */
  attachments?: boolean;
  /**
   * A consent gate: until the reader accepts the notice, the widget sends no request, loads none of
   * the chat, search or collector code, writes nothing to storage and creates no identifier.
   * Acceptance is remembered in localStorage (`storageKey`) once given; `granted` lets the host's own
   * consent manager decide instead; withdrawing (`granted` back to `false`, or `consent(false)` on
   * the handle) deletes what the widget stored. `true` is `{}` (the default notice).
   */
  consent?: boolean | ConsentOptions;
  /**
   * Lifecycle and interaction events (open, close, ask, answer, source-click, suggestion-click,
   * copy, feedback, error, new-conversation), for analytics. What it throws is caught and logged
   * once; the widget carries on. See `DocsAssistantEvent`.
   */
  onEvent?: EventHandler;
  /** Put the reader's text (questions, suggestions asked, feedback comments) into events. @default false */
  eventsIncludeText?: boolean;
  /**
   * Thumbs up / down (and a short comment) under each finished answer, reported through `onEvent`
   * and posted to the service's feedback endpoint (see `FeedbackOptions.endpoint`); `false` hides them.
   * @default true
   */
  feedback?: boolean | FeedbackOptions;
  /**
   * "Share" in the panel's header, where the service shares conversations (its `/health` lists the
   * `share` capability; the reference service does) and the widget reaches it with `apiKey` and
   * `baseUrl`: a read-only link (`?assistant-share=<id>`) the owner can revoke. A page opened with
   * that parameter shows the shared transcript, which the reader can continue as a new
   * conversation of their own. `false` turns the action off. @default true
   */
  share?: boolean;
  /**
   * A way to a human, offered in the header ("Contact support"), under an answer that found nothing
   * in the docs and under an answer voted down: an http(s) URL (`{transcript}` in it is replaced by a
   * Markdown excerpt of the conversation, else a `transcript` parameter is added), a `mailto:`
   * address (the excerpt is the body; the link stays under 1,800 characters), or a callback that
   * gets the whole conversation (`SupportTranscript`). Excerpts say when they were cut.
   */
  support?: SupportOption;
}

/** Imperative handle (through `ref`) for host pages: their own "Ask AI" buttons. */
export interface DocsAssistantHandle {
  /** `source` is what the `open` event reports. @default 'api' */
  open(options?: { source?: OpenSource }): void;
  close(): void;
  /** Adds a context item and returns its id. */
  addContext(item: Context): string;
  /** Opens the panel and asks a question (with the current context items). */
  ask(question: string, options?: { source?: AskSource }): void;
  /** Puts text into the composer without sending it. */
  setInput(text: string): void;
  /**
   * Gives (`true`, as the notice's button does) or withdraws (`false`) the reader's consent. Withdrawn,
   * the widget shows the consent notice again, sends nothing, and deletes what it stored (conversations,
   * the tab's conversation, the consent flag, a custom `storage`'s contents).
   */
  consent(granted: boolean): void;
  /**
   * The conversation's headless state (`conversations`, `openConversation`, `deleteConversation`,
   * `newConversation`, …) once the panel's code has loaded; undefined before. Optional for compatibility.
   */
  chat?(): DocsAssistantState | undefined;
}
