/**
 * The consent gate and page starters. The notice stories let the host decide (`granted`), so a
 * story's acceptance is never remembered in the browser's storage and the notice shows every time.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { replies } from './support/conversations';
import {
  type AssistantArgs,
  type AssistantStoryParameters,
  assistantArgs,
  assistantArgTypes,
  assistantControls,
  renderAssistant,
} from './support/meta';
import { ask, waitForAnswer } from './support/play';
import { CONNECTION, StoryAssistant } from './support/story-assistant';

const meta = {
  title: 'DocsAssistant/Consent and page starters',
  args: assistantArgs,
  argTypes: assistantArgTypes,
  parameters: { controls: assistantControls },
  render: renderAssistant,
} satisfies Meta<AssistantArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A host page whose own consent manager records the reader's choice (here: in memory). */
function ConsentHost({ args, parameters }: { args: AssistantArgs; parameters: AssistantStoryParameters }) {
  const [granted, setGranted] = useState(false);
  const consent = typeof args.consent === 'object' ? args.consent : {};
  return (
    <StoryAssistant
      {...CONNECTION}
      {...args}
      consent={{ ...consent, granted, onChange: setGranted }}
      replies={parameters.replies ?? [replies.short()]}
      pacingMs={parameters.pacing.delayMs}
    />
  );
}

const renderConsent: Story['render'] = (args, context) => (
  <ConsentHost args={args} parameters={context.parameters as AssistantStoryParameters} />
);

/** The default notice: what is sent and kept, and that nothing is until the reader accepts. */
export const ConsentNotice: Story = {
  args: { consent: {} },
  render: renderConsent,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('button', { name: 'Accept and continue' }, { timeout: 5000 });
    await expect(canvas.queryByRole('textbox')).toBeNull();
  },
};

/** The host's own words, its privacy policy link and button text. */
export const ConsentNoticeCustom: Story = {
  args: {
    consent: {
      notice:
        'Acme Docs AI sends your questions to our assistant service in the EU. Conversations stay in this browser.',
      linkHref: 'https://example.com/privacy',
      linkText: 'How Acme uses your data',
      acceptText: 'Agree and ask',
    },
  },
  render: renderConsent,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('link', { name: 'How Acme uses your data' }, { timeout: 5000 });
  },
};

/** Accepting opens the conversation: the reader asks and the answer streams. */
export const ConsentAccepted: Story = {
  args: { consent: {} },
  render: renderConsent,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(
      await canvas.findByRole('button', { name: 'Accept and continue' }, { timeout: 5000 }),
    );
    await ask(canvasElement, 'How do I install it?');
    await waitForAnswer(canvasElement, /npm install docs-assistant/);
  },
};

const BY_SECTION = {
  '/': ['How do I install it?', 'How do I change the colors?'],
  '/api': ['How do I get an API key?', 'What are the rate limits?'],
  '/api/webhooks': ['How do I verify a webhook signature?'],
};

/** Starters by path prefix: on `/api/webhooks/retries` the longest prefix, `/api/webhooks`, wins. */
export const PageStartersByPrefix: Story = {
  args: { starterQuestions: BY_SECTION, currentPath: '/api/webhooks/retries' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('button', { name: 'How do I verify a webhook signature?' }, { timeout: 5000 });
    await waitFor(() => expect(canvas.queryByRole('button', { name: 'How do I install it?' })).toBeNull());
  },
};

/** Starters from a function of the page's path. */
export const PageStartersFromFunction: Story = {
  args: {
    currentPath: '/guides/theming',
    starterQuestions: (path: string) =>
      path.startsWith('/guides/theming')
        ? ['How do I use my brand colors?', 'Does it follow dark mode?', 'Can I drop the default styles?']
        : ['How do I install it?'],
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('button', { name: 'Does it follow dark mode?' }, { timeout: 5000 });
  },
};
