/**
 * One embedded widget: `<DocsAssistant>` rendered by its own React root into a shadow root, with
 * its stylesheet beside it. The custom element owns one of these while it is in the document.
 */
import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import type { DocsAssistantState } from '../chat/types.js';
import type { AskSource, OpenSource } from '../events/types.js';
import { DocsAssistant } from '../ui/docs-assistant.js';
import type { DocsAssistantHandle } from '../ui/types.js';
import { type EmbedConfig, type EmbedConfigUpdate, mergeConfig, widgetProps } from './config.js';
import { installStyles } from './styles.js';

export interface AskOptions {
  /** What the `ask` event reports. @default 'api' */
  source?: AskSource;
  /** Open the panel to show the answer; `false` asks with the panel closed. @default true */
  open?: boolean;
}

export interface OpenOptions {
  /** What the `open` event reports. @default 'api' */
  source?: OpenSource;
  /** Move focus into the question box. @default true */
  focus?: boolean;
}

/** After the next paint and the tasks queued behind it (React's and Preact's passive effects). */
const afterEffects = (doc: Document) =>
  new Promise<void>((resolve) => {
    const win = doc.defaultView;
    if (!win) return resolve();
    win.requestAnimationFrame(() => win.setTimeout(resolve, 0));
  });

export class EmbeddedAssistant {
  config: EmbedConfig;
  readonly ready: Promise<void>;
  private readonly root: Root;
  private readonly container: HTMLElement;
  private readonly removeStyles: () => void;
  private handle: DocsAssistantHandle | null = null;
  private markReady!: () => void;
  private destroyed = false;

  constructor(
    readonly shadow: ShadowRoot,
    config: EmbedConfig,
  ) {
    if (typeof config?.domain !== 'string' || !config.domain) {
      throw new TypeError(
        'docs-assistant: a domain is required: DocsAssistant.init({ domain: "docs.example.com", apiKey: "svc_dsc_…" }) or <docs-assistant domain="…" api-key="…">.',
      );
    }
    this.config = config;
    this.ready = new Promise((resolve) => {
      this.markReady = resolve;
    });
    this.removeStyles = installStyles(shadow, config.nonce);
    this.container = shadow.ownerDocument.createElement('div');
    this.container.setAttribute('data-docs-assistant', 'embed-root');
    shadow.append(this.container);
    this.root = createRoot(this.container);
    this.render();
  }

  private readonly setHandle = (handle: DocsAssistantHandle | null) => {
    this.handle = handle;
    if (handle) this.markReady();
  };

  private render(): void {
    const props = widgetProps(this.config);
    flushSync(() => this.root.render(<DocsAssistant {...props} ref={this.setHandle} />));
  }

  /** Changes options; the conversation, the open state and the context items stay. */
  update(partial: EmbedConfigUpdate): void {
    this.config = mergeConfig(this.config, partial);
    if (!this.destroyed) this.render();
  }

  /** Replaces every option (the custom element's `config` property). */
  replace(config: EmbedConfig): void {
    this.config = config;
    if (!this.destroyed) this.render();
  }

  /** The React handle once mounted; rejects after `destroy`. For API methods of other features. */
  async live(): Promise<DocsAssistantHandle> {
    await this.ready;
    if (this.destroyed || !this.handle) throw new Error('docs-assistant: the assistant was destroyed.');
    return this.handle;
  }

  async open(options: OpenOptions = {}): Promise<void> {
    const handle = await this.live();
    const doc = this.shadow.ownerDocument;
    const before = doc.activeElement as HTMLElement | null;
    flushSync(() => handle.open({ source: options.source ?? 'api' }));
    if (options.focus !== false) return;
    // The widget moves focus into the panel as it opens, and into the question box once the
    // panel's code has loaded and its effects have run: wait for both, then give focus back.
    await this.waitFor(() => this.shadow.querySelector('[data-docs-assistant="input"]'));
    await afterEffects(doc);
    if (this.shadow.activeElement && before && before !== doc.activeElement) before.focus();
    else (this.shadow.activeElement as HTMLElement | null)?.blur();
  }

  async close(): Promise<void> {
    const handle = await this.live();
    flushSync(() => handle.close());
  }

  async ask(question: string, options: AskOptions = {}): Promise<void> {
    const handle = await this.live();
    flushSync(() => handle.ask(question, { source: options.source ?? 'api' }));
    // The panel stays mounted while closed, so the question still goes out and its answer streams.
    if (options.open === false) flushSync(() => handle.close());
  }

  /** Starts a new conversation (as the panel's "New conversation" button does). */
  async reset(): Promise<void> {
    const handle = await this.live();
    let button = this.newConversationButton();
    if (!button) {
      // The panel's code has not loaded yet, and a stored conversation would come back with it:
      // mount the panel (closed) and wait for it.
      const wasOpen = this.shadow.querySelector('[data-docs-assistant="panel"]:not([hidden])') !== null;
      flushSync(() => handle.open({ source: 'api' }));
      if (!wasOpen) flushSync(() => handle.close());
      button = await this.waitFor(() => this.newConversationButton());
    }
    if (!button.disabled) button.click();
  }

  /**
   * The conversation's headless state, for the history methods. The panel holds it: when its code
   * has not loaded yet, the panel is mounted (closed, as for `reset`) and this waits for it.
   */
  async chat(): Promise<DocsAssistantState> {
    const handle = await this.live();
    const state = handle.chat?.();
    if (state) return state;
    const wasOpen = this.shadow.querySelector('[data-docs-assistant="panel"]:not([hidden])') !== null;
    flushSync(() => handle.open({ source: 'api' }));
    if (!wasOpen) flushSync(() => handle.close());
    await this.waitFor(() => this.newConversationButton());
    // The panel hands its state over in an effect of the render that made the button.
    for (;;) {
      const mounted = handle.chat?.();
      if (mounted) return mounted;
      if (this.destroyed) throw new Error('docs-assistant: the assistant was destroyed.');
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  }

  private newConversationButton(): HTMLButtonElement | null {
    return this.shadow.querySelector<HTMLButtonElement>(
      '[data-docs-assistant="panel"] [data-action="new-conversation"]',
    );
  }

  /** Resolves with what `find` returns once the shadow tree has it (checked on every change). */
  private waitFor<T>(find: () => T | null): Promise<T> {
    return new Promise((resolve, reject) => {
      const found = find();
      if (found) return resolve(found);
      const observer = new MutationObserver(() => {
        if (this.destroyed) {
          observer.disconnect();
          reject(new Error('docs-assistant: the assistant was destroyed.'));
          return;
        }
        const item = find();
        if (!item) return;
        observer.disconnect();
        resolve(item);
      });
      observer.observe(this.shadow, { childList: true, subtree: true, attributes: true });
    });
  }

  /** Unmounts the widget (its listeners and collectors with it) and empties the shadow root. */
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.handle = null;
    this.root.unmount();
    this.container.remove();
    this.removeStyles();
  }
}
