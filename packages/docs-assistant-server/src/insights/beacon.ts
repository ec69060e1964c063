/**
 * The reader's beacon (docs/insights.md): `POST /discovery/v1/assistant/{domain}/events` (assistant
 * key, public CORS) that the widget sends source and search-result clicks to. With insights off it
 * answers 404 `insights_off`, like the owner's API (`routes.ts`).
 */
import type { ValidationProblem } from 'docs-assistant/protocol';
import type { AssistantRuntime } from '../assistant.js';
import {
  admission,
  bodyCap,
  discoveryWrongMethod,
  invalidRequest,
  RouteFamily,
  readJsonBody,
} from '../http/index.js';
import type { InsightEvent } from './record.js';
import { insightsOff } from './routes.js';

export const INSIGHTS_EVENTS_ROUTE = '/discovery/v1/assistant/:domain/events';
export const MAX_BEACON_EVENTS = 50;
export const MAX_BEACON_BYTES = 16 * 1024;

const DAY_MS = 24 * 60 * 60 * 1000;
const EVENT_TYPES = new Set(['source-click', 'search-click', 'search']);

/** Validates a beacon body into events; every problem is listed with its path. */
export function validateBeacon(body: unknown, domain: string, now: number): InsightEvent[] {
  const problems: ValidationProblem[] = [];
  const record =
    body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  const list = record?.events;
  if (!record || !Array.isArray(list) || !list.length || list.length > MAX_BEACON_EVENTS) {
    throw invalidRequest('Invalid events', [
      { path: 'events', message: `required: an array of 1 to ${MAX_BEACON_EVENTS} events` },
    ]);
  }
  const fp = typeof record.fp === 'string' && record.fp ? record.fp.slice(0, 200) : undefined;
  if (record.fp !== undefined && typeof record.fp !== 'string')
    problems.push({ path: 'fp', message: 'must be a string' });
  const events: InsightEvent[] = [];
  list.forEach((item: unknown, n) => {
    const e = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const type = String(e.type);
    if (!EVENT_TYPES.has(type))
      problems.push({
        path: `events.${n}.type`,
        message: 'must be "source-click", "search-click" or "search"',
      });
    if (typeof e.path !== 'string' || !e.path.startsWith('/'))
      problems.push({ path: `events.${n}.path`, message: 'required: the page path, starting with /' });
    if (e.query !== undefined && typeof e.query !== 'string')
      problems.push({ path: `events.${n}.query`, message: 'must be a string' });
    if (type === 'search' && typeof e.query !== 'string')
      problems.push({ path: `events.${n}.query`, message: 'required for a search' });
    // A clock far off (or a replayed beacon) counts now, not on a day the reader's clock made up.
    const at = typeof e.at === 'number' && Math.abs(e.at - now) < DAY_MS ? e.at : now;
    const path = String(e.path).slice(0, 500);
    const query = typeof e.query === 'string' ? e.query.slice(0, 200) : undefined;
    const who = fp ? { fp } : {};
    if (type === 'search')
      events.push({ type: 'search', domain, at, query: query ?? '', results: -1, ...who });
    else
      events.push({
        type: type as 'source-click' | 'search-click',
        domain,
        at,
        path,
        ...(query ? { query } : {}),
        ...who,
      });
  });
  if (problems.length) throw invalidRequest('Invalid events', problems);
  return events;
}

/** The reader's beacon: assistant key, public CORS, like the feedback vote. */
export function insightsBeaconRoutes(runtime: AssistantRuntime): RouteFamily {
  const on = runtime.insights;
  return new RouteFamily({ cors: 'public', wrongMethod: discoveryWrongMethod }).post(
    INSIGHTS_EVENTS_ROUTE,
    'insights events endpoint',
    async (_c, next) => (on ? next() : insightsOff()),
    admission(runtime, { key: 'assistant' }),
    bodyCap(MAX_BEACON_BYTES),
    async (c) => {
      const events = validateBeacon(
        await readJsonBody(c.req.raw, MAX_BEACON_BYTES),
        c.get('domain').domain,
        Date.now(),
      );
      for (const event of events) on?.record(event);
      return c.json({ accepted: events.length }, 202);
    },
  );
}
