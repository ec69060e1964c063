/**
 * What the script build is configured with: the React props (`DocsAssistantProps`, minus the
 * DOM attributes a host page has no use for from outside) plus what only an embed needs (the
 * CSP nonce, the shadow root's mode, the `?assistant` URL parameter), and how the custom
 * element's attributes map onto it.
 */
import type { DocsAssistantProps } from '../ui/types.js';

/** The props an embed passes through to `<DocsAssistant>`. */
export type EmbedProps = Omit<
  DocsAssistantProps,
  'open' | 'onOpenChange' | 'children' | 'className' | 'style' | 'dangerouslySetInnerHTML' | 'ref'
>;

export interface EmbedConfig extends EmbedProps {
  /**
   * The nonce of the page's Content-Security-Policy (`style-src 'nonce-…'`), copied onto every
   * `<style>` and `<script>` the widget creates. Without it, a strict policy blocks the widget's
   * stylesheet; the widget then says so in the console.
   */
  nonce?: string;
  /** The shadow root's mode; `closed` keeps page scripts out of the widget's DOM. @default 'open' */
  shadow?: 'open' | 'closed';
  /**
   * The query parameter that opens the panel on load (`?assistant`) or asks a question
   * (`?assistant=How+do+I+deploy`); `false` turns it off. @default 'assistant'
   */
  urlParameter?: string | false;
  /** Where `init` puts the `<docs-assistant>` element. @default document.body */
  container?: Element;
}

/** A partial config for `update`: `null` restores a key's default. */
export type EmbedConfigUpdate = { [K in keyof EmbedConfig]?: EmbedConfig[K] | null };

/** Keys fixed when the element mounts (they shape the shadow root, not the widget). */
export const MOUNT_ONLY: readonly (keyof EmbedConfig)[] = ['shadow', 'container'];

type AttributeParser = (value: string) => unknown;

const text: AttributeParser = (value) => value;
const bool: AttributeParser = (value) => value !== 'false';
const number: AttributeParser = (value) => {
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new TypeError(`expects a number, got "${value}"`);
  return parsed;
};
const json: AttributeParser = (value) => JSON.parse(value) as unknown;
/** `"false"` turns a feature off; anything else is text (a shortcut, a parameter name). */
const textOrOff: AttributeParser = (value) => (value === 'false' ? false : value);
/** A JSON array, or one question per line / separated by `|`. */
const list: AttributeParser = (value) =>
  value.trim().startsWith('[')
    ? json(value)
    : value
        .split(/\n|\|/)
        .map((item) => item.trim())
        .filter(Boolean);

/** The custom element's attributes (kebab-case) and the config keys they set. */
export const ATTRIBUTES: Readonly<Record<string, [keyof EmbedConfig, AttributeParser]>> = {
  domain: ['domain', text],
  'api-key': ['apiKey', text],
  'base-url': ['baseUrl', text],
  api: ['api', text],
  variant: ['variant', text],
  theme: ['theme', text],
  fp: ['fp', text],
  deployment: ['deployment', text],
  storage: ['storage', text],
  shortcut: ['shortcut', textOrOff],
  'default-open': ['defaultOpen', bool],
  'default-view': ['defaultView', text],
  'source-action': ['sourceAction', text],
  'docs-base-url': ['docsBaseUrl', text],
  'when-unavailable': ['whenUnavailable', text],
  'retrieval-page-size': ['retrievalPageSize', number],
  'starter-questions': ['starterQuestions', list],
  'allowed-image-origins': ['allowedImageOrigins', list],
  collectors: ['collectors', (value) => (value === 'false' ? false : json(value))],
  features: ['features', json],
  filter: ['filter', json],
  labels: ['labels', json],
  unstyled: ['unstyled', bool],
  'events-include-text': ['eventsIncludeText', bool],
  nonce: ['nonce', text],
  shadow: ['shadow', text],
  'url-parameter': ['urlParameter', textOrOff],
};

/** Reads one attribute into `[key, value]`; `null` (attribute removed) restores the default. */
export function parseAttribute(name: string, value: string | null): [keyof EmbedConfig, unknown] | undefined {
  const entry = ATTRIBUTES[name];
  if (!entry) return undefined;
  const [key, parse] = entry;
  if (value === null) return [key, null];
  try {
    return [key, parse(value)];
  } catch (error) {
    throw new TypeError(
      `docs-assistant: the attribute ${name}="${value}" could not be read (${(error as Error).message}).`,
    );
  }
}

/** Applies an update: `null` and `undefined` values drop the key so the widget's default applies. */
export function mergeConfig(config: EmbedConfig, update: EmbedConfigUpdate): EmbedConfig {
  if (!update || typeof update !== 'object') {
    throw new TypeError(
      'docs-assistant: update(config) expects an object of options (null restores a default).',
    );
  }
  const next: Record<string, unknown> = { ...config };
  for (const [key, value] of Object.entries(update)) {
    if (value === null || value === undefined) delete next[key];
    else next[key] = value;
  }
  return next as unknown as EmbedConfig;
}

/** The props `<DocsAssistant>` gets: the config without the embed's own keys. */
export function widgetProps(config: EmbedConfig): EmbedProps {
  const { nonce: _nonce, shadow: _shadow, urlParameter: _url, container: _container, ...props } = config;
  return props;
}
