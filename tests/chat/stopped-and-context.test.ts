/**
 * What the controller keeps of a stop and of the context a question went with, without React: a
 * stopped answer (or a question stopped before any answer) is noted as stopped and stays so in
 * storage; asking again after such a stop never shows the question twice; Retry asks the stopped
 * question again; the context sent with a question is noted on it and never goes on the wire.
 */
import { formatDataStreamPart } from 'ai';
import { describe, expect, it } from 'vitest';
import { ChatController } from '../../packages/docs-assistant/src/chat/controller';
import { messageText, noteOf } from '../../packages/docs-assistant/src/chat/message-notes';
import type { Place } from '../../packages/docs-assistant/src/chat/session';
import { createMemoryThreadStorage } from '../../packages/docs-assistant/src/chat/storage';
import type { UseDocsAssistantOptions } from '../../packages/docs-assistant/src/chat/types';
import { createContextStore } from '../../packages/docs-assistant/src/context/store';
import { createFetchTransport } from './fetch-transport';
import { answerResponse, baseOptions, controlledStream, ENDPOINT, recordingFetch } from './helpers';

let storages = 0;

function setup(options: Partial<UseDocsAssistantOptions>) {
  const contextStore = createContextStore();
  const all = baseOptions(options);
  const place: Place = {
    storage: createMemoryThreadStorage(`stopped-test:${storages++}`),
    tab: null,
    endpoint: ENDPOINT,
  };
  const controller = new ChatController({ options: () => all, contextStore: () => contextStore, place });
  controller.configure(place, null);
  const transport = createFetchTransport(controller);
  return { controller, transport, contextStore, place };
}

const shown = (messages: { role: string; parts?: never[] | unknown[]; content: string }[]) =>
  messages.map((message) => `${message.role}: ${messageText(message as never)}`);

describe('a stop before any text', () => {
  it('keeps the question, noted stopped (in storage too), and asking again shows it once', async () => {
    const stream = controlledStream();
    const { fetch, calls } = recordingFetch(
      () => stream.response(),
      () => answerResponse('Run npm install.'),
    );
    const { controller, transport, place } = setup({ fetch });
    const sending = controller.send('How do I install it?');
    await transport.until(() => transport.status === 'submitted');
    controller.stop();
    await sending;

    expect(shown(transport.messages)).toEqual(['user: How do I install it?']);
    expect(noteOf(transport.messages[0]!).stopped).toBe(true);
    expect(noteOf(place.storage.load()!.messages[0]!).stopped).toBe(true);

    await controller.send('How do I install it?');
    expect(shown(transport.messages)).toEqual(['user: How do I install it?', 'assistant: Run npm install.']);
    expect(noteOf(transport.messages[0]!).stopped).toBeUndefined();
    // The question went once, not twice, in the second request.
    expect((calls[1]!.body.messages as { content: string }[]).map((message) => message.content)).toEqual([
      'How do I install it?',
    ]);
  });

  it('drops an answer begun without text (sources only) with its question when asking again', async () => {
    const stream = controlledStream();
    const { fetch } = recordingFetch(
      () => stream.response(),
      () => answerResponse('Here it is.'),
    );
    const { controller, transport } = setup({ fetch });
    const sending = controller.send('Where are the keys?');
    stream.write(
      formatDataStreamPart('source', { sourceType: 'url', id: 's1', url: 'https://docs.example.com/keys' }),
    );
    await transport.until(() => transport.messages.length === 2);
    controller.stop();
    await sending;
    expect(noteOf(transport.messages[1]!).stopped).toBe(true);

    await controller.send('Where are the keys?');
    expect(shown(transport.messages)).toEqual(['user: Where are the keys?', 'assistant: Here it is.']);
  });

  it('Retry asks the stopped question again, no longer noted stopped', async () => {
    const stream = controlledStream();
    const { fetch, calls } = recordingFetch(
      () => stream.response(),
      () => answerResponse('Yes.'),
    );
    const { controller, transport } = setup({ fetch });
    const sending = controller.send('Is it free?');
    await transport.until(() => transport.status === 'submitted');
    controller.stop();
    await sending;

    await controller.retry();
    expect(shown(transport.messages)).toEqual(['user: Is it free?', 'assistant: Yes.']);
    expect(noteOf(transport.messages[0]!).stopped).toBeUndefined();
    expect(calls).toHaveLength(2);
  });
});

describe('a stop in the middle of an answer', () => {
  it('keeps the fragment, noted stopped; a finished answer has no note', async () => {
    const stream = controlledStream();
    const { fetch } = recordingFetch(
      () => stream.response(),
      () => answerResponse('Complete.'),
    );
    const { controller, transport } = setup({ fetch });
    const sending = controller.send('Tell me everything.');
    stream.write(formatDataStreamPart('text', 'Tool calls render'));
    await transport.until(() => messageText(transport.messages[1] ?? { parts: [], content: '' }) !== '');
    controller.stop();
    await sending;
    expect(shown(transport.messages)).toEqual(['user: Tell me everything.', 'assistant: Tool calls render']);
    expect(noteOf(transport.messages[1]!).stopped).toBe(true);

    // A new question keeps the stopped answer (it has text) and its note.
    await controller.send('And then?');
    expect(transport.messages).toHaveLength(4);
    expect(noteOf(transport.messages[1]!).stopped).toBe(true);
    expect(noteOf(transport.messages[3]!)).toEqual({});
  });
});

describe('the context a question went with', () => {
  it('is noted on the question, kept in storage, and sent as context only, never in the messages', async () => {
    const { fetch, calls } = recordingFetch(
      () => answerResponse('It installs the package.'),
      () => answerResponse('Yes.'),
    );
    const { controller, transport, contextStore, place } = setup({ fetch });
    contextStore.add({ type: 'code', value: 'npm i docs-assistant' });
    await controller.send('What does this do?');

    expect(noteOf(transport.messages[0]!).context).toEqual([{ type: 'code', value: 'npm i docs-assistant' }]);
    expect(noteOf(place.storage.load()!.messages[0]!).context).toHaveLength(1);
    expect(calls[0]?.body.context).toEqual([{ type: 'code', value: 'npm i docs-assistant' }]);
    expect(JSON.stringify(calls[0]?.body.messages)).not.toContain('docsAssistant');

    await controller.send('Is it safe?');
    expect(JSON.stringify(calls[1]?.body.messages)).not.toContain('docsAssistant');
    expect((calls[1]!.body.messages as object[])[0]).not.toHaveProperty('annotations');
  });
});
