/**
 * maxBodyBytes with attachments: only the attachments' data URLs may take the body past it (one
 * message's worth at their limits); every other byte (questions, history, context, a data URL
 * pasted anywhere else) is still held to maxBodyBytes, while the body is read and once parsed.
 * Over real HTTP on 127.0.0.1, and in-process where the bytes a reader pulled are counted.
 */
import {
  ATTACHMENTS_BODY_ALLOWANCE,
  attachmentUrlBytes,
  dataUrlMeter,
} from '../../packages/docs-assistant-server/src/attachments';
import { authHeaders, body, parseStream, type RunningService, startService, userMessage } from './helpers';

const MAX_BODY = 4096;
const TOO_LARGE = `The request body is larger than ${MAX_BODY} bytes; send less.`;

let running: RunningService;

beforeAll(async () => {
  running = await startService({ maxBodyBytes: MAX_BODY });
}, 60_000);

afterAll(async () => {
  await running?.close();
});

const textUrl = (text: string) => `data:text/plain;base64,${Buffer.from(text).toString('base64')}`;

function withAttachment(question: string, url: string) {
  return body(question, {
    messages: [{ ...userMessage(question), experimental_attachments: [{ name: 'notes.txt', url }] }],
  });
}

async function post(payload: unknown) {
  const response = await fetch(running.endpoint(), {
    method: 'POST',
    headers: authHeaders(),
    body: JSON.stringify(payload),
  });
  return { status: response.status, text: await response.text() };
}

const encoder = new TextEncoder();

/** A body streamed without Content-Length: `head` once, then `chunk` until `limit` bytes were sent. */
function streamed(head: string, chunk: Uint8Array, limit: number) {
  const counter = { sent: 0 };
  let first = true;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (first) {
        first = false;
        const bytes = encoder.encode(head);
        counter.sent += bytes.byteLength;
        return controller.enqueue(bytes);
      }
      if (counter.sent >= limit) return controller.close();
      counter.sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const request = new Request(running.endpoint(), {
    method: 'POST',
    headers: authHeaders(),
    body: stream,
    duplex: 'half',
  } as RequestInit);
  return { counter, request };
}

describe('maxBodyBytes with attachments', () => {
  it('a body past maxBodyBytes by its attachment alone is answered', async () => {
    const file = 'notifications={true}\n'.repeat(50_000); // ~1 MB of file, ~1.4 MB of base64
    const { status, text } = await post(withAttachment('What does this setting do?', textUrl(file)));
    expect(status).toBe(200);
    expect(parseStream(text).finish?.finishReason).toBe('stop');
  });

  it('413 when the text beside an attachment passes maxBodyBytes', async () => {
    const { status, text } = await post(withAttachment('x'.repeat(MAX_BODY + 1), textUrl('a small file')));
    expect(status).toBe(413);
    expect(JSON.parse(text)).toEqual({ error: TOO_LARGE, code: 'payload_too_large' });
  });

  it('413 for a data URL that is no attachment (pasted as the question) past maxBodyBytes', async () => {
    const question = `data:text/plain;base64,${'QUFB'.repeat(MAX_BODY / 2)}`;
    const { status, text } = await post(body(question));
    expect(status).toBe(413);
    expect(JSON.parse(text)).toEqual({ error: TOO_LARGE, code: 'payload_too_large' });
  });

  it('a streamed body whose text goes on after its attachment is refused once maxBodyBytes of text were read', async () => {
    const head = `{"fp":"anonymous","messages":[{"id":"m1","role":"user","experimental_attachments":[{"url":"${textUrl('a'.repeat(200_000))}"}],"content":"`;
    const { counter, request } = streamed(head, encoder.encode('x'.repeat(1024)), 1024 * 1024);
    const response = await running.service.fetch(request);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: TOO_LARGE, code: 'payload_too_large' });
    expect(response.headers.get('connection')).toBe('close');
    // The attachment's bytes, then no more than maxBodyBytes of text and the chunk that passed it.
    expect(counter.sent).toBeLessThan(encoder.encode(head).byteLength + MAX_BODY + 2048);
  });

  it('a streamed data URL that never ends is refused once the allowance was read', async () => {
    const head = `{"fp":"anonymous","messages":[{"id":"m1","role":"user","content":"Why?","experimental_attachments":[{"url":"data:text/plain;base64,`;
    const chunk = encoder.encode('QUFB'.repeat(256 * 1024)); // 1 MiB
    const { counter, request } = streamed(head, chunk, 2 * ATTACHMENTS_BODY_ALLOWANCE);
    const response = await running.service.fetch(request);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toContain(
      "plus one message's attachments (at most 10 files of 5 MB each); send less.",
    );
    expect(counter.sent).toBeLessThan(ATTACHMENTS_BODY_ALLOWANCE + 2 * chunk.byteLength);
  }, 60_000);
});

describe('dataUrlMeter', () => {
  const sample = JSON.stringify({
    fp: 'anonymous',
    note: 'a "quoted" \\ backslash and "data" without its colon: dat',
    messages: [
      {
        content: 'Is data: here counted? No: it does not start the string.',
        experimental_attachments: [
          { name: 'a.txt', url: textUrl('first file') },
          { name: 'b.png', url: 'DATA:image/png;base64,iVBORw0KGgo=' },
          { name: 'c.txt', url: 'data:text/plain;base64,"quote"\\slash\n' },
        ],
      },
    ],
  });

  it('counts exactly the bytes of strings starting with data: (any case), however the body is cut', () => {
    const bytes = encoder.encode(sample);
    const whole = dataUrlMeter()(bytes);
    expect(whole).toBe(attachmentUrlBytes(JSON.parse(sample)));
    expect(whole).toBeGreaterThan(0);
    for (const size of [1, 2, 3, 5, 7, 64]) {
      const meter = dataUrlMeter();
      let apart = 0;
      for (let at = 0; at < bytes.length; at += size) apart += meter(bytes.subarray(at, at + size));
      expect(apart, `chunks of ${size}`).toBe(whole);
    }
  });

  it('sets apart nothing of a body without data URLs', () => {
    expect(dataUrlMeter()(encoder.encode(JSON.stringify(body('What is data: in a URL?'))))).toBe(0);
  });
});
