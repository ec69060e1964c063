/**
 * Attachments of the v1 assistant request (spec §2.2 `experimental_attachments`): the limits the
 * widget enforces too (`docs-assistant/protocol`), checked on every message, and the text files of
 * the latest question turned into context items, so they inform the search and the answer like a
 * selection from the page does.
 */
import {
  type AssistantRequest,
  ATTACHMENT_IMAGE_TYPES,
  type Attachment,
  type Context,
  formatBytes,
  isTextAttachmentType,
  MAX_ATTACHMENT_BYTES,
  MAX_ATTACHMENTS_PER_MESSAGE,
  parseDataUrl,
} from 'docs-assistant/protocol';
import { type BodyAllowance, HttpError } from './http/index.js';
import { utf8Length } from './limits.js';

/**
 * Bytes of request body allowed on top of `maxBodyBytes` for the attachments' data URLs: one
 * message's worth at the limits (base64 takes 4 bytes per 3, plus the data URL's head). The widget
 * sends attachments with the latest question only, so a longer conversation does not grow by them.
 */
export const ATTACHMENTS_BODY_ALLOWANCE =
  MAX_ATTACHMENTS_PER_MESSAGE * (Math.ceil(MAX_ATTACHMENT_BYTES / 3) * 4 + 1024);

/**
 * The allowance the v1 endpoint reads its body with: only the data URLs of
 * `messages[].experimental_attachments[].url` go beyond `maxBodyBytes`; the rest of the body
 * (questions, history, context) is held to `maxBodyBytes` as without attachments.
 */
export function attachmentsBodyAllowance(maxBodyBytes: number): BodyAllowance {
  return {
    maxBytes: ATTACHMENTS_BODY_ALLOWANCE,
    tooLarge: `The request body is larger than ${maxBodyBytes} bytes plus one message's attachments (at most ${MAX_ATTACHMENTS_PER_MESSAGE} files of ${formatBytes(MAX_ATTACHMENT_BYTES)} each); send less.`,
    meter: dataUrlMeter,
    measure: attachmentUrlBytes,
  };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** `data:`, its letters in lower case (a data URL's scheme is case-insensitive). */
const DATA_SCHEME = [0x64, 0x61, 0x74, 0x61, 0x3a];

/**
 * Counts, chunk by chunk, the bytes of JSON strings that start with `data:`: the only ones that
 * can be attachments. Anything else (a long question, a padded field) counts against
 * `maxBodyBytes` as it arrives, so such a body is refused once `maxBodyBytes` have been read.
 * A data URL that is no attachment is caught once parsed (`attachmentUrlBytes`).
 */
export function dataUrlMeter(): (chunk: Uint8Array) => number {
  let inString = false;
  let escaped = false;
  // Bytes of `data:` matched at the start of the current string; -1 once it cannot be one.
  let matched = -1;
  return (chunk) => {
    let apart = 0;
    // Next quote and backslash at or after i, found natively: base64 holds neither, so a data URL's
    // megabytes are skipped in a few calls rather than walked byte by byte.
    let quote = -1;
    let backslash = -1;
    for (let i = 0; i < chunk.length; i++) {
      if (!inString) {
        if (chunk[i] === QUOTE) {
          inString = true;
          matched = 0;
        }
        continue;
      }
      const data = matched === DATA_SCHEME.length;
      if (escaped) {
        escaped = false;
        if (data) apart++;
        else matched = -1;
        continue;
      }
      if (data) {
        if (quote < i) quote = indexOrEnd(chunk, QUOTE, i);
        if (backslash < i) backslash = indexOrEnd(chunk, BACKSLASH, i);
        const end = Math.min(quote, backslash);
        apart += end - i;
        i = end;
        if (i === chunk.length) break;
      }
      const byte = chunk[i]!;
      if (byte === QUOTE) inString = false;
      else if (byte === BACKSLASH) {
        escaped = true;
        if (data) apart++;
        else matched = -1;
      } else if (matched >= 0 && matched < DATA_SCHEME.length) {
        const lower = matched < 4 ? byte | 0x20 : byte;
        matched = lower === DATA_SCHEME[matched] ? matched + 1 : -1;
        // The scheme is part of the data URL too (as `attachmentUrlBytes` counts it).
        if (matched === DATA_SCHEME.length) apart += DATA_SCHEME.length;
      }
    }
    return apart;
  };
}

// JSON.stringify escapes every control character, so printable ASCII is all it leaves of ASCII.
const ASCII = /^[\x20-\x7e]*$/;

function indexOrEnd(chunk: Uint8Array, byte: number, from: number): number {
  const at = chunk.indexOf(byte, from);
  return at < 0 ? chunk.length : at;
}

/**
 * Bytes the data URLs of the attachments take in the JSON body (the characters between their
 * quotes), read from the parsed body before it is validated, so anything unexpected counts 0.
 */
export function attachmentUrlBytes(body: unknown): number {
  const messages = (body as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) return 0;
  let bytes = 0;
  for (const message of messages) {
    const attachments = (message as { experimental_attachments?: unknown } | null)?.experimental_attachments;
    if (!Array.isArray(attachments)) continue;
    for (const attachment of attachments) {
      const url = (attachment as { url?: unknown } | null)?.url;
      if (typeof url !== 'string' || !/^data:/i.test(url)) continue;
      // As JSON.stringify writes it, less its quotes (a sender's extra escapes, like `\/`, count
      // against maxBodyBytes). Base64 data URLs are ASCII: their length is their byte count.
      const json = JSON.stringify(url);
      bytes += (ASCII.test(json) ? json.length : utf8Length(json)) - 2;
    }
  }
  return bytes;
}

const ACCEPTED = `images (${ATTACHMENT_IMAGE_TYPES.join(', ')}) and text or code files (text/*, application/json, …)`;

interface Problem {
  path: string;
  message: string;
}

/**
 * 400 for attachments that are too many, not a base64 data URL, or of a type the service does not
 * read; 413 for one larger than `MAX_ATTACHMENT_BYTES`. Each message says the limit.
 */
export function checkAttachments(request: AssistantRequest): void {
  const invalid: Problem[] = [];
  const tooLarge: Problem[] = [];
  request.messages.forEach((message, index) => {
    const attachments = message.experimental_attachments ?? [];
    const path = `messages.${index}.experimental_attachments`;
    if (attachments.length > MAX_ATTACHMENTS_PER_MESSAGE) {
      invalid.push({
        path,
        message: `must hold at most ${MAX_ATTACHMENTS_PER_MESSAGE} attachments (got ${attachments.length}); send fewer`,
      });
    }
    attachments.forEach((attachment, at) => {
      const problem = attachmentProblem(attachment);
      if (problem)
        (problem.tooLarge ? tooLarge : invalid).push({ path: `${path}.${at}`, message: problem.message });
    });
  });
  const list = (problems: Problem[]) => problems.map((p) => `${p.path} ${p.message}`).join('; ');
  if (invalid.length) {
    throw new HttpError(400, 'invalid_request', `Invalid attachments: ${list(invalid)}.`, {
      issues: invalid,
    });
  }
  if (tooLarge.length) {
    throw new HttpError(413, 'payload_too_large', `Attachment too large: ${list(tooLarge)}.`, {
      issues: tooLarge,
    });
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function attachmentProblem(attachment: Attachment): { message: string; tooLarge?: boolean } | null {
  // Said before each problem, after the attachment's path: `….2 ("build.log") is 6.2 MB; …`.
  const name = attachment.name ? `("${attachment.name}") ` : '';
  const data = parseDataUrl(attachment.url);
  if (!data) {
    return {
      message: `${name}url must be a base64 data URL (data:<type>;base64,…), not a link; the service fetches nothing`,
    };
  }
  if (!BASE64.test(data.base64)) {
    return { message: `${name}url is a data URL whose data is not valid base64` };
  }
  const type = (attachment.contentType ?? data.contentType).split(';')[0]!.trim().toLowerCase();
  if (!ATTACHMENT_IMAGE_TYPES.includes(type) && !isTextAttachmentType(type)) {
    return { message: `${name}has type "${type}"; accepted are ${ACCEPTED}` };
  }
  if (data.bytes > MAX_ATTACHMENT_BYTES) {
    return {
      message: `${name}is ${data.bytes} bytes; each attachment may be at most ${formatBytes(MAX_ATTACHMENT_BYTES)} (${MAX_ATTACHMENT_BYTES} bytes)`,
      tooLarge: true,
    };
  }
  return null;
}

/** Characters of an attached file kept as context: a file is context, not the question. */
const MAX_CONTEXT_CHARS = 20_000;

const PROSE_TYPES = new Set(['text/plain', 'text/markdown', 'text/x-markdown', 'text/csv', 'text/html']);

/**
 * The text attachments of the latest user message as context items (`code` for code, else
 * `textSelection`), their file name as `path`. Images are left to engines that read them.
 */
export function attachmentContext(request: AssistantRequest): Context[] {
  const last = request.messages.at(-1);
  const items: Context[] = [];
  for (const attachment of last?.experimental_attachments ?? []) {
    const data = parseDataUrl(attachment.url);
    if (!data) continue;
    const type = (attachment.contentType ?? data.contentType).split(';')[0]!.trim().toLowerCase();
    if (!isTextAttachmentType(type)) continue;
    const text = decodeBase64Text(data.base64).slice(0, MAX_CONTEXT_CHARS).trim();
    if (!text) continue;
    items.push({
      type: PROSE_TYPES.has(type) && !isCodeName(attachment.name) ? 'textSelection' : 'code',
      value: text,
      ...(attachment.name ? { path: attachment.name } : {}),
    });
  }
  return items;
}

const isCodeName = (name: string | undefined): boolean =>
  !!name &&
  /\.(?:[cm]?[jt]sx?|py|rb|go|rs|java|kt|cs|php|sh|sql|ya?ml|json|toml|xml|css|c|h|cpp|swift)$/i.test(name);

/** UTF-8 text of base64 data, without Node's `Buffer` (the in-memory service runs in browsers too). */
function decodeBase64Text(base64: string): string {
  try {
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new TextDecoder().decode(bytes);
  } catch {
    return '';
  }
}
