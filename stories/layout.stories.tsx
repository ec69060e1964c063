/**
 * Where the widget sits and how it looks: the three variants, light, dark and a custom theme
 * through `--da-*` variables, right-to-left pages and a phone-sized viewport.
 */
import type { Decorator, Meta, StoryObj } from '@storybook/react-vite';
import type { CSSProperties } from 'react';
import { expect, within } from 'storybook/test';
import { ARABIC_LABELS as arabicLabels, HEBREW_ANSWER, QUESTIONS, replies } from './support/conversations';
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
  title: 'DocsAssistant/Layout and theme',
  args: assistantArgs,
  argTypes: assistantArgTypes,
  parameters: { controls: assistantControls, replies: [replies.long()] },
  render: renderAssistant,
} satisfies Meta<AssistantArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Asks the long question and waits for the whole answer. */
async function askLong(canvasElement: HTMLElement) {
  await ask(canvasElement, QUESTIONS.long);
  await waitForAnswer(canvasElement, /bring your own CSS/);
}

/** A page background to match the dark theme, so the panel is seen as it would be on a dark site. */
const darkPage: Decorator = (Story) => (
  <div style={{ background: '#0b0d12', color: '#e6e8ee', padding: '1rem', minHeight: '100vh' }}>
    <Story />
  </div>
);

/** The launcher and a non-modal dialog over a docs page. */
export const Floating: Story = {
  args: { variant: 'floating', defaultOpen: true, collectors: { selection: true, codeBlocks: true } },
  parameters: { page: true, layout: 'fullscreen' },
  decorators: [fullPage],
  play: async ({ canvasElement }) => {
    await askLong(canvasElement);
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('dialog', { name: 'Ask the docs' })).toHaveAttribute('data-state', 'open');
    await expect(canvas.getByRole('button', { name: 'Ask AI', expanded: true })).toBeInTheDocument();
  },
};

/** The launcher, closed: what a reader sees before opening it. */
export const FloatingClosed: Story = {
  args: { variant: 'floating', shortcut: 'mod+i' },
  parameters: { page: true, layout: 'fullscreen' },
  decorators: [fullPage],
  play: async ({ canvasElement }) => {
    const launcher = within(canvasElement).getByRole('button', { name: 'Ask AI' });
    await expect(launcher).toHaveAttribute('aria-expanded', 'false');
    await expect(rootOf(canvasElement)).toHaveAttribute('data-state', 'closed');
    await expect(canvasElement.querySelector('[data-docs-assistant="panel"]')).toBeNull();
  },
};

/** A panel docked to the side of the page (an `aside`). */
export const SidePanel: Story = {
  args: { variant: 'side-panel', defaultOpen: true },
  parameters: { page: true, layout: 'fullscreen' },
  decorators: [fullPage],
  play: async ({ canvasElement }) => {
    await askLong(canvasElement);
    const panel = within(canvasElement).getByRole('complementary', { name: 'Ask the docs' });
    await expect(panel).toHaveAttribute('data-variant', 'side-panel');
  },
};

/** In the page, always open, with no launcher and no close button. */
export const Inline: Story = {
  play: async ({ canvasElement }) => {
    await askLong(canvasElement);
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('region', { name: 'Ask the docs' })).toHaveAttribute(
      'data-variant',
      'inline',
    );
    await expect(canvas.queryByRole('button', { name: 'Close' })).toBeNull();
    await expect(canvasElement.querySelector('[data-docs-assistant="launcher"]')).toBeNull();
  },
};

export const Light: Story = {
  args: { theme: 'light' },
  play: async ({ canvasElement }) => {
    await askLong(canvasElement);
    await expect(rootOf(canvasElement)).toHaveAttribute('data-theme', 'light');
  },
};

export const Dark: Story = {
  args: { theme: 'dark' },
  decorators: [darkPage],
  parameters: { layout: 'fullscreen' },
  play: async ({ canvasElement }) => {
    await askLong(canvasElement);
    await expect(rootOf(canvasElement)).toHaveAttribute('data-theme', 'dark');
  },
};

/** A brand's own look through the `--da-*` variables on the root (`style` goes there). */
const customTheme = {
  '--da-accent': '#7c3aed',
  '--da-accent-text': '#ffffff',
  '--da-focus-ring': '#7c3aed',
  '--da-user-bg': '#f3e8ff',
  '--da-bg': '#fdfcff',
  '--da-border': 'rgb(124 58 237 / 0.25)',
  '--da-code-bg': '#f5f0ff',
  '--da-radius': '18px',
  '--da-radius-sm': '10px',
  '--da-font': 'Georgia, "Times New Roman", serif',
} as CSSProperties;

export const CustomTheme: Story = {
  args: { style: customTheme, labels: { title: 'Ask Acme Docs' } },
  play: async ({ canvasElement }) => {
    await askLong(canvasElement);
    const root = rootOf(canvasElement);
    await expect(root.style.getPropertyValue('--da-accent')).toBe('#7c3aed');
    await expect(within(canvasElement).getByRole('heading', { name: 'Ask Acme Docs' })).toBeInTheDocument();
  },
};

/** Arabic: `dir="rtl"` on the root, Arabic labels, question and answer. */
export const RightToLeftArabic: Story = {
  args: {
    dir: 'rtl',
    labels: arabicLabels,
    starterQuestions: ['كيف أثبّت الحزمة؟', 'كيف أغير الألوان؟'],
  },
  parameters: { replies: [replies.rtl()] },
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.rtl, arabicLabels.inputLabel);
    await waitForAnswer(canvasElement, /--da-accent/);
    await expect(rootOf(canvasElement)).toHaveAttribute('dir', 'rtl');
    await expect(
      within(canvasElement).getByRole('heading', { name: arabicLabels.title }),
    ).toBeInTheDocument();
    await expect(canvasElement.querySelector('[data-docs-assistant="source"]')?.textContent).toMatch(
      /السمات/,
    );
  },
};

const hebrewLabels = {
  title: 'שאלו את התיעוד',
  inputLabel: 'השאלה שלך',
  inputPlaceholder: 'שאלו שאלה על התיעוד…',
  send: 'שליחה',
  stop: 'עצירה',
  newConversation: 'שיחה חדשה',
  starterQuestionsHeading: 'נסו לשאול',
  copy: 'העתקת התשובה',
};

/** Hebrew, with the page itself right-to-left (`dir` on an ancestor). */
export const RightToLeftHebrew: Story = {
  args: { labels: hebrewLabels, starterQuestions: [QUESTIONS.hebrew] },
  parameters: { replies: [replies.hebrew()] },
  decorators: [
    (Story) => (
      <div dir="rtl" lang="he">
        <Story />
      </div>
    ),
  ],
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.hebrew, hebrewLabels.inputLabel);
    await waitForAnswer(canvasElement, HEBREW_ANSWER.slice(0, 8));
    await expect(
      within(canvasElement).getByRole('heading', { name: hebrewLabels.title }),
    ).toBeInTheDocument();
  },
};

/**
 * A phone: below 640px the floating dialog takes the whole screen. In Storybook pick the "Small
 * mobile" viewport (set here); the screenshot script opens it at 375×667.
 */
export const Mobile: Story = {
  args: { variant: 'floating', defaultOpen: true },
  parameters: { page: true, layout: 'fullscreen', replies: [replies.toolResult()] },
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  decorators: [fullPage],
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.search);
    await waitForAnswer(canvasElement, /retrievalPageSize/);
    await expect(within(canvasElement).getByRole('dialog', { name: 'Ask the docs' })).toBeInTheDocument();
    await expect(canvasElement.querySelectorAll('[data-docs-assistant="source"]')).toHaveLength(3);
  },
};
