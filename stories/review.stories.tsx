/**
 * Every finished state side by side, for a visual review: inline panels in a grid, each asking its
 * question through the imperative handle (`ref.ask`) and streaming its recorded answer.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { type CSSProperties, useEffect, useRef } from 'react';
import { expect, waitFor } from 'storybook/test';
import type { DocsAssistantHandle } from '../packages/docs-assistant/src/index';
import { ARABIC_LABELS, QUESTIONS, replies, STARTER_QUESTIONS } from './support/conversations';
import type { AssistantStoryParameters } from './support/meta';
import { STREAM_TIMEOUT_MS } from './support/play';
import type { Reply } from './support/replay';
import { CONNECTION, StoryAssistant, type StoryAssistantProps } from './support/story-assistant';

interface Cell {
  name: string;
  /** Asked on mount; none leaves the conversation empty. */
  question?: string;
  replies: Reply[];
  /** The root's `data-status` once the cell has finished. */
  done: 'ready' | 'error';
  /** The panel's title. @default the cell's name */
  title?: string;
  props?: Partial<StoryAssistantProps>;
}

const CELLS: Cell[] = [
  { name: 'Empty, with starter questions', replies: [replies.short()], done: 'ready' },
  { name: 'Short answer', question: QUESTIONS.short, replies: [replies.short()], done: 'ready' },
  { name: 'Long answer', question: QUESTIONS.long, replies: [replies.long()], done: 'ready' },
  {
    name: 'Reasoning, finished',
    question: QUESTIONS.reasoning,
    replies: [replies.reasoning()],
    done: 'ready',
  },
  {
    name: 'Search result and sources',
    question: QUESTIONS.search,
    replies: [replies.toolResult()],
    done: 'ready',
  },
  { name: 'Source parts', question: QUESTIONS.short, replies: [replies.sourceParts()], done: 'ready' },
  {
    name: 'Suggestions',
    question: 'Can I keep conversations between visits?',
    replies: [replies.suggestions()],
    done: 'ready',
  },
  { name: 'Rejected key (401)', question: QUESTIONS.short, replies: [replies.unauthorized()], done: 'error' },
  { name: 'Rate limited (429)', question: QUESTIONS.short, replies: [replies.rateLimited()], done: 'error' },
  { name: 'Network failure', question: QUESTIONS.short, replies: [replies.networkFailure()], done: 'error' },
  { name: 'Stream broken mid-answer', question: QUESTIONS.long, replies: [replies.dropped()], done: 'error' },
  {
    name: 'Admin key refused',
    replies: [replies.short()],
    done: 'ready',
    props: { apiKey: 'svc_admin_secret_never_in_a_browser' },
  },
  {
    name: 'Air-gapped',
    replies: [replies.short()],
    done: 'ready',
    props: { deployment: 'air-gapped' },
  },
  {
    name: 'Dark theme',
    question: QUESTIONS.long,
    replies: [replies.long()],
    done: 'ready',
    props: { theme: 'dark' },
  },
  {
    name: 'Custom theme',
    question: QUESTIONS.short,
    replies: [replies.sourceParts()],
    done: 'ready',
    props: {
      style: { '--da-accent': '#7c3aed', '--da-user-bg': '#f3e8ff', '--da-radius': '18px' } as CSSProperties,
    },
  },
  {
    name: 'Right to left',
    title: 'من اليمين إلى اليسار',
    question: QUESTIONS.rtl,
    replies: [replies.rtl()],
    done: 'ready',
    props: { dir: 'rtl', labels: ARABIC_LABELS },
  },
];

function ReviewCell({ cell, pacingMs }: { cell: Cell; pacingMs: number }) {
  const ref = useRef<DocsAssistantHandle>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current || !cell.question) return;
    asked.current = true;
    ref.current?.ask(cell.question);
  }, [cell.question]);
  // Each panel's title names its state: one landmark per cell, each with its own name.
  const labels = { ...cell.props?.labels, title: cell.title ?? cell.name };
  return (
    <div data-review-cell={cell.name} data-review-done={cell.done}>
      <StoryAssistant
        ref={ref}
        {...CONNECTION}
        variant="inline"
        theme="light"
        shortcut={false}
        collectors={false}
        starterQuestions={STARTER_QUESTIONS}
        replies={cell.replies}
        pacingMs={pacingMs}
        frameWidth={420}
        {...cell.props}
        style={{ '--da-inline-height': '460px', ...cell.props?.style } as CSSProperties}
        labels={labels}
      />
    </div>
  );
}

const meta = {
  title: 'DocsAssistant/Review',
  parameters: {
    layout: 'padded',
    controls: { disable: true },
  },
} satisfies Meta;

export default meta;
type Story = StoryObj<typeof meta>;

export const AllStates: Story = {
  render: (_args, context) => (
    <div
      style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(400px, 1fr))', gap: '1.5rem' }}
    >
      {CELLS.map((cell) => (
        <ReviewCell
          key={cell.name}
          cell={cell}
          pacingMs={(context.parameters as AssistantStoryParameters).pacing.delayMs}
        />
      ))}
    </div>
  ),
  play: async ({ canvasElement }) => {
    const figures = Array.from(canvasElement.querySelectorAll<HTMLElement>('[data-review-cell]'));
    await expect(figures).toHaveLength(CELLS.length);
    // Every cell ends in its own state: finished answers wholly on screen, or the error banner of
    // its kind.
    await waitFor(
      () => {
        for (const figure of figures) {
          const root = figure.querySelector('[data-docs-assistant="root"]');
          expect(root, figure.dataset.reviewCell).toHaveAttribute('data-status', figure.dataset.reviewDone);
          expect(figure.querySelector('[data-streaming]'), figure.dataset.reviewCell).toBeNull();
          // Its Markdown, rendered in the background, has caught up with the text received.
          expect(figure.querySelector('[data-pending]'), figure.dataset.reviewCell).toBeNull();
          expect(
            figure.querySelector('[data-docs-assistant="loading"]'),
            figure.dataset.reviewCell,
          ).toBeNull();
        }
      },
      { timeout: STREAM_TIMEOUT_MS },
    );
    const errorKinds = Array.from(canvasElement.querySelectorAll('[data-docs-assistant="error"]')).map((e) =>
      e.getAttribute('data-error-kind'),
    );
    await expect(errorKinds).toEqual(['auth', 'rate-limit', 'network', 'stream', 'config', 'unavailable']);
  },
};
