/**
 * A `(Request) => Promise<Response>` handler the host mounts on its own backend (a route handler,
 * Express via a fetch adapter, Hono). The dashboard panel calls it; it adds the admin key
 * server-side and proxies exactly three operations:
 *
 *   POST {mount}/jobs                 start a job
 *   GET  {mount}/jobs/{jobId}         job status
 *   POST {mount}/jobs/{jobId}/bundle  presigned bundle link
 *
 * Any other path is 404 and a wrong method 405, so the browser can never use the key for another
 * call. With `domain`, the handler remembers the ids of the jobs it started (the spec's job
 * answers carry no domain) and reads or bundles only those, or jobs whose status names that
 * domain (the reference service's does, so they survive a restart of the host).
 *
 * The route hands out the whole site, so every request must pass the host's `authorize` check,
 * come from a page of the handler's own origin (a cross-site form or `no-cors` fetch is refused:
 * CSRF), and a job start must be JSON within a byte cap (read as a stream, never whole) and within
 * a rate limit.
 */

import { type Fetch, globalFetch } from '../protocol/fetch.js';
import { describeIssues, problemList } from '../protocol/issues.js';
import { keyKind } from '../protocol/keys.js';
import {
  joinUrl,
  STATIC_EXPORT_JOBS_PATH,
  staticExportBundlePath,
  staticExportJobPath,
} from '../protocol/paths.js';
import {
  type StartStaticExportJobBody,
  StartStaticExportJobBodySchema,
  StaticExportJobSchema,
  StaticExportStartedJobSchema,
} from '../protocol/static-export.js';
import {
  createRateLimiter,
  isPositiveInteger,
  jsonError,
  mediaType,
  type RouteRateLimit,
  readJsonRequest,
} from '../routes/route-kit.js';
import { assertServerSide, StaticExportError } from './errors.js';

/** How many job starts one caller may make in a time window. */
export interface StaticExportRateLimit extends RouteRateLimit {
  /**
   * The key starts are counted under, e.g. the signed-in user's id from your session. Called only
   * for authorized requests. @default one key for the whole handler
   */
  key?: (request: Request) => string | Promise<string>;
}

export interface StaticExportHandlerOptions {
  /** Base URL of the static export service. */
  baseUrl: string;
  /** Admin API key (`svc_…`); it never leaves the host's backend. */
  adminKey: string;
  /**
   * Required. Decides whether the request comes from someone allowed to export the site, e.g. a
   * signed-in admin of your dashboard (read your session cookie or token from the request's
   * headers; do not read its body). Every route (start, status, bundle link) is answered with 401
   * unless it returns `true`. `() => true` makes the export public: anyone who can reach the
   * route can download the whole site.
   */
  authorize: (request: Request) => boolean | Promise<boolean>;
  /**
   * Origins besides the handler's own that may call it, e.g. `https://admin.example.com` when the
   * dashboard is served from another origin than the route. Requests from any other origin are
   * answered with 403. @default [] (same origin only)
   */
  allowedOrigins?: string[];
  /**
   * When given, only this domain can be exported (the body's domain may be omitted), and only jobs
   * started through this handler (or whose status names this domain) can be read or bundled.
   */
  domain?: string;
  /**
   * Job starts allowed per window; `false` turns the limit off.
   * @default { limit: 5, windowMs: 60_000 } for the whole handler
   */
  rateLimit?: StaticExportRateLimit | false;
  /** Largest start request body read (in bytes); a larger one is answered with 413. @default 16384 */
  maxBodyBytes?: number;
  /** @default globalThis.fetch */
  fetch?: Fetch;
  /** Allow running in a browser page or worker (tests, mocks only). @default false */
  dangerouslyAllowBrowser?: boolean;
}

export type StaticExportHandler = (request: Request) => Promise<Response>;

const methodNotAllowed = (allow: string, message: string): Response =>
  jsonError(405, 'method_not_allowed', message, { Allow: allow });

/** Default size of the largest start body the handler reads (in bytes); a start request is tiny. */
const DEFAULT_MAX_BODY_BYTES = 16 * 1024;

/** Default job starts per window for the whole handler (an export renders every page). */
const DEFAULT_RATE_LIMIT: StaticExportRateLimit = { limit: 5, windowMs: 60_000 };

/**
 * Why the request must be refused as coming from another origin, or `undefined` when it comes from
 * a page of the handler's own origin (or an allowed one). Browsers send `Origin` on every non-GET
 * request and `Sec-Fetch-Site` on every request, and a page cannot forge either; a cross-site form
 * or `no-cors` fetch carries its own origin and `Sec-Fetch-Site: cross-site`/`same-site`.
 */
function crossOriginRefusal(request: Request, allowedOrigins: ReadonlySet<string>): string | undefined {
  const origin = request.headers.get('origin');
  const site = request.headers.get('sec-fetch-site')?.toLowerCase();
  const own = new URL(request.url).origin;
  if (origin !== null && (origin === own || allowedOrigins.has(origin))) return undefined;
  // Behind a TLS-terminating proxy request.url may not carry the browser's origin; the browser's
  // own verdict still holds.
  if (site === 'same-origin' || site === 'none') return undefined;
  const method = request.method.toUpperCase();
  if (origin === null && site === undefined && (method === 'GET' || method === 'HEAD')) return undefined;
  // Header values are echoed cut short: a non-browser client can send anything.
  const shown = (value: string) => value.slice(0, 100);
  if (origin !== null) {
    return `This static export endpoint only takes requests from pages of its own origin (${own}); this one came from ${origin === 'null' ? 'an opaque origin ("null")' : shown(origin)}. Call it from your dashboard on ${own}, or list that origin in allowedOrigins.`;
  }
  if (site !== undefined) {
    return `This static export endpoint only takes requests from pages of its own origin (${own}); this one is marked "${shown(site)}" (Sec-Fetch-Site). Call it from your dashboard on ${own}.`;
  }
  return `This static export endpoint only takes ${method} requests that say they come from its own origin (${own}): send an Origin or Sec-Fetch-Site header (browsers add both to fetch), or call the service from a server with createStaticExportClient.`;
}

const configurationError = (message: string) => new StaticExportError(0, 'invalid_configuration', message);

/** Job ids a domain-restricted handler remembers; past it the oldest are forgotten. */
const MAX_REMEMBERED_JOBS = 10_000;

/** The origins of `allowedOrigins`, each checked to be an origin and nothing more. */
function allowedOriginsOf(options: StaticExportHandlerOptions): Set<string> {
  const allowed = new Set<string>();
  for (const origin of options.allowedOrigins ?? []) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) {
      throw configurationError(
        `createStaticExportHandler: allowedOrigins takes origins such as "https://admin.example.com" (scheme, host and port, no path or trailing slash); got ${JSON.stringify(origin)}.`,
      );
    }
    allowed.add(origin);
  }
  return allowed;
}

/** The options checked: what the handler needs of them. Throws what to change for a bad one. */
function handlerSettings(options: StaticExportHandlerOptions) {
  if (keyKind(options.adminKey) !== 'admin') {
    throw new StaticExportError(
      0,
      'invalid_configuration',
      'createStaticExportHandler needs an admin API key (svc_…, not svc_dsc_…) in adminKey.',
    );
  }
  if (typeof options.authorize !== 'function') {
    throw configurationError(
      'createStaticExportHandler needs an authorize(request) option: a function that returns true only for a user allowed to export the site, e.g. authorize: async (request) => (await getSession(request))?.isAdmin === true. Without it anyone who can reach the route could export the whole site. Pass authorize: () => true only if the export is meant to be public.',
    );
  }
  const allowedOrigins = allowedOriginsOf(options);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!isPositiveInteger(maxBodyBytes)) {
    throw configurationError(
      `createStaticExportHandler: maxBodyBytes must be a positive whole number of bytes; got ${String(maxBodyBytes)}.`,
    );
  }
  const rateLimit = options.rateLimit === undefined ? DEFAULT_RATE_LIMIT : options.rateLimit;
  if (
    rateLimit !== false &&
    (!isPositiveInteger(rateLimit.limit) || !isPositiveInteger(rateLimit.windowMs))
  ) {
    throw configurationError(
      'createStaticExportHandler: rateLimit takes { limit, windowMs } as positive whole numbers (job starts per window, window in ms), or false to turn the limit off.',
    );
  }
  return {
    authorize: options.authorize,
    allowedOrigins,
    maxBodyBytes,
    limiter: rateLimit === false ? undefined : createRateLimiter(rateLimit.limit, rateLimit.windowMs),
    rateLimitKey: rateLimit === false ? undefined : rateLimit.key,
  };
}

/** What the handler's routes share: its settings, the service's requests, the jobs it started. */
interface Route extends ReturnType<typeof handlerSettings> {
  options: StaticExportHandlerOptions;
  /** `Authorization` with the admin key, for the service only. */
  auth: { Authorization: string };
  /** The service's answer to `path`, passed through, or a 502 when it cannot be reached. */
  forward(path: string, init: RequestInit): Promise<Response>;
  /** Ids of the jobs started through this handler (kept only with a domain restriction). */
  remember(jobId: string): void;
  startedJobs: ReadonlySet<string>;
}

function createRoute(options: StaticExportHandlerOptions): Route {
  const doFetch: Fetch = options.fetch ?? globalFetch;
  async function forward(path: string, init: RequestInit): Promise<Response> {
    let upstream: Response;
    try {
      upstream = await doFetch(joinUrl(options.baseUrl, path), init);
    } catch {
      return jsonError(
        502,
        'network_error',
        'The static export service could not be reached; try again later.',
      );
    }
    // Pass the service's answer through (its bodies are JSON), minus hop-by-hop headers.
    return new Response(await upstream.arrayBuffer(), {
      status: upstream.status,
      headers: {
        'Content-Type': upstream.headers.get('content-type') ?? 'application/json; charset=utf-8',
        'Cache-Control': 'no-store',
      },
    });
  }
  // Oldest first; past MAX_REMEMBERED_JOBS the oldest are forgotten.
  const startedJobs = new Set<string>();
  const remember = (jobId: string) => {
    startedJobs.delete(jobId);
    startedJobs.add(jobId);
    for (const oldest of startedJobs) {
      if (startedJobs.size <= MAX_REMEMBERED_JOBS) break;
      startedJobs.delete(oldest);
    }
  };
  const auth = { Authorization: `Bearer ${options.adminKey}` };
  return { ...handlerSettings(options), options, auth, forward, remember, startedJobs };
}

/**
 * With a domain restriction, a job this handler did not start is reported as missing, unless
 * its status names the domain. Returns the status response when it had to fetch it.
 */
async function checkJobDomain(
  route: Route,
  jobId: string,
  signal: AbortSignal,
): Promise<Response | undefined> {
  const { options } = route;
  if (!options.domain || route.startedJobs.has(jobId)) return undefined;
  const response = await route.forward(staticExportJobPath(jobId), { headers: route.auth, signal });
  if (!response.ok) return response;
  let data: unknown;
  try {
    data = await response.clone().json();
  } catch {
    data = undefined;
  }
  const parsed = StaticExportJobSchema.safeParse(data);
  if (parsed.success && parsed.data.domain === options.domain) {
    route.remember(jobId);
    return response;
  }
  return jsonError(
    404,
    'not_found',
    `No static export job "${jobId}" for the domain "${options.domain}" started through this endpoint.`,
  );
}

/** The job id of a path segment, or a 400 when it is not valid percent-encoding. */
function jobIdOf(segment: string): string | Response {
  try {
    return decodeURIComponent(segment);
  } catch {
    return jsonError(
      400,
      'invalid_request',
      `The job id in the path is not valid percent-encoding (${JSON.stringify(segment.slice(0, 60))}); encode it with encodeURIComponent.`,
    );
  }
}

/** The origin check, then the host's authorize check: a refusal, or `undefined` to go on. */
async function guard(route: Route, request: Request): Promise<Response | undefined> {
  const crossOrigin = crossOriginRefusal(request, route.allowedOrigins);
  if (crossOrigin) return jsonError(403, 'forbidden', crossOrigin);
  let allowed: boolean;
  try {
    allowed = (await route.authorize(request)) === true;
  } catch {
    return jsonError(500, 'internal', 'The authorize check of this static export endpoint failed.');
  }
  if (!allowed) {
    return jsonError(401, 'unauthorized', 'Sign in as a user allowed to export this site.');
  }
  return undefined;
}

/** A start request's body, as JSON within `maxBodyBytes`, or the refusal. */
async function readStartBody(route: Route, request: Request): Promise<{ body: unknown } | Response> {
  const bytes = await readJsonRequest(request, route.maxBodyBytes, {
    notJson:
      'Send the start request as JSON: Content-Type: application/json with a body such as { "domain": "…" }.',
    tooLarge: `The request body is larger than ${route.maxBodyBytes} bytes; a start request is { "domain": "…" } with optional "version" and "paths".`,
  });
  if (bytes instanceof Response) return bytes;
  const text = new TextDecoder().decode(bytes);
  try {
    return { body: text.trim() ? JSON.parse(text) : {} };
  } catch {
    return jsonError(400, 'invalid_json', 'The request body is not valid JSON; send { "domain": "…" }.');
  }
}

/** The start body checked against the handler's domain and the API's schema, or the refusal. */
function startBodyOf(route: Route, read: unknown): StartStaticExportJobBody | Response {
  const { domain } = route.options;
  let body = read;
  if (domain && body && typeof body === 'object' && !Array.isArray(body)) {
    const given = (body as { domain?: unknown }).domain;
    if (given !== undefined && given !== domain) {
      return jsonError(403, 'forbidden', `This endpoint only exports the domain "${domain}".`);
    }
    body = { ...body, domain };
  }
  const parsed = StartStaticExportJobBodySchema.safeParse(body, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issues = describeIssues(parsed.error.issues);
  return jsonError(
    400,
    'invalid_request',
    `Invalid static export request: ${problemList(issues)}.`,
    {},
    issues,
  );
}

/** The rate limit on job starts: a refusal, or `undefined` to go on. */
async function takeStart(route: Route, request: Request): Promise<Response | undefined> {
  const { limiter, rateLimitKey } = route;
  if (!limiter) return undefined;
  let key = '';
  try {
    key = rateLimitKey ? await rateLimitKey(request) : '';
  } catch {
    return jsonError(500, 'internal', 'The rate limit key of this static export endpoint failed.');
  }
  const retryAfter = limiter.take(key);
  if (retryAfter === undefined) return undefined;
  return jsonError(
    429,
    'rate_limited',
    `Too many static export jobs started; try again in ${retryAfter} s.`,
    {
      'Retry-After': String(retryAfter),
    },
  );
}

/** `POST …/jobs`: starts a job, remembering its id under a domain restriction. */
async function startJob(route: Route, request: Request): Promise<Response> {
  const read = await readStartBody(route, request);
  if (read instanceof Response) return read;
  const body = startBodyOf(route, read.body);
  if (body instanceof Response) return body;
  const limited = await takeStart(route, request);
  if (limited) return limited;
  const response = await route.forward(STATIC_EXPORT_JOBS_PATH, {
    method: 'POST',
    headers: { ...route.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: request.signal,
  });
  if (route.options.domain && response.ok) {
    try {
      const started = StaticExportStartedJobSchema.safeParse(await response.clone().json());
      if (started.success) route.remember(started.data.jobId);
    } catch {
      // Not JSON: the panel reports the unexpected answer; there is no id to remember.
    }
  }
  return response;
}

/** `POST …/jobs/{jobId}/bundle`: a bundle link for a job of the handler's domain. */
async function generateBundle(route: Route, request: Request, segment: string): Promise<Response> {
  // No body is read here; a form's or no-cors fetch's body type is still refused.
  const type = mediaType(request.headers.get('content-type'));
  if (type !== undefined && type !== 'application/json') {
    return jsonError(
      415,
      'unsupported_media_type',
      'Send the bundle request without a body, or as Content-Type: application/json.',
    );
  }
  const jobId = jobIdOf(segment);
  if (typeof jobId !== 'string') return jobId;
  const check = await checkJobDomain(route, jobId, request.signal);
  if (check && !check.ok) return check;
  return route.forward(staticExportBundlePath(jobId), {
    method: 'POST',
    headers: route.auth,
    signal: request.signal,
  });
}

/** `GET …/jobs/{jobId}`: a job of the handler's domain. */
async function readJob(route: Route, request: Request, segment: string): Promise<Response> {
  const jobId = jobIdOf(segment);
  if (typeof jobId !== 'string') return jobId;
  return (
    (await checkJobDomain(route, jobId, request.signal)) ??
    route.forward(staticExportJobPath(jobId), { headers: route.auth, signal: request.signal })
  );
}

/**
 * Creates the route the dashboard panel calls. Throws at once without `authorize`.
 *
 * @example
 * // app/api/static-export/[...path]/route.ts (Next.js)
 * const handler = createStaticExportHandler({
 *   baseUrl: 'https://api.example.com',
 *   adminKey: process.env.DOCS_ASSISTANT_ADMIN_KEY!,
 *   domain: 'acme',
 *   authorize: async (request) => (await getSession(request))?.role === 'admin',
 * });
 * export { handler as GET, handler as POST };
 */
export function createStaticExportHandler(options: StaticExportHandlerOptions): StaticExportHandler {
  assertServerSide('createStaticExportHandler', options.dangerouslyAllowBrowser);
  const route = createRoute(options);
  return async (request) => {
    const segments = new URL(request.url).pathname.split('/').filter(Boolean);
    const at = segments.lastIndexOf('jobs');
    const rest = at === -1 ? undefined : segments.slice(at + 1);
    const method = request.method.toUpperCase();
    if (rest && rest.length === 0) {
      if (method !== 'POST') return methodNotAllowed('POST', 'Use POST to start a static export job.');
      return (await guard(route, request)) ?? startJob(route, request);
    }
    if (rest && rest.length === 1 && rest[0]) {
      if (method !== 'GET') return methodNotAllowed('GET', 'Use GET to read a static export job.');
      return (await guard(route, request)) ?? readJob(route, request, rest[0]);
    }
    if (rest && rest.length === 2 && rest[0] && rest[1] === 'bundle') {
      if (method !== 'POST') return methodNotAllowed('POST', 'Use POST to generate a bundle link.');
      return (await guard(route, request)) ?? generateBundle(route, request, rest[0]);
    }
    return jsonError(
      404,
      'not_found',
      'Unknown static export route: use POST …/jobs, GET …/jobs/{jobId} or POST …/jobs/{jobId}/bundle.',
    );
  };
}
