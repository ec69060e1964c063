/**
 * The discovery API beside the v1 assistant endpoint: search, page, and the v2 (AI SDK 5) message
 * endpoint. All of them take the assistant key and answer from the same index and threads.
 */
import type { Hono } from 'hono';
import type { AssistantRuntime } from '../assistant.js';
import { mountFeedbackRoutes } from './feedback.js';
import { mountSearchRoutes } from './search.js';
import { mountShareRoutes } from './share.js';
import { mountV2AssistantRoutes } from './v2-message.js';

export * from './feedback.js';
export * from './search.js';
export * from './share.js';
export * from './v2-message.js';

/** Adds the search, page and v2 message endpoints to an app. */
export function mountDiscoveryRoutes(app: Hono, runtime: AssistantRuntime): void {
  mountSearchRoutes(app, runtime);
  mountFeedbackRoutes(app, runtime);
  mountV2AssistantRoutes(app, runtime);
  mountShareRoutes(app, runtime);
}
