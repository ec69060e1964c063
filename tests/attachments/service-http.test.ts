/**
 * Attachments (spec §2.2 `experimental_attachments`) on the reference service over real HTTP on
 * 127.0.0.1: accepted within the protocol's limits (5 MB each, 10 per message), a text file used as
 * the answer's context, and 413 / 400 with a message that names the limit beyond them.
 */
import { readErrorText } from '../../packages/docs-assistant/src/protocol/error-body';
import {
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS_PER_MESSAGE,
} from '../../packages/docs-assistant/src/protocol/limits';
import {
  authHeaders,
  body,
  parseStream,
  type RunningService,
  startService,
  userMessage,
} from '../server/helpers';

let service: RunningService;

beforeAll(async () => {
  service = await startService();
}, 60_000);

afterAll(async () => {
  await service?.close();
});

const dataUrl = (type: string, content: Uint8Array | string) =>
  `data:${type};base64,${Buffer.from(content).toString('base64')}`;

function withAttachments(question: string, attachments: unknown[]) {
  return body(question, {
    messages: [{ ...userMessage(question), experimental_attachments: attachments }],
  });
}

async function post(payload: unknown) {
  const response = await fetch(service.endpoint(), {
    method: 'POST',
    headers: authHeaders(),
    body: JSON.stringify(payload),
  });
  return { status: response.status, text: await response.text() };
}

async function errorOf(payload: unknown) {
  const { status, text } = await post(payload);
  const error = readErrorText(text);
  if (!error) throw new Error(`no error body: ${text}`);
  return { status, error };
}

// A 1×1 PNG.
const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
);

describe('attachments on the v1 endpoint', () => {
  it('accepts an image and a text file, and answers', async () => {
    const { status, text } = await post(
      withAttachments('How do I change the accent color?', [
        { name: 'screenshot.png', contentType: 'image/png', url: dataUrl('image/png', PNG) },
        { name: 'notes.txt', contentType: 'text/plain', url: dataUrl('text/plain', 'Accent is wrong.') },
      ]),
    );
    expect(status).toBe(200);
    const stream = parseStream(text);
    expect(stream.finish?.finishReason).toBe('stop');
    expect(stream.searchResults.map((result) => result.path)).toContain('/guides/theming');
  });

  it('uses a text attachment as context: the attached file decides what a vague question is about', async () => {
    const question = 'What does this setting do?';
    const file = 'notifications={true}\n# shows a badge when something new arrives';
    const without = parseStream((await post(body(question))).text);
    const withFile = parseStream(
      (
        await post(
          withAttachments(question, [
            { name: 'widget-config.txt', contentType: 'text/plain', url: dataUrl('text/plain', file) },
          ]),
        )
      ).text,
    );
    expect(withFile.searchResults[0]?.path).toBe('/guides/notifications');
    expect(without.searchResults[0]?.path).not.toBe('/guides/notifications');
    expect(withFile.text).toMatch(/badge/);
  });

  it(`accepts ${MAX_ATTACHMENTS_PER_MESSAGE} attachments of exactly ${MAX_ATTACHMENT_BYTES} bytes`, async () => {
    const big = new Uint8Array(MAX_ATTACHMENT_BYTES).fill(0x61);
    const url = dataUrl('text/plain', big);
    const attachments = Array.from({ length: MAX_ATTACHMENTS_PER_MESSAGE }, (_, i) => ({
      name: `file-${i}.txt`,
      contentType: 'text/plain',
      url,
    }));
    const { status } = await post(withAttachments('How do I turn dark mode off?', attachments));
    expect(status).toBe(200);
  }, 60_000);

  it('answers 413 naming the 5 MB limit for an attachment one byte over it', async () => {
    const { status, error } = await errorOf(
      withAttachments('Why?', [
        {
          name: 'big.log',
          contentType: 'text/plain',
          url: dataUrl('text/plain', new Uint8Array(MAX_ATTACHMENT_BYTES + 1)),
        },
      ]),
    );
    expect(status).toBe(413);
    expect(error.code).toBe('payload_too_large');
    expect(error.message).toContain('messages.0.experimental_attachments.0');
    expect(error.message).toContain(
      `messages.0.experimental_attachments.0 ("big.log") is ${MAX_ATTACHMENT_BYTES + 1} bytes; each attachment may be at most 5 MB (${MAX_ATTACHMENT_BYTES} bytes)`,
    );
    expect(error.message).toContain('at most 5 MB');
  });

  it(`answers 400 for more than ${MAX_ATTACHMENTS_PER_MESSAGE} attachments`, async () => {
    const one = { name: 'a.txt', contentType: 'text/plain', url: dataUrl('text/plain', 'a') };
    const { status, error } = await errorOf(
      withAttachments('Why?', Array(MAX_ATTACHMENTS_PER_MESSAGE + 1).fill(one)),
    );
    expect(status).toBe(400);
    expect(error.message).toContain(`at most ${MAX_ATTACHMENTS_PER_MESSAGE} attachments (got 11)`);
  });

  it('answers 400 for a type it does not read', async () => {
    const { status, error } = await errorOf(
      withAttachments('Why?', [
        {
          name: 'app.exe',
          contentType: 'application/octet-stream',
          url: dataUrl('application/octet-stream', 'MZ'),
        },
      ]),
    );
    expect(status).toBe(400);
    expect(error.message).toContain('has type "application/octet-stream"; accepted are images');
  });

  it('answers 400 for a URL that is not a data URL (the service fetches nothing)', async () => {
    const { status, error } = await errorOf(
      withAttachments('Why?', [
        { name: 'x.png', contentType: 'image/png', url: 'https://example.com/x.png' },
      ]),
    );
    expect(status).toBe(400);
    expect(error.message).toContain('must be a base64 data URL');
  });

  it('answers 400 for a data URL whose data is not base64', async () => {
    const { status, error } = await errorOf(
      withAttachments('Why?', [{ name: 'x.txt', url: 'data:text/plain;base64,not base64!' }]),
    );
    expect(status).toBe(400);
    expect(error.message).toContain('not valid base64');
  });
});
