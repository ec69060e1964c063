/**
 * A `(Request) => Promise<Response>` handler the host mounts on its own backend for the insights
 * dashboard panel. It adds the admin key server-side and passes on read-only calls of one domain:
 *
 *   GET {mount}/stats | questions | gaps | search | pages | conversations
 *   GET {mount}/conversations/{threadId}
 *
 * with the query parameters the insights API takes (`from`, `to`, `limit`, `cursor`, `uncertain`,
 * `vote`, `format`) and no other. Any other path is 404 and any other method 405, so the browser
 * can never use the key for another call. Every request must pass the host's `authorize` check
 * (transcripts are what readers asked) and come from a page of the handler's own origin, or one
 * listed in `allowedOrigins`.
 */
import { type Fetch, globalFetch } from '../protocol/fetch.js';
import { keyKind } from '../protocol/keys.js';
import { joinUrl } from '../protocol/paths.js';
import { jsonError } from '../routes/route-kit.js';
import { isBrowser } from '../static-export/errors.js';

export interface InsightsHandlerOptions {
  /** Base URL of the service. */
  baseUrl: string;
  /** Admin API key (`svc_…`); it never leaves the host's backend. */
  adminKey: string;
  /** The domain whose insights the panel shows; the browser cannot ask for another. */
  domain: string;
  /**
   * Required. Whether the request comes from someone allowed to read the insights, e.g. a
   * signed-in admin of your dashboard (read your session from the request's headers). Every route
   * is answered with 401 unless it returns `true`.
   */
  authorize: (request: Request) => boolean | Promise<boolean>;
  /**
   * Origins besides the handler's own whose pages may call it (`https://admin.example.com`).
   * @default [] (same origin only)
   */
  allowedOrigins?: string[];
  /** @default globalThis.fetch */
  fetch?: Fetch;
  /** Allow running in a browser page or worker (tests, mocks only). @default false */
  dangerouslyAllowBrowser?: boolean;
}

export type InsightsHandler = (request: Request) => Promise<Response>;

/** The lists of the insights API. */
export const INSIGHTS_ROUTES = ['stats', 'questions', 'gaps', 'search', 'pages', 'conversations'] as const;
export type InsightsRoute = (typeof INSIGHTS_ROUTES)[number];

/** Query parameters passed on; any other is dropped. */
const PARAMETERS = ['from', 'to', 'limit', 'cursor', 'uncertain', 'vote', 'format'];

/** Response headers passed on from the service (the CSV's name among them). */
const PASSED_HEADERS = ['content-type', 'content-disposition'];

/** Throws what to change when the options cannot work. */
function checkOptions(options: InsightsHandlerOptions): void {
  const fail = (message: string) => {
    throw new TypeError(`createInsightsHandler: ${message}`);
  };
  if (isBrowser() && !options.dangerouslyAllowBrowser) {
    fail(
      'refuses to run in a browser (page or worker): it holds an admin API key (svc_…), a server-side secret. Mount it in a route of your backend and point <InsightsPanel endpoint="…"> at that route.',
    );
  }
  if (keyKind(options.adminKey) !== 'admin')
    fail('needs an admin API key (svc_…, not svc_dsc_…) in adminKey.');
  if (typeof options.domain !== 'string' || !options.domain)
    fail('needs the domain whose insights it reads.');
  if (typeof options.authorize !== 'function') {
    fail(
      'needs an authorize(request) option that returns true only for a user allowed to read what readers asked, e.g. authorize: async (request) => (await getSession(request))?.isAdmin === true.',
    );
  }
  for (const origin of options.allowedOrigins ?? []) {
    if (URL.canParse(origin) && new URL(origin).origin === origin) continue;
    fail(`allowedOrigins takes origins such as "https://admin.example.com"; got ${JSON.stringify(origin)}.`);
  }
}

/**
 * Why a request from another site is refused, or undefined. Browsers mark every request with
 * `Sec-Fetch-Site` and cross-origin ones with `Origin`; a page cannot forge either. A request with
 * neither comes from a server or a tool, which `authorize` still has to let in.
 */
function otherSite(request: Request, allowed: ReadonlySet<string>): string | undefined {
  const origin = request.headers.get('origin');
  const site = request.headers.get('sec-fetch-site')?.toLowerCase();
  const own = new URL(request.url).origin;
  if (origin !== null && (origin === own || allowed.has(origin))) return undefined;
  if (site === undefined || site === 'same-origin' || site === 'none') {
    if (origin === null || site !== undefined) return undefined;
  }
  return `This insights endpoint only answers pages of its own origin (${own}); this request came from ${(origin ?? site ?? '').slice(0, 100)}. Call it from your dashboard on ${own}, or list that origin in allowedOrigins.`;
}

/** The service's path for a request's path, or a refusal. */
function routeOf(pathname: string): string | Response {
  const segments = pathname.split('/').filter(Boolean);
  const last = segments.at(-1) ?? '';
  if ((INSIGHTS_ROUTES as readonly string[]).includes(last)) return last;
  if (segments.at(-2) === 'conversations' && last) {
    try {
      return `conversations/${encodeURIComponent(decodeURIComponent(last))}`;
    } catch {
      return jsonError(400, 'invalid_request', 'The thread id in the path is not valid percent-encoding.');
    }
  }
  return jsonError(
    404,
    'not_found',
    `Unknown insights route: use GET …/{${INSIGHTS_ROUTES.join('|')}} or GET …/conversations/{threadId}.`,
  );
}

/**
 * Creates the route the insights panel calls. Throws at once, saying what to change, without an
 * admin key, a domain or `authorize`.
 *
 * @example
 * // app/api/insights/[...path]/route.ts (Next.js)
 * export const GET = createInsightsHandler({
 *   baseUrl: 'https://api.example.com',
 *   adminKey: process.env.DOCS_ASSISTANT_ADMIN_KEY!,
 *   domain: 'acme',
 *   authorize: async (request) => (await getSession(request))?.role === 'admin',
 * });
 */
export function createInsightsHandler(options: InsightsHandlerOptions): InsightsHandler {
  checkOptions(options);
  const allowed = new Set(options.allowedOrigins ?? []);
  const doFetch: Fetch = options.fetch ?? globalFetch;
  const base = joinUrl(options.baseUrl, `/discovery/v1/insights/${encodeURIComponent(options.domain)}`);
  return async (request) => {
    const url = new URL(request.url);
    const route = routeOf(url.pathname);
    if (typeof route !== 'string') return route;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return jsonError(405, 'method_not_allowed', 'The insights endpoint is read-only: use GET.', {
        Allow: 'GET, HEAD',
      });
    }
    const refused = otherSite(request, allowed);
    if (refused) return jsonError(403, 'forbidden', refused);
    try {
      if ((await options.authorize(request)) !== true) {
        return jsonError(401, 'unauthorized', 'Sign in as a user allowed to read the insights.');
      }
    } catch {
      return jsonError(500, 'internal', 'The authorize check of this insights endpoint failed.');
    }
    const query = new URLSearchParams();
    for (const name of PARAMETERS) {
      const value = url.searchParams.get(name);
      if (value !== null) query.set(name, value.slice(0, 200));
    }
    return forward(doFetch, `${base}/${route}${query.size ? `?${query}` : ''}`, options.adminKey, request);
  };
}

/** The service's answer, passed on with its type (JSON or CSV), never cached. */
async function forward(
  doFetch: Fetch,
  target: string,
  adminKey: string,
  request: Request,
): Promise<Response> {
  let upstream: Response;
  try {
    upstream = await doFetch(target, {
      method: request.method,
      headers: { Authorization: `Bearer ${adminKey}`, Accept: request.headers.get('accept') ?? '*/*' },
      signal: request.signal,
    });
  } catch {
    return jsonError(502, 'network_error', 'The insights service could not be reached; try again later.');
  }
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  for (const name of PASSED_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return new Response(request.method === 'HEAD' ? null : upstream.body, { status: upstream.status, headers });
}
