/**
 * Feedback on an answer (`feedback` prop, on by default): the two votes under a finished answer,
 * the comment box a vote opens, and an answer with its feedback given. The votes go to `onEvent`
 * only here (`endpoint: false`): the stories' "server" replays answers and keeps no votes.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { QUESTIONS, replies } from './support/conversations';
import {
  type AssistantArgs,
  assistantArgs,
  assistantArgTypes,
  assistantControls,
  renderAssistant,
} from './support/meta';
import { ask, waitForAnswer } from './support/play';

const meta = {
  title: 'DocsAssistant/Feedback',
  args: { ...assistantArgs, feedback: { endpoint: false } },
  argTypes: assistantArgTypes,
  parameters: { controls: assistantControls, replies: [replies.short()] },
  render: renderAssistant,
} satisfies Meta<AssistantArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

async function answered(canvasElement: HTMLElement) {
  await ask(canvasElement, QUESTIONS.short);
  await waitForAnswer(canvasElement, /npm install docs-assistant/);
  const group = await within(canvasElement).findByRole(
    'group',
    { name: 'Was this answer helpful?' },
    { timeout: 5000 },
  );
  return {
    up: within(group).getByRole('button', { name: 'Helpful' }),
    down: within(group).getByRole('button', { name: 'Not helpful' }),
  };
}

/** A finished answer with its two votes, neither pressed. */
export const FeedbackOffered: Story = {
  play: async ({ canvasElement }) => {
    const { up, down } = await answered(canvasElement);
    await expect(up).toHaveAttribute('aria-pressed', 'false');
    await expect(down).toHaveAttribute('aria-pressed', 'false');
  },
};

/** Voted "Helpful": the comment box is open and has focus. */
export const FeedbackCommentOpen: Story = {
  play: async ({ canvasElement }) => {
    const { up } = await answered(canvasElement);
    await userEvent.click(up);
    await expect(up).toHaveAttribute('aria-pressed', 'true');
    const box = within(canvasElement).getByRole('textbox', { name: 'Tell us more (optional)' });
    await waitFor(() => expect(box).toHaveFocus());
  },
};

/** Voted "Not helpful" with a comment sent: the vote stays pressed, thanks announced. */
export const FeedbackGiven: Story = {
  play: async ({ canvasElement }) => {
    const { down } = await answered(canvasElement);
    await userEvent.click(down);
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByRole('textbox', { name: 'Tell us more (optional)' }), 'Show pnpm too');
    await userEvent.click(canvas.getByRole('button', { name: 'Send feedback' }));
    await expect(down).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() =>
      expect(canvasElement.querySelector('[data-docs-assistant="feedback-status"]')).toHaveTextContent(
        'Thanks for your feedback.',
      ),
    );
  },
};
