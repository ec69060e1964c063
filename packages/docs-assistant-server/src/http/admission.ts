/**
 * The one admission middleware: the checks a route makes before it reads a body, in the order
 * that keeps a client guessing keys as slow as any other (the address's rate limit first), then the
 * bearer key (hono's `bearerAuth`, answering the service's 401s), its kind (403), the domain of the
 * path (404, 403 for another organization's) and the organization's rate limit. What it found is
 * on typed context variables (`c.get('domain')`, `c.get('owner')`, `c.get('keyKind')`,
 * `c.get('decisions')`), so a handler does only its own work.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import type { DomainConfig, ServiceConfig } from '../config.js';
import type { RateLimitDecision, RateLimiter } from '../rate-limit.js';
import {
  findKeyOwner,
  type KeyKind,
  type KeyOwner,
  missingKey,
  ownedDomain,
  unknownKey,
  wrongKeyKind,
} from './auth.js';
import { clientIp } from './client-ip.js';
import { HttpError } from './errors.js';

/** What `admission` puts on the context, for the handlers after it. */
export interface ServiceVariables {
  /** The kind of key the request was let in with. */
  keyKind: KeyKind;
  /** The organization of the key, and its kind. */
  owner: KeyOwner;
  /** The domain the request is for, owned by the key's organization. */
  domain: DomainConfig;
  /** The rate limits the request counted against (for `rateLimitHeaders`); may be empty. */
  decisions: RateLimitDecision[];
}

/** The Hono environment of every route family: `new Hono<ServiceEnv>()`. */
export type ServiceEnv = { Variables: ServiceVariables };

/** What admission reads of the service. */
export interface AdmissionRuntime {
  config: ServiceConfig;
  /**
   * Counted in the storage (shared by replicas) or in memory; `hit` may return a promise. Only
   * routes that count requests need them (the static export API counts none).
   */
  limiters?: { perOrganization: RateLimiter; perIp: RateLimiter };
  trustProxy?: boolean;
}

function limiters(runtime: AdmissionRuntime): { perOrganization: RateLimiter; perIp: RateLimiter } {
  if (!runtime.limiters)
    throw new Error('admission: these routes count requests; give the runtime its limiters.');
  return runtime.limiters;
}

export interface AdmissionOptions {
  /** The kind of key the routes take (spec §5). */
  key: KeyKind;
  /** Count the request against the address's limit, before the key is checked. @default true */
  countIp?: boolean;
  /** Count it against the key's organization's limit, once the key is known. @default true */
  countOrganization?: boolean;
  /**
   * Where the domain comes from: the path's `:domain`, one an earlier middleware set on the
   * context (`c.set('domain', …)`), or none (the static export API names it in the body).
   * @default 'param'
   */
  domain?: 'param' | 'context' | 'none';
  /** The 403 for a key of the other kind, when the routes word it their own way. */
  wrongKind?: () => HttpError;
}

/**
 * `X-RateLimit-Limit` and `X-RateLimit-Remaining` of the tightest limit a request counted against
 * (the one with the fewest requests left), so a client can slow down before it gets a 429.
 */
export function rateLimitHeaders(...decisions: RateLimitDecision[]): Record<string, string> {
  if (!decisions.length) return {};
  const tightest = decisions.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  return { 'X-RateLimit-Limit': String(tightest.limit), 'X-RateLimit-Remaining': String(tightest.remaining) };
}

/** The 429 of a limit that is used up, with when to retry. */
export function rateLimited(scope: string, decision: RateLimitDecision): HttpError {
  const { retryAfterSeconds, limit } = decision;
  return new HttpError(
    429,
    'rate_limited',
    `Too many requests ${scope} (limit ${limit}); retry in ${retryAfterSeconds} seconds.`,
    { headers: { 'Retry-After': String(retryAfterSeconds), ...rateLimitHeaders(decision) } },
  );
}

/** Counts a request against the address's limit; 429 when it is used up. */
export async function countIp(c: Context, runtime: AdmissionRuntime): Promise<RateLimitDecision> {
  const decision = await limiters(runtime).perIp.hit(
    clientIp(c, { trustProxy: runtime.trustProxy ?? false }),
  );
  if (!decision.allowed) throw rateLimited('from this IP address', decision);
  return decision;
}

/** Counts a request against an organization's limit; 429 when it is used up. */
export async function countOrganization(
  runtime: AdmissionRuntime,
  organization: string,
): Promise<RateLimitDecision> {
  const decision = await limiters(runtime).perOrganization.hit(organization);
  if (!decision.allowed) throw rateLimited('for this organization', decision);
  return decision;
}

// The token a request sent, kept for the 401's wording (hono's message functions get only `c`).
const sentTokens = new WeakMap<Context, string>();

/** A bearer credential whose token hono's stricter syntax refuses: still "a key", just unknown. */
const BEARER_LIKE = /^bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Middleware that lets a request in with a key of `options.key` for its domain, or refuses it with
 * the service's 401/403/404/429; sets `keyKind`, `owner`, `domain` and `decisions`.
 *
 * @example
 * app.post('/discovery/v1/search/:domain', admission(runtime, { key: 'assistant' }), (c) => {
 *   const domain = c.get('domain'); // typed: DomainConfig
 * });
 */
export function admission(
  runtime: AdmissionRuntime,
  options: AdmissionOptions,
): MiddlewareHandler<ServiceEnv> {
  const kind = options.key;
  // A route family that counts requests without limiters is a wiring mistake: said at start-up.
  if (options.countIp !== false || options.countOrganization !== false) limiters(runtime);
  const refuse = (error: HttpError) => error.getResponse();
  // hono types its middleware for the default environment; it only reads the header and `set`s.
  const bearer = bearerAuth({
    verifyToken: (token, c) => {
      sentTokens.set(c, token);
      const owner = findKeyOwner(runtime.config, token);
      if (owner) (c as Context<ServiceEnv>).set('owner', owner);
      return !!owner;
    },
    noAuthenticationHeader: { message: () => refuse(missingKey(kind)) },
    // hono answers a header it cannot read with 400; the service answers 401 saying what to send.
    invalidAuthenticationHeader: {
      message: (c) => {
        const token = BEARER_LIKE.exec(c.req.header('authorization') ?? '')?.[1];
        return refuse(token ? unknownKey(kind, token) : missingKey(kind));
      },
    },
    invalidToken: { message: (c) => refuse(unknownKey(kind, sentTokens.get(c) ?? '')) },
  }) as MiddlewareHandler<ServiceEnv>;
  return async (c, next) => {
    const decisions: RateLimitDecision[] = [];
    // Counted before the key is checked, so requests with bad keys use up an address's allowance
    // too: a client guessing keys is slowed like any other.
    if (options.countIp !== false) decisions.push(await countIp(c, runtime));
    await bearer(c, async () => {
      const owner = c.get('owner');
      if (owner.kind !== kind) throw options.wrongKind?.() ?? wrongKeyKind(kind);
      c.set('keyKind', owner.kind);
      if (options.domain !== 'none') {
        const named = options.domain === 'context' ? c.get('domain')?.domain : c.req.param('domain');
        c.set('domain', ownedDomain(runtime.config, owner, named ?? ''));
      }
      if (options.countOrganization !== false) {
        decisions.push(await countOrganization(runtime, owner.organization.id));
      }
      c.set('decisions', decisions);
      await next();
    });
  };
}

/**
 * `admit` with its own refusals answered by `refused` (a route that words them its own way); an
 * error of the handlers after it, or one `refused` gives no answer for, is thrown as it was.
 */
export function answerRefusal(
  admit: MiddlewareHandler<ServiceEnv>,
  refused: (error: unknown, c: Context<ServiceEnv>) => Promise<Response | undefined> | Response | undefined,
): MiddlewareHandler<ServiceEnv> {
  return async (c, next) => {
    let admittedIn = false;
    try {
      await admit(c, () => {
        admittedIn = true;
        return next();
      });
    } catch (error) {
      if (admittedIn) throw error;
      const answer = await refused(error, c);
      if (!answer) throw error;
      c.res = answer;
    }
  };
}

/**
 * Admission for the owner reading a domain's records (the feedback list, insights): an admin key,
 * counted against the address's limit only (the owner reading, not a reader asking). An assistant
 * key gets a 403 saying that `needs` (`insights need`) an admin key.
 */
export const ownerAdmission = (runtime: AdmissionRuntime, needs: string): MiddlewareHandler<ServiceEnv> =>
  admission(runtime, {
    key: 'admin',
    countOrganization: false,
    wrongKind: () =>
      new HttpError(
        403,
        'forbidden',
        `This is an assistant API key (svc_dsc_…), which readers hold; ${needs} an admin API key (svc_…) of the organization that owns the domain.`,
      ),
  });
