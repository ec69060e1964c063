/// <reference types="vite/client" />
/**
 * The reference service running in the browser (`createInMemoryAssistant`) over this repository's
 * own `docs/`: the widget's fetch goes to it, and its answers are searched, not recorded.
 */
import type { Meta, StoryContext, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, within } from 'storybook/test';
import { DocsAssistant } from '../packages/docs-assistant/src/index';
import { createInMemoryAssistant } from '../packages/docs-assistant-server/src/in-memory';
import type { AssistantStoryParameters } from './support/meta';
import { type AssistantArgs, assistantArgs, assistantArgTypes, assistantControls } from './support/meta';
import { ask, hooks, waitForAnswer } from './support/play';
import { pacedFetch } from './support/replay';
import { CONNECTION, storyStorage } from './support/story-assistant';

/** The docs folder, bundled as text: the service's corpus. */
const DOCS = import.meta.glob<string>('../docs/*.md', { query: '?raw', import: 'default', eager: true });
const FILES = Object.fromEntries(
  Object.entries(DOCS).map(([path, text]) => [path.replace('../docs/', ''), text]),
);

function LiveAssistant({ delayMs, ...props }: AssistantArgs & { delayMs: number }) {
  const [service] = useState(() =>
    createInMemoryAssistant({
      files: FILES,
      domain: CONNECTION.domain,
      assistantKey: CONNECTION.apiKey,
      siteUrl: CONNECTION.docsBaseUrl,
    }),
  );
  const [fetch] = useState(() => pacedFetch(service.fetch, { delayMs }));
  const [storage] = useState(() => storyStorage());
  return (
    <div style={{ maxWidth: 440 }}>
      <DocsAssistant {...CONNECTION} {...props} fetch={fetch} storage={storage} />
    </div>
  );
}

const meta = {
  title: 'DocsAssistant/Reference service',
  args: assistantArgs,
  argTypes: assistantArgTypes,
  parameters: { controls: assistantControls },
  render: (args: AssistantArgs, context: StoryContext) => (
    <LiveAssistant {...args} delayMs={(context.parameters as AssistantStoryParameters).pacing.delayMs} />
  ),
} satisfies Meta<AssistantArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Ask anything about the docs; this play asks about themes. */
export const LiveAnswers: Story = {
  play: async ({ canvasElement }) => {
    await ask(canvasElement, 'How do I use the dark theme?');
    await waitForAnswer(canvasElement, /dark/i);
    const sources = hooks(canvasElement, 'source');
    await expect(sources.length).toBeGreaterThan(0);
    await expect(sources.some((s) => /theming/i.test(s.getAttribute('href') ?? ''))).toBe(true);
    await expect(within(canvasElement).queryByRole('alert')).toBeNull();
  },
};
