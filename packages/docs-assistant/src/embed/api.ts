/**
 * `window.DocsAssistant`, the browser API of the script build. Every method returns a promise and
 * may be called before the widget is ready (even before `init`): calls run one after another in
 * the order they were made, each once the widget it acts on has mounted. A call that fails rejects
 * its own promise and leaves the rest of the queue to run.
 *
 * The API acts on the widget `init` created or, without `init`, on the first `<docs-assistant>`
 * element of the page. Methods of other features go in `DocsAssistantApi` and `api` below, built
 * on `queued` (see `open` for the pattern).
 */
import { flushSync } from 'react-dom';
import type { ConversationSummary, DocsAssistantState } from '../chat/types.js';
import { type EmbedConfig, type EmbedConfigUpdate, mergeConfig } from './config.js';
import { type DocsAssistantElement, onMount, TAG } from './element.js';
import type { AskOptions, EmbeddedAssistant, OpenOptions } from './mount.js';
import { applyUrlParameter } from './url.js';

export type { AskOptions, EmbedConfig, EmbedConfigUpdate, OpenOptions };

export interface DocsAssistantApi {
  /**
   * Mounts the widget: a `<docs-assistant>` element appended to `config.container` (the body by
   * default) with every option, functions (`onEvent`) included. Resolves once it is ready.
   */
  init(config: EmbedConfig): Promise<void>;
  /** Opens the panel. */
  open(options?: OpenOptions): Promise<void>;
  /** Closes the panel (the conversation stays). */
  close(): Promise<void>;
  /** Asks a question (with the context items collected so far); opens the panel unless `open: false`. */
  ask(question: string, options?: AskOptions): Promise<void>;
  /** Changes options without losing the conversation; `null` restores an option's default. */
  update(partial: EmbedConfigUpdate): Promise<void>;
  /** Starts a new conversation. */
  reset(): Promise<void>;
  /** Removes the widget, its element (when `init` made it) and every listener; `init` may follow. */
  destroy(): Promise<void>;
  // --- other features' methods (history, share, support, consent, …) go here --------------------
  /**
   * Gives (`true`) or withdraws (`false`) the reader's consent (the `consent` option). Withdrawn,
   * the notice shows again, nothing is sent, and what the widget stored for the domain is deleted.
   */
  consent(granted: boolean): Promise<void>;
  /**
   * This site's kept conversations, the one saved last first: `id`, `title` (the first question),
   * `updatedAt`, `threadId` and `messages` each.
   */
  conversations(): Promise<ConversationSummary[]>;
  /** Shows a kept conversation (the panel stays as it is); its next question continues its thread. */
  openConversation(id: string): Promise<void>;
  /** Deletes a kept conversation; deleting the one shown starts a new one. */
  deleteConversation(id: string): Promise<void>;
  /** Starts a new conversation; the one shown stays in `conversations()`. */
  newConversation(): Promise<void>;
}

/** A history method on the conversation's state, applied before its promise resolves. */
const onChat = <T>(run: (state: DocsAssistantState) => T): Promise<T> =>
  queued(async (assistant) => {
    const state = await assistant.chat();
    let result: T | undefined;
    flushSync(() => {
      result = run(state);
    });
    return result as T;
  });

/** `onChat` for a method on one conversation: rejected unless `id` is one (a non-empty string). */
function onConversation(id: unknown, method: 'openConversation' | 'deleteConversation') {
  if (typeof id !== 'string' || !id) {
    return Promise.reject(
      new TypeError(`docs-assistant: ${method}(id) expects the id of one of conversations().`),
    );
  }
  return onChat((state) => state[method](id));
}

/** The element the API acts on, and whether `init` created it (then `destroy` removes it). */
let target: { element: DocsAssistantElement; created: boolean } | undefined;
let waiting: (() => void)[] = [];
let chain: Promise<unknown> = Promise.resolve();

onMount((element) => {
  if (!target) target = { element, created: false };
  if (target.element !== element) return;
  applyUrlParameter(api, element.assistant?.config);
  const resume = waiting;
  waiting = [];
  for (const run of resume) run();
});

/** The mounted widget the API acts on, once there is one. */
async function current(): Promise<EmbeddedAssistant> {
  for (;;) {
    const assistant = target?.element.assistant;
    if (assistant) {
      await assistant.ready;
      if (target?.element.assistant === assistant) return assistant;
      continue;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
}

/** Runs `run` on the widget after every call made before it. The way to add an API method. */
export function queued<T>(run: (assistant: EmbeddedAssistant) => T | Promise<T>): Promise<T> {
  const result = chain.then(async () => run(await current()));
  chain = result.catch(() => {});
  return result;
}

export const api: DocsAssistantApi = {
  init(config) {
    // Not queued: the calls already waiting need the widget it mounts.
    if (target) {
      return Promise.reject(
        new Error('docs-assistant: DocsAssistant.init was already called; use update(), or destroy() first.'),
      );
    }
    if (!config || typeof config !== 'object') {
      return Promise.reject(new TypeError('docs-assistant: init(config) expects an object of options.'));
    }
    const element = document.createElement(TAG) as DocsAssistantElement;
    element.config = config;
    target = { element, created: true };
    (config.container ?? document.body).append(element);
    const assistant = element.assistant;
    if (!assistant) {
      element.remove();
      target = undefined;
      return Promise.reject(new TypeError('docs-assistant: init(config) failed; the console says why.'));
    }
    return assistant.ready;
  },
  open: (options) => queued((assistant) => assistant.open(options)),
  close: () => queued((assistant) => assistant.close()),
  ask(question, options) {
    if (typeof question !== 'string' || !question.trim()) {
      return Promise.reject(new TypeError('docs-assistant: ask(question) expects a non-empty string.'));
    }
    return queued((assistant) => assistant.ask(question, options));
  },
  update(partial) {
    // Validated now, applied in turn.
    try {
      mergeConfig({ domain: '' }, partial);
    } catch (error) {
      return Promise.reject(error);
    }
    return queued((assistant) => {
      const element = target?.element;
      // Options set by script win over attributes; keep the element's own record in step.
      if (element) element.config = mergeConfig(element.config as EmbedConfig, partial);
      else assistant.update(partial);
    });
  },
  reset: () => queued((assistant) => assistant.reset()),
  consent(granted) {
    if (typeof granted !== 'boolean') {
      return Promise.reject(new TypeError('docs-assistant: consent(granted) expects true or false.'));
    }
    return queued(async (assistant) => {
      const handle = await assistant.live();
      // Applied (and, withdrawn, the storage deleted) before the promise resolves.
      flushSync(() => handle.consent(granted));
    });
  },
  conversations: () => onChat((state) => state.conversations),
  openConversation: (id) => onConversation(id, 'openConversation'),
  deleteConversation: (id) => onConversation(id, 'deleteConversation'),
  newConversation: () => onChat((state) => state.newConversation()),
  destroy: () =>
    queued((assistant) => {
      const owned = target;
      target = undefined;
      assistant.destroy();
      if (owned?.created) owned.element.remove();
      else if (owned) owned.element.assistant = undefined;
    }),
};
