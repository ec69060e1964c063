/**
 * The service's Hono app without any Node built-in: the one `onError` and `notFound`, and the
 * route families every service has (health, the assistant's v1 and v2 messages, search and page,
 * feedback, shares), each a sub-app of `http/` with its own CORS, admission and 405s. `service.ts`
 * (Node) mounts the rest (MCP, static export, agents' Markdown, embed); `in-memory.ts` (anywhere)
 * uses this alone.
 */
import { Hono } from 'hono';
import { ASSISTANT_MESSAGE_ROUTE, type AssistantRuntime, assistantRoutes } from './assistant.js';
import {
  FEEDBACK_CAPABILITY,
  feedbackRoutes,
  feedbackStorage,
  pageRoutes,
  SHARE_CAPABILITY,
  searchRoutes,
  shareRoutes,
  shareStorage,
  v2AssistantRoutes,
} from './discovery/index.js';
import { errorHandler, errorResponse, RouteFamily } from './http/index.js';
import { insightsBeaconRoutes } from './insights/beacon.js';
import { INSIGHTS_CAPABILITY, insightsRoutes } from './insights/routes.js';

/** Prefix of the static export (admin) API and its downloads. */
export const ADMIN_PATH_PREFIX = '/v1/static-export';

const isAdminPath = (path: string): boolean =>
  path === ADMIN_PATH_PREFIX || path.startsWith(`${ADMIN_PATH_PREFIX}/`);

/** `GET /health`: the service answers, its domains, and which optional endpoints it has. */
function healthRoutes(runtime: AssistantRuntime): RouteFamily {
  // `capabilities` tells clients which optional endpoints answer here (the widget's "Share", and
  // where it posts feedback votes).
  const capabilities = [
    ...(shareStorage(runtime.threads.storage) ? [SHARE_CAPABILITY] : []),
    ...(feedbackStorage(runtime.threads.storage) ? [FEEDBACK_CAPABILITY] : []),
    ...(runtime.insights ? [INSIGHTS_CAPABILITY] : []),
  ];
  const domains = runtime.config.domains.map((d) => d.domain);
  return new RouteFamily({ cors: 'public', wrongMethod: () => 'Use GET /health for the health check.' }).get(
    '/health',
    'health check',
    (c) => c.json({ ok: true, domains, capabilities }),
  );
}

/** A Hono app that serves the assistant endpoints of `runtime`; more families can be mounted on it. */
export function createAssistantApp(runtime: AssistantRuntime): Hono {
  // The root holds no variables of its own: each family is a `Hono<ServiceEnv>` of its own.
  const app = new Hono();
  app.onError(errorHandler(runtime.warn));
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
  for (const family of [
    healthRoutes(runtime),
    assistantRoutes(runtime),
    v2AssistantRoutes(runtime),
    searchRoutes(runtime),
    pageRoutes(runtime),
    feedbackRoutes(runtime),
    shareRoutes(runtime),
    insightsRoutes(runtime),
    insightsBeaconRoutes(runtime),
  ]) {
    app.route('/', family.app);
  }
  return app;
}
