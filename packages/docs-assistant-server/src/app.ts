/**
 * The service's Hono app without any Node built-in: CORS, JSON errors, the health check, the
 * assistant endpoint and the rest of the discovery API (search, page, v2 messages). `service.ts` (Node) and `in-memory.ts` (anywhere) build on it.
 *
 * CORS is for the assistant endpoint (and the health check) only. The static export routes take
 * an admin key, a server-side secret (spec §5): they send no CORS header at all, so a page of any
 * origin that got hold of a key still cannot call them from a browser.
 */
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { ASSISTANT_MESSAGE_ROUTE, type AssistantRuntime, mountAssistantRoutes } from './assistant.js';
import {
  FEEDBACK_CAPABILITY,
  feedbackStorage,
  isFeedbackListRequest,
  mountDiscoveryRoutes,
  SHARE_CAPABILITY,
  shareStorage,
} from './discovery/index.js';
import { errorResponse, HttpError, httpErrorResponse } from './http.js';
import { isMcpPath } from './mcp/route.js';

/** Prefix of the static export (admin) API and its downloads. */
export const ADMIN_PATH_PREFIX = '/v1/static-export';

const isAdminPath = (path: string): boolean =>
  path === ADMIN_PATH_PREFIX || path.startsWith(`${ADMIN_PATH_PREFIX}/`);

/** A Hono app that serves the assistant endpoint of `runtime`; more routes can be mounted on it. */
export function createAssistantApp(runtime: AssistantRuntime): Hono {
  const { config, warn } = runtime;
  const app = new Hono();
  const assistantCors = cors({
    // Assistant keys are public and sent as a bearer header, not a cookie: any origin may call.
    origin: '*',
    allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type'],
    exposeHeaders: [
      'X-Thread-Id',
      'X-Thread-Key',
      'Retry-After',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-Request-Adjusted',
    ],
    maxAge: 600,
  });
  // The MCP endpoint answers CORS itself: only the origins it allows (mcp/http.ts).
  // The feedback list takes an admin key: no CORS either, like the static export API.
  app.use('*', (c, next) =>
    isAdminPath(c.req.path) || isMcpPath(c.req.path) || isFeedbackListRequest(c.req.method, c.req.path)
      ? next()
      : assistantCors(c, next),
  );
  app.onError((error) => {
    if (error instanceof HttpError) return httpErrorResponse(error);
    warn(`unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return errorResponse(500, 'internal', 'The service failed to handle this request; try again later.');
  });
  app.notFound((c) => {
    const path = new URL(c.req.url).pathname;
    return errorResponse(
      404,
      'not_found',
      isAdminPath(path)
        ? `No static export endpoint at ${c.req.method} ${path}; use POST ${ADMIN_PATH_PREFIX}/jobs, GET ${ADMIN_PATH_PREFIX}/jobs/{jobId} or POST ${ADMIN_PATH_PREFIX}/jobs/{jobId}/bundle.`
        : `No endpoint at ${c.req.method} ${path}; the assistant is at POST ${ASSISTANT_MESSAGE_ROUTE.replace(':domain', '{domain}')} (v2: POST /discovery/v2/assistant/{domain}/message), search at POST /discovery/v1/search/{domain}, pages at POST /discovery/v1/page/{domain}.`,
    );
  });
  // `capabilities` tells clients which optional endpoints answer here (the widget's "Share", and
  // where it posts feedback votes).
  const capabilities = [
    ...(shareStorage(runtime.threads.storage) ? [SHARE_CAPABILITY] : []),
    ...(feedbackStorage(runtime.threads.storage) ? [FEEDBACK_CAPABILITY] : []),
  ];
  app.get('/health', (c) => c.json({ ok: true, domains: config.domains.map((d) => d.domain), capabilities }));
  mountAssistantRoutes(app, runtime);
  mountDiscoveryRoutes(app, runtime);
  return app;
}
