// @vitest-environment jsdom
/**
 * A client written for the real service, the way its tutorial writes one: the AI SDK v4 `useChat`
 * hook from `@ai-sdk/react` (rendered for real, in jsdom) with `streamProtocol: 'data'`,
 * `sendExtraMessageFields: true`, a body of `{ fp, retrievalPageSize: 5 }`, and a custom `fetch`
 * that keeps the `X-Thread-Id` and `X-Thread-Key` of the thread's first response and sends
 * `threadId` and `threadKey` with every later request. Sources are read from the `search` tool's
 * result as that client reads them: `source.url || source.path` and `source.metadata?.title`.
 * It talks over HTTP to the reference service on 127.0.0.1; nothing in between is mocked.
 */
import { useChat } from '@ai-sdk/react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ASSISTANT_KEY, type RunningService, startService } from '../server/helpers';

let running: RunningService;
beforeAll(async () => {
  running = await startService();
});
afterAll(() => running.close());

/** One item of the `search` tool's result, as the vendor's example client types it. */
interface VendorSource {
  url?: string;
  path?: string;
  metadata?: { title?: string };
}

interface Exchange {
  body: Record<string, unknown>;
  status: number;
  threadIdHeader: string | null;
  threadKeyHeader: string | null;
}

/**
 * The tutorial's custom `fetch`: remembers the thread from the response headers and adds it to the
 * JSON body of the next request. `sendKey: false` is the broken client that forgets the key.
 */
function threadFetch({ sendKey }: { sendKey: boolean }) {
  const exchanges: Exchange[] = [];
  let thread: { threadId: string; threadKey: string } | undefined;
  const fetchWithThread: typeof fetch = async (input, init) => {
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    if (thread) {
      body.threadId = thread.threadId;
      if (sendKey) body.threadKey = thread.threadKey;
    }
    const response = await globalThis.fetch(input, { ...init, body: JSON.stringify(body) });
    const threadIdHeader = response.headers.get('X-Thread-Id');
    const threadKeyHeader = response.headers.get('X-Thread-Key');
    if (threadIdHeader && threadKeyHeader) thread = { threadId: threadIdHeader, threadKey: threadKeyHeader };
    exchanges.push({ body, status: response.status, threadIdHeader, threadKeyHeader });
    return response;
  };
  return { fetch: fetchWithThread, exchanges };
}

function VendorChat({ fetch }: { fetch: typeof globalThis.fetch }) {
  const { messages, input, handleInputChange, handleSubmit, status, error } = useChat({
    api: running.endpoint(),
    streamProtocol: 'data',
    sendExtraMessageFields: true,
    headers: { Authorization: `Bearer ${ASSISTANT_KEY}` },
    body: { fp: 'anonymous', retrievalPageSize: 5 },
    fetch,
  });
  return (
    <div>
      {messages.map((message) => (
        <article key={message.id} aria-label={`${message.role} message`}>
          <p>{message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('')}</p>
          {message.parts.map((part) => {
            if (
              part.type !== 'tool-invocation' ||
              part.toolInvocation.toolName !== 'search' ||
              part.toolInvocation.state !== 'result'
            ) {
              return null;
            }
            const sources = part.toolInvocation.result as VendorSource[];
            return (
              <ul key={part.toolInvocation.toolCallId} aria-label="Sources">
                {sources.map((source) => {
                  const href = source.url || source.path;
                  return (
                    <li key={href}>
                      <a href={href}>{source.metadata?.title}</a>
                    </li>
                  );
                })}
              </ul>
            );
          })}
        </article>
      ))}
      <form onSubmit={handleSubmit}>
        <input aria-label="Question" value={input} onChange={handleInputChange} />
        <button type="submit">Send</button>
      </form>
      <output aria-label="Status">{status}</output>
      {error ? <p role="alert">{error.message}</p> : null}
    </div>
  );
}

/** Sends a question through the form and waits until its request is answered and the hook settles. */
async function ask(question: string, exchanges: Exchange[]) {
  const before = exchanges.length;
  fireEvent.change(screen.getByRole('textbox', { name: 'Question' }), { target: { value: question } });
  fireEvent.click(screen.getByRole('button', { name: 'Send' }));
  await waitFor(() => {
    expect(exchanges.length).toBe(before + 1);
    expect(['ready', 'error']).toContain(screen.getByRole('status', { name: 'Status' }).textContent);
  });
}

/** The links of the `Sources` list of the n-th assistant message, as the vendor's client renders them. */
function sourcesOf(n: number): { href: string | null; title: string }[] {
  const message = screen.getAllByRole('article', { name: 'assistant message' })[n]!;
  const list = message.querySelector('ul[aria-label="Sources"]');
  return [...(list?.querySelectorAll('a') ?? [])].map((a) => ({
    href: a.getAttribute('href'),
    title: a.textContent ?? '',
  }));
}

describe("the vendor's useChat v4 client against the reference service over HTTP", () => {
  it('runs a two-turn conversation on one thread and gets titled, linked sources', async () => {
    const client = threadFetch({ sendKey: true });
    render(<VendorChat fetch={client.fetch} />);

    await ask('How do I enable dark mode?', client.exchanges);
    expect(screen.queryByRole('alert')).toBeNull();
    const [first] = client.exchanges;
    expect(first).toMatchObject({ status: 200, body: { fp: 'anonymous', retrievalPageSize: 5 } });
    expect(first!.body).not.toHaveProperty('threadId');
    // A new thread: its id and key come with the first response.
    expect(first!.threadIdHeader).toMatch(/^thr_/);
    expect(first!.threadKeyHeader).toMatch(/^thk_/);
    const firstSources = sourcesOf(0);
    expect(firstSources.length).toBeGreaterThan(0);
    // Every source has a link and a title: `url || path` and `metadata.title` are there.
    for (const source of firstSources) {
      expect(source.href).toBeTruthy();
      expect(source.title).toBeTruthy();
    }
    expect(firstSources[0]).toEqual({ href: '/guides/theming#dark-mode', title: 'Theming › Dark mode' });
    expect(screen.getByRole('link', { name: 'Theming › Dark mode' }).getAttribute('href')).toBe(
      '/guides/theming#dark-mode',
    );

    await ask('How do I turn it off?', client.exchanges);
    expect(screen.queryByRole('alert')).toBeNull();
    const second = client.exchanges[1]!;
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({
      threadId: first!.threadIdHeader,
      threadKey: first!.threadKeyHeader,
      fp: 'anonymous',
      retrievalPageSize: 5,
    });
    // `sendExtraMessageFields`: the conversation goes with its parts, the assistant's tool call too.
    expect(second.body).toHaveProperty('messages.length', 3);
    // The same thread, continued: no new thread id or key is handed out…
    expect(second.threadIdHeader).toBeNull();
    expect(second.threadKeyHeader).toBeNull();
    // …and the earlier question shaped the search: "it" is dark mode.
    expect(sourcesOf(1)[0]).toEqual({
      href: '/guides/theming#turning-dark-mode-off',
      title: 'Theming › Turning dark mode off',
    });
  });

  it('gets 404 on the second turn when the client sends the thread id without its key', async () => {
    const client = threadFetch({ sendKey: false });
    render(<VendorChat fetch={client.fetch} />);

    await ask('How do I enable dark mode?', client.exchanges);
    expect(client.exchanges[0]?.status).toBe(200);

    await ask('How do I turn it off?', client.exchanges);
    const second = client.exchanges[1]!;
    expect(second.body).toHaveProperty('threadId', client.exchanges[0]!.threadIdHeader);
    expect(second.body).not.toHaveProperty('threadKey');
    expect(second.status).toBe(404);
    expect(screen.getByRole('status', { name: 'Status' })).toHaveTextContent('error');
    // The v4 client shows the body's text; the message is in the string `error` field.
    expect(screen.getByRole('alert')).toHaveTextContent('Thread not found');
    expect(screen.getAllByRole('article', { name: 'assistant message' })).toHaveLength(1);
  });
});
