import { callChatApi, type UIMessage } from '@ai-sdk/ui-utils';
import { keepSafeHref } from '../../packages/docs-assistant/src/parts/href';
import { collectSources } from '../../packages/docs-assistant/src/parts/sources';
import { ASSISTANT_KEY, parseStream, type RunningService, startService, userMessage } from './helpers';

let running: RunningService;
beforeAll(async () => {
  running = await startService();
});
afterAll(async () => {
  await running.close();
});

interface ChatTurn {
  message: UIMessage;
  raw: string;
  headers: Headers;
  finishReason: string | undefined;
}

/** One request as the v4 `useChat` makes it for this endpoint (spec §4.1 client configuration). */
async function chat(messages: UIMessage[], extraBody: Record<string, unknown> = {}): Promise<ChatTurn> {
  let raw = '';
  let tapped: Promise<void> = Promise.resolve();
  let headers = new Headers();
  let finished: { message: UIMessage; finishReason: string | undefined } | undefined;
  // Taps the raw body: the v4 parser drops unknown fields of `d:`, so threadId is read here.
  const tappingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    headers = response.headers;
    if (!response.body) return response;
    const [forClient, forTap] = response.body.tee();
    const decoder = new TextDecoder();
    tapped = (async () => {
      const reader = forTap.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        raw += decoder.decode(value, { stream: true });
      }
    })();
    return new Response(forClient, { status: response.status, headers: response.headers });
  };
  let counter = 0;
  await callChatApi({
    api: running.endpoint(),
    // `sendExtraMessageFields: true`: the messages go as the client holds them, parts and all.
    body: { id: 'chat-1', messages, fp: 'reader-42', retrievalPageSize: 5, ...extraBody },
    streamProtocol: 'data',
    credentials: undefined,
    headers: { Authorization: `Bearer ${ASSISTANT_KEY}` },
    abortController: () => null,
    restoreMessagesOnFailure: () => {},
    onResponse: undefined,
    onUpdate: () => {},
    onFinish: (message, options) => {
      finished = { message: message as UIMessage, finishReason: options.finishReason };
    },
    onToolCall: undefined,
    generateId: () => `gen-${++counter}`,
    fetch: tappingFetch,
    lastMessage: messages[messages.length - 1],
  });
  await tapped;
  if (!finished) throw new Error('onFinish was not called');
  return { ...finished, raw, headers };
}

const asUiMessage = (m: ReturnType<typeof userMessage>): UIMessage =>
  ({ ...m, createdAt: new Date('2026-01-01T00:00:00Z') }) as UIMessage;

describe('assistant endpoint over HTTP with the AI SDK v4 client', () => {
  it('streams the search tool result, sources, text and a finish part with threadId', async () => {
    const first = asUiMessage(userMessage('How do I enable dark mode?', 'u1'));
    const turn = await chat([first]);
    const { message } = turn;

    expect(message.role).toBe('assistant');
    expect(message.content).toMatch(/theme="dark"/);
    expect(message.content).toMatch(/\[1\]/);

    const tool = message.parts.find((p) => p.type === 'tool-invocation');
    expect(tool?.type === 'tool-invocation' && tool.toolInvocation.toolName).toBe('search');
    expect(tool?.type === 'tool-invocation' && tool.toolInvocation.state).toBe('result');
    const result =
      tool?.type === 'tool-invocation' && tool.toolInvocation.state === 'result'
        ? tool.toolInvocation.result
        : null;
    // An array, as the real service sends it: `path`, `url` and `metadata.title` on every item.
    expect(Array.isArray(result)).toBe(true);
    expect(result[0]).toMatchObject({
      path: '/guides/theming',
      url: '/guides/theming#dark-mode',
      metadata: { title: 'Theming › Dark mode' },
    });
    expect(typeof result[0].snippet).toBe('string');
    expect(result[0].title).toBe('Theming › Dark mode');

    const sources = message.parts.flatMap((p) => (p.type === 'source' ? [p.source] : []));
    expect(sources.length).toBeGreaterThan(0);
    // Each source part repeats the link and title of a search result, so the widget lists them once.
    for (const source of sources) {
      expect(result).toContainEqual(expect.objectContaining({ url: source.url, title: source.title }));
    }
    const listed = collectSources(message, keepSafeHref);
    expect(listed).toEqual(
      result.map((r: { url: string; title: string }) => ({ href: r.url, title: r.title })),
    );
    // `[n]` in the text is the n-th entry of that list.
    const numbers = [...message.content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect(numbers.length).toBeGreaterThan(0);
    for (const n of numbers) expect(sources.map((s) => s.url)).toContain(listed[n - 1]?.href);
    expect(turn.finishReason).toBe('stop');
    // The widget titles the suggestions block itself: no text line introduces it.
    expect(message.content).toMatch(/```suggestions\n/);
    expect(message.content).not.toMatch(/Related pages/i);

    // The finish part on the wire carries the thread (spec §6), the same as the header; a new
    // thread's response also carries its key, this once.
    const parsed = parseStream(turn.raw);
    const threadId = parsed.finish?.threadId;
    expect(threadId).toMatch(/^thr_/);
    expect(turn.headers.get('x-thread-id')).toBe(threadId);
    expect(turn.headers.get('x-thread-key')).toMatch(/^thk_/);
    expect(turn.headers.get('x-thread-key')).toBe(parsed.finish?.threadKey);
    expect(turn.raw.trimEnd().split('\n').at(-1)).toMatch(/^d:\{.*"threadId":"thr_/);
  });

  it('continues a thread: the follow-up retrieves from the earlier turn', async () => {
    const first = asUiMessage(userMessage('How do I enable dark mode?', 'u1'));
    const turn1 = await chat([first]);
    const threadId = turn1.headers.get('x-thread-id');
    const threadKey = turn1.headers.get('x-thread-key');

    const followUp = asUiMessage(userMessage('How do I turn it off?', 'u2'));
    const turn2 = await chat([first, turn1.message, followUp], { threadId, threadKey });
    const parsed2 = parseStream(turn2.raw);
    expect(parsed2.finish?.threadId).toBe(threadId);
    // The key is handed out once: a later response of the thread carries neither header nor key.
    expect(turn2.headers.get('x-thread-key')).toBeNull();
    expect(turn2.headers.get('x-thread-id')).toBeNull();
    expect(parsed2.finish?.threadKey).toBeUndefined();
    expect(parsed2.searchResults[0]?.url).toBe('/guides/theming#turning-dark-mode-off');
    expect(turn2.message.content).toMatch(/theme="light"/);

    // The same question without the thread lands elsewhere: the earlier turn is what helped.
    const alone = await chat([asUiMessage(userMessage('How do I turn it off?', 'u9'))]);
    expect(parseStream(alone.raw).searchResults[0]?.path).not.toBe('/guides/theming');
  });

  it('answers CORS preflight for browser callers', async () => {
    const response = await fetch(running.endpoint(), {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://docs.example.com',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');

    // The answer exposes the thread headers to browser code.
    const answer = await fetch(running.endpoint(), {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${ASSISTANT_KEY}`,
        'Content-Type': 'application/json',
        Origin: 'https://docs.example.com',
      },
      body: JSON.stringify({ fp: 'anonymous', messages: [userMessage('dark mode')] }),
    });
    await answer.text();
    const exposed = answer.headers.get('access-control-expose-headers')?.toLowerCase() ?? '';
    for (const header of ['x-thread-id', 'x-thread-key', 'retry-after', 'x-ratelimit-remaining'])
      expect(exposed).toContain(header);
  });
});
