/**
 * A `(Request) => Promise<Response>` handler the host mounts on its own backend (a route handler,
 * Express via a fetch adapter, Hono). The dashboard panel calls it; it adds the admin key
 * server-side and proxies exactly three operations:
 *
 *   POST {mount}/jobs                 start a job
 *   GET  {mount}/jobs/{jobId}         job status
 *   POST {mount}/jobs/{jobId}/bundle  presigned bundle link
 *
 * Anything else is 404, so the browser can never use the key for another call.
 */
import { keyKind } from '../protocol/keys';
import {
  joinUrl,
  STATIC_EXPORT_JOBS_PATH,
  staticExportBundlePath,
  staticExportJobPath,
} from '../protocol/paths';
import { StartStaticExportJobBodySchema, StaticExportJobSchema } from '../protocol/static-export';
import { assertServerSide, StaticExportError } from './errors';

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface StaticExportHandlerOptions {
  /** Base URL of the static export service. */
  baseUrl: string;
  /** Admin API key (`svc_…`); it never leaves the host's backend. */
  adminKey: string;
  /** When given, only this domain can be exported (the body's domain may be omitted). */
  domain?: string;
  /** @default globalThis.fetch */
  fetch?: Fetch;
  /** Allow running where `window` and `document` exist (tests, mocks only). @default false */
  dangerouslyAllowBrowser?: boolean;
}

export type StaticExportHandler = (request: Request) => Promise<Response>;

function jsonError(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

/** Size of the largest body the handler forwards (in bytes); a start request is tiny. */
const MAX_BODY_BYTES = 16 * 1024;

export function createStaticExportHandler(options: StaticExportHandlerOptions): StaticExportHandler {
  assertServerSide('createStaticExportHandler', options.dangerouslyAllowBrowser);
  if (keyKind(options.adminKey) !== 'admin') {
    throw new StaticExportError(
      0,
      'invalid_configuration',
      'createStaticExportHandler needs an admin API key (svc_…, not svc_dsc_…) in adminKey.',
    );
  }
  const doFetch: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const auth = { Authorization: `Bearer ${options.adminKey}` };

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

  /** With a domain restriction, a job of another domain is reported as missing. */
  async function checkJobDomain(jobId: string, signal: AbortSignal): Promise<Response | undefined> {
    if (!options.domain) return undefined;
    const response = await forward(staticExportJobPath(jobId), { headers: auth, signal });
    if (!response.ok) return response;
    const parsed = StaticExportJobSchema.safeParse(await response.clone().json());
    if (!parsed.success || parsed.data.domain !== options.domain) {
      return jsonError(
        404,
        'not_found',
        `No static export job "${jobId}" for the domain "${options.domain}".`,
      );
    }
    return response;
  }

  return async (request) => {
    const segments = new URL(request.url).pathname.split('/').filter(Boolean);
    const at = segments.lastIndexOf('jobs');
    const rest = at === -1 ? undefined : segments.slice(at + 1);
    const method = request.method.toUpperCase();

    if (rest && rest.length === 0) {
      if (method !== 'POST')
        return jsonError(405, 'method_not_allowed', 'Use POST to start a static export job.');
      const text = await request.text();
      if (text.length > MAX_BODY_BYTES)
        return jsonError(413, 'payload_too_large', 'The request body is too large.');
      let body: unknown;
      try {
        body = text.trim() ? JSON.parse(text) : {};
      } catch {
        return jsonError(400, 'invalid_json', 'The request body is not valid JSON; send { "domain": "…" }.');
      }
      if (options.domain && body && typeof body === 'object' && !Array.isArray(body)) {
        const given = (body as { domain?: unknown }).domain;
        if (given !== undefined && given !== options.domain) {
          return jsonError(403, 'forbidden', `This endpoint only exports the domain "${options.domain}".`);
        }
        body = { ...body, domain: options.domain };
      }
      const parsed = StartStaticExportJobBodySchema.safeParse(body);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({
          path: i.path.map(String).join('.') || '(body)',
          message: i.message,
        }));
        return new Response(
          JSON.stringify({
            error: {
              code: 'invalid_request',
              message: `Invalid static export request: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}.`,
              issues,
            },
          }),
          { status: 400, headers: { 'Content-Type': 'application/json; charset=utf-8' } },
        );
      }
      return forward(STATIC_EXPORT_JOBS_PATH, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(parsed.data),
        signal: request.signal,
      });
    }

    if (rest && rest.length === 1 && rest[0]) {
      if (method !== 'GET')
        return jsonError(405, 'method_not_allowed', 'Use GET to read a static export job.');
      const jobId = decodeURIComponent(rest[0]);
      return (
        (await checkJobDomain(jobId, request.signal)) ??
        forward(staticExportJobPath(jobId), { headers: auth, signal: request.signal })
      );
    }

    if (rest && rest.length === 2 && rest[0] && rest[1] === 'bundle') {
      if (method !== 'POST')
        return jsonError(405, 'method_not_allowed', 'Use POST to generate a bundle link.');
      const jobId = decodeURIComponent(rest[0]);
      const check = await checkJobDomain(jobId, request.signal);
      if (check && !check.ok) return check;
      return forward(staticExportBundlePath(jobId), {
        method: 'POST',
        headers: auth,
        signal: request.signal,
      });
    }

    return jsonError(
      404,
      'not_found',
      'Unknown static export route: use POST …/jobs, GET …/jobs/{jobId} or POST …/jobs/{jobId}/bundle.',
    );
  };
}
