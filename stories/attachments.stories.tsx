/**
 * Attachments (`attachments` prop) and the `modal` variant: files attached as chips (an image with
 * its preview), a file refused with the limit named, a question sent with a file; the centred modal
 * dialog, and the modal following a host page's own dark mode (`theme: { followHost }`).
 */
import type { Decorator, Meta, StoryObj } from '@storybook/react-vite';
import { useLayoutEffect } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { QUESTIONS, replies } from './support/conversations';
import {
  type AssistantArgs,
  assistantArgs,
  assistantArgTypes,
  assistantControls,
  fullPage,
  renderAssistant,
} from './support/meta';
import { ask, rootOf, waitForAnswer } from './support/play';

const meta = {
  title: 'DocsAssistant/Attachments and modal',
  args: { ...assistantArgs, attachments: true },
  argTypes: assistantArgTypes,
  parameters: { controls: assistantControls },
  render: renderAssistant,
} satisfies Meta<AssistantArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

// A 4×4 PNG (a blue square).
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGNQTX4NRwzEcQBO0hcxU+9NfQAAAABJRU5ErkJggg==';

const pngFile = () =>
  new File([Uint8Array.from(atob(PNG_BASE64), (c) => c.charCodeAt(0))], 'screenshot.png', {
    type: 'image/png',
  });
const textFile = () =>
  new File(['theme: dark\naccent: "#2563eb"\n'], 'docs-assistant.yaml', { type: 'application/x-yaml' });

async function attach(canvasElement: HTMLElement, files: File[], count: number) {
  const canvas = within(canvasElement);
  await userEvent.upload(await canvas.findByLabelText('Attach files'), files);
  await waitFor(
    () => expect(canvasElement.querySelectorAll('[data-docs-assistant="attachment"]')).toHaveLength(count),
    { timeout: 5000 },
  );
}

/** An image (previewed) and a config file attached to the next question, each removable. */
export const Attachments: Story = {
  play: async ({ canvasElement }) => {
    await attach(canvasElement, [pngFile(), textFile()], 2);
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('list', { name: 'Attached files' })).toBeInTheDocument();
    await expect(canvas.getByRole('button', { name: 'Remove screenshot.png' })).toBeInTheDocument();
    await expect(canvasElement.querySelector('[data-docs-assistant="attachment-preview"]')).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/png;base64,/),
    );
  },
};

/** A file the widget cannot send: refused, with the reason announced; what was typed stays. */
export const AttachmentRefused: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.type(canvas.getByRole('textbox', { name: 'Your question' }), 'Why does it crash?');
    await userEvent.upload(canvas.getByLabelText('Attach files'), [
      new File(['MZ'], 'setup.exe', { type: 'application/octet-stream' }),
    ]);
    await waitFor(() => expect(canvas.getByRole('alert')).toHaveTextContent('“setup.exe” was not attached'));
    await expect(canvas.getByRole('textbox', { name: 'Your question' })).toHaveValue('Why does it crash?');
  },
};

/** A question sent with a file: the chips go with it. */
export const AttachmentSent: Story = {
  parameters: { replies: [replies.short()] },
  play: async ({ canvasElement }) => {
    await attach(canvasElement, [textFile()], 1);
    await ask(canvasElement, QUESTIONS.short);
    await waitForAnswer(canvasElement, /npm install docs-assistant/);
    await expect(canvasElement.querySelectorAll('[data-docs-assistant="attachment"]')).toHaveLength(0);
  },
};

/** The centred modal dialog, like a command palette, over a backdrop. */
export const Modal: Story = {
  args: { variant: 'modal', defaultOpen: true },
  parameters: { layout: 'fullscreen' },
  decorators: [fullPage],
  play: async ({ canvasElement }) => {
    const dialog = await within(canvasElement).findByRole('dialog', { name: 'Ask the docs' });
    await expect(dialog).toHaveAttribute('aria-modal', 'true');
    await expect(canvasElement.querySelector('[data-docs-assistant="backdrop"]')).not.toHaveAttribute(
      'hidden',
    );
  },
};

/** A host page in its own dark mode (`<html data-theme="dark">`), for as long as the story shows. */
const hostDarkMode: Decorator = (Story) => {
  useLayoutEffect(() => {
    const html = document.documentElement;
    html.setAttribute('data-theme', 'dark');
    return () => html.removeAttribute('data-theme');
  }, []);
  return (
    <div style={{ background: '#0b0d12', minHeight: '100vh' }}>
      <Story />
    </div>
  );
};

/** The modal following the host's dark-mode switch on `<html>`, not the system setting. */
export const ModalFollowingHostDarkMode: Story = {
  args: {
    variant: 'modal',
    defaultOpen: true,
    theme: { followHost: { attribute: 'data-theme', dark: 'dark' } },
  },
  parameters: { layout: 'fullscreen', replies: [replies.short()] },
  decorators: [hostDarkMode],
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(rootOf(canvasElement)).toHaveAttribute('data-theme', 'dark'));
    await ask(canvasElement, QUESTIONS.short);
    await waitForAnswer(canvasElement, /npm install docs-assistant/);
  },
};
