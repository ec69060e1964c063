/**
 * Where the rest of the service imported its HTTP pieces from before they became one layer
 * (`http/`): the same names, from there.
 */
export * from './http/index.js';

import type { ServiceConfig } from './config.js';
import {
  findKeyOwner,
  type KeyKind,
  type KeyOwner,
  missingKey,
  unknownKey,
  wrongKeyKind,
} from './http/auth.js';
import { HttpError } from './http/errors.js';

/** Reads `Authorization: Bearer <token>`; `null` when absent or not a bearer credential. */
export function parseBearer(header: string | null | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header.trim());
  return match ? match[1]! : null;
}

/**
 * The key check of `admission` for code that is not a route (or answers in another shape, as the
 * MCP endpoint's JSON-RPC errors): the owner, or the 401/403 `HttpError` the admission answers.
 */
export function requireKey(
  config: ServiceConfig,
  authorization: string | null | undefined,
  kind: KeyKind,
): KeyOwner {
  const token = parseBearer(authorization);
  if (!token) throw missingKey(kind);
  const owner = findKeyOwner(config, token);
  if (!owner) throw unknownKey(kind, token);
  if (owner.kind !== kind) throw wrongKeyKind(kind);
  return owner;
}

export { HttpError };
