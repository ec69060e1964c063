/**
 * Key kinds of spec §5. An assistant key (`svc_dsc_…`) is public and safe in browser code; an admin
 * key (`svc_…` but not `svc_dsc_…`) is a server-side secret.
 */

export const ASSISTANT_KEY_PREFIX = 'svc_dsc_';
export const ADMIN_KEY_PREFIX = 'svc_';

export type KeyKind = 'assistant' | 'admin' | 'invalid';

/** Tells what kind of key a string is. A bare prefix with nothing after it is `invalid`. */
export function keyKind(key: unknown): KeyKind {
  if (typeof key !== 'string') return 'invalid';
  if (key.startsWith(ASSISTANT_KEY_PREFIX)) {
    return key.length > ASSISTANT_KEY_PREFIX.length ? 'assistant' : 'invalid';
  }
  if (key.startsWith(ADMIN_KEY_PREFIX)) {
    return key.length > ADMIN_KEY_PREFIX.length ? 'admin' : 'invalid';
  }
  return 'invalid';
}

export const isAssistantKey = (key: unknown): key is string => keyKind(key) === 'assistant';
export const isAdminKey = (key: unknown): key is string => keyKind(key) === 'admin';
