// @vitest-environment jsdom
/**
 * The insights beacon in the widget (src/insights/beacon.ts): clicks on an answer's sources and on
 * the search view's results go to the service's events endpoint in batches, only when `/health`
 * lists `insights`, never before consent (and what is queued when consent is withdrawn is dropped),
 * never air-gapped or through a host route, and a failing endpoint leaves no error on the page.
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DocsAssistant, defaultLabels } from '../../packages/docs-assistant/src/index';
import { startBeacon } from '../../packages/docs-assistant/src/views/insights/beacon';
import { answer } from '../events/helpers';

// The real beacon, watched: when the panel starts it.
vi.mock('../../packages/docs-assistant/src/views/insights/beacon', async (importOriginal) => {
  const actual =
    await importOriginal<typeof import('../../packages/docs-assistant/src/views/insights/beacon')>();
  return { ...actual, startBeacon: vi.fn(actual.startBeacon) };
});

let count = 0;
/** A base URL and domain per test: `/health` is asked once per base URL for the page's life. */
function props() {
  count += 1;
  return {
    domain: `beacon-${count}`,
    apiKey: 'svc_dsc_beacon_test',
    baseUrl: `https://api-${count}.example.com`,
    storage: 'memory' as const,
    docsBaseUrl: 'https://docs.example.com',
    variant: 'inline' as const,
  };
}

interface Sent {
  url: string;
  headers: Record<string, string>;
  keepalive: boolean | undefined;
  body: { fp?: string; events: Array<Record<string, unknown>> };
}

const SOURCES = [
  { url: 'https://docs.example.com/guides/install', title: 'Install' },
  { url: 'https://docs.example.com/guides/theming', title: 'Theming' },
];
const RESULTS = [
  { content: 'Install with npm', path: '/guides/install', metadata: { title: 'Install' } },
  { content: 'Install the theme', path: '/guides/theming', metadata: { title: 'Theming' } },
];

/** The service as the widget meets it: answers with sources, search results, and `/health`. */
function service(options: { capabilities?: string[]; events?: () => Response | Promise<Response> } = {}) {
  const sent: Sent[] = [];
  const asked: string[] = [];
  let answers = 0;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    asked.push(url);
    const json = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (url.endsWith('/health'))
      return json({ ok: true, capabilities: options.capabilities ?? ['insights'] });
    if (url.includes('/discovery/v1/search/')) return json(RESULTS);
    if (url.endsWith('/events')) {
      sent.push({
        url,
        headers: Object.fromEntries(new Headers(init?.headers).entries()),
        keepalive: init?.keepalive,
        body: JSON.parse(String(init?.body)) as Sent['body'],
      });
      return options.events ? options.events() : json({ accepted: true }, 202);
    }
    answers += 1;
    return answer({ sources: SOURCES, messageId: `msg_${answers}` });
  };
  return { fetch: fetch as typeof globalThis.fetch, sent, asked };
}

/** Asks in the question box and waits for the answer to finish (its copy button). */
async function ask(question: string) {
  const user = userEvent.setup();
  const answered = screen.queryAllByRole('button', { name: defaultLabels.copy }).length;
  const input = await screen.findByRole('textbox', { name: defaultLabels.inputLabel });
  await user.type(input, question);
  await user.keyboard('{Enter}');
  await waitFor(() =>
    expect(screen.getAllByRole('button', { name: defaultLabels.copy })).toHaveLength(answered + 1),
  );
}

/** Clicks a link the way a reader does; jsdom does not navigate, so nothing leaves the page. */
function click(link: Element) {
  link.addEventListener('click', (event) => event.preventDefault(), { once: true });
  fireEvent.click(link);
}

/** The pointer over a link, as before a click: the panel starts the beacon then. */
async function reach(link: Element) {
  const started = vi.mocked(startBeacon).mock.calls.length;
  fireEvent.pointerOver(link);
  await waitFor(() => expect(vi.mocked(startBeacon).mock.calls.length).toBeGreaterThan(started));
}

const sources = () =>
  screen.getAllByRole('link').filter((link) => link.matches('[data-docs-assistant="source"]'));

/** The page being hidden (tab switched, or left): the queue goes at once. */
function hidePage() {
  Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
}

afterEach(() => vi.restoreAllMocks());

describe('insights beacon', () => {
  it('sends the source clicks of an answer in one batch when the page is hidden, with the key, fp and thread', async () => {
    const { fetch, sent } = service();
    const p = props();
    render(<DocsAssistant {...p} fp="reader-1" fetch={fetch} />);
    await ask('How do I install it?');
    const [install, theming] = sources();
    await reach(install!);
    click(install!);
    click(theming!);
    click(install!);
    expect(sent).toEqual([]);
    act(hidePage);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.url).toBe(`${p.baseUrl}/discovery/v1/assistant/${p.domain}/events`);
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${p.apiKey}`);
    expect(sent[0]!.keepalive).toBe(true);
    expect(sent[0]!.body).toEqual({
      fp: 'reader-1',
      events: [
        { type: 'source-click', path: '/guides/install', threadId: 'thr_1' },
        { type: 'source-click', path: '/guides/theming', threadId: 'thr_1' },
        { type: 'source-click', path: '/guides/install', threadId: 'thr_1' },
      ],
    });
    // The queue is empty now: hiding the page again sends nothing more.
    act(hidePage);
    act(() => void dispatchEvent(new Event('pagehide')));
    expect(sent).toHaveLength(1);
  });

  it('starts only when the reader reaches for a source, and sends what was clicked before it came', async () => {
    const { fetch, sent, asked } = service();
    vi.mocked(startBeacon).mockClear();
    render(<DocsAssistant {...props()} fetch={fetch} />);
    await ask('How do I install it?');
    await waitFor(() => expect(asked.filter((url) => url.endsWith('/health'))).toHaveLength(1));
    await new Promise((done) => setTimeout(done, 50));
    // An answer with sources, insights offered: still nothing loaded for a reader who opens none.
    expect(startBeacon).not.toHaveBeenCalled();
    const [install, theming] = sources();
    // A click with no pointer over the link first (a touch): held until the chunk comes.
    click(install!);
    click(theming!);
    await waitFor(() => expect(startBeacon).toHaveBeenCalledTimes(1));
    act(hidePage);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.body.events.map((event) => event.path)).toEqual(['/guides/install', '/guides/theming']);
  });

  it('sends a batch on its own a short while after the first click', async () => {
    const { fetch, sent } = service();
    render(<DocsAssistant {...props()} fetch={fetch} />);
    await ask('How do I install it?');
    click(sources()[1]!);
    await waitFor(() => expect(sent).toHaveLength(1), { timeout: 6_000 });
    expect(sent[0]!.body.events).toEqual([
      { type: 'source-click', path: '/guides/theming', threadId: 'thr_1' },
    ]);
  });

  it('sends a search result click with the query and its position', async () => {
    const { fetch, sent } = service();
    render(<DocsAssistant {...props()} fetch={fetch} defaultView="search" />);
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: defaultLabels.inputLabel }), 'install');
    const results = await waitFor(() => {
      const found = document.querySelectorAll('a[data-docs-assistant="search-result"]');
      expect(found).toHaveLength(2);
      return found;
    });
    await reach(results[1]!);
    click(results[1]!);
    act(() => void dispatchEvent(new Event('pagehide')));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.body.events).toEqual([
      { type: 'search-click', path: '/guides/theming', query: 'install', position: 2 },
    ]);
  });

  it('sends nothing when /health does not list insights', async () => {
    const { fetch, sent, asked } = service({ capabilities: ['feedback', 'share'] });
    render(<DocsAssistant {...props()} fetch={fetch} />);
    await ask('How do I install it?');
    click(sources()[0]!);
    act(hidePage);
    act(() => void dispatchEvent(new Event('pagehide')));
    await new Promise((done) => setTimeout(done, 50));
    expect(asked.filter((url) => url.endsWith('/health')).length).toBe(1);
    expect(sent).toEqual([]);
  });

  it('sends nothing through a host route (api) or air-gapped', async () => {
    const { fetch, sent, asked } = service();
    const { apiKey: _key, baseUrl: _url, ...rest } = props();
    render(<DocsAssistant {...rest} api="/api/assistant" fetch={fetch} />);
    await ask('How do I install it?');
    click(sources()[0]!);
    act(hidePage);
    expect(sent).toEqual([]);
    expect(asked.some((url) => url.endsWith('/health') || url.endsWith('/events'))).toBe(false);

    const airGapped = service();
    const { unmount } = render(
      <DocsAssistant {...props()} deployment="air-gapped" fetch={airGapped.fetch} />,
    );
    act(hidePage);
    expect(airGapped.asked).toEqual([]);
    unmount();
  });

  it('asks nothing before consent, and drops the clicks still queued when consent is withdrawn', async () => {
    const { fetch, sent, asked } = service();
    const p = props();
    const { rerender } = render(<DocsAssistant {...p} fetch={fetch} consent={{ granted: false }} />);
    await screen.findByRole('button', { name: 'Accept and continue' });
    act(hidePage);
    expect(asked).toEqual([]);

    rerender(<DocsAssistant {...p} fetch={fetch} consent={{ granted: true }} />);
    await ask('How do I install it?');
    click(sources()[0]!);
    // Withdrawn before the batch went: the panel goes, and its queue with it.
    rerender(<DocsAssistant {...p} fetch={fetch} consent={{ granted: false }} />);
    await screen.findByRole('button', { name: 'Accept and continue' });
    act(hidePage);
    act(() => void dispatchEvent(new Event('pagehide')));
    await new Promise((done) => setTimeout(done, 2_500));
    expect(sent).toEqual([]);
  });

  it('survives a failing endpoint (500, refused connection, a failing handler) without an error on the page', async () => {
    const errors = vi.spyOn(console, 'error');
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      let attempt = 0;
      const failures = [
        () => new Response('{"error":"down"}', { status: 500 }),
        () => Promise.reject(new TypeError('fetch failed')),
        () => {
          throw new Error('handler failure');
        },
      ];
      const { fetch, sent } = service({ events: () => failures[attempt++ % failures.length]!() });
      const onError = vi.fn();
      render(<DocsAssistant {...props()} fetch={fetch} onError={onError} />);
      await ask('How do I install it?');
      // One click and one hidden page at a time: each failure meets a request of its own.
      await reach(sources()[0]!);
      for (let i = 0; i < 3; i++) {
        click(sources()[0]!);
        act(hidePage);
        await waitFor(() => expect(sent).toHaveLength(i + 1));
      }
      await new Promise((done) => setTimeout(done, 50));
      // The widget carries on: another question is answered.
      await ask('And theming?');
      // React's test-only act() notices aside, nothing was logged.
      const logged = errors.mock.calls.map((call) => String(call[0]));
      expect(logged.filter((text) => !/not wrapped in act\(/.test(text))).toEqual([]);
      expect(onError).not.toHaveBeenCalled();
      expect(rejections).toEqual([]);
      expect(screen.queryByRole('alert')).toBeNull();
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});
