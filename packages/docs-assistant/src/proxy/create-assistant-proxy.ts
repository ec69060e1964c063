/**
 * A `(Request) => Promise<Response>` route the host mounts on its own server, so the assistant key
 * stays there: the widget (`<DocsAssistant api="/api/assistant" …>`) posts its request body to the
 * route, the route adds `Authorization: Bearer {apiKey}` and forwards it to the service's v1
 * endpoint (spec §4.1), and the answer comes back as the service streams it, thread headers
 * included, chunk by chunk (never read whole first: a reader sees the answer as it is written).
 *
 * Only what the widget needs crosses in either direction: upstream goes the JSON body with the key
 * (none of the reader's cookies or `Authorization`), back come the status, the body and the
 * headers of `FORWARDED_RESPONSE_HEADERS` (never the service's `Set-Cookie` or anything else).
 */
import { type Fetch, globalFetch } from '../protocol/fetch.js';
import { keyKind } from '../protocol/keys.js';
import { assistantMessagePath, joinUrl } from '../protocol/paths.js';
import { decodeJson } from '../routes/body.js';
import {
  createRateLimiter,
  isPositiveInteger,
  jsonError,
  type RouteRateLimit,
  readJsonRequest,
} from '../routes/route-kit.js';

/** How many questions one reader may send through the proxy in a time window. */
export interface AssistantProxyRateLimit extends RouteRateLimit {
  /**
   * The key requests are counted under, e.g. the signed-in user's id, or the client address your
   * server knows (Express: `req.ip`). Called only for authorized requests.
   * @default the last address of `X-Forwarded-For` (the one your nearest proxy or platform added),
   * else `X-Real-IP`, else one key for every reader
   */
  key?: (request: Request) => string | Promise<string>;
}

export interface AssistantProxyOptions {
  /** Base URL of the assistant service, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** The domain identifier of the deployment (spec §4.1 path parameter). */
  domain: string;
  /**
   * The assistant API key (`svc_dsc_…`), e.g. from a server-side environment variable. An admin key
   * (`svc_…`) is refused: it must never answer readers' questions.
   */
  apiKey: string;
  /**
   * Decides whether a request may ask the assistant, e.g. only signed-in users of your product:
   * read your session cookie or token from the request's headers (do not read its body). A request
   * it refuses is answered with 401. @default every request may ask
   */
  authorize?: (request: Request) => boolean | Promise<boolean>;
  /** Questions allowed per reader and window (429 with `Retry-After` past it). @default no limit */
  rateLimit?: AssistantProxyRateLimit;
  /** Largest request body forwarded (in bytes); a larger one is answered with 413. @default 1048576 */
  maxBodyBytes?: number;
  /** @default globalThis.fetch */
  fetch?: Fetch;
}

export type AssistantProxy = (request: Request) => Promise<Response>;

/**
 * Response headers passed back to the widget, and only these: the stream's type and protocol
 * marker, the thread (`X-Thread-Id`, and `X-Thread-Key` on a thread's first answer), the wait of a
 * 429, and caching. Everything else the service sends (`Set-Cookie`, `Content-Length` and
 * `Content-Encoding` of a body `fetch` already decoded, hop-by-hop headers) stays behind.
 */
export const FORWARDED_RESPONSE_HEADERS = [
  'Content-Type',
  'X-Vercel-AI-Data-Stream',
  'X-Thread-Id',
  'X-Thread-Key',
  'Retry-After',
  'Cache-Control',
] as const;

/** Default largest request body (in bytes): the reference service's own cap. */
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * The reader's address as the nearest proxy reported it: the last `X-Forwarded-For` entry is the
 * one it appended (earlier ones are whatever the client claimed).
 */
function forwardedAddress(request: Request): string {
  const forwarded = request.headers.get('x-forwarded-for');
  const last = forwarded?.split(',').at(-1)?.trim();
  return last || request.headers.get('x-real-ip')?.trim() || '';
}

const configurationError = (message: string) => new TypeError(`createAssistantProxy: ${message}`);

function checkOptions(options: AssistantProxyOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw configurationError('pass { baseUrl, domain, apiKey }.');
  }
  const kind = keyKind(options.apiKey);
  if (kind === 'admin') {
    throw configurationError(
      'apiKey is an admin key (svc_…). Only the assistant key (svc_dsc_…) belongs in this route: an admin key is a secret for static exports and must not answer readers. Pass the assistant key instead.',
    );
  }
  if (kind !== 'assistant') {
    throw configurationError(
      'apiKey is missing or not an assistant key: pass the assistant API key (svc_dsc_…), e.g. apiKey: process.env.DOCS_ASSISTANT_KEY.',
    );
  }
  // `fetch` refuses a header value with NUL, CR, LF or a character beyond Latin-1.
  const unsendable = [...options.apiKey].some((char) => {
    const code = char.codePointAt(0) ?? 0;
    return code === 0 || code === 0x0a || code === 0x0d || code > 0xff;
  });
  if (unsendable) {
    throw configurationError(
      'apiKey contains a character an HTTP header cannot carry (a line break or beyond Latin-1): pass the key exactly as the dashboard shows it.',
    );
  }
  let base: URL | undefined;
  try {
    base = new URL(options.baseUrl);
  } catch {
    base = undefined;
  }
  if (!base || (base.protocol !== 'http:' && base.protocol !== 'https:')) {
    throw configurationError(
      `baseUrl ${JSON.stringify(options.baseUrl)} is not an absolute http(s) URL: pass the service address, e.g. https://api.example.com.`,
    );
  }
  if (typeof options.domain !== 'string' || options.domain.trim() === '') {
    throw configurationError(
      'domain is missing: pass the domain identifier of the deployment (the last segment of its dashboard address).',
    );
  }
  if (options.authorize !== undefined && typeof options.authorize !== 'function') {
    throw configurationError('authorize must be a function (request) => boolean | Promise<boolean>.');
  }
  const { rateLimit, maxBodyBytes } = options;
  if (
    rateLimit !== undefined &&
    (typeof rateLimit !== 'object' ||
      rateLimit === null ||
      !isPositiveInteger(rateLimit.limit) ||
      !isPositiveInteger(rateLimit.windowMs) ||
      (rateLimit.key !== undefined && typeof rateLimit.key !== 'function'))
  ) {
    throw configurationError(
      'rateLimit takes { limit, windowMs, key? }: limit and windowMs as positive whole numbers (requests per window, window in ms), key a function of the request.',
    );
  }
  if (maxBodyBytes !== undefined && !isPositiveInteger(maxBodyBytes)) {
    throw configurationError(
      `maxBodyBytes must be a positive whole number of bytes; got ${String(maxBodyBytes)}.`,
    );
  }
}

/** A request the route turned down: its answer. */
type Refusal = Response;

/** Method, `authorize` and the rate limit: the answer that turns the request down, if any. */
async function admit(
  request: Request,
  options: AssistantProxyOptions,
  limiter: ReturnType<typeof createRateLimiter> | undefined,
): Promise<Refusal | undefined> {
  if (request.method.toUpperCase() !== 'POST') {
    return jsonError(405, 'method_not_allowed', 'Use POST to ask the assistant.', { Allow: 'POST' });
  }
  const { authorize, rateLimit } = options;
  if (authorize) {
    let allowed: boolean;
    try {
      allowed = (await authorize(request)) === true;
    } catch {
      return jsonError(500, 'internal', 'The authorize check of this assistant route failed.');
    }
    if (!allowed) return jsonError(401, 'unauthorized', 'Sign in to ask the assistant.');
  }
  if (!limiter) return undefined;
  let key: string;
  try {
    key = rateLimit?.key ? await rateLimit.key(request) : forwardedAddress(request);
  } catch {
    return jsonError(500, 'internal', 'The rate limit key of this assistant route failed.');
  }
  const retryAfter = limiter.take(key);
  if (retryAfter === undefined) return undefined;
  return jsonError(429, 'rate_limited', `Too many questions; try again in ${retryAfter} s.`, {
    'Retry-After': String(retryAfter),
  });
}

/** The request's body as sent, checked to be a JSON object within `maxBodyBytes`; or the refusal. */
async function readQuestion(
  request: Request,
  maxBodyBytes: number,
): Promise<Uint8Array<ArrayBuffer> | Refusal> {
  const bytes = await readJsonRequest(request, maxBodyBytes, {
    notJson: 'Send the question as JSON: Content-Type: application/json, with the body the widget sends.',
    tooLarge: `The request body is larger than ${maxBodyBytes} bytes; send less.`,
  });
  if (bytes instanceof Response) return bytes;
  const json = decodeJson(bytes);
  const body = 'value' in json ? json.value : undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return jsonError(
      400,
      'invalid_json',
      'The request body is not a JSON object; send the body the widget sends ({ "fp", "messages", … }).',
    );
  }
  return bytes;
}

/** The service's answer as it streams, with only `FORWARDED_RESPONSE_HEADERS` of its headers. */
function streamBack(upstream: Response): Response {
  const headers = new Headers();
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'no-store');
  // Asks nginx-style proxies in front of the host not to hold the stream back.
  headers.set('X-Accel-Buffering', 'no');
  // The body as a stream: each chunk goes on as the service writes it.
  return new Response(upstream.body, {
    status: upstream.status,
    statusText: upstream.statusText,
    headers,
  });
}

/**
 * Creates the route the widget's `api` prop points at. Throws at once for an admin key, a missing
 * or malformed assistant key, a bad `baseUrl` or `domain`.
 *
 * @example
 * // app/api/assistant/route.ts (Next.js; createAssistantProxy comes from docs-assistant/proxy).
 * // Made on the first request: `next build` loads the route without the server's environment.
 * let proxy: AssistantProxy | undefined;
 * export function POST(request: Request) {
 *   proxy ??= createAssistantProxy({
 *     baseUrl: 'https://api.example.com',
 *     domain: 'acme',
 *     apiKey: process.env.DOCS_ASSISTANT_KEY!,
 *   });
 *   return proxy(request);
 * }
 *
 * // app/layout.tsx
 * <DocsAssistant domain="acme" api="/api/assistant" />
 */
export function createAssistantProxy(options: AssistantProxyOptions): AssistantProxy {
  checkOptions(options);
  const endpoint = joinUrl(options.baseUrl, assistantMessagePath(options.domain));
  const authorization = `Bearer ${options.apiKey}`;
  const { rateLimit } = options;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const limiter = rateLimit ? createRateLimiter(rateLimit.limit, rateLimit.windowMs) : undefined;
  const doFetch: Fetch = options.fetch ?? globalFetch;

  return async (request) => {
    const refused = await admit(request, options, limiter);
    if (refused) return refused;
    const bytes = await readQuestion(request, maxBodyBytes);
    if (bytes instanceof Response) return bytes;
    let upstream: Response;
    try {
      upstream = await doFetch(endpoint, {
        method: 'POST',
        // The bytes as the widget sent them; the service validates them.
        body: bytes,
        headers: { Authorization: authorization, 'Content-Type': 'application/json' },
        // A reader who leaves ends the service's answer too.
        signal: request.signal,
      });
    } catch {
      if (request.signal.aborted) return jsonError(499, 'client_closed', 'The request was cancelled.');
      return jsonError(502, 'network_error', 'The assistant service could not be reached; try again later.');
    }
    return streamBack(upstream);
  };
}
