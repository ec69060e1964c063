/**
 * `docs-assistant/embed`: the script build. One ES module with React inside, for any page:
 *
 *   <script type="module" src="https://…/embed.js"></script>
 *   <docs-assistant domain="docs.example.com" api-key="svc_dsc_…"></docs-assistant>
 *
 * Loading it defines `<docs-assistant>` and `window.DocsAssistant` (see api.ts). The panel, the
 * chat client and the Markdown load as chunks from beside this file when the assistant is first
 * opened.
 */
import { api, type DocsAssistantApi } from './api.js';
import { defineElement } from './element.js';

export type { AskOptions, DocsAssistantApi, EmbedConfig, EmbedConfigUpdate, OpenOptions } from './api.js';
export { DocsAssistantElement } from './element.js';

declare global {
  interface Window {
    DocsAssistant?: DocsAssistantApi | { q?: [string, ...unknown[]][] };
  }
  interface HTMLElementTagNameMap {
    'docs-assistant': import('./element.js').DocsAssistantElement;
  }
}

/** `window.DocsAssistant`, also importable. */
export const DocsAssistant: DocsAssistantApi = api;

if (typeof window !== 'undefined') {
  // A page may have queued calls before this module loaded: window.DocsAssistant = { q: [['init', {…}]] }.
  const early = window.DocsAssistant && 'q' in window.DocsAssistant ? window.DocsAssistant.q : undefined;
  if (!window.DocsAssistant || early) {
    window.DocsAssistant = api;
    defineElement();
    for (const [method, ...args] of early ?? []) {
      const call = (api as unknown as Record<string, (...rest: unknown[]) => Promise<unknown>>)[method];
      if (typeof call === 'function') call(...args).catch((error: unknown) => console.error(error));
      else console.error(`docs-assistant: DocsAssistant.${method} is not a method of the browser API.`);
    }
  } else {
    defineElement();
  }
}
