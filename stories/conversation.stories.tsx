/**
 * The conversation states of `<DocsAssistant>`, each reached by streaming a recorded answer through
 * the real widget. Interaction (typing a question) happens in `play`, which also checks the state.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { ToolInvocationProps } from '../packages/docs-assistant/src/parts/types';
import { QUESTIONS, REASONING_ANSWER, replies, SEARCH_ANSWER, SHORT_ANSWER } from './support/conversations';
import {
  type AssistantArgs,
  type AssistantStoryParameters,
  assistantArgs,
  assistantArgTypes,
  assistantControls,
  renderAssistant,
} from './support/meta';
import {
  ask,
  hooks,
  rootOf,
  waitForAnswer,
  waitForLastAnswerShown,
  waitForSelector,
  waitForStatus,
} from './support/play';

const meta = {
  title: 'DocsAssistant/Conversation',
  args: assistantArgs,
  argTypes: assistantArgTypes,
  parameters: { controls: assistantControls },
  render: renderAssistant,
} satisfies Meta<AssistantArgs>;

export default meta;
type Story = StoryObj<typeof meta>;

/** An empty conversation offers the starter questions; choosing one asks it. */
export const Empty: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByRole('textbox', { name: 'Your question' }, { timeout: 5000 });
    const starter = await canvas.findByRole('list', { name: 'Try asking' });
    await expect(within(starter).getAllByRole('button')).toHaveLength(3);
    await expect(hooks(canvasElement, 'message')).toHaveLength(0);
    await expect(canvas.getByRole('button', { name: 'Send' })).toBeDisabled();
  },
};

export const ShortAnswer: Story = {
  parameters: { replies: [replies.short()] },
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.short);
    await waitForAnswer(canvasElement, /your domain, assistant key and base URL/);
    const messages = hooks(canvasElement, 'message');
    await expect(messages.map((m) => m.dataset.role)).toEqual(['user', 'assistant']);
    await expect(within(messages[1]!).getByText('npm install docs-assistant')).toBeInTheDocument();
  },
};

/** Headings, an ordered and an unordered list, a table and two code blocks. */
export const LongAnswer: Story = {
  parameters: { replies: [replies.long()] },
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.long);
    await waitForAnswer(canvasElement, /bring your own CSS/);
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'Theming the widget' })).toBeInTheDocument();
    await expect(canvas.getByRole('table')).toBeInTheDocument();
    await expect(canvas.getAllByRole('row')).toHaveLength(4);
    await expect(canvas.getAllByRole('button', { name: 'Copy code' })).toHaveLength(2);
    await expect(canvas.getAllByRole('list').length).toBeGreaterThanOrEqual(2);
  },
};

/** Reasoning still arriving: the "Thinking…" disclosure is open and the answer has not started. */
export const ReasoningStreaming: Story = {
  parameters: { replies: [replies.reasoningStreaming()] },
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.reasoning);
    const part = await waitForSelector(canvasElement, '[data-part-type="reasoning"]');
    await waitFor(() => expect(part.textContent).toMatch(/admin keys/), { timeout: 20_000 });
    await expect(rootOf(canvasElement)).toHaveAttribute('data-status', 'streaming');
    await expect(part.textContent).toMatch(/Thinking…/);
  },
};

/** Reasoning after the answer: closed, and the answer below it. */
export const ReasoningDone: Story = {
  parameters: { replies: [replies.reasoning()] },
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.reasoning);
    await waitForAnswer(canvasElement, /admin key/);
    const part = canvasElement.querySelector<HTMLElement>('[data-part-type="reasoning"]')!;
    await expect(part.textContent).toMatch(/Reasoning/);
    await expect(canvasElement.textContent).toContain(REASONING_ANSWER.split('`')[0]!);
  },
};

const searchPart = '[data-part-type="tool-invocation"][data-tool-name="search"]';

/** The `search` call's arguments are still streaming in. */
export const SearchPartialCall: Story = {
  parameters: { replies: [replies.toolPartialCall()] },
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.search);
    const part = await waitForSelector(canvasElement, searchPart);
    await expect(part).toHaveAttribute('data-tool-state', 'partial-call');
    await expect(rootOf(canvasElement)).toHaveAttribute('data-status', 'streaming');
  },
};

/** The `search` call is complete and the docs search runs. */
export const SearchCall: Story = {
  parameters: { replies: [replies.toolCall()] },
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.search);
    const part = await waitForSelector(canvasElement, `${searchPart}[data-tool-state="call"]`);
    await expect(part.textContent).toMatch(/Searching the docs for “retrievalPageSize”/);
  },
};

/** partial-call → call → result, then the answer; the results become the sources. */
export const SearchResult: Story = {
  parameters: { replies: [replies.toolResult()] },
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.search);
    await waitForAnswer(canvasElement, SEARCH_ANSWER.slice(0, 20).replace(/`/g, ''));
    const part = canvasElement.querySelector<HTMLElement>(searchPart)!;
    await expect(part).toHaveAttribute('data-tool-state', 'result');
    await expect(part.textContent).toMatch(/Searched the docs for “retrievalPageSize”.*3 results/);
    await expect(hooks(canvasElement, 'source')).toHaveLength(3);
  },
};

/** Sources sent as `source` parts (`h:` lines) after the text. */
export const SourcesFromParts: Story = {
  parameters: { replies: [replies.sourceParts()] },
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.short);
    await waitForAnswer(canvasElement, /Getting started/);
    const sources = hooks(canvasElement, 'source');
    await expect(sources.map((s) => s.textContent)).toEqual([
      expect.stringContaining('Getting started'),
      expect.stringContaining('Props of DocsAssistant'),
    ]);
    await expect(sources[0]).toHaveAttribute('href', 'https://docs.example.com/getting-started');
  },
};

/** A fenced `suggestions` block at the end of the answer becomes follow-up links. */
export const Suggestions: Story = {
  parameters: { replies: [replies.suggestions()] },
  play: async ({ canvasElement }) => {
    await ask(canvasElement, 'Can I keep conversations between visits?');
    await waitForAnswer(canvasElement, /Threads and storage/);
    const suggestions = hooks(canvasElement, 'suggestion');
    await expect(suggestions.map((s) => s.textContent?.trim())).toEqual([
      'Threads and storage',
      'Props of DocsAssistant',
      'Headless hook',
    ]);
    await expect(canvasElement.querySelector('code.language-suggestions')).toBeNull();
  },
};

/** The reader selects a sentence in the page and presses the "Ask AI" button beside it. */
export const ContextFromSelection: Story = {
  args: { collectors: { selection: true, codeBlocks: false } },
  parameters: { page: true },
  play: async ({ canvasElement }) => {
    await within(canvasElement).findByRole('textbox', { name: 'Your question' }, { timeout: 5000 });
    const paragraph = canvasElement.querySelector<HTMLElement>('[data-story="paragraph"]')!;
    const selection = canvasElement.ownerDocument.getSelection()!;
    const range = canvasElement.ownerDocument.createRange();
    range.selectNodeContents(paragraph.firstChild!);
    selection.removeAllRanges();
    selection.addRange(range);
    const button = await within(canvasElement.ownerDocument.body).findByRole(
      'button',
      { name: 'Ask AI' },
      { timeout: 5000 },
    );
    await userEvent.click(button);
    const chip = await waitForSelector(canvasElement, '[data-docs-assistant="context"]');
    await expect(chip).toHaveAttribute('data-context-type', 'textSelection');
    await expect(chip.textContent).toMatch(/The assistant answers from your documentation/);
  },
};

/** The "Ask AI" button the collector puts on the page's code block. */
export const ContextFromCodeBlock: Story = {
  args: { collectors: { selection: false, codeBlocks: true } },
  parameters: { page: true },
  play: async ({ canvasElement }) => {
    await within(canvasElement).findByRole('textbox', { name: 'Your question' }, { timeout: 5000 });
    // The collector's one button shows over the block the pointer is on; the page's `pre` itself
    // is never changed.
    const block = await waitForSelector(canvasElement, 'pre:not([data-docs-assistant] pre)');
    await userEvent.hover(block);
    const button = await waitForSelector(
      canvasElement.ownerDocument.body,
      '[data-docs-assistant="ask-code"]',
    );
    await userEvent.click(button);
    const chip = await waitForSelector(canvasElement, '[data-docs-assistant="context"]');
    await expect(chip).toHaveAttribute('data-context-type', 'code');
    await expect(chip.textContent).toMatch(/npm install docs-assistant/);
  },
};

/** A conversation restored from storage when the page loads: nothing is sent. */
export const RestoredConversation: Story = {
  parameters: {
    restored: {
      threadId: 'thr_restored',
      messages: [
        {
          id: 'u1',
          role: 'user',
          content: QUESTIONS.short,
          parts: [{ type: 'text', text: QUESTIONS.short }],
        },
        {
          id: 'a1',
          role: 'assistant',
          content: SHORT_ANSWER,
          parts: [
            { type: 'text', text: SHORT_ANSWER },
            {
              type: 'source',
              source: { sourceType: 'url', id: 'src_1', url: '/getting-started', title: 'Getting started' },
            },
          ],
        },
      ],
    },
  } satisfies Partial<AssistantStoryParameters>,
  play: async ({ canvasElement }) => {
    await waitForSelector(canvasElement, '[data-docs-assistant="message"][data-role="assistant"]');
    const messages = hooks(canvasElement, 'message');
    await expect(messages.map((m) => m.dataset.role)).toEqual(['user', 'assistant']);
    await expect(hooks(canvasElement, 'source')).toHaveLength(1);
    await expect(within(canvasElement).queryByRole('list', { name: 'Try asking' })).toBeNull();
  },
};

/** The reader presses Stop while the answer streams: the partial answer stays, no error. */
export const StoppedMidStream: Story = {
  parameters: { replies: [replies.stoppable()] },
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.long);
    // Everything the stream sends before it holds (to "Your own colors go in"), drawn: in the
    // answer and none of it still waiting to render (`data-pending`), so Stop always cuts the
    // answer at the same word and the picture is the same every run.
    await waitFor(
      () => {
        const answer = hooks(canvasElement, 'message').find(
          (message) => message.dataset.role === 'assistant',
        );
        expect(answer?.textContent).toMatch(/Your own colors go in/);
        expect(answer?.querySelector('[data-pending]')).toBeNull();
      },
      { timeout: 20_000 },
    );
    await userEvent.click(within(canvasElement).getByRole('button', { name: 'Stop' }));
    await waitForStatus(canvasElement, 'ready');
    await waitForLastAnswerShown(canvasElement, /Theming the widget/);
    await expect(hooks(canvasElement, 'error')).toHaveLength(0);
    await expect(canvasElement.textContent).not.toMatch(/bring your own CSS/);
    await expect(within(canvasElement).getByRole('button', { name: 'Send' })).toBeInTheDocument();
  },
};

/** A search view of the host's own, through `components.toolInvocation.byName.search`. */
function SearchCard({ toolInvocation }: ToolInvocationProps) {
  // While the call streams, `args` may be partial or absent.
  const query = (toolInvocation.args as { query?: string } | undefined)?.query ?? '';
  // The service's result: an array of items with `url || path` and `metadata.title`.
  const results =
    toolInvocation.state === 'result' && Array.isArray(toolInvocation.result)
      ? (toolInvocation.result as Array<{ path?: string; url?: string; metadata?: { title?: string } }>)
      : [];
  return (
    <div
      data-story="custom-search"
      style={{ border: '1px dashed #7c3aed', borderRadius: 8, padding: '0.5rem', fontSize: '0.85em' }}
    >
      <strong>🔎 {query || '…'}</strong>{' '}
      {toolInvocation.state === 'result'
        ? `— ${results.map((r) => r.metadata?.title ?? r.url ?? r.path).join(' · ')}`
        : '(searching)'}
    </div>
  );
}

/** Custom part renderers: a search card, and the reasoning hidden (`null`). */
export const CustomRenderers: Story = {
  parameters: { replies: [replies.toolResult()] },
  render: (args, context) =>
    renderAssistant({ ...args, components: { toolInvocation: { byName: { search: SearchCard } } } }, context),
  play: async ({ canvasElement }) => {
    await ask(canvasElement, QUESTIONS.search);
    await waitForAnswer(canvasElement, /retrievalPageSize/);
    const card = canvasElement.querySelector<HTMLElement>('[data-story="custom-search"]')!;
    await expect(card.textContent).toMatch(/retrievalPageSize — Props of DocsAssistant · API and protocol/);
    await expect(canvasElement.textContent).not.toMatch(/Searched the docs for/);
  },
};
