/**
 * `<docs-assistant domain="…" api-key="…">`: the widget as a custom element. Attributes set the
 * common options (see `ATTRIBUTES` in config.ts); the `config` property takes any option,
 * functions (`onEvent`) included, and is what `DocsAssistant.init` uses. The widget mounts when
 * the element enters the document and unmounts, listeners and all, when it leaves.
 */
import {
  ATTRIBUTES,
  type EmbedConfig,
  type EmbedConfigUpdate,
  MOUNT_ONLY,
  parseAttribute,
} from './config.js';
import { type AskOptions, EmbeddedAssistant, type OpenOptions } from './mount.js';

export const TAG = 'docs-assistant';

/** Called with each element whose widget has mounted (the browser API targets the first). */
type MountListener = (element: DocsAssistantElement) => void;
const mountListeners = new Set<MountListener>();
export const onMount = (listener: MountListener): (() => void) => {
  mountListeners.add(listener);
  return () => mountListeners.delete(listener);
};

// Importing this module outside a browser (server rendering, Node tools reading the package) must
// not throw: there is no HTMLElement there, and the element is only defined in a browser anyway.
const ElementBase = (typeof HTMLElement === 'undefined' ? class {} : HTMLElement) as typeof HTMLElement;

export class DocsAssistantElement extends ElementBase {
  // Every attribute but `shadow`, which only counts when the element first mounts.
  static readonly observedAttributes = Object.keys(ATTRIBUTES).filter((name) => name !== 'shadow');

  /** The mounted widget, while the element is in the document. */
  assistant: EmbeddedAssistant | undefined;
  private options: Partial<EmbedConfig> = {};
  private shadow: ShadowRoot | undefined;

  /** Options set from script (merged over the attributes). Setting it updates a mounted widget. */
  get config(): Partial<EmbedConfig> {
    return { ...this.options };
  }
  set config(value: Partial<EmbedConfig>) {
    this.options = { ...value };
    this.assistant?.replace(this.fullConfig());
  }

  private fullConfig(): EmbedConfig {
    const fromAttributes: Record<string, unknown> = {};
    for (const name of Object.keys(ATTRIBUTES)) {
      // Browsers hide a nonce attribute's value once the element is in a document with a CSP
      // (the attribute reads ""); the `nonce` property keeps it.
      const value =
        name === 'nonce' && this.hasAttribute('nonce') ? this.nonce || null : this.getAttribute(name);
      if (value === null) continue;
      const parsed = parseAttribute(name, value);
      if (parsed) fromAttributes[parsed[0]] = parsed[1];
    }
    return { ...fromAttributes, ...this.options } as EmbedConfig;
  }

  connectedCallback(): void {
    if (this.assistant) return;
    const config = this.fullConfig();
    // The collectors tell the page from the widget by `[data-docs-assistant]`: events from inside
    // the shadow root reach the page's listeners with this element as their target.
    if (!this.hasAttribute('data-docs-assistant')) this.setAttribute('data-docs-assistant', 'embed');
    this.shadow ??= this.attachShadow({ mode: config.shadow === 'closed' ? 'closed' : 'open' });
    try {
      this.assistant = new EmbeddedAssistant(this.shadow, config);
    } catch (error) {
      // A bad config is the page's to fix; the page itself carries on.
      console.error(error);
      return;
    }
    const assistant = this.assistant;
    void assistant.ready.then(() => {
      if (this.assistant === assistant) for (const listener of mountListeners) listener(this);
    });
  }

  disconnectedCallback(): void {
    // Moving the element (removed and inserted in one task) keeps the widget and its conversation.
    queueMicrotask(() => {
      if (this.isConnected) return;
      this.assistant?.destroy();
      this.assistant = undefined;
    });
  }

  attributeChangedCallback(name: string, previous: string | null, value: string | null): void {
    if (!this.assistant || previous === value) return;
    const parsed = parseAttribute(name, value);
    if (!parsed || MOUNT_ONLY.includes(parsed[0]) || parsed[0] in this.options) return;
    try {
      this.assistant.update({ [parsed[0]]: parsed[1] } as EmbedConfigUpdate);
    } catch (error) {
      console.error(error);
    }
  }

  // The browser API's methods, on the element too (for pages with several widgets).
  async open(options?: OpenOptions): Promise<void> {
    return this.mounted().open(options);
  }
  async close(): Promise<void> {
    return this.mounted().close();
  }
  async ask(question: string, options?: AskOptions): Promise<void> {
    return this.mounted().ask(question, options);
  }
  async update(partial: EmbedConfigUpdate): Promise<void> {
    return this.mounted().update(partial);
  }
  async reset(): Promise<void> {
    return this.mounted().reset();
  }

  private mounted(): EmbeddedAssistant {
    if (!this.assistant) {
      throw new Error(
        'docs-assistant: this <docs-assistant> element is not in the document (or its config failed).',
      );
    }
    return this.assistant;
  }
}

/** Defines `<docs-assistant>` once (a second copy of the script leaves the first in charge). */
export function defineElement(): void {
  if (typeof customElements !== 'undefined' && !customElements.get(TAG)) {
    customElements.define(TAG, DocsAssistantElement);
  }
}
