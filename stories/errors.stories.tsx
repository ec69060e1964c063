/**
 * Every row of the widget's error table (docs/errors.md), each reached the way it happens: the
 * "server" answers 401, 403 or 429, the connection fails or drops mid-answer, the key is an admin
 * key, or the deployment is air-gapped.
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
import { ask, hooks, rootOf, waitForLastAnswerShown, waitForSelector, waitForStatus } from './support/play';

const meta = {
  title: 'DocsAssistant/Errors',
  args: assistantArgs,
  argTypes: assistantArgTypes,
  parameters: { controls: assistantControls },
  render: renderAssistant,
} satisfies Meta<AssistantArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Asks, waits for the error banner, and checks its kind, its words and whether it offers Retry. */
async function expectErrorAfterAsking(
  canvasElement: HTMLElement,
  kind: string,
  text: RegExp,
  retry: boolean,
): Promise<HTMLElement> {
  await ask(canvasElement, QUESTIONS.short);
  await waitForStatus(canvasElement, 'error');
  const banner = await waitForSelector(canvasElement, '[data-docs-assistant="error"]');
  await expect(banner).toHaveAttribute('data-error-kind', kind);
  await expect(banner).toHaveAttribute('role', 'alert');
  await expect(banner.textContent).toMatch(text);
  if (retry) await expect(within(banner).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  else await expect(within(banner).queryByRole('button', { name: 'Retry' })).toBeNull();
  // Nothing the reader typed is lost: the question stays in the conversation.
  await expect(hooks(canvasElement, 'message')[0]?.textContent).toContain(QUESTIONS.short);
  return banner;
}

export const Unauthorized401: Story = {
  parameters: { replies: [replies.unauthorized()] },
  play: async ({ canvasElement }) => {
    await expectErrorAfterAsking(canvasElement, 'auth', /assistant key was rejected/, false);
  },
};

export const Forbidden403: Story = {
  parameters: { replies: [replies.forbidden()] },
  play: async ({ canvasElement }) => {
    await expectErrorAfterAsking(canvasElement, 'auth', /assistant key was rejected/, false);
  },
};

/** 429 with `Retry-After: 30`: the banner says how long to wait; Retry shows once the wait is over. */
export const RateLimited429: Story = {
  parameters: { replies: [replies.rateLimited()] },
  play: async ({ canvasElement }) => {
    await expectErrorAfterAsking(canvasElement, 'rate-limit', /Try again in 30 seconds/, false);
  },
};

/** The request never gets a response (offline, DNS, CORS). Retry answers the second time. */
export const NetworkFailure: Story = {
  parameters: { replies: [replies.networkFailure()] },
  play: async ({ canvasElement }) => {
    await expectErrorAfterAsking(canvasElement, 'network', /Couldn’t reach the assistant/, true);
  },
};

/** The connection drops after part of the answer: the partial answer is kept. */
export const StreamBrokenMidAnswer: Story = {
  parameters: { replies: [replies.dropped()] },
  play: async ({ canvasElement }) => {
    await expectErrorAfterAsking(canvasElement, 'stream', /answer was cut off/, true);
    await waitForLastAnswerShown(canvasElement, /Theming the widget/);
  },
};

/** The server sends an error part (`3:`) mid-answer: same banner, partial answer kept. */
export const StreamErrorPart: Story = {
  parameters: { replies: [replies.errorPart()] },
  play: async ({ canvasElement }) => {
    await expectErrorAfterAsking(canvasElement, 'stream', /answer was cut off/, true);
    await waitForLastAnswerShown(canvasElement, /Theming the widget/);
  },
};

/** Retry after a failed request: the second reply is a real answer. */
export const RetryAfterNetworkFailure: Story = {
  parameters: { replies: [replies.networkFailure(), replies.short()] },
  play: async ({ canvasElement }) => {
    await expectErrorAfterAsking(canvasElement, 'network', /Couldn’t reach the assistant/, true);
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Retry' }));
    await waitForStatus(canvasElement, 'ready');
    await waitFor(() => expect(hooks(canvasElement, 'error')).toHaveLength(0), { timeout: 20_000 });
    await waitForLastAnswerShown(canvasElement, /base URL/);
  },
};

/** An admin key (`svc_…`) in the browser: refused before anything is sent. */
export const AdminKeyRefused: Story = {
  args: { apiKey: 'svc_admin_secret_never_in_a_browser' },
  play: async ({ canvasElement }) => {
    const banner = await waitForSelector(canvasElement, '[data-docs-assistant="error"]');
    await expect(banner).toHaveAttribute('data-error-kind', 'config');
    await expect(banner.textContent).toMatch(/not set up correctly/);
    await expect(canvasElement.querySelector('[data-docs-assistant="error-detail"]')?.textContent).toMatch(
      /svc_dsc_/,
    );
    await expect(within(canvasElement).getByRole('button', { name: 'Send' })).toBeDisabled();
    await expect(within(canvasElement).queryByRole('list', { name: 'Try asking' })).toBeNull();
  },
};

/** Air-gapped, `whenUnavailable="message"`: the panel says the assistant is not available. */
export const AirGappedMessage: Story = {
  args: { deployment: 'air-gapped', whenUnavailable: 'message' },
  play: async ({ canvasElement }) => {
    const root = rootOf(canvasElement);
    await expect(root).toHaveAttribute('data-unavailable', '');
    const banner = await waitForSelector(canvasElement, '[data-docs-assistant="error"]');
    await expect(banner).toHaveAttribute('data-error-kind', 'unavailable');
    await expect(banner.textContent).toMatch(/not available on this deployment/);
    await expect(canvasElement.querySelector('[data-docs-assistant="composer"]')).toBeNull();
  },
};

/** Air-gapped, `whenUnavailable="hidden"`: nothing renders at all. */
export const AirGappedHidden: Story = {
  args: { deployment: 'air-gapped', whenUnavailable: 'hidden' },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelector('[data-docs-assistant]')).toBeNull();
  },
};
