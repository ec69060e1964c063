/**
 * The `openai` engine against a scripted OpenAI-compatible server over HTTP on 127.0.0.1 (no model
 * is reachable here): a `node:http` server that answers `POST /v1/chat/completions` with the
 * chat-completion chunks each test scripts, as server-sent events, and records every request. The
 * service itself runs over HTTP too. Issue 37: answers only from the numbered passages, every `[n]`
 * checked against the sources sent, no model call when the search found nothing, the same parts
 * and related pages as the extractive engine.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createExtractiveEngine } from '../../packages/docs-assistant-server/src/engines/extractive';
import { createOpenAIEngine } from '../../packages/docs-assistant-server/src/engines/openai';
import {
  authHeaders,
  body,
  type ParsedStream,
  parseStream,
  type RunningService,
  startService,
} from './helpers';
import { SITES_DIR } from './sites-corpora';

const ORBIT = join(SITES_DIR, 'orbit');

/** One scripted reply: an HTTP error, or the deltas of a streamed completion. */
type Reply = { status: number } | { deltas: { content?: string; reasoning_content?: string }[] };

interface ScriptedModel {
  baseURL: string;
  /** Request bodies received, in order. */
  requests: { model: string; messages: { role: string; content: unknown }[]; stream?: boolean }[];
  /** Replies to give, in order; each request takes the next. */
  script: Reply[];
  close: () => Promise<void>;
}

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

function chunk(delta: Record<string, unknown>, finish: string | null = null, usage?: Record<string, number>) {
  const data = {
    id: 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created: 1_765_000_000,
    model: 'scripted',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(usage ? { usage } : {}),
  };
  return `data: ${JSON.stringify(data)}\n\n`;
}

async function startScriptedModel(): Promise<ScriptedModel> {
  const model = { requests: [], script: [] } as unknown as ScriptedModel;
  const server: Server = createServer(async (request, response) => {
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      response.writeHead(404).end();
      return;
    }
    model.requests.push(JSON.parse(await readBody(request)));
    const reply = model.script.shift() ?? { status: 500 };
    if ('status' in reply) {
      response.writeHead(reply.status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'scripted failure', type: 'server_error' } }));
      return;
    }
    response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    response.write(chunk({ role: 'assistant', content: '' }));
    for (const delta of reply.deltas) response.write(chunk(delta));
    response.write(chunk({}, 'stop', { prompt_tokens: 50, completion_tokens: 7, total_tokens: 57 }));
    response.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  model.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  model.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return model;
}

async function askOver(running: RunningService, question: string, extra: Record<string, unknown> = {}) {
  const response = await fetch(running.endpoint(), {
    method: 'POST',
    headers: authHeaders(),
    body: JSON.stringify(body(question, extra)),
  });
  expect(response.status).toBe(200);
  return parseStream(await response.text());
}

const partNames = (answer: ParsedStream) => answer.parts.map((part) => part.name);
const sourceUrls = (answer: ParsedStream) =>
  answer.parts.filter((part) => part.name === 'source').map((part) => (part.value as { url: string }).url);

describe('openai engine over HTTP against a scripted OpenAI-compatible server', () => {
  let model: ScriptedModel;
  let running: RunningService;

  beforeAll(async () => {
    model = await startScriptedModel();
    running = await startService({
      engine: createOpenAIEngine({
        baseURL: model.baseURL,
        apiKey: 'sk-scripted',
        modelId: 'scripted',
        maxRetries: 0,
      }),
    });
  });
  afterAll(async () => {
    await running.close();
    await model.close();
  });
  beforeEach(() => {
    model.requests.length = 0;
    model.script.length = 0;
  });

  it('drops a citation of a passage that was not sent, keeps the ones that were, split or not', async () => {
    model.script.push({
      deltas: [
        { reasoning_content: 'Passage 1 is about dark mode. ' },
        { content: 'Set the theme to dark [' },
        { content: '1]. See also [7] and [2, 9]; ' },
        { content: 'an array item stays `items[8]`.' },
      ],
    });
    const answer = await askOver(running, 'How do I enable dark mode?');
    expect(model.requests).toHaveLength(1);
    expect(answer.searchResults.length).toBeLessThan(7);
    expect(answer.text).toMatch(
      /^Set the theme to dark \[1\]\. See also and \[2\]; an array item stays `items\[8\]`\./,
    );
    expect(answer.text).not.toMatch(/\[7\]|\[2, 9\]/);
    // The `h:` parts are the sources the text still cites, with their search results' links.
    expect(sourceUrls(answer)).toEqual([answer.searchResults[0]!.url, answer.searchResults[1]!.url]);
    expect(answer.parts.filter((p) => p.name === 'reasoning').map((p) => p.value)).toEqual([
      'Passage 1 is about dark mode. ',
    ]);
    expect(answer.finish).toMatchObject({
      finishReason: 'stop',
      usage: { promptTokens: 50, completionTokens: 7 },
    });
  });

  it('sends the model only the numbered passages of the sources, and the question last', async () => {
    model.script.push({ deltas: [{ content: 'Use `theme="dark"` [1].' }] });
    const answer = await askOver(running, 'How do I enable dark mode?');
    const [request] = model.requests;
    expect(request?.model).toBe('scripted');
    expect(request?.stream).toBe(true);
    const system = String(request?.messages[0]?.content);
    expect(request?.messages[0]?.role).toBe('system');
    expect(system).toContain('using only the numbered passages below');
    expect(system).toContain(`the only numbers are [1] to [${answer.searchResults.length}]`);
    for (const [i, result] of answer.searchResults.entries())
      expect(system).toMatch(
        new RegExp(`\\[${i + 1}\\] .*\\(${result.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`),
      );
    // The fixture's folder has no site config: the site is named by its domain.
    expect(system).toContain('documentation assistant of the acme docs');
    expect(request?.messages.at(-1)).toEqual({ role: 'user', content: 'How do I enable dark mode?' });
  });

  it('declines without calling the model when the search found nothing, naming the site and the closest pages', async () => {
    // A Mintlify site whose docs.json names it "Orbit".
    const orbit = await startService({
      docs: ORBIT,
      engine: createOpenAIEngine({ baseURL: model.baseURL, modelId: 'scripted', maxRetries: 0 }),
    });
    try {
      const answer = await askOver(orbit, 'How do I bake sourdough bread?');
      expect(model.requests).toHaveLength(0);
      expect(answer.text).toMatch(/^The Orbit docs don't cover that/);
      expect(answer.text).toMatch(/```suggestions\n\(.+\)\[\/.*\]/);
      expect(sourceUrls(answer)).toEqual([]);
      expect(answer.finish?.finishReason).toBe('stop');
    } finally {
      await orbit.close();
    }
  });

  it('asks the model about a selected passage even when the question alone finds nothing', async () => {
    model.script.push({ deltas: [{ content: 'It means the widget follows the system theme [1].' }] });
    const selection = {
      type: 'textSelection',
      value: 'theme="system" follows the operating system',
      path: '/guides/theming',
    };
    const answer = await askOver(running, 'Explain this in simpler words', { context: [selection] });
    expect(model.requests).toHaveLength(1);
    expect(String(model.requests[0]?.messages[0]?.content)).toContain(selection.value);
    expect(answer.text).toMatch(/^It means the widget follows the system theme \[1\]\./);
  });

  it('streams the same parts as the extractive engine, and ends with its related pages', async () => {
    model.script.push({ deltas: [{ content: 'Use `theme="dark"` [1].' }] });
    const fromModel = await askOver(running, 'How do I enable dark mode?');
    const extractive = await startService({ engine: createExtractiveEngine() });
    try {
      const offline = await askOver(extractive, 'How do I enable dark mode?');
      expect(new Set(partNames(fromModel))).toEqual(new Set(partNames(offline)));
      const related = (text: string) => /```suggestions\n[\s\S]*```$/.exec(text)?.[0];
      expect(related(fromModel.text)).toBeDefined();
      expect(related(offline.text)).toBeDefined();
      // The same engine-independent search results, so the same numbers mean the same pages.
      expect(fromModel.searchResults).toEqual(offline.searchResults);
    } finally {
      await extractive.close();
    }
  });

  it('sends an error part when the model server fails', async () => {
    model.script.push({ status: 500 });
    const answer = await askOver(running, 'How do I enable dark mode?');
    expect(model.requests.length).toBeGreaterThanOrEqual(1);
    expect(partNames(answer)).toContain('error');
    expect(answer.finish?.finishReason).toBe('error');
  });
});
