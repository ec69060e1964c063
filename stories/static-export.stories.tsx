/**
 * `<StaticExportPanel>`, the dashboard panel of the static export, in each state: idle, running
 * with progress, completed with a link counting down, an expired link regenerated, and a failed
 * export with its reason. Its fetch replays the host route's recorded answers.
 */
import type { Meta, StoryContext, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import {
  StaticExportPanel,
  type StaticExportPanelProps,
} from '../packages/docs-assistant/src/static-export/panel';
import { STREAM_TIMEOUT_MS } from './support/play';
import { bundle, job, type StaticExportRecording, staticExportFetch } from './support/static-export-fetch';

interface PanelStoryParameters {
  recording?: StaticExportRecording;
  /** Lifetime of the first bundle link, in pacing intervals. */
  pacing: { delayMs: number };
}

type PanelArgs = Omit<StaticExportPanelProps, 'fetch'>;

const HOUR_MS = 3_600_000;

const running = [
  job('running', 12, 3),
  job('running', 28, 7),
  job('running', 46, 11),
  job('running', 61, 15),
];

const RECORDINGS = {
  completed: {
    start: [job('queued', 0, 0)],
    status: [...running, job('running', 83, 20), job('completed', 100, 24)],
    bundle: [bundle(HOUR_MS)],
  },
  stillRunning: {
    start: [job('queued', 0, 0)],
    status: running,
    bundle: [bundle(HOUR_MS)],
  },
  failed: {
    start: [job('queued', 0, 0)],
    status: [
      job('running', 12, 3),
      job('running', 28, 7),
      job('failed', 28, 7, 'guides/theming.mdx: unknown MDX component <Tabs> on line 42'),
    ],
    bundle: [bundle(HOUR_MS)],
  },
} satisfies Record<string, StaticExportRecording>;

function PanelStory({
  recording,
  delayMs,
  ...props
}: PanelArgs & { recording: StaticExportRecording; delayMs: number }) {
  const [{ fetch, now }] = useState(() => staticExportFetch(recording, delayMs));
  return (
    <div style={{ maxWidth: 520, fontFamily: 'system-ui, sans-serif' }}>
      <StaticExportPanel
        {...props}
        fetch={fetch}
        now={now}
        // Polls and countdown ticks at the story's pace: readable in Storybook, quick in tests.
        pollIntervalMs={delayMs * 12}
        tickMs={Math.min(1000, delayMs * 10)}
      />
    </div>
  );
}

const renderPanel = (args: PanelArgs, context: StoryContext) => {
  const parameters = context.parameters as PanelStoryParameters;
  return (
    <PanelStory
      {...args}
      recording={parameters.recording ?? RECORDINGS.completed}
      delayMs={parameters.pacing.delayMs}
    />
  );
};

const meta = {
  title: 'StaticExportPanel',
  args: { endpoint: '/api/static-export', domain: 'docs-assistant', labels: {} },
  argTypes: { labels: { control: 'object' }, domain: { control: 'text' } },
  parameters: { controls: { include: ['domain', 'labels'] } },
  render: renderPanel,
} satisfies Meta<PanelArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

const region = (canvasElement: HTMLElement) =>
  canvasElement.querySelector<HTMLElement>('[data-docs-assistant="static-export"]')!;

async function start(canvasElement: HTMLElement) {
  await userEvent.click(within(canvasElement).getByRole('button', { name: 'Start export' }));
}

async function waitForPanelStatus(canvasElement: HTMLElement, status: string) {
  await waitFor(() => expect(region(canvasElement)).toHaveAttribute('data-status', status), {
    timeout: STREAM_TIMEOUT_MS,
  });
}

export const Idle: Story = {
  play: async ({ canvasElement }) => {
    await expect(region(canvasElement)).toHaveAttribute('data-status', 'idle');
    await expect(within(canvasElement).getByRole('region', { name: 'Static export' })).toBeInTheDocument();
    await expect(within(canvasElement).getByRole('button', { name: 'Start export' })).toBeEnabled();
    await expect(within(canvasElement).queryByRole('progressbar')).toBeNull();
  },
};

/** Started, and the job is running: progress and the pages exported so far. */
export const Running: Story = {
  parameters: { recording: RECORDINGS.stillRunning },
  play: async ({ canvasElement }) => {
    await start(canvasElement);
    const canvas = within(canvasElement);
    await waitFor(() => expect(canvas.getByText('15 pages exported')).toBeInTheDocument(), {
      timeout: STREAM_TIMEOUT_MS,
    });
    await expect(canvas.getByRole('progressbar', { name: 'Export progress' })).toHaveAttribute('value', '61');
    await expect(canvas.getByRole('status')).toHaveTextContent('Exporting');
    await expect(region(canvasElement)).toHaveAttribute('data-status', 'running');
  },
};

/** Completed: the bundle link with its expiry counting down. */
export const CompletedWithLink: Story = {
  play: async ({ canvasElement }) => {
    await start(canvasElement);
    await waitForPanelStatus(canvasElement, 'completed');
    const canvas = within(canvasElement);
    await expect(canvas.getByText('24 pages exported')).toBeInTheDocument();
    await userEvent.click(canvas.getByRole('button', { name: 'Get bundle link' }));
    const link = await canvas.findByRole('link', { name: 'Download bundle (.tar.gz)' }, { timeout: 5000 });
    await expect(link.getAttribute('href')).toMatch(
      /^https:\/\/exports\.example\.com\/.+\.tar\.gz\?expires=/,
    );
    // The story's clock stands still once an hour-long link is issued (static-export-fetch.ts).
    await expect(canvas.getByText('Link expires in 1:00:00')).toBeInTheDocument();
  },
};

/** The link expired: the panel offers a new one, and regenerating gives a fresh link. */
export const ExpiredThenRegenerated: Story = {
  render: (args, context) => {
    const { delayMs } = (context.parameters as PanelStoryParameters).pacing;
    // The first link lives a few ticks so the expiry is seen; the regenerated one lives an hour.
    const recording = { ...RECORDINGS.completed, bundle: [bundle(delayMs * 40), bundle(HOUR_MS)] };
    return <PanelStory {...args} recording={recording} delayMs={delayMs} />;
  },
  play: async ({ canvasElement }) => {
    await start(canvasElement);
    await waitForPanelStatus(canvasElement, 'completed');
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Get bundle link' }));
    await canvas.findByRole('link', { name: 'Download bundle (.tar.gz)' }, { timeout: 5000 });
    await waitFor(() => expect(canvas.getByText('The link has expired.')).toBeInTheDocument(), {
      timeout: STREAM_TIMEOUT_MS,
    });
    await expect(canvas.queryByRole('link', { name: 'Download bundle (.tar.gz)' })).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: 'Generate a new link' }));
    await canvas.findByRole('link', { name: 'Download bundle (.tar.gz)' }, { timeout: 5000 });
    // The story's clock stands still once an hour-long link is issued (static-export-fetch.ts).
    await expect(canvas.getByText('Link expires in 1:00:00')).toBeInTheDocument();
  },
};

/** The job failed: the reason, and Retry to start again. */
export const Failed: Story = {
  parameters: { recording: RECORDINGS.failed },
  play: async ({ canvasElement }) => {
    await start(canvasElement);
    await waitForPanelStatus(canvasElement, 'failed');
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert')).toHaveTextContent(
      'The export failed: guides/theming.mdx: unknown MDX component <Tabs> on line 42',
    );
    await expect(canvas.getByRole('button', { name: 'Retry' })).toBeEnabled();
  },
};
