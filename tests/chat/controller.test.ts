/**
 * The conversation controller without React: every transition of its table (docs/architecture.md,
 * "The chat controller"), driven through the v4 client's own `callChatApi` (see `fetch-transport.ts`)
 * with stream bodies written by the AI SDK's server helpers.
 */
import { createDataStreamResponse, formatDataStreamPart } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { checkConfig } from '../../packages/docs-assistant/src/chat/config';
import { ChatController } from '../../packages/docs-assistant/src/chat/controller';
import type { Place } from '../../packages/docs-assistant/src/chat/session';
import {
  createMemoryThreadStorage,
  resolveThreadStorage,
  storedConversations,
} from '../../packages/docs-assistant/src/chat/storage';
import type {
  AssistantMessage,
  StoredThread,
  ThreadStorage,
  UseDocsAssistantOptions,
} from '../../packages/docs-assistant/src/chat/types';
import { createContextStore } from '../../packages/docs-assistant/src/context/store';
import { createFetchTransport } from './fetch-transport';
import {
  answerResponse,
  baseOptions,
  controlledStream,
  EARLIER_TURN,
  ENDPOINT,
  errorResponse,
  finishLine,
  memoryThreadStorage,
  recordingFetch,
  textOf,
} from './helpers';

let storages = 0;

function setup(options: Partial<UseDocsAssistantOptions>, storage?: ThreadStorage) {
  const contextStore = createContextStore();
  const all = baseOptions({ fp: 'reader-1', retrievalPageSize: 3, currentPath: '/guides/setup', ...options });
  const place: Place = {
    storage: storage ?? createMemoryThreadStorage(`controller-test:${storages++}`),
    tab: null,
    endpoint: ENDPOINT,
  };
  const controller = new ChatController({ options: () => all, contextStore: () => contextStore, place });
  controller.configure(place, null);
  const transport = createFetchTransport(controller);
  return { controller, transport, contextStore, place };
}

/** The log as `from -event-> to` lines. */
const steps = (controller: ChatController) =>
  controller.log.map((entry) => `${entry.from} -${entry.event}-> ${entry.to}`);

const ANSWER_STEPS = ['idle -send-> submitted', 'submitted -answer-> streaming', 'streaming -finish-> done'];

const storedMessages = (storage: ThreadStorage) => storage.load()?.messages.map((message) => textOf(message));

describe('ChatController: a question and its answer', () => {
  it('goes idle → submitted → streaming → done, sending the spec body and keeping the thread', async () => {
    const { fetch, calls } = recordingFetch(
      () => answerResponse('Run npm install.', { threadId: 'thread-1', threadKey: 'key-1' }),
      () => answerResponse('Yes.', { threadId: 'thread-1' }),
    );
    const onFinish = vi.fn();
    const { controller, transport, contextStore, place } = setup({ fetch, onFinish });
    contextStore.add({ type: 'code', value: 'npm i docs-assistant' });
    expect(controller.getSnapshot().phase).toBe('idle');

    await controller.send('How do I install it?');

    expect(steps(controller)).toEqual(ANSWER_STEPS);
    expect(calls[0]?.body).toEqual({
      fp: 'reader-1',
      retrievalPageSize: 3,
      currentPath: '/guides/setup',
      context: [{ type: 'code', value: 'npm i docs-assistant' }],
      messages: [expect.objectContaining({ role: 'user', content: 'How do I install it?' })],
    });
    expect(contextStore.getSnapshot()).toEqual([]);
    expect(controller.getSnapshot().session).toMatchObject({ threadId: 'thread-1', threadKey: 'key-1' });
    expect(onFinish).toHaveBeenCalledWith(expect.objectContaining({ role: 'assistant' }), {
      threadId: 'thread-1',
    });
    expect(textOf(transport.messages[1])).toBe('Run npm install.');

    await controller.send('Is that all?');
    expect(calls[1]?.body).toMatchObject({ threadId: 'thread-1', threadKey: 'key-1' });
    expect(calls[1]?.body).not.toHaveProperty('context');
    expect(steps(controller).slice(3)).toEqual(['done -send-> submitted', ...ANSWER_STEPS.slice(1)]);
    expect(place.storage.load()).toMatchObject({ threadId: 'thread-1', threadKey: 'key-1' });
    expect(storedMessages(place.storage)).toEqual([
      'How do I install it?',
      'Run npm install.',
      'Is that all?',
      'Yes.',
    ]);
  });

  it('goes submitted → done for an answer without any part to show', async () => {
    const { fetch } = recordingFetch(() =>
      createDataStreamResponse({
        execute(stream) {
          stream.write(finishLine({ threadId: 'thread-quiet' }));
        },
      }),
    );
    const { controller } = setup({ fetch });
    await controller.send('Anything?');
    expect(steps(controller)).toEqual(['idle -send-> submitted', 'submitted -finish-> done']);
    expect(controller.getSnapshot().session.threadId).toBe('thread-quiet');
  });

  it('sends nothing with a config error, for an empty question, or while a request runs', async () => {
    const stream = controlledStream();
    const { fetch, calls } = recordingFetch(() => stream.response());
    const { controller, transport, place } = setup({ fetch });
    controller.configure(
      place,
      checkConfig({ domain: 'acme', apiKey: 'svc_live_admin123', baseUrl: ENDPOINT }),
    );
    await controller.send('Blocked?');
    await controller.retry();
    expect(calls).toHaveLength(0);
    expect(controller.log).toEqual([]);

    controller.configure(place, null);
    await controller.send('   ');
    expect(calls).toHaveLength(0);
    const sending = controller.send('One at a time?');
    await controller.send('And another?');
    await controller.retry();
    stream.write(formatDataStreamPart('text', 'Yes.'));
    stream.write(finishLine());
    stream.close();
    await sending;
    expect(calls).toHaveLength(1);
    expect(transport.messages.map((message) => message.content)).toEqual(['One at a time?', 'Yes.']);
    expect(steps(controller)).toEqual(ANSWER_STEPS);
  });
});

describe('ChatController: stop', () => {
  it('stops during the first token: streaming → stopped, the token kept and saved', async () => {
    const stream = controlledStream();
    const { fetch } = recordingFetch(() => stream.response());
    const { controller, transport, place } = setup({ fetch });
    const sending = controller.send('Tell me everything.');
    stream.write(formatDataStreamPart('start_step', { messageId: 'msg-1' }));
    stream.write(formatDataStreamPart('text', 'First'));
    await transport.until(() => textOf(transport.messages[1]) === 'First');
    expect(controller.getSnapshot().phase).toBe('streaming');

    controller.stop();
    await sending;

    expect(steps(controller)).toEqual([...ANSWER_STEPS.slice(0, 2), 'streaming -stop-> stopped']);
    expect(transport.status).toBe('ready');
    expect(storedMessages(place.storage)).toEqual(['Tell me everything.', 'First']);
    // The stop cancelled the response's body: nothing more can come.
    expect(() => stream.write(formatDataStreamPart('text', ' and more'))).toThrow();
    expect(textOf(transport.messages[1])).toBe('First');
  });

  it('stops before any token: submitted → stopped, and the next question goes', async () => {
    const stream = controlledStream();
    const { fetch } = recordingFetch(
      () => stream.response(),
      () => answerResponse('Here.'),
    );
    const { controller, transport } = setup({ fetch });
    const sending = controller.send('Slow one?');
    await transport.until(() => transport.status === 'submitted');
    controller.stop();
    await sending;
    expect(steps(controller)).toEqual(['idle -send-> submitted', 'submitted -stop-> stopped']);

    await controller.send('Fast one?');
    expect(steps(controller).slice(2)).toEqual(['stopped -send-> submitted', ...ANSWER_STEPS.slice(1)]);
    expect(textOf(transport.messages.at(-1))).toBe('Here.');
  });
});

describe('ChatController: reload mid-stream', () => {
  it('ignores a retry while the answer streams, and a page reload keeps what had arrived', async () => {
    const stream = controlledStream();
    const { fetch, calls } = recordingFetch(() => stream.response());
    const storage = createMemoryThreadStorage(`controller-test:${storages++}`);
    const { controller, transport } = setup({ fetch }, storage);
    const sending = controller.send('A long answer, please.');
    stream.write(formatDataStreamPart('text', 'Half of it'));
    await transport.until(() => textOf(transport.messages[1]) === 'Half of it');

    await controller.retry();
    expect(calls).toHaveLength(1);

    // The page goes away (the widget unmounts): the request stops, what arrived is saved.
    controller.leave();
    await sending;
    expect(storedMessages(storage)).toEqual(['A long answer, please.', 'Half of it']);

    // The page comes back: a new controller opens the same conversation, idle.
    const { controller: again } = setup({ fetch }, storage);
    expect(again.getSnapshot().phase).toBe('idle');
    expect(again.getSnapshot().session.initialMessages.map((message) => textOf(message))).toEqual([
      'A long answer, please.',
      'Half of it',
    ]);
  });

  it('retry replaces the last answer (error → submitted → done) and resends its context', async () => {
    const { fetch, calls } = recordingFetch(
      () => errorResponse(503, 'overloaded', 'Try again.'),
      () => answerResponse('Second try.'),
    );
    const { controller, transport, contextStore } = setup({ fetch });
    contextStore.add({ type: 'textSelection', value: 'the install section' });
    await controller.send('What does this mean?');
    expect(steps(controller)).toEqual(['idle -send-> submitted', 'submitted -fail-> error']);

    await controller.retry();
    expect(steps(controller).slice(2)).toEqual(['error -retry-> submitted', ...ANSWER_STEPS.slice(1)]);
    expect(calls[1]?.body.context).toEqual(calls[0]?.body.context);
    expect(transport.messages.map((message) => textOf(message))).toEqual([
      'What does this mean?',
      'Second try.',
    ]);
  });

  it('a retry that fails before any new answer shows (and keeps) the answer it was to replace', async () => {
    const { fetch } = recordingFetch(
      () => answerResponse('The first answer.'),
      () => errorResponse(500, 'internal', 'Broken.'),
    );
    const { controller, transport, place } = setup({ fetch });
    await controller.send('Q?');
    await controller.retry();
    expect(steps(controller).slice(3)).toEqual(['done -retry-> submitted', 'submitted -fail-> error']);
    expect(transport.messages.map((message) => textOf(message))).toEqual(['Q?', 'The first answer.']);
    expect(storedMessages(place.storage)).toEqual(['Q?', 'The first answer.']);
  });
});

const threadNotFound = () => errorResponse(404, 'thread_not_found', 'Unknown threadId "gone".');
const goneThread = () =>
  memoryThreadStorage({ threadId: 'gone', threadKey: 'gone-key', messages: EARLIER_TURN });

describe('ChatController: a 404 on the thread', () => {
  it('thread-lost, then one resend as a new thread; the reader sees no error', async () => {
    const { storage, saved } = goneThread();
    const { fetch, calls } = recordingFetch(threadNotFound, () =>
      answerResponse('A fresh start.', { threadId: 'thread-new' }),
    );
    const onError = vi.fn();
    const { controller, transport } = setup({ fetch, onError }, storage);
    const recovering: boolean[] = [];
    controller.subscribe(() => recovering.push(controller.getSnapshot().recovering));

    await controller.send('And how long is it kept?');

    expect(steps(controller)).toEqual([
      'idle -send-> submitted',
      'submitted -thread-lost-> submitted',
      'submitted -resend-> submitted',
      'submitted -answer-> streaming',
      'streaming -finish-> done',
    ]);
    expect(recovering).toContain(true);
    expect(controller.getSnapshot().recovering).toBe(false);
    expect(onError).not.toHaveBeenCalled();
    expect(calls[0]?.body).toMatchObject({ threadId: 'gone', threadKey: 'gone-key' });
    expect(calls[1]?.body).not.toHaveProperty('threadId');
    expect(calls[1]?.body).not.toHaveProperty('threadKey');
    expect(controller.getSnapshot().session.threadId).toBe('thread-new');
    expect(transport.messages.map((message) => textOf(message))).toEqual([
      ...EARLIER_TURN.map((message) => textOf(message)),
      'And how long is it kept?',
      'A fresh start.',
    ]);
    expect(saved()).toMatchObject({ threadId: 'thread-new' });
    expect(saved()).not.toHaveProperty('threadKey');
  });

  it('resends once: a 404 to the resend is an error the reader sees', async () => {
    const { storage } = goneThread();
    const { fetch, calls } = recordingFetch(threadNotFound);
    const onError = vi.fn();
    const { controller, transport } = setup({ fetch, onError }, storage);
    await controller.send('Still there?');
    expect(calls).toHaveLength(2);
    expect(steps(controller)).toEqual([
      'idle -send-> submitted',
      'submitted -thread-lost-> submitted',
      'submitted -resend-> submitted',
      'submitted -fail-> error',
    ]);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(controller.errorOf(transport.error)).toBe(onError.mock.calls[0]?.[0]);
    expect(controller.errorOf(transport.error)).toMatchObject({ kind: 'request', status: 404 });
  });

  it('a stop between the 404 and the resend sends nothing more', async () => {
    const { storage } = goneThread();
    const { fetch, calls } = recordingFetch(threadNotFound, () => answerResponse('never'));
    const { controller } = setup({ fetch }, storage);
    controller.subscribe(() => {
      if (controller.log.at(-1)?.event === 'thread-lost') controller.stop();
    });
    await controller.send('Stop it.');
    expect(calls).toHaveLength(1);
    expect(steps(controller)).toEqual([
      'idle -send-> submitted',
      'submitted -thread-lost-> submitted',
      'submitted -stop-> stopped',
    ]);
    expect(controller.getSnapshot().session.threadId).toBeUndefined();
  });
});

describe('ChatController: errors mapped', () => {
  it('a 429 is a rate-limit error with its wait; the phase is error', async () => {
    const { fetch } = recordingFetch(() =>
      errorResponse(429, 'rate_limited', 'Slow down.', { 'Retry-After': '30' }),
    );
    const onError = vi.fn();
    const { controller, transport } = setup({ fetch, onError });
    await controller.send('Quick?');
    expect(steps(controller)).toEqual(['idle -send-> submitted', 'submitted -fail-> error']);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ kind: 'rate-limit', retryAfter: 30 }));
    expect(controller.errorOf(transport.error)).toMatchObject({ kind: 'rate-limit', retryable: true });
  });

  it('an error part mid-answer: streaming → error, the partial answer kept, the later thread taken', async () => {
    const { fetch } = recordingFetch(() =>
      createDataStreamResponse({
        execute(stream) {
          stream.write(formatDataStreamPart('text', 'Part of it'));
          stream.write(formatDataStreamPart('error', 'The model provider failed'));
          stream.write(finishLine({ threadId: 'thread-after-error' }));
        },
      }),
    );
    const { controller, transport } = setup({ fetch });
    await controller.send('Go on?');
    expect(steps(controller)).toEqual([...ANSWER_STEPS.slice(0, 2), 'streaming -fail-> error']);
    expect(controller.errorOf(transport.error)).toMatchObject({
      kind: 'stream',
      detail: 'The server sent an error part: The model provider failed',
    });
    expect(textOf(transport.messages[1])).toBe('Part of it');
    await transport.until(() => controller.getSnapshot().session.threadId === 'thread-after-error');
  });

  it('a refused connection is a network error', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('fetch failed');
    });
    const { controller, transport } = setup({ fetch });
    await controller.send('Anyone?');
    expect(steps(controller)).toEqual(['idle -send-> submitted', 'submitted -fail-> error']);
    expect(controller.errorOf(transport.error)).toMatchObject({ kind: 'network', retryable: true });
  });
});

describe('ChatController: new conversation, other options', () => {
  it('reset mid-answer: idle, nothing of the old answer lands, the stored conversation kept as at its last pause', async () => {
    const stream = controlledStream();
    const { fetch } = recordingFetch(
      () => answerResponse('Kept first.', { threadId: 'thread-1' }),
      () => stream.response(),
    );
    const { controller, transport, place } = setup({ fetch });
    await controller.send('First?');
    const sending = controller.send('Second?');
    stream.write(formatDataStreamPart('text', 'Partly'));
    await transport.until(() => textOf(transport.messages[3]) === 'Partly');

    controller.newConversation();
    // The reset cancelled the old answer's body: nothing more of it can come.
    expect(() => stream.write(formatDataStreamPart('text', ' more'))).toThrow();
    await sending;

    expect(steps(controller).slice(3)).toEqual([
      ...ANSWER_STEPS.slice(0, 2).map((step) => step.replace('idle', 'done')),
      'streaming -reset-> idle',
    ]);
    expect(transport.messages).toEqual([]);
    expect(controller.getSnapshot().session.threadId).toBeUndefined();
    expect(place.storage.load()?.messages.map((m) => m.content)).toEqual([
      'First?',
      'Kept first.',
      'Second?',
    ]);
  });

  it('another storage or endpoint opens that conversation (open → idle); the same one changes nothing', async () => {
    const { fetch } = recordingFetch(() => answerResponse('Hi.'));
    const { controller, place } = setup({ fetch });
    controller.configure({ ...place }, null);
    expect(controller.log).toEqual([]);
    const { storage } = memoryThreadStorage({ threadId: 'other', messages: EARLIER_TURN });
    controller.configure({ ...place, storage }, null);
    expect(steps(controller)).toEqual(['idle -open-> idle']);
    expect(controller.getSnapshot().session).toMatchObject({
      threadId: 'other',
      initialMessages: EARLIER_TURN,
    });
  });
});

/** Two tabs' storages over one stored value; a save in one reaches the other later, as the storage event does. */
function twoTabs() {
  let value: string | null = null;
  const listeners = [
    new Set<(thread: StoredThread | null) => void>(),
    new Set<(thread: StoredThread | null) => void>(),
  ];
  const read = (): StoredThread | null => (value === null ? null : (JSON.parse(value) as StoredThread));
  const tab = (index: 0 | 1): ThreadStorage => {
    const changed = () =>
      queueMicrotask(() => {
        for (const listener of listeners[1 - index]!) listener(read());
      });
    return {
      load: read,
      save(thread) {
        value = JSON.stringify(thread);
        changed();
      },
      clear() {
        value = null;
        changed();
      },
      subscribe(listener) {
        listeners[index]!.add(listener);
        return () => listeners[index]!.delete(listener);
      },
    };
  };
  return {
    tabs: [resolveThreadStorage(tab(0), 'acme'), resolveThreadStorage(tab(1), 'acme')] as const,
    stored: () => storedConversations(read()),
  };
}

describe('ChatController: two tabs', () => {
  it('an idle empty tab follows the other tab’s conversation (follow → idle)', async () => {
    const { tabs } = twoTabs();
    const { fetch } = recordingFetch(() => answerResponse('Shared.', { threadId: 'thread-a' }));
    const a = setup({ fetch }, tabs[0]);
    const b = setup({ fetch }, tabs[1]);
    const stop = b.controller.connect(tabs[1]);
    await a.controller.send('From tab A?');
    await b.transport.until(() => b.transport.messages.length === 2);
    expect(steps(b.controller).at(-1)).toBe('idle -follow-> idle');
    expect(b.controller.getSnapshot().session.threadId).toBe('thread-a');
    expect(b.transport.messages.map((message) => textOf(message))).toEqual(['From tab A?', 'Shared.']);
    stop();
  });

  it('two tabs answering at once each keep their own conversation; neither follows the other meanwhile', async () => {
    const { tabs, stored } = twoTabs();
    const streamA = controlledStream();
    const streamB = controlledStream();
    const a = setup({ fetch: recordingFetch(() => streamA.response()).fetch }, tabs[0]);
    const b = setup({ fetch: recordingFetch(() => streamB.response()).fetch }, tabs[1]);
    const stops = [a.controller.connect(tabs[0]), b.controller.connect(tabs[1])];
    const sendingA = a.controller.send('Question A?');
    const sendingB = b.controller.send('Question B?');
    for (const [stream, text] of [
      [streamA, 'Answer A.'],
      [streamB, 'Answer B.'],
    ] as const) {
      stream.write(formatDataStreamPart('text', text));
      stream.write(finishLine());
      stream.close();
    }
    await Promise.all([sendingA, sendingB]);
    // Let the last save of each reach the other tab.
    await a.transport.until(() => stored().length === 2);
    await new Promise<void>((resolve) => queueMicrotask(resolve));

    for (const [tab, own] of [
      [a, ['Question A?', 'Answer A.']],
      [b, ['Question B?', 'Answer B.']],
    ] as const) {
      expect(tab.transport.messages.map((message: AssistantMessage) => textOf(message))).toEqual(own);
      expect(steps(tab.controller)).toEqual(ANSWER_STEPS);
    }
    expect(
      stored()
        .map((conversation) => conversation.messages.map((message) => textOf(message)))
        .sort(),
    ).toEqual([
      ['Question A?', 'Answer A.'],
      ['Question B?', 'Answer B.'],
    ]);
    for (const stop of stops) stop();
  });
});
