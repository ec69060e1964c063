'use client';
/**
 * `docs-assistant/insights/react`: the insights dashboard panel. It talks to the host's backend
 * route (`createInsightsHandler` from `docs-assistant/insights`), never with an admin key. An entry
 * of its own: a reader's page, which imports `docs-assistant`, never loads a byte of it.
 */
export type { ConversationFilter, InsightsRange } from './client.js';
export { defaultInsightsLabels, type InsightsPanelLabels } from './labels.js';
export { InsightsPanel, type InsightsPanelProps } from './panel.js';
