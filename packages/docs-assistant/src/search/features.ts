/**
 * Where search and the assistant are offered: the panel reads this up front, so it is kept apart
 * from the search client, which loads with the search view.
 */
import type { Deployment } from '../chat/types.js';

/** Which parts of the widget a client-hosted deployment turns on (spec §1's deployment table). */
export interface Features {
  /** Documentation search: on for `cloud`, off unless `true` for `client-hosted`, never for `air-gapped`. */
  search?: boolean;
  /** The AI assistant (the "Ask AI" row and the chat). @default true (never for `air-gapped`) */
  assistant?: boolean;
}

/**
 * Whether search may be used here: never air-gapped (nothing is sent), on for cloud unless
 * `features.search` is `false`, on for client-hosted only with `features.search: true`. With `api`
 * (a route of the host) there is no search endpoint to call: the route forwards the assistant only.
 */
export function searchAvailable(options: {
  deployment?: Deployment;
  features?: Features;
  api?: string;
}): boolean {
  const { deployment = 'cloud', features, api } = options;
  if (deployment === 'air-gapped' || api !== undefined) return false;
  return deployment === 'client-hosted' ? features?.search === true : features?.search !== false;
}

/** Whether the assistant (the "Ask AI" row) is offered beside search. */
export const assistantAvailable = (options: { deployment?: Deployment; features?: Features }): boolean =>
  options.deployment !== 'air-gapped' && options.features?.assistant !== false;
