import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { parseStreamLine } from '../../packages/docs-assistant/src/protocol';
import {
  type AssistantService,
  type AssistantServiceOptions,
  createAssistantService,
} from '../../packages/docs-assistant-server/src/service';

// A string, not `new URL(…)`: under jsdom `URL` is jsdom's, which node:url does not accept.
export const FIXTURE_DOCS = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'docs');
export const ASSISTANT_KEY = 'svc_dsc_test_assistant';
export const ADMIN_KEY = 'svc_test_admin';
export const DOMAIN = 'acme';

export interface RunningService {
  service: AssistantService;
  url: string;
  endpoint: (domain?: string) => string;
  close: () => Promise<void>;
}

/** Starts the service on 127.0.0.1 on a free port. */
export async function startService(options: Partial<AssistantServiceOptions> = {}): Promise<RunningService> {
  const service = createAssistantService({
    docs: FIXTURE_DOCS,
    domain: DOMAIN,
    assistantKey: ASSISTANT_KEY,
    adminKey: ADMIN_KEY,
    warn: () => {},
    ...options,
  } as AssistantServiceOptions);
  await service.ready();
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
    (resolve) => {
      const server = serve({ fetch: service.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        resolve({ server, port: info.port }),
      );
    },
  );
  const url = `http://127.0.0.1:${port}`;
  return {
    service,
    url,
    endpoint: (domain = DOMAIN) => `${url}/discovery/v1/assistant/${domain}/message`,
    close: async () => {
      await new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      });
      await service.close();
    },
  };
}

export function userMessage(text: string, id = `m-${text.length}-${text.slice(0, 8)}`) {
  return { id, role: 'user', content: text, parts: [{ type: 'text', text }] };
}

export function body(question: string, extra: Record<string, unknown> = {}) {
  return { fp: 'anonymous', messages: [userMessage(question)], retrievalPageSize: 5, ...extra };
}

/** An MCP `tools/call` of `search` over HTTP (stateless, no key), as an agent sends it to `<origin>/mcp`. */
export const mcpSearch = (origin: string, query: string): Request =>
  new Request(`${origin}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search', arguments: { query } },
    }),
  });

export const authHeaders = (key = ASSISTANT_KEY) => ({
  Authorization: `Bearer ${key}`,
  'Content-Type': 'application/json',
});

export interface ParsedStream {
  parts: { name: string; value: unknown }[];
  text: string;
  finish: { threadId?: string; threadKey?: string; finishReason?: string } | undefined;
  searchResults: { title: string; path: string; url: string; snippet: string; metadata: { title: string } }[];
}

/** Parses a whole data stream body; fails the test on any malformed line. */
export function parseStream(raw: string): ParsedStream {
  const parts: { name: string; value: unknown }[] = [];
  for (const line of raw.split('\n')) {
    if (!line) continue;
    const parsed = parseStreamLine(line);
    if (!parsed.ok) throw new Error(`bad stream line: ${parsed.reason}`);
    parts.push({ name: parsed.name, value: parsed.value });
  }
  const text = parts
    .filter((p) => p.name === 'text')
    .map((p) => p.value as string)
    .join('');
  const finish = parts.find((p) => p.name === 'finishMessage')?.value as ParsedStream['finish'];
  // The `search` tool's result is an array of items, as the real service sends it.
  const toolResult = parts.find((p) => p.name === 'toolResult')?.value as
    | { result: ParsedStream['searchResults'] }
    | undefined;
  if (toolResult && !Array.isArray(toolResult.result)) throw new Error('the search result is not an array');
  return { parts, text, finish, searchResults: toolResult?.result ?? [] };
}

/** Asks a question in-process and parses the answer. */
export async function ask(
  service: AssistantService,
  question: string,
  extra: Record<string, unknown> = {},
): Promise<ParsedStream & { status: number }> {
  const response = await service.fetch(
    new Request(`http://local/discovery/v1/assistant/${DOMAIN}/message`, {
      method: 'POST',
      headers: authHeaders(),
      body: JSON.stringify(body(question, extra)),
    }),
  );
  const raw = await response.text();
  if (response.status !== 200) throw new Error(`status ${response.status}: ${raw}`);
  return { status: response.status, ...parseStream(raw) };
}
