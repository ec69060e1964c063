/**
 * The widget as stories render it: the real `<DocsAssistant>` with a replaying `fetch` and a
 * storage of its own, so no story's conversation shows up in another.
 */
import { forwardRef, type ReactNode, useState } from 'react';
import type { StoredThread, ThreadStorage } from '../../packages/docs-assistant/src/chat/types';
import {
  DocsAssistant,
  type DocsAssistantHandle,
  type DocsAssistantProps,
} from '../../packages/docs-assistant/src/index';
import { THREAD_KEY_HEADER } from '../../packages/docs-assistant/src/protocol/index';
import { type Reply, replayFetch } from './replay';

/** Connection props of every story: a public assistant key and a base URL nothing ever reaches. */
export const CONNECTION = {
  domain: 'docs-assistant',
  apiKey: 'svc_dsc_storybook_public_key',
  baseUrl: 'https://api.example.com',
  docsBaseUrl: 'https://docs.example.com',
} as const;

/** A storage that lives as long as the story: starts empty or with a stored conversation. */
export function storyStorage(initial?: StoredThread): ThreadStorage {
  let thread: StoredThread | null = initial ?? null;
  return {
    load: () => thread,
    save: (next) => {
      thread = next;
    },
    clear: () => {
      thread = null;
    },
  };
}

export interface StoryAssistantProps extends Omit<DocsAssistantProps, 'fetch' | 'storage'> {
  /** What the "server" answers, one reply per request (the last repeats). */
  replies: Reply[];
  /** Delay between streamed lines (in ms). */
  pacingMs: number;
  /** A conversation already in storage when the story opens. */
  restored?: StoredThread;
  /** Host page content around the widget (docs text and code blocks for the collectors). */
  page?: ReactNode;
  /** Width of the inline panel's frame (in px). @default 440 */
  frameWidth?: number;
  /**
   * What the service's `GET /health` lists as its capabilities (`share`); without it the health
   * check gets the next reply like any request, as before.
   */
  capabilities?: string[];
}

/** Whether a request to the assistant continues a thread (its body names one). */
function continuesThread(init: RequestInit | undefined): boolean {
  if (typeof init?.body !== 'string') return false;
  try {
    return !!(JSON.parse(init.body) as { threadId?: unknown }).threadId;
  } catch {
    return false;
  }
}

/**
 * A service that answers `/health` with the given capabilities, and everything else with `replay`
 * the way the reference service does: the first answer of a new thread carries the thread's key
 * (`X-Thread-Key`), which the reader's later requests, Share and feedback send back. Without the
 * key the widget has no thread it may share, and "Share" never showed in any story.
 */
function asService(replay: typeof fetch, capabilities: string[]): typeof fetch {
  let threads = 0;
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.endsWith('/health')) {
      return new Response(JSON.stringify({ ok: true, capabilities }), {
        headers: { 'Content-Type': 'application/json' },
      });
    }
    const response = await replay(input, init);
    if (!response.ok || continuesThread(init)) return response;
    const headers = new Headers(response.headers);
    headers.set(THREAD_KEY_HEADER, `tk_story_${++threads}`);
    return new Response(response.body, { status: response.status, headers });
  };
}

export const StoryAssistant = forwardRef<DocsAssistantHandle, StoryAssistantProps>(function StoryAssistant(
  { replies, pacingMs, restored, page, frameWidth = 440, capabilities, ...props },
  ref,
) {
  // Created once per mounted story: a control change keeps the conversation on screen.
  const [fetch] = useState(() => {
    const replay = replayFetch(replies, { delayMs: pacingMs }).fetch;
    return capabilities ? asService(replay, capabilities) : replay;
  });
  const [storage] = useState(() => storyStorage(restored));
  const widget = <DocsAssistant ref={ref} {...props} fetch={fetch} storage={storage} />;
  if ((props.variant ?? 'floating') !== 'inline') {
    return (
      <>
        {page}
        {widget}
      </>
    );
  }
  return (
    <>
      {page}
      <div style={{ maxWidth: frameWidth }}>{widget}</div>
    </>
  );
});
StoryAssistant.displayName = 'StoryAssistant';

/** A docs page for the host side of a story: text to select and a code block to ask about. */
export function DocsPage({ children }: { children?: ReactNode }) {
  return (
    <main style={{ maxWidth: 640, fontFamily: 'system-ui, sans-serif', lineHeight: 1.5 }}>
      <h1>Getting started</h1>
      <p data-story="paragraph">
        The assistant answers from your documentation. Readers select a sentence or a code block and ask about
        it; the selection travels with the question as context.
      </p>
      <pre
        data-story="code"
        style={{
          background: '#f6f8fa',
          border: '1px solid #d0d7de',
          borderRadius: 6,
          padding: '0.75rem 1rem',
        }}
      >
        <code>{"npm install docs-assistant\nimport 'docs-assistant/styles.css';"}</code>
      </pre>
      {children}
    </main>
  );
}
