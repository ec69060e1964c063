// @vitest-environment jsdom
/**
 * The v2 wire against the real service's schema: AI SDK 5's `useChat` (`@ai-sdk/react` v2 over
 * `ai` v5, the real packages) holds two turns with the service over HTTP on 127.0.0.1, and every
 * request body it builds validates against the real v2 request schema, and every finish event
 * against the real finish event (both in tests/fixtures/schemas/, written from the real OpenAPI).
 * The second body carries the first answer as `useChat` keeps it, so whatever the stream sent for
 * the search must be a part the real schema allows.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { act, renderHook, waitFor } from '@testing-library/react';
import { useChat } from 'ai-react-v5';
import { DefaultChatTransport, type UIMessage } from 'ai-v5';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ASSISTANT_KEY, type RunningService, startService } from './helpers';

const SCHEMAS = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'schemas');
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
const schema = (name: string): ValidateFunction =>
  ajv.compile(JSON.parse(readFileSync(join(SCHEMAS, `${name}.schema.json`), 'utf8')));
const requestSchema = schema('discovery-v2-message-request');
const finishSchema = schema('discovery-v2-finish-event');

function expectValid(validate: ValidateFunction, value: unknown): void {
  expect(validate(value), `${ajv.errorsText(validate.errors)} in ${JSON.stringify(value)}`).toBe(true);
}

type Message = UIMessage<{ threadId: string; threadKey?: string }>;

let running: RunningService;
beforeAll(async () => {
  running = await startService({ siteUrl: 'https://docs.acme.test' });
});
afterAll(async () => {
  await running.close();
});

/** Every event of a server-sent event stream, parsed, once it has ended. */
async function eventsOf(stream: ReadableStream<Uint8Array>): Promise<Record<string, unknown>[]> {
  const text = await new Response(stream).text();
  return text
    .split('\n\n')
    .filter((event) => event.startsWith('data: ') && event !== 'data: [DONE]')
    .map((event) => JSON.parse(event.slice('data: '.length)) as Record<string, unknown>);
}

it('useChat’s request bodies and the finish events validate against the real v2 schemas through two turns with a search', async () => {
  const bodies: unknown[] = [];
  const finishes: Promise<Record<string, unknown>[]>[] = [];
  // What useChat sends and receives, seen on the way: the body as sent, the stream as answered.
  const recordingFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    bodies.push(JSON.parse(String(init?.body)));
    const response = await fetch(input, init);
    if (!response.body) return response;
    const [forClient, forTest] = response.body.tee();
    finishes.push(eventsOf(forTest).then((events) => events.filter((event) => event.type === 'finish')));
    return new Response(forClient, { status: response.status, headers: response.headers });
  };
  const transport = new DefaultChatTransport<Message>({
    api: `${running.url}/discovery/v2/assistant/acme/message`,
    headers: { Authorization: `Bearer ${ASSISTANT_KEY}` },
    body: { fp: 'reader-7', retrievalPageSize: 3 },
    fetch: recordingFetch as typeof fetch,
  });
  const { result } = renderHook(() => useChat<Message>({ transport }));

  await act(() => result.current.sendMessage({ text: 'How do I enable dark mode?' }));
  await waitFor(() => expect(result.current.status).toBe('ready'));
  expect(result.current.error).toBeUndefined();
  const first = result.current.messages[1]!;
  // The search shows as the answer's sources.
  expect(
    first.parts.some((part) => part.type === 'source-url' && part.url.includes('/guides/theming#')),
  ).toBe(true);

  await act(() => result.current.sendMessage({ text: 'And how do I undo that?' }));
  await waitFor(() => expect(result.current.status).toBe('ready'));
  expect(result.current.error).toBeUndefined();
  const second = result.current.messages[3]!;
  expect(second.parts.some((part) => part.type === 'text' && part.text.length > 0)).toBe(true);

  expect(bodies).toHaveLength(2);
  for (const body of bodies) expectValid(requestSchema, body);
  // The follow-up carried the first answer back, sources and all.
  const carried = (bodies[1] as { messages: { role: string; parts: { type: string }[] }[] }).messages[1]!;
  expect(carried.role).toBe('assistant');
  expect(carried.parts.map((part) => part.type)).toContain('source-url');

  const finishEvents = (await Promise.all(finishes)).flat();
  expect(finishEvents).toHaveLength(2);
  for (const finish of finishEvents) expectValid(finishSchema, finish);
  const threadId = first.metadata?.threadId;
  expect(threadId).toMatch(/\S/);
  expect(finishEvents.map((finish) => finish.threadId)).toEqual([threadId, threadId]);
  // useChat still reads the thread into the answer's metadata, and the follow-up stayed on it.
  expect(second.metadata?.threadId).toBe(threadId);
});
