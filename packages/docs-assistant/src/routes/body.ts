/**
 * Request bodies for the server-side routes of both packages (the service's `readJsonBody`, the
 * proxy, the static export handler). Web-standard, no React.
 *
 * Semantics: a body is read as a stream and abandoned (its reader cancelled) the moment it passes
 * its cap, so an oversized body never sits in memory whole; a declared `Content-Length` over the
 * cap is refused before a byte is read. JSON is UTF-8 only (a byte that is not UTF-8 is refused, not
 * replaced), and empty or blank text is no JSON. Each route words the refusals in its own error body.
 */

/** Caps of one body. */
export interface BodyCaps {
  /** Most bytes of the body, apart from those `meter` sets apart. */
  maxBytes: number;
  /**
   * Given each chunk as it arrives, how many of its bytes count apart (the service's attachments);
   * those are held to `maxApartBytes` instead.
   */
  meter?: (chunk: Uint8Array) => number;
  /** Most bytes `meter` may set apart. @default 0 */
  maxApartBytes?: number;
}

/** A body read whole, or which cap it passed (`body`: `maxBytes`; `apart`: `maxApartBytes`). */
export type BodyRead = { bytes: Uint8Array<ArrayBuffer> } | { tooLarge: 'body' | 'apart' };

/** Reads a request's body within `caps` (see the module's semantics). */
export async function readBody(request: Request, caps: BodyCaps): Promise<BodyRead> {
  const maxApart = caps.maxApartBytes ?? 0;
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > caps.maxBytes + maxApart) {
    return { tooLarge: caps.meter ? 'apart' : 'body' };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  let apart = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (caps.meter) apart += caps.meter(value);
      if (size - apart > caps.maxBytes || apart > maxApart) {
        await reader.cancel().catch(() => undefined);
        return { tooLarge: size - apart > caps.maxBytes ? 'body' : 'apart' };
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { bytes };
}

/** JSON parsed from a body's bytes, or why it is none (`utf8`, `empty`, `syntax` with the parser's reason). */
export type JsonRead = { value: unknown } | { invalid: 'utf8' | 'empty' | 'syntax'; reason: string };

/** Parses UTF-8 bytes as JSON (see the module's semantics). */
export function decodeJson(bytes: Uint8Array): JsonRead {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { invalid: 'utf8', reason: 'it is not UTF-8 text' };
  }
  if (!text.trim()) return { invalid: 'empty', reason: 'it is empty' };
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { invalid: 'syntax', reason: error instanceof Error ? error.message : 'it does not parse' };
  }
}
