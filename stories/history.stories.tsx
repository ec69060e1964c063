/**
 * Past conversations (the History view, issue 20): none kept yet, many kept (newest first, with
 * when and how many messages, the one shown marked), and a search that matches none of them. The
 * conversations come from the story's own storage, in the shape the widget keeps them.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { AssistantMessage, StoredThread } from '../packages/docs-assistant/src/chat/types';
import { SHORT_ANSWER, SUGGESTIONS_ANSWER } from './support/conversations';
import {
  type AssistantArgs,
  assistantArgs,
  assistantArgTypes,
  assistantControls,
  renderAssistant,
} from './support/meta';
import { hooks } from './support/play';

const meta = {
  title: 'DocsAssistant/History',
  args: assistantArgs,
  argTypes: assistantArgTypes,
  parameters: { controls: assistantControls },
  render: renderAssistant,
} satisfies Meta<AssistantArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

const PAST: Array<[question: string, answer: string, minutesAgo: number]> = [
  ['How do I install it?', SHORT_ANSWER, 3],
  ['Can I keep conversations between visits?', SUGGESTIONS_ANSWER, 55],
  [
    'How do I change the colors?',
    'Set the `--da-accent` and `--da-bg` custom properties on the page.',
    60 * 5,
  ],
  [
    'Does it work without React?',
    'Yes: the script build mounts the same panel from one `<script>` tag.',
    60 * 26,
  ],
  [
    'Where are conversations kept?',
    'In `localStorage` per domain, or in a storage of your own.',
    60 * 24 * 3,
  ],
  ['How do I add a starter question per page?', 'Pass `starterQuestions` a map by path prefix.', 60 * 24 * 9],
  [
    'Can readers share a conversation?',
    'Yes, when the service supports it: "Share" makes a link.',
    60 * 24 * 40,
  ],
  [
    'What does the static export contain?',
    'The pages, the search index and the Markdown for agents.',
    60 * 24 * 400,
  ],
];

const text = (id: string, role: 'user' | 'assistant', content: string): AssistantMessage => ({
  id,
  role,
  content,
  parts: [{ type: 'text', text: content }],
});

/** The conversations as the widget stores them: the one saved last, the others in `others`. */
function kept(): StoredThread {
  const now = Date.now();
  const [latest, ...others] = PAST.map(([question, answer, minutesAgo], index) => ({
    id: `story-${index}`,
    revision: 1,
    updatedAt: new Date(now - minutesAgo * 60_000).toISOString(),
    threadId: `thr_story_${index}`,
    messages: [text(`q${index}`, 'user', question), text(`a${index}`, 'assistant', answer)],
  }));
  return { ...latest!, others } as StoredThread;
}

async function openHistory(canvasElement: HTMLElement) {
  const canvas = within(canvasElement);
  await userEvent.click(await canvas.findByRole('button', { name: 'History' }, { timeout: 5000 }));
  await canvas.findByRole('region', { name: 'Past conversations' }, { timeout: 5000 });
}

/** Nothing kept yet: the view says so (and that conversations stay on this device). */
export const HistoryEmpty: Story = {
  play: async ({ canvasElement }) => {
    await openHistory(canvasElement);
    await expect(hooks(canvasElement, 'history-status')[0]).toHaveTextContent(/No past conversations yet/);
    await expect(hooks(canvasElement, 'history-item')).toHaveLength(0);
  },
};

/** Eight kept conversations, newest first; the one shown (restored) is marked. */
export const HistoryMany: Story = {
  parameters: { restored: kept() },
  play: async ({ canvasElement }) => {
    await openHistory(canvasElement);
    await waitFor(() => expect(hooks(canvasElement, 'history-item')).toHaveLength(PAST.length));
    await expect(hooks(canvasElement, 'history-item')[0]).toHaveTextContent(PAST[0]![0]);
    await expect(
      canvasElement.querySelector('[data-action="open-conversation"][aria-current="true"]'),
    ).toHaveTextContent(PAST[0]![0]);
  },
};

/** A search that no question or answer matches: the status says so, the list is empty. */
export const HistoryNoSearchResults: Story = {
  parameters: { restored: kept() },
  play: async ({ canvasElement }) => {
    await openHistory(canvasElement);
    const search = await within(canvasElement).findByRole('searchbox', { name: 'Search past conversations' });
    await userEvent.type(search, 'kubernetes');
    await waitFor(() => expect(hooks(canvasElement, 'history-item')).toHaveLength(0));
    await expect(hooks(canvasElement, 'history-status')[0]).toHaveTextContent(
      'No conversation mentions “kubernetes”.',
    );
  },
};
