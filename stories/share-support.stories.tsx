/**
 * Sharing and a way to a human. "Shared transcript" is a page opened from a share link
 * (`?assistant-share=<id>`, set for the story and taken out when it unmounts): the read-only
 * conversation with "Continue as a new conversation". "Support prompt" is an answer that cited no
 * page of the docs, with "Contact support" as a `mailto:` link carrying the conversation.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useState } from 'react';
import { expect, within } from 'storybook/test';
import { DocsAssistant } from '../packages/docs-assistant/src/index';
import { QUESTIONS, SHORT_ANSWER } from './support/conversations';
import {
  type AssistantArgs,
  assistantArgs,
  assistantArgTypes,
  assistantControls,
  renderAssistant,
} from './support/meta';
import { ask, waitForAnswer } from './support/play';
import { CONNECTION } from './support/story-assistant';

const meta = {
  title: 'DocsAssistant/Share and support',
  args: assistantArgs,
  argTypes: assistantArgTypes,
  parameters: { controls: assistantControls },
  render: renderAssistant,
} satisfies Meta<AssistantArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

const SHARE_ID = 'shr_storybookSharedConversation0001';

/** What the service answers for the share (`GET …/shares/{id}`) and its health check. */
const TRANSCRIPT = {
  shareId: SHARE_ID,
  createdAt: '2026-11-25T05:00:00.000Z',
  title: QUESTIONS.short,
  messages: [
    { role: 'user', content: QUESTIONS.short },
    {
      role: 'assistant',
      content: SHORT_ANSWER,
      sources: [
        { title: 'Installation', path: '/guides/install', url: 'https://docs.example.com/guides/install' },
      ],
    },
  ],
};

const shareFetch: typeof fetch = async (input) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
  if (url.endsWith('/health')) return json({ ok: true, capabilities: ['share'] });
  if (url.includes(`/shares/${SHARE_ID}`)) return json(TRANSCRIPT);
  return new Response('{"error":"not in this story","code":"not_found"}', { status: 404 });
};

/** The page as opened from a share link: the parameter is in the address while the story shows. */
function SharedPage(args: AssistantArgs) {
  useState(() => {
    const url = new URL(location.href);
    url.searchParams.set('assistant-share', SHARE_ID);
    history.replaceState(history.state, '', url.href);
  });
  useEffect(
    () => () => {
      const url = new URL(location.href);
      url.searchParams.delete('assistant-share');
      history.replaceState(history.state, '', url.href);
    },
    [],
  );
  return (
    <div style={{ maxWidth: 440 }}>
      <DocsAssistant {...CONNECTION} {...args} storage="memory" fetch={shareFetch} />
    </div>
  );
}

/** A shared conversation, read-only, with "Continue as a new conversation" and Close. */
export const SharedTranscript: Story = {
  render: (args) => <SharedPage {...args} />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole(
      'heading',
      { name: `Shared conversation: ${QUESTIONS.short}` },
      { timeout: 5000 },
    );
    await expect(canvas.getByRole('button', { name: 'Continue as a new conversation' })).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'Installation' })).toHaveAttribute(
      'href',
      'https://docs.example.com/guides/install',
    );
  },
};

/** An answer that cited no page of the docs: "Contact support" mails the conversation. */
export const SupportPrompt: Story = {
  args: { support: 'mailto:docs-team@example.com' },
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.short);
    await waitForAnswer(canvasElement, /npm install docs-assistant/);
    const prompt = await within(canvasElement).findByText(
      'The docs may not cover this. A person can help.',
      {},
      { timeout: 5000 },
    );
    const link = within(prompt.parentElement!).getByRole('link', { name: 'Contact support' });
    await expect(link.getAttribute('href')).toMatch(/^mailto:docs-team@example\.com\?subject=/);
  },
};
