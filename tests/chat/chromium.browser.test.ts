/**
 * The chat core in Chromium, where the audit found its defects: the hook with the browser's own
 * `fetch`, `localStorage` and header rules, against a real HTTP server on 127.0.0.1 that breaks its
 * answers on purpose. The page shows the hook's state as JSON and exposes `send` and `retry`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { formatDataStreamPart } from 'ai';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWidgetPage, type WidgetPage } from '../ui/widget-page';
import { DATA_STREAM_HEADERS, finishLine, serveHttp } from './helpers';

const root = resolve(import.meta.dirname, '../.artifacts/chat-chromium');
const src = resolve(import.meta.dirname, '../../packages/docs-assistant/src');

const MAIN = `
import { createRoot } from 'react-dom/client';
import { useDocsAssistant } from '${src}/chat/use-docs-assistant';

const q = new URLSearchParams(location.search);
function App() {
  const state = useDocsAssistant({
    domain: 'acme',
    apiKey: q.get('key') ?? 'svc_dsc_browser',
    baseUrl: q.get('base'),
    headers: q.get('headers') ? JSON.parse(q.get('headers')) : undefined,
  });
  window.chat = state;
  const text = (m) => m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
  const shown = {
    status: state.status,
    error: state.error,
    configError: state.configError,
    messages: state.messages.map((m) => ({ role: m.role, text: text(m) })),
  };
  return <pre id="state">{JSON.stringify(shown)}</pre>;
}
createRoot(document.getElementById('app')).render(<App />);
`;

interface Shown {
  status: string;
  error: { kind: string; detail?: string; retryable: boolean } | null;
  configError: { kind: string; detail?: string; message: string } | null;
  messages: Array<{ role: string; text: string }>;
}

let widgetPage: WidgetPage | undefined;

beforeAll(async () => {
  widgetPage = await serveWidgetPage(root, { title: 'chat core', main: MAIN });
});

afterAll(async () => {
  await widgetPage?.close();
});

/** An assistant endpoint for a page on another origin: CORS, then `answer` per POST (0, 1, …). */
async function assistantServer(
  answer: (request: IncomingMessage, response: ServerResponse, post: number) => void,
) {
  let posts = 0;
  const server = await serveHttp((request, response) => {
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': 'authorization, content-type, x-api-key',
      'Access-Control-Allow-Methods': 'POST',
    };
    if (request.method === 'OPTIONS') {
      response.writeHead(204, cors);
      response.end();
      return;
    }
    for (const [name, value] of Object.entries(cors)) response.setHeader(name, value);
    answer(request, response, posts++);
  });
  return { ...server, posts: () => posts };
}

async function open(query: Record<string, string>) {
  const context = await widgetPage!.browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(8_000);
  await page.goto(`${widgetPage!.origin}/?${new URLSearchParams(query)}`);
  await page.waitForSelector('#state');
  return { page, close: () => context.close() };
}

const shown = async (page: Page): Promise<Shown> =>
  JSON.parse((await page.locator('#state').textContent()) ?? 'null') as Shown;

/** Waits until the page's state passes `check`, and hands it back. */
async function until(page: Page, check: (state: Shown) => boolean): Promise<Shown> {
  await page.waitForFunction((source) => {
    const state = JSON.parse(document.getElementById('state')?.textContent ?? 'null');
    return new Function('state', `return (${source})(state)`)(state);
  }, check.toString());
  return shown(page);
}

const stored = (page: Page) =>
  page.evaluate(() =>
    (
      JSON.parse(localStorage.getItem('docs-assistant:v1:acme') ?? '{"messages":[]}') as {
        messages: Array<{ content: string }>;
      }
    ).messages.map((m) => m.content),
  );

describe('the chat core in Chromium', () => {
  it('keeps a cut-off answer through a failed Retry and a reload; a Retry that answers replaces it', async () => {
    // Chromium resends a request whose reused connection closed before any response, so the
    // Retry fails only while this says so, however often it is sent.
    let answering = false;
    const server = await assistantServer((request, response, post) => {
      if (post === 0) {
        // A whole line, then a clean end without the finish part.
        response.writeHead(200, DATA_STREAM_HEADERS);
        response.end(formatDataStreamPart('text', 'Long partial answer…'));
      } else if (!answering) {
        request.socket.destroy();
      } else {
        response.writeHead(200, DATA_STREAM_HEADERS);
        response.end(formatDataStreamPart('text', 'The whole answer.') + finishLine());
      }
    });
    const { page, close } = await open({ base: server.baseUrl });
    try {
      await page.evaluate(() =>
        (window as unknown as { chat: { send(q: string): Promise<void> } }).chat.send('Q?'),
      );
      let state = await until(page, (s) => s.status === 'error');
      expect(state.error).toMatchObject({ kind: 'stream', retryable: true });
      expect(state.error?.detail).toMatch(/finish part/);
      expect(state.messages).toEqual([
        { role: 'user', text: 'Q?' },
        { role: 'assistant', text: 'Long partial answer…' },
      ]);

      await page.evaluate(() => (window as unknown as { chat: { retry(): Promise<void> } }).chat.retry());
      state = await until(page, (s) => s.status === 'error' && s.error?.kind === 'network');
      expect(server.posts()).toBeGreaterThanOrEqual(2);
      expect(state.messages.map((m) => m.text)).toEqual(['Q?', 'Long partial answer…']);
      expect(await stored(page)).toEqual(['Q?', 'Long partial answer…']);

      answering = true;
      await page.reload();
      state = await until(page, (s) => s.messages.length === 2);
      expect(state.messages.map((m) => m.text)).toEqual(['Q?', 'Long partial answer…']);

      await page.evaluate(() => (window as unknown as { chat: { retry(): Promise<void> } }).chat.retry());
      state = await until(page, (s) => s.status === 'ready' && s.messages[1]?.text === 'The whole answer.');
      expect(state.error).toBeNull();
      expect(state.messages).toHaveLength(2);
      await page.waitForFunction(() =>
        localStorage.getItem('docs-assistant:v1:acme')?.includes('The whole answer.'),
      );
    } finally {
      await close();
      await server.close();
    }
  });

  it('an empty 200 is a stream error, not an answer', async () => {
    const server = await assistantServer((_request, response) => {
      response.writeHead(200, DATA_STREAM_HEADERS);
      response.end();
    });
    const { page, close } = await open({ base: server.baseUrl });
    try {
      await page.evaluate(() =>
        (window as unknown as { chat: { send(q: string): Promise<void> } }).chat.send('Q?'),
      );
      const state = await until(page, (s) => s.status === 'error');
      expect(state.error).toMatchObject({ kind: 'stream', retryable: true });
      expect(state.messages.map((m) => m.text)).toEqual(['Q?']);
    } finally {
      await close();
      await server.close();
    }
  });

  it('baseUrl at the docs site (the page’s own server): a config error that says to check baseUrl', async () => {
    const { page, close } = await open({ base: widgetPage!.origin });
    try {
      await page.evaluate(() =>
        (window as unknown as { chat: { send(q: string): Promise<void> } }).chat.send('Q?'),
      );
      const state = await until(page, (s) => s.status === 'error');
      expect(state.error).toMatchObject({ kind: 'config', retryable: false });
      expect(state.error?.detail).toContain('Content-Type text/html');
      expect(state.error?.detail).toContain('starting "<!doctype html>');
      expect(state.error?.detail).toContain('Check baseUrl');
      expect(state.messages.map((m) => m.text)).toEqual(['Q?']);
    } finally {
      await close();
    }
  });

  it.each([
    [{ key: 'svc_dsc_pub\r\nX: 1' }, /^apiKey contains a carriage return \(U\+000D\) at position 11/],
    [{ headers: JSON.stringify({ 'X-Trace': 'a\nb' }) }, /^headers\["X-Trace"\] contains a line feed/],
    [{ headers: JSON.stringify({ authorization: 'Bearer svc_live_admin123' }) }, /holds an admin key/],
    [{ headers: JSON.stringify({ 'X-API-Key': 'svc_live_admin123' }) }, /holds an admin key/],
  ])('refuses %j before any request, saying which value to change', async (query, detail) => {
    const server = await assistantServer((_request, response) => {
      response.writeHead(500);
      response.end();
    });
    const { page, close } = await open({ base: server.baseUrl, ...query });
    try {
      const state = await until(page, (s) => s.configError !== null);
      expect(state.configError?.kind).toBe('config');
      expect(state.configError?.detail).toMatch(detail);
      await page.evaluate(() =>
        (window as unknown as { chat: { send(q: string): Promise<void> } }).chat.send('Q?'),
      );
      expect((await shown(page)).error).toBeNull();
      expect(server.requests()).toBe(0);
    } finally {
      await close();
      await server.close();
    }
  });
});
