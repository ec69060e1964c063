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
 */

import { describeIssues, problemList, type ValidationProblem } from '../protocol/issues.js';
import { keyKind } from '../protocol/keys.js';
import {
  joinUrl,
  STATIC_EXPORT_JOBS_PATH,
  staticExportBundlePath,
  staticExportJobPath,
} from '../protocol/paths.js';
import {
  StartStaticExportJobBodySchema,
  StaticExportJobSchema,
  StaticExportStartedJobSchema,
} from '../protocol/static-export.js';
import { assertServerSide, StaticExportError } from './errors.js';

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface StaticExportHandlerOptions {
  /** Base URL of the static export service. */
  baseUrl: string;
  /** Admin API key (`svc_…`); it never leaves the host's backend. */
  adminKey: string;
  /**
   * When given, only this domain can be exported (the body's domain may be omitted), and only jobs
   * started through this handler (or whose status names this domain) can be read or bundled.
   */
  domain?: string;
  /** @default globalThis.fetch */
  fetch?: Fetch;
  /** Allow running in a browser page or worker (tests, mocks only). @default false */
  dangerouslyAllowBrowser?: boolean;
}

export type StaticExportHandler = (request: Request) => Promise<Response>;

/**
 * An error of the handler itself, in the real service's shape (`error` is the message, `code` the
 * machine code), like the service's errors it passes through.
 */
function jsonError(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
  issues?: ValidationProblem[],
): Response {
  return new Response(JSON.stringify({ error: message, code, ...(issues ? { issues } : {}) }), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}

const methodNotAllowed = (allow: string, message: string): Response =>
  jsonError(405, 'method_not_allowed', message, { Allow: allow });

/** Size of the largest body the handler forwards (in bytes); a start request is tiny. */
const MAX_BODY_BYTES = 16 * 1024;

/** Job ids a domain-restricted handler remembers; past it the oldest are forgotten. */
const MAX_REMEMBERED_JOBS = 10_000;

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

  // Ids of the jobs started through this handler (only kept with a domain restriction), oldest first.
  const startedJobs = new Set<string>();
  const remember = (jobId: string) => {
    startedJobs.delete(jobId);
    startedJobs.add(jobId);
    for (const oldest of startedJobs) {
      if (startedJobs.size <= MAX_REMEMBERED_JOBS) break;
      startedJobs.delete(oldest);
    }
  };

  /**
   * With a domain restriction, a job this handler did not start is reported as missing, unless
   * its status names the domain. Returns the status response when it had to fetch it.
   */
  async function checkJobDomain(jobId: string, signal: AbortSignal): Promise<Response | undefined> {
    if (!options.domain || startedJobs.has(jobId)) return undefined;
    const response = await forward(staticExportJobPath(jobId), { headers: auth, signal });
    if (!response.ok) return response;
    let data: unknown;
    try {
      data = await response.clone().json();
    } catch {
      data = undefined;
    }
    const parsed = StaticExportJobSchema.safeParse(data);
    if (parsed.success && parsed.data.domain === options.domain) {
      remember(jobId);
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

  return async (request) => {
    const segments = new URL(request.url).pathname.split('/').filter(Boolean);
    const at = segments.lastIndexOf('jobs');
    const rest = at === -1 ? undefined : segments.slice(at + 1);
    const method = request.method.toUpperCase();

    if (rest && rest.length === 0) {
      if (method !== 'POST') return methodNotAllowed('POST', 'Use POST to start a static export job.');
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
      const parsed = StartStaticExportJobBodySchema.safeParse(body, { reportInput: true });
      if (!parsed.success) {
        const issues = describeIssues(parsed.error.issues);
        return jsonError(
          400,
          'invalid_request',
          `Invalid static export request: ${problemList(issues)}.`,
          {},
          issues,
        );
      }
      const response = await forward(STATIC_EXPORT_JOBS_PATH, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify(parsed.data),
        signal: request.signal,
      });
      if (options.domain && response.ok) {
        try {
          const started = StaticExportStartedJobSchema.safeParse(await response.clone().json());
          if (started.success) remember(started.data.jobId);
        } catch {
          // Not JSON: the panel reports the unexpected answer; there is no id to remember.
        }
      }
      return response;
    }

    if (rest && rest.length === 1 && rest[0]) {
      if (method !== 'GET') return methodNotAllowed('GET', 'Use GET to read a static export job.');
      const jobId = jobIdOf(rest[0]);
      if (typeof jobId !== 'string') return jobId;
      return (
        (await checkJobDomain(jobId, request.signal)) ??
        forward(staticExportJobPath(jobId), { headers: auth, signal: request.signal })
      );
    }

    if (rest && rest.length === 2 && rest[0] && rest[1] === 'bundle') {
      if (method !== 'POST') return methodNotAllowed('POST', 'Use POST to generate a bundle link.');
      const jobId = jobIdOf(rest[0]);
      if (typeof jobId !== 'string') return jobId;
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
