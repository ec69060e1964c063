// @vitest-environment jsdom
/**
 * Parts straight from a v4 data stream are only loosely checked by the AI SDK client (a `source`
 * only has to be an object). A malformed part must render what is valid and never take the
 * conversation down.
 */
import { callChatApi, type UIMessage } from '@ai-sdk/ui-utils';
import { render, screen, within } from '@testing-library/react';
import {
  createHrefResolver,
  MessageParts,
  type TextPartProps,
} from '../../packages/docs-assistant/src/parts';
import { assistantMessage, type UIPart } from './fixtures';

const resolveHref = createHrefResolver('https://docs.acme.dev');

/** Runs raw data stream lines through the real v4 client; returns the final assistant message. */
async function streamMessage(lines: string[]): Promise<UIMessage> {
  let last: UIMessage | undefined;
  await callChatApi({
    api: 'http://127.0.0.1/unused',
    body: {},
    streamProtocol: 'data',
    credentials: undefined,
    headers: undefined,
    abortController: undefined,
    restoreMessagesOnFailure: () => {},
    onResponse: undefined,
    onUpdate: ({ message }) => {
      last = message;
    },
    onFinish: undefined,
    onToolCall: undefined,
    generateId: () => 'generated',
    fetch: async () =>
      new Response(lines.map((line) => `${line}\n`).join(''), { headers: { 'Content-Type': 'text/plain' } }),
    lastMessage: undefined,
  });
  if (!last) throw new Error('the stream produced no message');
  return last;
}

describe('malformed parts', () => {
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('a source whose title is an object falls back to its URL instead of crashing', async () => {
    const message = await streamMessage([
      'f:{"messageId":"msg-1"}',
      '0:"The answer."',
      'h:{"sourceType":"url","id":"s","url":"/x","title":{"a":1}}',
      'e:{"finishReason":"stop","isContinued":false}',
      'd:{"finishReason":"stop"}',
    ]);
    // The real client passes the object through untouched: this is what the widget receives.
    expect(message.parts.find((part) => part.type === 'source')).toMatchObject({
      source: { title: { a: 1 } },
    });
    render(<MessageParts message={message} resolveHref={resolveHref} />);
    expect(screen.getByText('The answer.')).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Sources' });
    const link = within(list).getByRole('link');
    expect(link).toHaveTextContent('/x');
    expect(link).toHaveAttribute('href', 'https://docs.acme.dev/x');
  });

  it('renders what is valid of a stream full of odd values', async () => {
    const message = await streamMessage([
      'f:{"messageId":"msg-1"}',
      'g:"Thinking."',
      '9:{"toolCallId":"c1","toolName":"search","args":null}',
      'a:{"toolCallId":"c1","result":{"results":[{"url":{"u":1},"title":"Bad url"},{"path":"/ok","title":["t"]},{"url":"/good","metadata":{"title":7}}]}}',
      '9:{"toolCallId":"c2","toolName":"lookup","args":{"q":{"deep":[1,{"x":null}]}}}',
      'a:{"toolCallId":"c2","result":{"html":"<img src=x onerror=alert(1)>"}}',
      'h:{"sourceType":"url","id":"s1","url":{"href":"/evil"},"title":"No URL"}',
      'h:{"sourceType":"url","id":"s2","url":"/y","title":["array"]}',
      'h:{"sourceType":"url","id":"s3","url":"/z","title":"Zed"}',
      'k:{"mimeType":"image/png","data":"not base64!"}',
      '0:"Done."',
      'e:{"finishReason":"stop","isContinued":false}',
      'd:{"finishReason":"stop"}',
    ]);
    const { container } = render(<MessageParts message={message} resolveHref={resolveHref} />);
    expect(screen.getByText('Done.')).toBeInTheDocument();
    // The search shows its progress label without a query, and counts the readable results.
    expect(container.querySelector('[data-result-count]')).toHaveAttribute('data-result-count', '2');
    // Another tool's args and result are shown as text only.
    expect(container.querySelector('img[onerror], [onerror]')).toBeNull();
    expect(container).toHaveTextContent('<img src=x onerror=alert(1)>');
    const list = screen.getByRole('list', { name: 'Sources' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['/ok', 'https://docs.acme.dev/ok'],
      ['/good', 'https://docs.acme.dev/good'],
      ['/y', 'https://docs.acme.dev/y'],
      ['Zed', 'https://docs.acme.dev/z'],
    ]);
    // Data that is not base64 is not put in an image.
    expect(container.querySelector('img')).toBeNull();
  });

  it('skips parts without the fields their renderer reads (e.g. a restored or hand-made message)', () => {
    const parts = [
      null,
      { type: 'text', text: { not: 'text' } },
      { type: 'tool-invocation' },
      { type: 'tool-invocation', toolInvocation: { state: 'call', toolCallId: 'c', toolName: 42, args: {} } },
      {
        type: 'reasoning',
        reasoning: 'Kept.',
        details: [null, { type: 'text', text: { a: 1 } }, { type: 'text', text: 'Kept.' }],
      },
      { type: 'file', mimeType: 'image/png' },
      { type: 'source', source: 'nope' },
      { type: 'text', text: 'Still here.' },
    ] as unknown as UIPart[];
    const message: UIMessage = { id: 'm1', role: 'assistant', content: 'Still here.', parts };
    const { container } = render(<MessageParts message={message} resolveHref={resolveHref} />);
    expect(screen.getByText('Still here.')).toBeInTheDocument();
    const reasoning = container.querySelector('[data-part-type="reasoning"]');
    expect(reasoning).toHaveTextContent('Kept.');
    expect(reasoning).not.toHaveTextContent('object');
    expect(container.querySelectorAll('[data-docs-assistant="part"]')).toHaveLength(2);
  });

  it('a renderer that throws loses its own part only', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    function Broken({ part }: TextPartProps): never {
      throw new Error(`cannot render ${part.text}`);
    }
    const message = assistantMessage([
      { type: 'text', text: 'one' },
      { type: 'source', source: { sourceType: 'url', id: 's', url: '/kept', title: 'Kept' } },
    ]);
    render(<MessageParts message={message} resolveHref={resolveHref} components={{ text: Broken }} />);
    expect(screen.getByRole('link', { name: 'Kept' })).toBeInTheDocument();
    expect(screen.queryByText('one')).toBeNull();
  });
});
