import type { HTMLAttributes } from 'react';
import type { DocsAssistantProps } from './types.js';

/**
 * The widget's own props, which stay off the root element (the hook and the panel read theirs from
 * the props by name). A list of names rather than a destructuring of each: the launcher carries
 * each name once, as a string that compresses well. tests/ui/shell-props.test.ts checks, in types,
 * that no prop of the widget's is missing here.
 */
export const OWN_PROPS = new Set([
  'variant',
  'open',
  'defaultOpen',
  'onOpenChange',
  'shortcut',
  'starterQuestions',
  'labels',
  'theme',
  'unstyled',
  'classNames',
  'components',
  'collectors',
  'docsBaseUrl',
  'allowedImageOrigins',
  'whenUnavailable',
  'domain',
  'apiKey',
  'baseUrl',
  'api',
  'fp',
  'retrievalPageSize',
  'filter',
  'currentPath',
  'storage',
  'deployment',
  'fetch',
  'headers',
  'onFinish',
  'onError',
  'className',
  'features',
  'defaultView',
  'sourceAction',
  'consent',
  'onEvent',
  'eventsIncludeText',
  'feedback',
  'share',
  'support',
  'attachments',
] as const satisfies readonly (keyof DocsAssistantProps)[]);

/**
 * The props that go on the root element: everything but the widget's own, so `id`, `style`, `dir`,
 * `aria-*` and handlers reach the DOM.
 */
export function rootPropsOf(
  props: DocsAssistantProps,
): Omit<HTMLAttributes<HTMLDivElement>, 'onError' | 'title'> {
  const rootProps: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(props))
    if (!(OWN_PROPS as Set<string>).has(key)) rootProps[key] = value;
  return rootProps;
}
