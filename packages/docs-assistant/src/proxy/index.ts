/**
 * `docs-assistant/proxy`: the server-side route that keeps the assistant key on the host's server
 * (the widget's `api` prop points at it). No React, no browser code.
 */

// Body reading and JSON with the semantics of the routes of both packages.
export { type BodyCaps, type BodyRead, decodeJson, type JsonRead, readBody } from '../routes/body.js';
// The one rate limiter, also the service's (its per-IP and per-organization limits).
export {
  checkRateLimit,
  FixedWindowLimiter,
  type FixedWindowLimiterOptions,
  type RateLimitDecision,
  type RateLimiter,
  windowDecision,
  windowStartOf,
} from '../routes/rate-limit.js';
export {
  type AssistantProxy,
  type AssistantProxyOptions,
  type AssistantProxyRateLimit,
  createAssistantProxy,
  FORWARDED_RESPONSE_HEADERS,
} from './create-assistant-proxy.js';
