/**
 * Feedback on the in-memory service (a browser, a worker, Storybook): votes kept in its `Map`
 * storage the way the SQL storage keeps them (one per answer, changeable, listed to the admin).
 */
import { describe, expect, it } from 'vitest';
import { createInMemoryAssistant } from '../../packages/docs-assistant-server/src/in-memory';
import { ASSISTANT_KEY, authHeaders, body, parseStream } from './helpers';

describe('feedback on the in-memory service', () => {
  it('stores a vote, replaces it, keeps createdAt, lists it to the admin as JSON and CSV', async () => {
    const assistant = createInMemoryAssistant({
      files: { 'install.md': '# Install\n\nRun `npm install docs-assistant` to install the widget.\n' },
      domain: 'acme',
      assistantKey: ASSISTANT_KEY,
    });
    const base = 'http://mock/discovery/v1/assistant/acme';
    const answered = parseStream(
      await (
        await assistant.fetch(
          new Request(`${base}/message`, {
            method: 'POST',
            headers: authHeaders(),
            body: JSON.stringify(body('How do I install it?')),
          }),
        )
      ).text(),
    );
    const { messageId } = answered.parts.find((part) => part.name === 'startStep')!.value as {
      messageId: string;
    };
    const vote = (rating: string, comment?: string) =>
      assistant.fetch(
        new Request(`${base}/feedback`, {
          method: 'POST',
          headers: authHeaders(),
          body: JSON.stringify({
            threadId: answered.finish!.threadId,
            threadKey: answered.finish!.threadKey,
            fp: 'anonymous',
            messageId,
            rating,
            comment,
          }),
        }),
      );
    const first = (await (await vote('up')).json()) as Record<string, string>;
    const second = (await (await vote('down', 'Out of date')).json()) as Record<string, string>;
    expect(second).toMatchObject({ rating: 'down', comment: 'Out of date', createdAt: first.createdAt });

    const adminKey = assistant.config.organizations[0]!.adminKeys[0]!;
    const listed = await assistant.fetch(
      new Request(`${base}/feedback`, { headers: { Authorization: `Bearer ${adminKey}` } }),
    );
    expect(((await listed.json()) as { feedback: unknown[] }).feedback).toEqual([
      {
        threadId: answered.finish!.threadId,
        messageId,
        rating: 'down',
        comment: 'Out of date',
        createdAt: first.createdAt,
        updatedAt: second.updatedAt,
      },
    ]);
    const csv = await assistant.fetch(
      new Request(`${base}/feedback?format=csv`, { headers: { Authorization: `Bearer ${adminKey}` } }),
    );
    expect((await csv.text()).split('\r\n')[1]).toBe(
      `${answered.finish!.threadId},${messageId},down,Out of date,${first.createdAt},${second.updatedAt}`,
    );
  });
});
