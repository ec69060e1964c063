/**
 * `<InsightsPanel>`, the docs owner's dashboard (docs-assistant/insights/react), in each state:
 * loading, a month of data, an empty month, a failing route, a transcript opened from its row,
 * and the data in the dark theme. Its fetch answers as the host's route does, with contract-shaped
 * JSON (stories/support/insights-fetch.ts).
 */
import type { Meta, StoryContext, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { InsightsPanel, type InsightsPanelProps } from '../packages/docs-assistant/src/insights/panel';
import { type InsightsStoryMode, insightsFetch, STORY_RANGE } from './support/insights-fetch';

type PanelArgs = Omit<InsightsPanelProps, 'fetch'>;

function PanelStory({ mode, ...props }: PanelArgs & { mode: InsightsStoryMode }) {
  const [{ fetch }] = useState(() => insightsFetch(mode));
  return (
    <div style={{ maxWidth: 1000, fontFamily: 'system-ui, sans-serif' }}>
      <InsightsPanel {...props} fetch={fetch} />
    </div>
  );
}

const meta = {
  title: 'InsightsPanel',
  args: { endpoint: '/api/insights', defaultRange: STORY_RANGE, labels: {} },
  argTypes: {
    labels: { control: 'object' },
    theme: { control: 'select', options: ['light', 'dark', 'system'] },
  },
  parameters: { controls: { include: ['labels', 'theme'] } },
  render: (args: PanelArgs, context: StoryContext) => (
    <PanelStory {...args} mode={(context.parameters as { mode?: InsightsStoryMode }).mode ?? 'data'} />
  ),
} satisfies Meta<PanelArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

const loaded = (canvasElement: HTMLElement) =>
  within(canvasElement).findByRole('table', { name: 'Conversations' }, { timeout: 5000 });

/** The route has not answered yet. */
export const Loading: Story = {
  parameters: { mode: 'loading' },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByRole('status')).toHaveTextContent('Loading insights…');
  },
};

/** A month of traffic: totals, the three charts, gaps, top questions, search, pages, conversations. */
export const Data: Story = {
  play: async ({ canvasElement }) => {
    await loaded(canvasElement);
    const canvas = within(canvasElement);
    await expect(
      canvas.getByRole('img', { name: /^Uncertain answers, 2026-11-07 to 2026-12-06: mean / }),
    ).toBeVisible();
    await expect(canvas.getByRole('rowheader', { name: 'invoices by cheque' })).toBeVisible();
  },
};

/** A month without a question: said once, and each table says it is empty. */
export const Empty: Story = {
  parameters: { mode: 'empty' },
  play: async ({ canvasElement }) => {
    await loaded(canvasElement);
    await expect(
      within(canvasElement).getByText('No questions were asked from 2026-11-07 to 2026-12-06.'),
    ).toBeVisible();
  },
};

/** The route refused (not signed in): the reason and Retry. */
export const RouteError: Story = {
  parameters: { mode: 'error' },
  play: async ({ canvasElement }) => {
    const alert = await within(canvasElement).findByRole('alert');
    await expect(alert).toHaveTextContent('Sign in as a user allowed to read the insights.');
    await expect(within(alert).getByRole('button', { name: 'Retry' })).toBeEnabled();
  },
};

/** A down-voted conversation opened from its row: every message, its sources and marks. */
export const Transcript: Story = {
  play: async ({ canvasElement }) => {
    await loaded(canvasElement);
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Can I pay the invoice with a cheque?' }));
    const heading = await canvas.findByRole('heading', { name: 'Conversation of 2026-12-06 09:41 UTC' });
    await waitFor(() => expect(heading).toHaveFocus());
    await expect(canvas.getByText('Contact support from the dashboard.')).toBeVisible();
  },
};

/** The month of data in the dark theme. */
export const Dark: Story = {
  args: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    await loaded(canvasElement);
    await expect(canvasElement.querySelector('[data-docs-assistant="insights"]')).toHaveAttribute(
      'data-theme',
      'dark',
    );
  },
};
