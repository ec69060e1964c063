// @vitest-environment jsdom
/**
 * Finished parts and finished Markdown blocks must not re-render while the answer streams. The
 * message updates come from the real v4 client (`callChatApi` over a data stream), which hands
 * over a structuredClone'd message, with new part objects, on every chunk.
 */
import { callChatApi, formatDataStreamPart, type UIMessage } from '@ai-sdk/ui-utils';
import { render } from '@testing-library/react';
import {
  createHrefResolver,
  MessageParts,
  type PartComponents,
  ReasoningPart,
  type ReasoningPartProps,
  splitMarkdownBlocks,
  TextPart,
  type TextPartProps,
  ToolInvocationPart,
  type ToolInvocationProps,
} from '../../packages/docs-assistant/src/parts';

// Every parse of a Markdown block is one call of the parser with that block.
const { markdownRenders } = vi.hoisted(() => ({ markdownRenders: [] as string[] }));
vi.mock('../../packages/docs-assistant/src/parts/parse-markdown', async (importOriginal) => {
  const actual =
    await importOriginal<typeof import('../../packages/docs-assistant/src/parts/parse-markdown')>();
  return {
    parseMarkdown: (markdown: string) => {
      markdownRenders.push(markdown);
      return actual.parseMarkdown(markdown);
    },
  };
});

const ANSWER = [
  '# Installing',
  'Install the package and add the widget to your layout.',
  '| Option | Default |\n| --- | --- |\n| fp | anonymous |\n| retrievalPageSize | 5 |',
  '- Set `domain`\n- Set `apiKey`\n\n- Set `baseUrl`',
  '```tsx\nimport { DocsAssistant } from "docs-assistant";\n\n<DocsAssistant domain="acme" />\n```',
  'That is all. See [the guide](/guides/install).',
].join('\n\n');

/** Cuts text into chunks of 1 to 7 characters, the same way on every run. */
function chunks(text: string): string[] {
  const out: string[] = [];
  for (let i = 0, n = 0; i < text.length; n++) {
    const size = 1 + ((n * 5) % 7);
    out.push(text.slice(i, i + size));
    i += size;
  }
  return out;
}

async function streamUpdates(): Promise<UIMessage[]> {
  const lines = [
    formatDataStreamPart('start_step', { messageId: 'msg-1' }),
    ...chunks('Let me search the docs for installation.').map((c) => formatDataStreamPart('reasoning', c)),
    formatDataStreamPart('tool_call_streaming_start', { toolCallId: 'call-1', toolName: 'search' }),
    formatDataStreamPart('tool_call_delta', { toolCallId: 'call-1', argsTextDelta: '{"query":"ins' }),
    formatDataStreamPart('tool_call_delta', { toolCallId: 'call-1', argsTextDelta: 'tall"}' }),
    formatDataStreamPart('tool_call', {
      toolCallId: 'call-1',
      toolName: 'search',
      args: { query: 'install' },
    }),
    formatDataStreamPart('tool_result', {
      toolCallId: 'call-1',
      result: { results: [{ path: '/guides/install', title: 'Install' }] },
    }),
    formatDataStreamPart('finish_step', { isContinued: false, finishReason: 'tool-calls' }),
    formatDataStreamPart('start_step', { messageId: 'msg-1' }),
    ...chunks(ANSWER).map((c) => formatDataStreamPart('text', c)),
    formatDataStreamPart('finish_step', { isContinued: false, finishReason: 'stop' }),
    formatDataStreamPart('finish_message', { finishReason: 'stop' }),
  ];
  const updates: UIMessage[] = [];
  await callChatApi({
    api: 'http://127.0.0.1/unused',
    body: {},
    streamProtocol: 'data',
    credentials: undefined,
    headers: undefined,
    abortController: undefined,
    restoreMessagesOnFailure: () => {},
    onResponse: undefined,
    onUpdate: ({ message }) => updates.push(message),
    onFinish: undefined,
    onToolCall: undefined,
    generateId: () => 'generated',
    fetch: async () => new Response(lines.join(''), { headers: { 'Content-Type': 'text/plain' } }),
    lastMessage: undefined,
  });
  return updates;
}

describe('render counts while streaming', () => {
  it('renders finished parts and finished Markdown blocks once; only the last block re-renders', async () => {
    const updates = await streamUpdates();
    const answerStart = updates.findIndex((m) => m.parts.some((p) => p.type === 'text'));
    expect(answerStart).toBeGreaterThan(0);
    // The SDK really does hand over new part objects each time (the reason for content comparators).
    expect(updates[answerStart + 1]!.parts[0]).not.toBe(updates[answerStart]!.parts[0]);

    const renders = { reasoning: 0, tool: 0, text: 0 };
    const components: PartComponents = {
      reasoning: (props: ReasoningPartProps) => {
        renders.reasoning++;
        return <ReasoningPart {...props} />;
      },
      text: (props: TextPartProps) => {
        renders.text++;
        return <TextPart {...props} />;
      },
      toolInvocation: {
        fallback: (props: ToolInvocationProps) => {
          renders.tool++;
          return <ToolInvocationPart {...props} />;
        },
      },
    };
    const resolveHref = createHrefResolver('https://docs.acme.dev');
    const view = (message: UIMessage, isStreaming: boolean) => (
      <MessageParts
        message={message}
        isStreaming={isStreaming}
        components={components}
        resolveHref={resolveHref}
      />
    );

    const { rerender, container } = render(view(updates[0]!, true));
    for (const message of updates.slice(1, answerStart)) rerender(view(message, true));
    const before = { ...renders };
    markdownRenders.length = 0;

    let lastText = '';
    let textUpdates = 0;
    for (const message of updates.slice(answerStart)) {
      const rendersBefore = markdownRenders.length;
      rerender(view(message, true));
      const textPart = message.parts.findLast((p) => p.type === 'text');
      const text = textPart?.type === 'text' ? textPart.text : '';
      const blocks = splitMarkdownBlocks(text);
      const rendered = markdownRenders.slice(rendersBefore);
      // At most one block rendered per chunk, and it is the block being written.
      expect(rendered.length).toBeLessThanOrEqual(1);
      if (rendered.length === 1) expect(rendered[0]).toBe(blocks.at(-1));
      if (text !== lastText) textUpdates++;
      lastText = text;
    }
    expect(lastText).toBe(ANSWER);

    // Reasoning and the search call finished before the answer: not one render during it.
    expect(renders.reasoning).toBe(before.reasoning);
    expect(renders.tool).toBe(before.tool);
    // The text part rendered once per change of its text, never for anything else.
    expect(renders.text - before.text).toBe(textUpdates);

    // Each finished block was rendered exactly once.
    const finalBlocks = splitMarkdownBlocks(ANSWER);
    expect(finalBlocks).toHaveLength(6);
    for (const block of finalBlocks.slice(0, -1)) {
      expect(markdownRenders.filter((source) => source === block)).toHaveLength(1);
    }

    // Streaming ends: the last part loses its streaming flag; nothing else re-renders.
    const textRenders = renders.text;
    rerender(view(updates.at(-1)!, false));
    expect(renders.reasoning).toBe(before.reasoning);
    expect(renders.tool).toBe(before.tool);
    expect(renders.text).toBe(textRenders + 1);
    expect(container.querySelector('pre code')).toHaveTextContent('import { DocsAssistant }');
    expect(container.querySelector('[data-docs-assistant="source"]')).toHaveAttribute(
      'href',
      'https://docs.acme.dev/guides/install',
    );
  });

  it('does not re-render default renderers given equal content in new objects', () => {
    const resolveHref = createHrefResolver('https://docs.acme.dev');
    const text = 'One\n\nTwo\n\nThree';
    const message = (t: string): UIMessage => ({
      id: 'm',
      role: 'assistant',
      content: t,
      parts: [{ type: 'text', text: t }],
    });
    const { rerender } = render(
      <TextPart
        part={{ type: 'text', text }}
        message={message(text)}
        isStreaming={false}
        resolveHref={resolveHref}
      />,
    );
    expect(markdownRenders.slice(-3)).toEqual(['One', 'Two', 'Three']);
    markdownRenders.length = 0;
    rerender(
      <TextPart
        part={{ type: 'text', text }}
        message={message(text)}
        isStreaming={false}
        resolveHref={resolveHref}
      />,
    );
    expect(markdownRenders).toEqual([]);
    rerender(
      <TextPart
        part={{ type: 'text', text: `${text} and four` }}
        message={message(text)}
        isStreaming={false}
        resolveHref={resolveHref}
      />,
    );
    expect(markdownRenders).toEqual(['Three and four']);
  });
});

describe('unfinished blocks while streaming', () => {
  // A loose ordered list (blank lines between items), a table and a code fence that never closes.
  const STREAMED = [
    '## Steps',
    '1. Install the package.\n\n2. Add the widget.\n\n   Indented continuation of step two.\n\n3. Set `apiKey`.',
    '| Option | Default |\n| --- | --- |\n| fp | anonymous |\n| retrievalPageSize | 5 |\n| filter | none |',
    '```tsx\nconst a = 1;\n\nconst b = 2;\n\nexport { a, b };',
  ].join('\n\n');

  it('keeps finished blocks, one list, one table and one code block stable to the end', () => {
    const resolveHref = createHrefResolver('https://docs.acme.dev');
    const view = (text: string) => (
      <TextPart
        part={{ type: 'text', text }}
        message={{ id: 'm', role: 'assistant', content: text, parts: [{ type: 'text', text }] }}
        isStreaming
        resolveHref={resolveHref}
      />
    );
    const { rerender, container } = render(view(''));
    markdownRenders.length = 0;
    let tableRows = 0;
    let codeShownAt = -1;
    for (let end = 1; end <= STREAMED.length; end += 3) {
      const text = STREAMED.slice(0, end);
      const before = markdownRenders.length;
      rerender(view(text));
      const rendered = markdownRenders.slice(before);
      // Only the block being written re-renders.
      expect(rendered.length).toBeLessThanOrEqual(1);
      if (rendered.length === 1) expect(rendered[0]).toBe(splitMarkdownBlocks(text).at(-1));
      // The loose list is one list all along: never split into a second <ol start="2">.
      expect(container.querySelectorAll('ol').length).toBeLessThanOrEqual(1);
      expect(container.querySelector('ol[start]')).toBeNull();
      // Once there, the table never goes away and never loses a row.
      const rows = container.querySelectorAll('table tr').length;
      if (tableRows > 0) expect(rows).toBeGreaterThanOrEqual(tableRows);
      tableRows = rows;
      // Once the fence line is written, the rest shows as one code block, blank lines included.
      if (codeShownAt >= 0) expect(container.querySelectorAll('pre code')).toHaveLength(1);
      else if (container.querySelector('pre code')) codeShownAt = end;
    }
    expect(container.querySelectorAll('ol > li')).toHaveLength(3);
    expect(tableRows).toBe(4);
    expect(container.querySelector('pre code')?.textContent).toContain('const b = 2;\n\nexport { a, b };');

    // Each finished block rendered exactly once (its final text), the unfinished fence many times.
    const blocks = splitMarkdownBlocks(STREAMED);
    expect(blocks).toHaveLength(4);
    for (const block of blocks.slice(0, -1)) {
      expect(markdownRenders.filter((source) => source === block)).toHaveLength(1);
    }
  });
});

describe('reference links and footnotes while streaming', () => {
  const BLOCKS = [
    '# Setup',
    'See [the install guide][1] for details.[^n]',
    'Nothing to see here.',
    '[1]: /guides/install',
    '[^n]: Requires Node 20.',
  ];
  const TEXT = BLOCKS.join('\n\n');

  it('re-renders a block once per definition it uses as that arrives, and no other block', () => {
    const resolveHref = createHrefResolver('https://docs.acme.dev');
    const view = (text: string, isStreaming: boolean) => (
      <TextPart
        part={{ type: 'text', text }}
        message={{ id: 'm', role: 'assistant', content: text, parts: [{ type: 'text', text }] }}
        isStreaming={isStreaming}
        resolveHref={resolveHref}
      />
    );
    const { rerender, container } = render(view('', true));
    markdownRenders.length = 0;
    for (let end = 1; end <= TEXT.length; end += 3) rerender(view(TEXT.slice(0, end), true));
    rerender(view(TEXT, true));
    rerender(view(TEXT, false));

    const rendersOf = (source: string) => markdownRenders.filter((rendered) => rendered === source).length;
    // Blocks that use no reference: rendered once, as they are.
    for (const block of [BLOCKS[0]!, BLOCKS[2]!, BLOCKS[3]!, BLOCKS[4]!]) expect(rendersOf(block)).toBe(1);
    // The block with references: once when finished, then once when the link definition's line is
    // complete (never with half a URL), then once when the footnote is defined.
    const usesRefs = BLOCKS[1]!;
    const withLink = `${usesRefs}\n\n[1]: /guides/install`;
    expect(rendersOf(usesRefs)).toBe(1);
    expect(rendersOf(withLink)).toBe(1);
    expect(rendersOf(`${withLink}\n\n[^N]: 1`)).toBe(1);
    expect(markdownRenders.filter((rendered) => rendered.startsWith(usesRefs))).toHaveLength(3);

    expect(container.querySelector('a[href="https://docs.acme.dev/guides/install"]')).toHaveTextContent(
      'the install guide',
    );
    expect(container.querySelector('[data-footnotes] li')).toHaveTextContent('Requires Node 20.');
  });
});
