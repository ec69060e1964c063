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
import { HttpError } from './http.js';

/**
 * Bytes of request body allowed on top of `maxBodyBytes` for attachments: one message's worth at
 * the limits (base64 takes 4 bytes per 3, plus the JSON around each). The widget sends attachments
 * with the latest question only, so a longer conversation does not grow by them.
 */
export const ATTACHMENTS_BODY_ALLOWANCE =
  MAX_ATTACHMENTS_PER_MESSAGE * (Math.ceil(MAX_ATTACHMENT_BYTES / 3) * 4 + 1024);

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
