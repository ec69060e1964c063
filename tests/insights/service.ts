/**
 * The reference service with some traffic recorded, for the insights panel's tests: questions the
 * fixture docs answer and one they do not, a down-vote, searches (one without results) and a
 * beacon click, all over real HTTP; then the recorder's batch is written.
 */
import { authHeaders, body, DOMAIN, parseStream, type RunningService, startService } from '../server/helpers';

export { ADMIN_KEY, DOMAIN } from '../server/helpers';

export const QUESTIONS = [
  'How do I set up authentication?',
  'How do I change the theme colours?',
  'How do notifications work?',
  'How do I get started?',
];
/** Nothing in the fixture docs is about this. */
export const UNANSWERABLE = 'Can I pay the invoice with a cheque?';

async function ask(running: RunningService, question: string, fp: string) {
  const response = await fetch(running.endpoint(), {
    method: 'POST',
    headers: authHeaders(),
    body: JSON.stringify(body(question, { fp })),
  });
  if (response.status !== 200)
    throw new Error(`asking answered ${response.status}: ${await response.text()}`);
  const parsed = parseStream(await response.text());
  const start = parsed.parts.find((part) => part.name === 'startStep')?.value as { messageId: string };
  return {
    threadId: parsed.finish!.threadId!,
    threadKey: parsed.finish!.threadKey!,
    messageId: start.messageId,
  };
}

const post = (url: string, payload: unknown) =>
  fetch(url, { method: 'POST', headers: authHeaders(), body: JSON.stringify(payload) });

/** Starts the service and records the traffic; `close` stops it. */
export async function seededService(): Promise<RunningService & { unanswered: string }> {
  const running = await startService({
    rateLimits: { perIp: { limit: 10_000 }, perOrganization: { limit: 10_000 } },
  });
  const base = `${running.url}/discovery/v1`;
  for (const [i, question] of QUESTIONS.entries()) await ask(running, question, `reader-${i % 2}`);
  const unanswered = await ask(running, UNANSWERABLE, 'reader-2');
  const voted = await post(`${base}/assistant/${DOMAIN}/feedback`, {
    threadId: unanswered.threadId,
    threadKey: unanswered.threadKey,
    fp: 'reader-2',
    messageId: unanswered.messageId,
    rating: 'down',
  });
  if (!voted.ok) throw new Error(`the vote answered ${voted.status}`);
  for (const query of ['theming', 'authentication', 'zebra crossing quota']) {
    await post(`${base}/search/${DOMAIN}`, { query });
  }
  const clicked = await post(`${base}/assistant/${DOMAIN}/events`, {
    fp: 'reader-1',
    events: [{ type: 'search-click', path: '/guides/theming', query: 'theming', position: 1 }],
  });
  if (clicked.status !== 202) throw new Error(`the beacon answered ${clicked.status}`);
  await running.service.insights?.flush();
  return { ...running, unanswered: unanswered.threadId };
}
