#!/usr/bin/env node
/**
 * A conversation with the docs assistant's v2 endpoint from Node, through AI SDK 5's own client
 * pieces: `DefaultChatTransport` (what `useChat` sends and how it reads the answer) and
 * `readUIMessageStream` (how it builds the answer message). Each question is sent with the whole
 * conversation so far, as `useChat` does; the last answer's `metadata.threadId` keeps the thread.
 *
 *   DOCS_ASSISTANT_URL=http://127.0.0.1:8787 DOCS_ASSISTANT_DOMAIN=acme \
 *   DOCS_ASSISTANT_KEY=svc_dsc_… node examples/ai-sdk-5-chat/chat.mjs "How do I enable dark mode?" "And how do I undo that?"
 */

// In your project `ai` is v5 or later. In this repository `ai` is the widget's v4, and v5 is
// installed under the alias `ai-v5`.
const ai = await import('ai').then((module) => ('DefaultChatTransport' in module ? module : import('ai-v5')));
const { DefaultChatTransport, readUIMessageStream } = ai;

const baseUrl = process.env.DOCS_ASSISTANT_URL ?? 'http://127.0.0.1:8787';
const domain = process.env.DOCS_ASSISTANT_DOMAIN;
const apiKey = process.env.DOCS_ASSISTANT_KEY;
if (!domain || !apiKey) {
  console.error(
    'Set DOCS_ASSISTANT_DOMAIN and DOCS_ASSISTANT_KEY (the assistant key, svc_dsc_…); `docs-assistant serve` prints both.',
  );
  process.exit(2);
}
const questions = process.argv.slice(2);
if (!questions.length) questions.push('How do I get started?');

const transport = new DefaultChatTransport({
  api: new URL(`/discovery/v2/assistant/${encodeURIComponent(domain)}/message`, baseUrl).href,
  headers: { Authorization: `Bearer ${apiKey}` },
  body: { fp: 'anonymous', retrievalPageSize: 5 },
});

const messages = [];
for (const [n, question] of questions.entries()) {
  messages.push({ id: `question-${n + 1}`, role: 'user', parts: [{ type: 'text', text: question }] });
  const stream = await transport.sendMessages({
    trigger: 'submit-message',
    chatId: 'example',
    messageId: undefined,
    messages,
    abortSignal: undefined,
  });
  let answer;
  for await (const message of readUIMessageStream({
    stream,
    onError: (error) => console.error(`error: ${error instanceof Error ? error.message : error}`),
  })) {
    answer = message;
  }
  if (!answer) throw new Error('The service answered no message.');
  messages.push(answer);

  const text = answer.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const sources = answer.parts.filter((part) => part.type === 'source-url');
  console.log(`> ${question}\n\n${text}\n`);
  for (const source of sources) console.log(`source: ${source.title ?? source.url} <${source.url}>`);
  console.log(`thread: ${answer.metadata?.threadId}\n`);
}
