/**
 * What the hook checks before it sends anything, and the request body the controller sends (spec
 * §2.1, §4.1).
 */
import {
  ANONYMOUS_FP,
  ASSISTANT_KEY_PREFIX,
  assistantMessagePath,
  type Context,
  clampCurrentPath,
  DEFAULT_RETRIEVAL_PAGE_SIZE,
  type Filter,
  joinUrl,
  keyKind,
} from '../protocol/index.js';
import { threadOf } from './trace.js';
import type { AssistantError, AssistantMessage, UseDocsAssistantOptions } from './types.js';
import { toWireMessages, type WireMessage } from './wire-messages.js';

/**
 * Longest wait between batches of a streaming answer where no animation frame comes (in ms): a
 * background tab, a page that does not render. Elsewhere a batch goes once per frame (`batchLines`).
 */
export const STREAM_RENDER_THROTTLE_MS = 50;

const configError = (detail: string): AssistantError => ({
  kind: 'config',
  message: detail,
  detail,
  retryable: false,
});

/**
 * Says what is wrong with the options before any request, or `null` when the hook may send.
 * Checked in this order: availability, domain, key, extra headers, base URL. With `api` (a route of
 * the host that holds the key): availability, domain, no key or base URL beside it, the route's
 * address, extra headers.
 */
export function checkConfig(
  options: Pick<UseDocsAssistantOptions, 'domain' | 'apiKey' | 'baseUrl' | 'api' | 'deployment' | 'headers'>,
): AssistantError | null {
  if (options.deployment === 'air-gapped') {
    const detail =
      'deployment is "air-gapped": the AI assistant needs the cloud service (spec §1), so no request is made.';
    return { kind: 'unavailable', message: detail, detail, retryable: false };
  }
  if (typeof options.domain !== 'string' || options.domain.trim() === '') {
    return configError(
      'domain is missing: pass the domain identifier of the deployment (the last segment of its dashboard address).',
    );
  }
  const kind = keyKind(options.apiKey);
  if (kind === 'admin') return adminKeyError('apiKey is an admin key (svc_…)');
  if (options.api !== undefined) return checkApiConfig(options);
  if (kind === 'invalid' || typeof options.apiKey !== 'string') {
    return configError(
      options.apiKey === undefined && options.baseUrl === undefined
        ? `neither api nor apiKey and baseUrl is set: pass api, the address of your server's route that forwards to the service with the key (createAssistantProxy from docs-assistant/proxy, e.g. api="/api/assistant"), or the assistant API key (${ASSISTANT_KEY_PREFIX}…) as apiKey with the service address as baseUrl.`
        : `apiKey is missing or not an assistant key: pass the assistant API key, which starts with ${ASSISTANT_KEY_PREFIX} (or, to keep the key on your server, api instead of apiKey and baseUrl).`,
    );
  }
  const badKeyCharacter = unsendableCharacter(options.apiKey);
  if (badKeyCharacter) {
    return configError(
      `apiKey contains ${badKeyCharacter}, which cannot be sent in an HTTP header: pass the key exactly as the dashboard shows it, without line breaks or other control characters.`,
    );
  }
  const headersError = checkHeaders(options.headers);
  if (headersError) return headersError;
  if (!isHttpUrl(options.baseUrl)) {
    return configError(
      `baseUrl ${JSON.stringify(options.baseUrl)} is not an absolute http(s) URL: pass the service address, e.g. https://api.example.com.`,
    );
  }
  return null;
}

/** The `api` form: a route of the host's server that holds the key, and nothing of the direct form. */
function checkApiConfig(
  options: Pick<UseDocsAssistantOptions, 'apiKey' | 'baseUrl' | 'api' | 'headers'>,
): AssistantError | null {
  const given = [options.apiKey !== undefined && 'apiKey', options.baseUrl !== undefined && 'baseUrl']
    .filter(Boolean)
    .join(' and ');
  if (given) {
    return configError(
      `api and ${given} are both set: pass one or the other. With api the widget calls your server's route, which holds the key (createAssistantProxy from docs-assistant/proxy); remove ${given} so the key is not in the page's code.`,
    );
  }
  if (!isApiAddress(options.api)) {
    return configError(
      `api ${JSON.stringify(options.api)} is not a path on this site or an absolute http(s) URL: pass the address of your route, e.g. "/api/assistant".`,
    );
  }
  return checkHeaders(options.headers, { ownAuthorization: true });
}

function adminKeyError(where: string): AssistantError {
  return {
    ...configError(
      `${where}. An admin key is a server-side secret and must never be in browser code: revoke it if it was published, and use the assistant key (${ASSISTANT_KEY_PREFIX}…) as apiKey instead.`,
    ),
    message: `An admin key, which is a server-side secret, was given instead of the assistant key (${ASSISTANT_KEY_PREFIX}…).`,
  };
}

// A header name is an HTTP token (RFC 9110 §5.6.2); `fetch` throws a TypeError for any other.
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The first character of a header value that `fetch` refuses (NUL, CR, LF, or anything beyond
 * Latin-1, which a header cannot carry), described with its position; `undefined` when all can go.
 * Without this check `fetch` throws a TypeError that reads like a network failure.
 */
function unsendableCharacter(value: string): string | undefined {
  for (let i = 0; i < value.length; i++) {
    const code = value.codePointAt(i) ?? 0;
    if (code !== 0 && code !== 0x0a && code !== 0x0d && code <= 0xff) continue;
    const name =
      code === 0x0a
        ? 'a line feed'
        : code === 0x0d
          ? 'a carriage return'
          : code === 0
            ? 'a NUL character'
            : `the character ${JSON.stringify(String.fromCodePoint(code))}`;
    return `${name} (U+${code.toString(16).toUpperCase().padStart(4, '0')}) at position ${i}`;
  }
  return undefined;
}

/** Whether a header value holds an admin key anywhere (`Bearer svc_…`, `key=svc_…`, a bare key). */
const holdsAdminKey = (value: string): boolean =>
  value.split(/[\s,;=:"']+/).some((token) => keyKind(token) === 'admin');

/**
 * The `headers` option: each name a valid header name, each value sendable, no admin key anywhere
 * (it would reach the network like an admin `apiKey`), and no `Authorization` of its own (the hook
 * sends the key in it; `fetch` would merge the two into one value the service rejects).
 */
function checkHeaders(
  headers: UseDocsAssistantOptions['headers'],
  { ownAuthorization = false } = {},
): AssistantError | null {
  if (headers === undefined) return null;
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    return configError(
      'headers must be an object of header names to string values, e.g. { "X-Trace": "abc" }.',
    );
  }
  const entries = Object.entries(headers);
  // The admin key first: whatever else is wrong, this one must be revoked.
  for (const [name, value] of entries) {
    if (typeof value === 'string' && holdsAdminKey(value)) {
      return adminKeyError(`headers[${JSON.stringify(name)}] holds an admin key (svc_…)`);
    }
  }
  for (const [name, value] of entries) {
    const label = `headers[${JSON.stringify(name)}]`;
    if (!HEADER_NAME.test(name)) {
      return configError(
        `${JSON.stringify(name)} in headers is not a valid header name: use letters, digits and - only (e.g. "X-Trace-Id").`,
      );
    }
    // With `api` the widget sends no key, so the host may send its own credentials to its route.
    if (name.toLowerCase() === 'authorization' && !ownAuthorization) {
      return configError(
        `${label} is not allowed: the widget sends apiKey as "Authorization: Bearer …" itself. Pass the assistant key (${ASSISTANT_KEY_PREFIX}…) as apiKey and remove Authorization from headers.`,
      );
    }
    if (typeof value !== 'string') {
      return configError(
        `${label} is ${value === null ? 'null' : typeof value}: header values must be strings.`,
      );
    }
    const bad = unsendableCharacter(value);
    if (bad) {
      return configError(
        `${label} contains ${bad}, which cannot be sent in an HTTP header: remove it from the value.`,
      );
    }
  }
  return null;
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * A path on the page's origin (`/api/assistant`, not the protocol-relative `//host/…`) or an
 * absolute http(s) URL.
 */
function isApiAddress(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  if (value.startsWith('/')) return !value.startsWith('//') && !value.startsWith('/\\');
  return isHttpUrl(value);
}

/** The endpoint of spec §4.1 for these options. */
export const assistantEndpoint = (baseUrl: string, domain: string): string =>
  joinUrl(baseUrl, assistantMessagePath(domain));

/** `currentPath` at send time: the option (string or function) or the page's pathname, cut to the limit. */
export function resolveCurrentPath(currentPath: UseDocsAssistantOptions['currentPath']): string | undefined {
  const path =
    typeof currentPath === 'function'
      ? currentPath()
      : (currentPath ?? (typeof location === 'undefined' ? undefined : location.pathname));
  return path ? clampCurrentPath(path) : undefined;
}

/**
 * The request body of spec §2.1, exactly: no field the spec does not name except `threadKey` (the
 * real service requires it with `threadId`), and the messages as §2.2–2.3 list them.
 */
export interface AssistantRequestBody {
  fp: string;
  messages: WireMessage[];
  threadId?: string;
  threadKey?: string;
  retrievalPageSize: number;
  filter?: Filter;
  context?: Context[];
  currentPath?: string;
}

export function buildRequestBody(input: {
  options: Pick<UseDocsAssistantOptions, 'fp' | 'retrievalPageSize' | 'filter' | 'currentPath'>;
  messages: AssistantMessage[];
  thread: { threadId?: string; threadKey?: string };
  context: Context[];
}): AssistantRequestBody {
  const { options, messages, thread, context } = input;
  const currentPath = resolveCurrentPath(options.currentPath);
  return {
    fp: options.fp || ANONYMOUS_FP,
    messages: toWireMessages(messages),
    ...threadOf(thread),
    retrievalPageSize: options.retrievalPageSize ?? DEFAULT_RETRIEVAL_PAGE_SIZE,
    ...(options.filter ? { filter: options.filter } : {}),
    ...(context.length ? { context } : {}),
    ...(currentPath ? { currentPath } : {}),
  };
}
