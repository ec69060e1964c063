/**
 * Request bodies: a cap on the bytes read (hono's `bodyLimit`, answering the service's 413) and
 * JSON read and parsed with the service's 415 and 400 answers, on the body reader the widget's
 * routes share (`docs-assistant/proxy`'s `readBody` and `decodeJson`, whose semantics they keep).
 */

import { decodeJson, readBody } from 'docs-assistant/proxy';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HttpError } from './errors.js';

/** The 413 of a body over `maxBytes`; the rest is left unread, so the connection is closed after it. */
export const bodyTooLarge = (maxBytes: number, message?: string): HttpError =>
  new HttpError(
    413,
    'payload_too_large',
    message ?? `The request body is larger than ${maxBytes} bytes; send less.`,
    {
      headers: { Connection: 'close' },
    },
  );

/**
 * Middleware refusing a body over `maxBytes` before any handler reads it: by `Content-Length`, and
 * by counting a chunked body as it arrives (hono's `bodyLimit`). `message` replaces the 413's
 * sentence (a route whose limit includes attachments says so).
 *
 * @example
 * app.post('/feedback', bodyCap(16 * 1024), handler);
 */
export function bodyCap(maxBytes: number, message?: string): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw bodyTooLarge(maxBytes, message);
    },
  });
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/**
 * Parts of a body a route lets go beyond `maxBytes` (the assistant's attachments): only those, up
 * to their own cap; every other byte of the body is still held to `maxBytes`.
 */
export interface BodyAllowance {
  /** Most bytes of the parts set apart, on top of `maxBytes`. */
  maxBytes: number;
  /** The 413's message when the parts set apart pass their cap; says what to change. */
  tooLarge: string;
  /**
   * A counter for one body: given each chunk as it is read, how many of its bytes may be parts set
   * apart. It bounds the read; it may count too few, never too many (`measure` decides).
   */
  meter: () => (chunk: Uint8Array) => number;
  /** Bytes of the parsed body that are parts set apart, as sent. */
  measure: (body: unknown) => number;
}

/**
 * Reads a JSON body of at most `maxBytes`: 415 when it is not JSON, 413 when too large (by
 * `Content-Length` up front, and by counting while reading, for chunked bodies), 400 when the
 * JSON does not parse. With an `allowance`, the parts it sets apart may add up to its `maxBytes`
 * more, counted apart while reading and exactly once parsed.
 *
 * @example
 * const body = await readJsonBody(c.req.raw, config.maxBodyBytes);
 */
export async function readJsonBody(
  request: Request,
  maxBytes: number,
  allowance?: BodyAllowance,
): Promise<unknown> {
  const type = request.headers.get('content-type');
  if (!type || !JSON_TYPE.test(type)) {
    throw new HttpError(
      415,
      'unsupported_media_type',
      `Send the body as JSON with "Content-Type: application/json" (got ${type ? `"${type}"` : 'no Content-Type'}).`,
    );
  }
  const tooLarge = () => bodyTooLarge(maxBytes);
  const allowanceTooLarge = () => bodyTooLarge(maxBytes, allowance?.tooLarge);
  const read = await readBody(
    request,
    allowance ? { maxBytes, meter: allowance.meter(), maxApartBytes: allowance.maxBytes } : { maxBytes },
  );
  if ('tooLarge' in read) throw read.tooLarge === 'body' ? tooLarge() : allowanceTooLarge();
  const json = decodeJson(read.bytes);
  if ('invalid' in json) {
    const message = {
      utf8: 'The request body is not valid UTF-8 text; send UTF-8 encoded JSON.',
      empty: 'The request body is empty; send a JSON object.',
      syntax: `The request body is not valid JSON: ${json.reason}.`,
    }[json.invalid];
    throw new HttpError(400, 'invalid_json', message);
  }
  const parsed = json.value;
  const size = read.bytes.byteLength;
  if (allowance && size > maxBytes) {
    // The meter only bounded the read: what the parsed body really sets apart decides.
    const exact = allowance.measure(parsed);
    if (size - exact > maxBytes) throw tooLarge();
    if (exact > allowance.maxBytes) throw allowanceTooLarge();
  }
  return parsed;
}
