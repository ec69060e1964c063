/**
 * Feedback end to end over real HTTP with the reference service: a reader's vote on an answer of
 * their thread (changed, with a comment), the owner's list as JSON and CSV, and every refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_KEY,
  ASSISTANT_KEY,
  authHeaders,
  body,
  DOMAIN,
  parseStream,
  type RunningService,
  startService,
} from './helpers';

let running: RunningService;
let feedbackUrl: string;

beforeAll(async () => {
  // Room for the 100 votes of the cap test.
  running = await startService({
    rateLimits: { perIp: { limit: 10_000 }, perOrganization: { limit: 10_000 } },
  });
  feedbackUrl = `${running.url}/discovery/v1/assistant/${DOMAIN}/feedback`;
});
afterAll(() => running.close());

interface Answered {
  threadId: string;
  threadKey: string;
  messageId: string;
}

/** Asks over HTTP and returns the thread, its key and the answer's message id, as the widget sees them. */
async function askOverHttp(question: string, fp = 'reader-1'): Promise<Answered> {
  const response = await fetch(running.endpoint(), {
    method: 'POST',
    headers: authHeaders(),
    body: JSON.stringify(body(question, { fp })),
  });
  expect(response.status).toBe(200);
  const parsed = parseStream(await response.text());
  const start = parsed.parts.find((part) => part.name === 'startStep')?.value as { messageId: string };
  expect(parsed.finish?.threadId).toMatch(/^thr_/);
  return {
    threadId: parsed.finish!.threadId!,
    threadKey: parsed.finish!.threadKey!,
    messageId: start.messageId,
  };
}

const vote = (payload: unknown, key = ASSISTANT_KEY, url = feedbackUrl) =>
  fetch(url, { method: 'POST', headers: authHeaders(key), body: JSON.stringify(payload) });

const list = (query = '', headers: Record<string, string> = {}, key = ADMIN_KEY) =>
  fetch(`${feedbackUrl}${query}`, { headers: { Authorization: `Bearer ${key}`, ...headers } });

/** Parses the CSV the list answers (RFC 4180: quoted fields, doubled quotes, CRLF rows). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += char;
  }
  return rows;
}

describe('POST …/feedback: a reader votes on an answer of their thread', () => {
  let answered: Answered;
  beforeAll(async () => {
    answered = await askOverHttp('How do I install the widget?');
  });

  it('is listed in /health capabilities, which the widget reads before posting', async () => {
    const health = (await (await fetch(`${running.url}/health`)).json()) as { capabilities: string[] };
    expect(health.capabilities).toContain('feedback');
  });

  it('stores a vote, changes it, adds a comment; one vote per answer; the owner lists it as JSON and CSV', async () => {
    const first = await vote({ ...answered, fp: 'reader-1', rating: 'up' });
    expect(first.status).toBe(200);
    // Readers' browsers post it: CORS for the assistant key's routes.
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    const stored = (await first.json()) as Record<string, string>;
    expect(stored).toEqual({
      threadId: answered.threadId,
      messageId: answered.messageId,
      rating: 'up',
      createdAt: expect.any(String),
      updatedAt: stored.createdAt,
    });

    const comment = 'Missing the "pnpm" line, and =SUM(A1) is not a formula';
    const changed = await vote({ ...answered, fp: 'reader-1', rating: 'down', comment: `  ${comment}  ` });
    expect(changed.status).toBe(200);
    const after = (await changed.json()) as Record<string, string>;
    expect(after).toMatchObject({ rating: 'down', comment, createdAt: stored.createdAt });
    expect(Date.parse(after.updatedAt!)).toBeGreaterThanOrEqual(Date.parse(stored.createdAt!));

    const json = await list();
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    // An admin route: no CORS header, so no page can read it from a browser.
    expect(json.headers.get('access-control-allow-origin')).toBeNull();
    const listed = (await json.json()) as { domain: string; feedback: Array<Record<string, string>> };
    expect(listed.domain).toBe(DOMAIN);
    const mine = listed.feedback.filter((entry) => entry.threadId === answered.threadId);
    expect(mine).toEqual([
      {
        threadId: answered.threadId,
        messageId: answered.messageId,
        rating: 'down',
        comment,
        createdAt: stored.createdAt,
        updatedAt: after.updatedAt,
      },
    ]);

    for (const response of [await list('?format=csv'), await list('', { Accept: 'text/csv' })]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename="feedback-${DOMAIN}.csv"`,
      );
      const rows = parseCsv(await response.text());
      expect(rows[0]).toEqual(['threadId', 'messageId', 'rating', 'comment', 'createdAt', 'updatedAt']);
      expect(rows.find((row) => row[0] === answered.threadId)).toEqual([
        answered.threadId,
        answered.messageId,
        'down',
        comment,
        stored.createdAt,
        after.updatedAt,
      ]);
    }
    // A comment that starts like a formula is kept from running in a spreadsheet.
    await vote({ ...answered, fp: 'reader-1', rating: 'down', comment: '=HYPERLINK("x")' });
    const csv = parseCsv(await (await list('?format=csv')).text());
    expect(csv.find((row) => row[0] === answered.threadId)?.[3]).toBe(`'=HYPERLINK("x")`);
    // JSON keeps the comment as written.
    const again = (await (await list()).json()) as { feedback: Array<Record<string, string>> };
    expect(again.feedback.find((entry) => entry.threadId === answered.threadId)?.comment).toBe(
      '=HYPERLINK("x")',
    );
  });

  it('lists the newest change first, with limit and since', async () => {
    const other = await askOverHttp('What themes are there?', 'reader-2');
    const response = await vote({ ...other, fp: 'reader-2', rating: 'up' });
    const { updatedAt } = (await response.json()) as { updatedAt: string };
    const newest = (await (await list('?limit=1')).json()) as { feedback: Array<Record<string, string>> };
    expect(newest.feedback).toHaveLength(1);
    expect(newest.feedback[0]).toMatchObject({ threadId: other.threadId, rating: 'up' });
    const since = (await (await list(`?since=${encodeURIComponent(updatedAt)}`)).json()) as {
      feedback: Array<Record<string, string>>;
    };
    expect(since.feedback.every((entry) => entry.updatedAt! >= updatedAt)).toBe(true);
    expect(since.feedback.some((entry) => entry.threadId === other.threadId)).toBe(true);
  });

  it('refuses what is not a vote with a 400 that names each problem', async () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [{ ...answered, fp: 'reader-1', rating: 'meh' }, 'rating', /must be "up" or "down"/],
      [
        { ...answered, fp: 'reader-1', rating: 'up', comment: 'x'.repeat(1001) },
        'comment',
        /at most 1000 characters \(got 1001\)/,
      ],
      [{ ...answered, fp: 'reader-1', rating: 'up', comment: 5 }, 'comment', /expected a string/],
      [
        { threadId: answered.threadId, fp: 'reader-1', messageId: 'm', rating: 'up' },
        'threadKey',
        /thread's key/,
      ],
      [{ ...answered, fp: 'reader-1', messageId: '', rating: 'up' }, 'messageId', /required/],
      [{ ...answered, rating: 'up', fp: undefined }, 'fp', /fingerprint/],
      [[1, 2], '(body)', /expected a JSON object/],
    ];
    for (const [payload, path, message] of cases) {
      const response = await vote(payload);
      expect(response.status, JSON.stringify(payload).slice(0, 80)).toBe(400);
      const error = (await response.json()) as {
        error: string;
        code: string;
        issues: Array<{ path: string }>;
      };
      expect(error.code).toBe('invalid_request');
      expect(error.error).toMatch(message);
      expect(error.issues.map((issue) => issue.path)).toContain(path);
    }
    // A comment of exactly the limit is fine.
    expect(
      (await vote({ ...answered, fp: 'reader-1', rating: 'up', comment: 'y'.repeat(1000) })).status,
    ).toBe(200);
  });

  it('answers 404 for a wrong thread key, another reader or an unknown thread (all alike), and refuses the wrong keys', async () => {
    for (const payload of [
      { ...answered, threadKey: 'thk_wrong', fp: 'reader-1', rating: 'up' },
      { ...answered, fp: 'someone-else', rating: 'up' },
      { ...answered, threadId: 'thr_nope', fp: 'reader-1', rating: 'up' },
    ]) {
      const response = await vote(payload);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { code: string }).code).toBe('thread_not_found');
    }
    expect((await vote({ ...answered, fp: 'reader-1', rating: 'up' }, ADMIN_KEY)).status).toBe(403);
    const unknown = await vote(
      { ...answered, fp: 'reader-1', rating: 'up' },
      ASSISTANT_KEY,
      `${running.url}/discovery/v1/assistant/nope/feedback`,
    );
    expect(unknown.status).toBe(404);
  });
});

describe('votes per thread', () => {
  it(`caps a thread at ${100} answers with a vote (409 past it); a vote given can still change`, async () => {
    const thread = await askOverHttp('How do I configure the theme?', 'reader-cap');
    // In process, not over 100 sockets: the same app and storage answer.
    const voteOn = (messageId: string, rating = 'up') =>
      running.service.fetch(
        new Request(feedbackUrl, {
          method: 'POST',
          headers: authHeaders(),
          body: JSON.stringify({ ...thread, fp: 'reader-cap', messageId, rating }),
        }),
      );
    for (let i = 0; i < 100; i++) expect((await voteOn(`msg_${i}`)).status).toBe(200);
    const over = await voteOn('msg_100');
    expect(over.status).toBe(409);
    expect(((await over.json()) as { error: string }).error).toMatch(/already has votes on 100 answers/);
    expect((await voteOn('msg_7', 'down')).status).toBe(200);
  });
});

describe('GET …/feedback: the owner only', () => {
  it('refuses the assistant key (403, saying which key), no key (401), and bad queries (400)', async () => {
    const assistant = await list('', {}, ASSISTANT_KEY);
    expect(assistant.status).toBe(403);
    expect(((await assistant.json()) as { error: string }).error).toMatch(
      /listing feedback needs an admin API key/,
    );
    const none = await fetch(feedbackUrl);
    expect(none.status).toBe(401);
    expect(none.headers.get('access-control-allow-origin')).toBeNull();
    for (const query of ['?limit=0', '?limit=1001', '?limit=ten', '?since=yesterday', '?format=xml']) {
      const response = await list(query);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { code: string }).code).toBe('invalid_request');
    }
  });
});
