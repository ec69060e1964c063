/**
 * What the widget's story files share: the controls a designer changes, and the render function
 * that feeds each story's replies (from its parameters) to the real widget.
 */
import type { ArgTypes, Decorator, StoryContext } from '@storybook/react-vite';
import type { StoredThread } from '../../packages/docs-assistant/src/chat/types';
import { type DocsAssistantProps, defaultLabels } from '../../packages/docs-assistant/src/index';
import { replies as recorded, STARTER_QUESTIONS } from './conversations';
import type { Reply } from './replay';
import { CONNECTION, DocsPage, StoryAssistant } from './story-assistant';

/** Parameters a widget story may set. */
export interface AssistantStoryParameters {
  /** What the "server" answers, one per request. @default a short answer */
  replies?: Reply[];
  /** A conversation already in storage. */
  restored?: StoredThread;
  /** Render a docs page (text and a code block) around the widget. */
  page?: boolean;
  /** What the service's `/health` lists (`share`); unset: the health check gets a reply like any request. */
  capabilities?: string[];
  pacing: { delayMs: number };
}

/** Args of a widget story: the widget's props (the connection comes from `CONNECTION`). */
export type AssistantArgs = Partial<DocsAssistantProps>;

export const assistantArgs: AssistantArgs = {
  ...CONNECTION,
  variant: 'inline',
  theme: 'light',
  starterQuestions: STARTER_QUESTIONS,
  labels: {},
  collectors: false,
  shortcut: false,
};

/** The props a designer changes; the rest are set by each story. */
export const assistantArgTypes: Partial<ArgTypes<AssistantArgs>> = {
  variant: { control: 'inline-radio', options: ['floating', 'side-panel', 'inline', 'modal'] },
  theme: { control: 'inline-radio', options: ['light', 'dark', 'system'] },
  labels: {
    control: 'object',
    description: `Overrides for any string, e.g. { "title": "Ask Acme", "launcher": "${defaultLabels.launcher}" }`,
  },
  starterQuestions: { control: 'object' },
  open: { control: 'boolean', description: 'Controlled open state (floating and side panel).' },
  defaultOpen: { control: 'boolean' },
  dir: { control: 'inline-radio', options: ['ltr', 'rtl'] },
};

export const assistantControls = {
  include: ['variant', 'theme', 'labels', 'starterQuestions', 'open', 'defaultOpen', 'dir'],
};

export function renderAssistant(args: AssistantArgs, context: StoryContext) {
  const parameters = context.parameters as AssistantStoryParameters;
  return (
    <StoryAssistant
      {...CONNECTION}
      {...args}
      replies={parameters.replies ?? [recorded.short()]}
      restored={parameters.restored}
      capabilities={parameters.capabilities}
      pacingMs={parameters.pacing.delayMs}
      page={parameters.page ? <DocsPage /> : undefined}
    />
  );
}

/** Fills the viewport, for the floating and side panel variants that position themselves. */
export const fullPage: Decorator = (Story) => (
  <div style={{ minHeight: '100vh' }}>
    <Story />
  </div>
);
