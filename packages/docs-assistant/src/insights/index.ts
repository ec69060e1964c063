/**
 * `docs-assistant/insights`: the handler a host mounts on its backend for the insights dashboard
 * panel (`docs-assistant/insights/react`), and the shapes of the insights API's answers. Never
 * import the handler in browser code: it holds the admin key.
 */
export {
  createInsightsHandler,
  INSIGHTS_ROUTES,
  type InsightsHandler,
  type InsightsHandlerOptions,
  type InsightsRoute,
} from './handler.js';
/** Every shape of the insights API's answers. */
export type * from './types.js';
