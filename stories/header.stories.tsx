/**
 * The panel's header as a reader meets it: the title on one line, "New conversation" and "History"
 * as icon buttons, the "More actions" menu with the rest (copy the conversation, search the docs,
 * share, contact support), Close always last. Every feature is on (the service shares, support is a
 * `mailto:`), so the header holds as much as it ever does. In a browser the play functions also
 * check where things are: every header control inside the panel and the viewport, none over
 * another, the title on one line (jsdom has no layout, so there they check roles and order only).
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { labelsAr } from '../packages/docs-assistant/src/labels/ar';
import { labelsDe } from '../packages/docs-assistant/src/labels/de';
import { defaultLabels } from '../packages/docs-assistant/src/labels/defaults';
import { withLabels } from '../packages/docs-assistant/src/labels/merge';
import { QUESTIONS, replies } from './support/conversations';
import {
  type AssistantArgs,
  assistantArgs,
  assistantArgTypes,
  assistantControls,
  fullPage,
  renderAssistant,
} from './support/meta';
import { ask, hooks, waitForAnswer } from './support/play';

const meta = {
  title: 'DocsAssistant/Header and menu',
  args: {
    ...assistantArgs,
    variant: 'floating',
    defaultOpen: true,
    support: 'mailto:docs-team@example.com',
    // A base URL of their own: the widget asks each service's /health once per page, and these
    // stories' service shares conversations.
    baseUrl: 'https://assistant.example.com',
  },
  argTypes: assistantArgTypes,
  parameters: {
    controls: assistantControls,
    replies: [replies.sourceParts()],
    capabilities: ['share'],
    page: true,
    layout: 'fullscreen',
  },
  decorators: [fullPage],
  render: renderAssistant,
} satisfies Meta<AssistantArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** The packs merged over the defaults, as the widget reads them. */
const DE = withLabels(defaultLabels, labelsDe);
const AR = withLabels(defaultLabels, labelsAr);

/**
 * What the "More actions" menu offers once a conversation is answered, in its order: Share because
 * these stories' service lists `share` in its /health and gave the thread its key.
 */
const MENU_ACTIONS = ['copy-conversation', 'search-view', 'share', 'contact-support'];

function headerOf(canvasElement: HTMLElement): HTMLElement {
  const [header] = hooks(canvasElement, 'header');
  if (!header) throw new Error('The panel has no [data-docs-assistant="header"].');
  return header;
}

/** The header's own controls, in order: its icon buttons, "More", Close. */
const headerControls = (header: HTMLElement) =>
  Array.from(header.querySelectorAll<HTMLElement>(':scope > button, :scope > * > button[data-action]'));

/**
 * Where the header's controls are, in a browser: each wholly inside the panel and the viewport,
 * no two overlapping, the title on one line. jsdom lays nothing out (every box is 0×0): there the
 * check has nothing to measure and says so by returning false.
 */
function checkGeometry(canvasElement: HTMLElement): boolean {
  const header = headerOf(canvasElement);
  const panel = hooks(canvasElement, 'panel')[0]!;
  const box = panel.getBoundingClientRect();
  if (box.width === 0) return false;
  const view = document.documentElement;
  const controls = headerControls(header).map((control) => ({
    name: control.getAttribute('aria-label') ?? control.dataset.action,
    rect: control.getBoundingClientRect(),
  }));
  for (const { name, rect } of controls) {
    const inside =
      rect.left >= Math.max(box.left, 0) - 0.5 &&
      rect.right <= Math.min(box.right, view.clientWidth) + 0.5 &&
      rect.top >= Math.max(box.top, 0) - 0.5 &&
      rect.bottom <= Math.min(box.bottom, view.clientHeight) + 0.5;
    expect(inside, `${name} at x=${rect.left}..${rect.right} lies inside the panel and the viewport`).toBe(
      true,
    );
    expect(rect.width, `${name} is at least 24 px wide`).toBeGreaterThanOrEqual(24);
    expect(rect.height, `${name} is at least 24 px high`).toBeGreaterThanOrEqual(24);
  }
  for (const [at, a] of controls.entries()) {
    for (const b of controls.slice(at + 1)) {
      const overlap =
        Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left) > 0.5 &&
        Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top) > 0.5;
      expect(overlap, `${a.name} and ${b.name} overlap`).toBe(false);
    }
  }
  const title = header.querySelector<HTMLElement>('[data-docs-assistant="title"]')!;
  const lineHeight = Number.parseFloat(getComputedStyle(title).lineHeight);
  expect(title.getBoundingClientRect().height, 'the title is on one line').toBeLessThan(lineHeight * 1.5);
  return true;
}

/** The header after one answer: icon buttons, "More" and Close, in that order, Close last. */
async function checkHeader(canvasElement: HTMLElement, labels: { close: string; moreActions: string }) {
  const header = headerOf(canvasElement);
  const actions = headerControls(header).map((control) => control.dataset.action);
  await expect(actions).toEqual(['new-conversation', 'history', 'more', 'close']);
  await expect(within(header).getByRole('button', { name: labels.close })).toBeVisible();
  await expect(within(header).getByRole('button', { name: labels.moreActions })).toHaveAttribute(
    'aria-haspopup',
    'menu',
  );
  checkGeometry(canvasElement);
}

/** Opens "More actions" and waits for its actions. */
async function openMenu(canvasElement: HTMLElement, label: string) {
  const header = headerOf(canvasElement);
  await userEvent.click(within(header).getByRole('button', { name: label }));
  const menu = await within(canvasElement).findByRole('menu', { name: label });
  await waitFor(
    () =>
      expect(
        Array.from(menu.querySelectorAll<HTMLElement>('[role^="menuitem"]')).map(
          (item) => item.dataset.action,
        ),
      ).toEqual(MENU_ACTIONS),
    { timeout: 5000 },
  );
  return menu;
}

/** After one answer, with every feature on: the header a reader sees most. */
export const Conversation: Story = {
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.short);
    await waitForAnswer(canvasElement, /Getting started/);
    await checkHeader(canvasElement, { close: 'Close', moreActions: 'More actions' });
    await expect(
      within(headerOf(canvasElement)).getByRole('button', { name: 'New conversation' }),
    ).toBeEnabled();
  },
};

/** Before any question: nothing to start afresh, and only "Search the docs" in the menu. */
export const EmptyPanel: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('textbox', { name: 'Your question' }, { timeout: 5000 });
    const header = headerOf(canvasElement);
    await expect(within(header).getByRole('button', { name: 'New conversation' })).toBeDisabled();
    await expect(within(header).getByRole('heading', { name: 'Ask the docs' })).toBeInTheDocument();
    checkGeometry(canvasElement);
  },
};

/**
 * "More actions" as a WAI-ARIA menu: ArrowDown opens it on its first item, the arrows move and
 * wrap, Escape closes it and gives focus back to the button; then it is opened again (the state
 * shown) with every action of the conversation.
 */
export const MenuOpen: Story = {
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.short);
    await waitForAnswer(canvasElement, /Getting started/);
    const more = within(headerOf(canvasElement)).getByRole('button', { name: 'More actions' });
    more.focus();
    await userEvent.keyboard('{ArrowDown}');
    const menu = await within(canvasElement).findByRole('menu', { name: 'More actions' });
    const items = Array.from(menu.querySelectorAll<HTMLElement>('[role^="menuitem"]'));
    await waitFor(() => expect(document.activeElement).toBe(items[0]));
    await userEvent.keyboard('{ArrowUp}');
    await expect(document.activeElement).toBe(items[items.length - 1]);
    await userEvent.keyboard('{Escape}');
    await expect(within(canvasElement).queryByRole('menu')).toBeNull();
    await expect(document.activeElement).toBe(more);
    await expect(hooks(canvasElement, 'panel')[0]).toHaveAttribute('data-state', 'open');
    const opened = await openMenu(canvasElement, 'More actions');
    await expect(within(opened).getByRole('menuitem', { name: 'Contact support' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^mailto:docs-team@example\.com\?/),
    );
    await expect(more).toHaveAttribute('aria-expanded', 'true');
    checkGeometry(canvasElement);
  },
};

/** The German pack: the longest labels of the widget, the menu open. */
export const GermanLabels: Story = {
  args: { labels: labelsDe, lang: 'de' },
  play: async ({ canvasElement }) => {
    await ask(canvasElement, 'Wie installiere ich das Paket?', DE.inputLabel);
    await waitForAnswer(canvasElement, /Getting started/);
    await checkHeader(canvasElement, DE);
    const menu = await openMenu(canvasElement, DE.moreActions);
    await expect(within(menu).getByRole('menuitem', { name: DE.copyConversation })).toBeVisible();
    checkGeometry(canvasElement);
  },
};

/** Arabic, right to left: Close on the left, the menu opening towards the panel, open. */
export const RightToLeft: Story = {
  args: { labels: labelsAr, dir: 'rtl', starterQuestions: ['كيف أثبّت الحزمة؟'] },
  parameters: { replies: [replies.rtl()] },
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.rtl, AR.inputLabel);
    await waitForAnswer(canvasElement, /--da-accent/);
    await checkHeader(canvasElement, AR);
    await openMenu(canvasElement, AR.moreActions);
    const header = headerOf(canvasElement);
    const close = within(header).getByRole('button', { name: AR.close });
    const title = within(header).getByRole('heading', { name: AR.title });
    if (checkGeometry(canvasElement)) {
      await expect(close.getBoundingClientRect().right).toBeLessThan(title.getBoundingClientRect().left);
    }
  },
};

/**
 * The narrowest phone (320 px, Storybook's "Small mobile"): the panel takes the screen, and Close
 * stays in reach beside the other actions.
 */
export const Narrow320: Story = {
  globals: { viewport: { value: 'mobile1', isRotated: false } },
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.short);
    await waitForAnswer(canvasElement, /Getting started/);
    await checkHeader(canvasElement, { close: 'Close', moreActions: 'More actions' });
  },
};
