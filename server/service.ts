/**
 * The reference service: a standard fetch handler (Hono inside) that answers the spec's endpoints
 * over folders of Markdown/MDX docs. Runs under Node (`@hono/node-server`), in tests in-process,
 * and as a mock `fetch` wherever a `Request` can be made.
 */
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { IP_REQUESTS_PER_DAY, keyKind, ORGANIZATION_REQUESTS_PER_HOUR } from '../src/protocol';
import { ASSISTANT_MESSAGE_ROUTE, type AssistantRuntime, mountAssistantRoutes } from './assistant';
import type { DomainConfig, OrganizationConfig, Plan, RateLimitConfig, ServiceConfig } from './config';
import { createExtractiveEngine } from './engines/extractive';
import { createOpenAIEngine, type OpenAIEngineOptions } from './engines/openai';
import type { AnswerEngine } from './engines/types';
import { errorResponse, HttpError, httpErrorResponse } from './http';
import { FixedWindowLimiter } from './rate-limit';
import { DocsIndex, loadDocs } from './retrieval';
import { createStaticExportRoutes, type StaticExportRoutesOptions } from './static-export/routes';
import { ThreadStore } from './threads';

export { ASSISTANT_MESSAGE_ROUTE } from './assistant';
export type { AnswerEngine } from './engines/types';

/** Largest accepted request body (in bytes). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** Domain of the single-site form when none is given. */
export const DEFAULT_DOMAIN = 'docs-assistant';
/** Docs folder of the single-site form when none is given: this repo's own docs. */
export const DEFAULT_DOCS_DIR = 'docs';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export interface RateLimitOptions {
  perOrganization?: Partial<RateLimitConfig['perOrganization']>;
  perIp?: Partial<RateLimitConfig['perIp']>;
}

interface CommonOptions {
  /** Where threads persist (`threads.jsonl`); in memory only when absent. */
  dataDir?: string;
  rateLimits?: RateLimitOptions;
  /** Largest accepted request body (in bytes). @default 1 MiB */
  maxBodyBytes?: number;
  /** Answer engine. @default 'extractive' */
  engine?: 'extractive' | 'openai' | AnswerEngine;
  /** Settings of the `openai` engine (else read from `DOCS_ASSISTANT_LLM_*`). */
  openai?: OpenAIEngineOptions;
  /** Take the client IP from `X-Forwarded-For` (only behind a proxy you trust). @default false */
  trustProxy?: boolean;
  /** Receives non-fatal problems. @default console.warn */
  warn?: (message: string) => void;
  /** Static export API settings (link lifetime, concurrency, …); jobs persist in `dataDir`. */
  staticExport?: StaticExportRoutesOptions;
}

/** The short form for one docs site served under one domain. */
export interface SingleSiteOptions extends CommonOptions {
  /** Folder(s) of Markdown/MDX docs. @default 'docs' */
  docs?: string | string[];
  /** @default 'docs-assistant' */
  domain?: string;
  /** The public key (`svc_dsc_…`). @default a random key */
  assistantKey?: string;
  /** The secret key (`svc_…`) of the static export API. @default a random key */
  adminKey?: string;
  /** @default 'enterprise' (the reference service runs every feature) */
  plan?: Plan;
  /** Public URL of the docs, for absolute links in answers. */
  siteUrl?: string;
  title?: string;
}

/** The full form: several organizations and domains. */
export interface MultiSiteOptions extends CommonOptions {
  organizations: OrganizationConfig[];
  domains: DomainConfig[];
}

export type AssistantServiceOptions = SingleSiteOptions | MultiSiteOptions;

const randomHex = (bytes: number): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');

/** A fresh assistant key (`svc_dsc_…`). */
export const generateAssistantKey = (): string => `svc_dsc_${randomHex(16)}`;
/** A fresh admin key (`svc_…`). */
export const generateAdminKey = (): string => `svc_${randomHex(16)}`;

const DOMAIN_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number (got ${value}).`);
  return value;
}

function resolveRateLimits(options: RateLimitOptions = {}): RateLimitConfig {
  return {
    perOrganization: {
      limit: positive(
        options.perOrganization?.limit,
        ORGANIZATION_REQUESTS_PER_HOUR,
        'rateLimits.perOrganization.limit',
      ),
      windowMs: positive(options.perOrganization?.windowMs, HOUR_MS, 'rateLimits.perOrganization.windowMs'),
    },
    perIp: {
      limit: positive(options.perIp?.limit, IP_REQUESTS_PER_DAY, 'rateLimits.perIp.limit'),
      windowMs: positive(options.perIp?.windowMs, DAY_MS, 'rateLimits.perIp.windowMs'),
    },
  };
}

function checkConfig(config: ServiceConfig): ServiceConfig {
  const orgIds = new Set<string>();
  const keys = new Set<string>();
  for (const org of config.organizations) {
    if (!org.id) throw new Error('Every organization needs an id.');
    if (orgIds.has(org.id)) throw new Error(`Organization "${org.id}" is listed twice.`);
    orgIds.add(org.id);
    for (const key of org.assistantKeys) {
      if (keyKind(key) !== 'assistant') {
        throw new Error(
          `Organization "${org.id}": assistant keys must start with "svc_dsc_" (got "${key.slice(0, 12)}…").`,
        );
      }
    }
    for (const key of org.adminKeys) {
      if (keyKind(key) !== 'admin') {
        throw new Error(
          `Organization "${org.id}": admin keys must start with "svc_" and not "svc_dsc_" (got "${key.slice(0, 12)}…").`,
        );
      }
    }
    for (const key of [...org.assistantKeys, ...org.adminKeys]) {
      if (keys.has(key))
        throw new Error(`Organization "${org.id}": a key is used twice; every key must be unique.`);
      keys.add(key);
    }
  }
  const domains = new Set<string>();
  for (const domain of config.domains) {
    if (!DOMAIN_PATTERN.test(domain.domain)) {
      throw new Error(
        `Domain "${domain.domain}" is not a valid identifier: use letters, digits, ".", "_" and "-".`,
      );
    }
    if (domains.has(domain.domain)) throw new Error(`Domain "${domain.domain}" is listed twice.`);
    domains.add(domain.domain);
    if (!orgIds.has(domain.organization)) {
      throw new Error(
        `Domain "${domain.domain}" belongs to organization "${domain.organization}", which is not listed.`,
      );
    }
    if (!domain.docs.length) throw new Error(`Domain "${domain.domain}" needs at least one docs folder.`);
  }
  return config;
}

const isMultiSite = (options: AssistantServiceOptions): options is MultiSiteOptions =>
  'organizations' in options && 'domains' in options;

/**
 * Turns either options form into a checked `ServiceConfig`, generating keys that are not given.
 * Throws an error saying what to change when the options do not hold together.
 */
export function resolveServiceConfig(options: AssistantServiceOptions): ServiceConfig {
  const common = {
    rateLimits: resolveRateLimits(options.rateLimits),
    maxBodyBytes: positive(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes'),
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  };
  if (isMultiSite(options)) {
    return checkConfig({ organizations: options.organizations, domains: options.domains, ...common });
  }
  const docs = (Array.isArray(options.docs) ? options.docs : [options.docs ?? DEFAULT_DOCS_DIR]).filter(
    Boolean,
  );
  const domain = options.domain ?? DEFAULT_DOMAIN;
  return checkConfig({
    organizations: [
      {
        id: domain,
        plan: options.plan ?? 'enterprise',
        assistantKeys: [options.assistantKey ?? generateAssistantKey()],
        adminKeys: [options.adminKey ?? generateAdminKey()],
      },
    ],
    domains: [
      {
        domain,
        organization: domain,
        docs: docs.length ? docs : [DEFAULT_DOCS_DIR],
        ...(options.siteUrl ? { siteUrl: options.siteUrl } : {}),
        ...(options.title ? { title: options.title } : {}),
      },
    ],
    ...common,
  });
}

export interface AssistantService {
  /** The fetch handler; pass Node bindings (`@hono/node-server` does) for the client IP. */
  fetch: (request: Request, env?: unknown) => Promise<Response>;
  /** The Hono app, to mount more routes (the static export API) on. */
  app: Hono;
  config: ServiceConfig;
  /** Loads every domain's docs and the stored threads; rejects with the first problem. */
  ready: () => Promise<void>;
  /** The search index of a domain (built on first use). */
  index: (domain: string) => Promise<DocsIndex>;
  threads: ThreadStore;
  /** Waits for pending writes. The HTTP server, if any, is closed by whoever started it. */
  close: () => Promise<void>;
}

function createEngine(options: AssistantServiceOptions): AnswerEngine {
  const engine = options.engine ?? 'extractive';
  if (typeof engine === 'object') return engine;
  if (engine === 'openai') return createOpenAIEngine(options.openai);
  if (engine === 'extractive') return createExtractiveEngine();
  throw new Error(`Unknown engine "${String(engine)}"; use "extractive" or "openai".`);
}

export function createAssistantService(options: AssistantServiceOptions): AssistantService {
  const config = resolveServiceConfig(options);
  const warn = options.warn ?? ((message: string) => console.warn(`[docs-assistant] ${message}`));
  const threads = new ThreadStore({ ...(config.dataDir ? { dataDir: config.dataDir } : {}), warn });
  const indexes = new Map<string, Promise<DocsIndex>>();
  const index = (domain: string): Promise<DocsIndex> => {
    let built = indexes.get(domain);
    if (!built) {
      const entry = config.domains.find((d) => d.domain === domain);
      if (!entry) return Promise.reject(new Error(`Unknown domain "${domain}".`));
      built = loadDocs(entry.docs, { warn }).then((pages) => new DocsIndex(pages));
      // A failed load is retried on the next request instead of being cached.
      built.catch(() => indexes.delete(domain));
      indexes.set(domain, built);
    }
    return built;
  };

  const runtime: AssistantRuntime = {
    config,
    threads,
    engine: createEngine(options),
    limiters: {
      perOrganization: new FixedWindowLimiter(config.rateLimits.perOrganization),
      perIp: new FixedWindowLimiter(config.rateLimits.perIp),
    },
    index,
    trustProxy: options.trustProxy ?? false,
    warn,
  };

  const app = new Hono();
  app.use(
    '*',
    cors({
      // Assistant keys are public and sent as a bearer header, not a cookie: any origin may call.
      origin: '*',
      allowMethods: ['GET', 'POST', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type'],
      exposeHeaders: ['X-Thread-Id', 'X-Thread-Key', 'Retry-After'],
      maxAge: 600,
    }),
  );
  app.onError((error) => {
    if (error instanceof HttpError) return httpErrorResponse(error);
    warn(`unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return errorResponse(500, 'internal', 'The service failed to handle this request; try again later.');
  });
  app.notFound((c) =>
    errorResponse(
      404,
      'not_found',
      `No endpoint at ${c.req.method} ${new URL(c.req.url).pathname}; the assistant is at POST ${ASSISTANT_MESSAGE_ROUTE.replace(':domain', '{domain}')}.`,
    ),
  );
  app.get('/health', (c) => c.json({ ok: true, domains: config.domains.map((d) => d.domain) }));
  mountAssistantRoutes(app, runtime);
  // Static export API (spec §4.2–4.4) and its presigned downloads: server/static-export/.
  const staticExport = createStaticExportRoutes(config, options.staticExport);
  app.route('/', staticExport.app);

  return {
    fetch: async (request, env) => app.fetch(request, env),
    app,
    config,
    ready: async () => {
      await Promise.all([threads.load(), ...config.domains.map((d) => index(d.domain))]);
    },
    index,
    threads,
    close: async () => {
      await Promise.all([threads.flush(), staticExport.close()]);
    },
  };
}
