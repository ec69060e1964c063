/**
 * HTTP pieces shared by every route of the service (assistant and static export): JSON errors,
 * bearer keys, bodies with a size limit, the client's address.
 */

import {
  type ErrorCode,
  keyKind,
  type ServiceErrorBody,
  type ValidationProblem,
} from 'docs-assistant/protocol';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { DomainConfig, OrganizationConfig, ServiceConfig } from './config.js';

/** Extras of an error body (spec §7 leaves error bodies open; DESIGN.md fixes the shape). */
export interface ErrorBodyInit {
  issues?: ValidationProblem[];
  headers?: Record<string, string>;
}

/** An error that becomes a JSON response; thrown anywhere inside a route. */
export class HttpError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: ErrorCode;
  readonly issues: ValidationProblem[] | undefined;
  readonly headers: Record<string, string>;

  constructor(status: ContentfulStatusCode, code: ErrorCode, message: string, init: ErrorBodyInit = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.issues = init.issues;
    this.headers = init.headers ?? {};
  }
}

/**
 * A JSON error response in the real service's shape: `{ "error": "<message>", "code": "<code>" }`
 * (`error` is the human-readable string clients show; `code` is for programs), plus `issues` for a
 * request that failed validation.
 */
export function errorResponse(
  status: ContentfulStatusCode,
  code: ErrorCode,
  message: string,
  init: ErrorBodyInit = {},
): Response {
  const body: ServiceErrorBody = { error: message, code };
  if (init.issues) body.issues = init.issues;
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...init.headers },
  });
}

/** The response for an `HttpError`. */
export const httpErrorResponse = (error: HttpError): Response =>
  errorResponse(error.status, error.code, error.message, { issues: error.issues, headers: error.headers });

/** Reads `Authorization: Bearer <token>`; `null` when absent or not a bearer credential. */
export function parseBearer(header: string | null | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header.trim());
  return match ? match[1]! : null;
}

export interface KeyOwner {
  organization: OrganizationConfig;
  kind: 'assistant' | 'admin';
}

/** The organization a key belongs to, and which kind of key it is there. */
export function findKeyOwner(config: ServiceConfig, key: string): KeyOwner | undefined {
  for (const organization of config.organizations) {
    if (organization.assistantKeys.includes(key)) return { organization, kind: 'assistant' };
    if (organization.adminKeys.includes(key)) return { organization, kind: 'admin' };
  }
  return undefined;
}

const BEARER_CHALLENGE = { 'WWW-Authenticate': 'Bearer' };

/**
 * The domain a request's path names, when the key's organization owns it: 404 for a domain the
 * service does not serve, 403 for another organization's key, each saying what to change.
 */
export function ownedDomain(config: ServiceConfig, owner: KeyOwner, domainName: string): DomainConfig {
  const domain = config.domains.find((d) => d.domain === domainName);
  if (!domain) {
    throw new HttpError(
      404,
      'not_found',
      `Unknown domain "${domainName}"; check the domain in the request path.`,
    );
  }
  if (domain.organization !== owner.organization.id) {
    throw new HttpError(
      403,
      'forbidden',
      `This ${owner.kind} key is not valid for domain "${domainName}"; use the ${owner.kind} key of the organization that owns it.`,
    );
  }
  return domain;
}

/**
 * Authenticates a request with the key kind a route needs (spec §5). 401 for a missing or unknown
 * key, 403 for a valid key of the other kind, each saying which key to use.
 */
export function requireKey(
  config: ServiceConfig,
  authorization: string | null | undefined,
  kind: 'assistant' | 'admin',
): KeyOwner {
  const wanted =
    kind === 'assistant'
      ? 'an assistant API key (svc_dsc_…)'
      : 'an admin API key (svc_…, a server-side secret)';
  const token = parseBearer(authorization);
  if (!token) {
    throw new HttpError(
      401,
      'unauthorized',
      `Missing API key: send "Authorization: Bearer <key>" with ${wanted}.`,
      {
        headers: BEARER_CHALLENGE,
      },
    );
  }
  const owner = findKeyOwner(config, token);
  if (!owner) {
    const shape = keyKind(token) === 'invalid' ? ' It does not look like a svc_dsc_ or svc_ key.' : '';
    throw new HttpError(
      401,
      'unauthorized',
      `Invalid API key: no organization has this key.${shape} Use ${wanted}.`,
      {
        headers: BEARER_CHALLENGE,
      },
    );
  }
  if (owner.kind !== kind) {
    const message =
      kind === 'assistant'
        ? 'This is an admin API key (svc_…), a server-side secret: never send it from a browser. ' +
          'Use the assistant API key (svc_dsc_…) for the assistant endpoint.'
        : 'This is an assistant API key (svc_dsc_…); the static export API needs an admin API key (svc_…).';
    throw new HttpError(403, 'forbidden', message);
  }
  return owner;
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
  // The rest of the body is left unread, so the connection cannot carry another request.
  const tooLarge = () =>
    new HttpError(413, 'payload_too_large', `The request body is larger than ${maxBytes} bytes; send less.`, {
      headers: { Connection: 'close' },
    });
  const allowanceTooLarge = () =>
    new HttpError(413, 'payload_too_large', allowance?.tooLarge ?? '', { headers: { Connection: 'close' } });
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes + (allowance?.maxBytes ?? 0)) {
    throw allowance ? allowanceTooLarge() : tooLarge();
  }

  const chunks: Uint8Array[] = [];
  let size = 0;
  // Bytes the allowance's meter set apart so far; the rest of `size` is held to `maxBytes`.
  let apart = 0;
  const meter = allowance?.meter();
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (meter) apart += meter(value);
      if (size - apart > maxBytes || apart > (allowance?.maxBytes ?? 0)) {
        await reader.cancel().catch(() => {});
        throw size - apart > maxBytes ? tooLarge() : allowanceTooLarge();
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(
      400,
      'invalid_json',
      'The request body is not valid UTF-8 text; send UTF-8 encoded JSON.',
    );
  }
  if (!text.trim())
    throw new HttpError(400, 'invalid_json', 'The request body is empty; send a JSON object.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'it does not parse';
    throw new HttpError(400, 'invalid_json', `The request body is not valid JSON: ${reason}.`);
  }
  if (allowance && size > maxBytes) {
    // The meter only bounded the read: what the parsed body really sets apart decides.
    const exact = allowance.measure(parsed);
    if (size - exact > maxBytes) throw tooLarge();
    if (exact > allowance.maxBytes) throw allowanceTooLarge();
  }
  return parsed;
}

interface NodeBindings {
  incoming?: { socket?: { remoteAddress?: string } };
}

/**
 * The client's IP address. Behind a proxy (`trustProxy`), the first `X-Forwarded-For` entry;
 * otherwise the socket's address under Node, or `unknown` when called in-process.
 */
export function clientIp(c: Context, options: { trustProxy?: boolean } = {}): string {
  if (options.trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  const env = c.env as NodeBindings | undefined;
  const address = env?.incoming?.socket?.remoteAddress;
  return address ? address.replace(/^::ffff:/, '') : 'unknown';
}
