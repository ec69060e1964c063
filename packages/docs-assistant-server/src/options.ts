/**
 * Options of the reference service and their normaliser into the shared `ServiceConfig`.
 * Free of Node built-ins, so a browser build (Storybook's mock service) can use it too.
 */
import { IP_REQUESTS_PER_DAY, keyKind, ORGANIZATION_REQUESTS_PER_HOUR } from 'docs-assistant/protocol';
import type { DomainConfig, OrganizationConfig, Plan, RateLimitConfig, ServiceConfig } from './config.js';
import type { SiteOptions } from './docs/sites/types.js';
import type { OpenAIEngineOptions } from './engines/openai.js';
import type { AnswerEngine } from './engines/types.js';
import type { InsightsOptions } from './insights/record.js';
import { type AssistantLimits, resolveAssistantLimits } from './limits.js';
import type { McpOptions } from './mcp/http.js';
import type { IndexBuild } from './retrieval/persist.js';
import type { StaticExportRoutesOptions } from './static-export/routes.js';
import type { Storage } from './storage/types.js';

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

/** How long stored state is kept (the byte caps are `limits.maxThreadBytes` and `limits.maxStoredBytes`). */
export interface RetentionOptions {
  /** Threads idle this many days, and finished export jobs as old, are removed. @default kept until the byte caps */
  days?: number;
  /** How often the sweep runs (ms). @default 600_000 (10 minutes) */
  sweepIntervalMs?: number;
}

export interface CommonOptions {
  /**
   * Indexes the docs again when a file in their folders changes (a short while after the last
   * change); only changed files are parsed again. @default false
   */
  watch?: boolean | { debounceMs?: number };
  /** Called with each index built: at start (built, or restored from `dataDir`) and after changes. */
  onIndex?: (domain: string, build: IndexBuild) => void;
  /**
   * Folder of the embedded database (`docs-assistant.sqlite`: threads, export jobs and their
   * bundles, feedback, rate limits); in memory only when absent. An old `threads.jsonl` there is
   * moved into the database at start-up.
   */
  dataDir?: string;
  /**
   * PostgreSQL URL (`postgres://user:password@host:5432/db`) for state shared by several replicas;
   * used instead of the embedded database.
   */
  databaseUrl?: string;
  /** A storage of your own (e.g. `createStorage(…)` with other settings); the service does not close it. */
  storage?: Storage;
  /**
   * Without `dataDir` or `databaseUrl`: bytes of export bundles kept in memory; past it the oldest
   * go, and asking for one of them says it was evicted. @default 32 MiB
   */
  memoryBundleBytes?: number;
  retention?: RetentionOptions;
  /** What readers ask, search and click, for the owner (docs/insights.md). @default recorded, text kept 30 days */
  insights?: InsightsOptions;
  rateLimits?: RateLimitOptions;
  /**
   * Largest accepted request body (in bytes), counted while it is read: a bigger body gets 413
   * before it is held whole. A 20-turn conversation with its search results and some selected code
   * is a few hundred kB. @default 1 MiB
   */
  maxBodyBytes?: number;
  /**
   * Caps on what one request may store, since the assistant key is public: `fp` length, characters
   * per message (both 413 past them), bytes kept per thread and in all. @default DEFAULT_ASSISTANT_LIMITS
   */
  limits?: Partial<AssistantLimits>;
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
  /**
   * The MCP server at `/mcp` (first domain) and `/mcp/{domain}`: public or behind the assistant
   * key, and the web origins allowed to call it. @default served, public, no other origin
   */
  mcp?: McpOptions;
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
  /**
   * How the docs folder's own navigation (Mintlify, Docusaurus, VitePress, MkDocs config) is
   * applied: hidden pages, the default language. @default every page the navigation lists
   */
  site?: SiteOptions;
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
    if (domain.siteUrl !== undefined) checkSiteUrlForm(domain.domain, domain.siteUrl);
  }
  return config;
}

/**
 * A site URL is the docs' origin, or the origin with the path the docs are served under; whether
 * that path fits the site's own base is checked once its config is read (`docs/sites/published.ts`).
 */
function checkSiteUrlForm(domain: string, siteUrl: string): void {
  const url = URL.canParse(siteUrl) ? new URL(siteUrl) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || !url.host || url.search || url.hash) {
    throw new Error(
      `Domain "${domain}": the site URL must be an http(s) URL without query or fragment, the docs' origin (https://docs.example.com) or the origin with their base path (https://example.com/docs) (got "${siteUrl}").`,
    );
  }
}

const isMultiSite = (options: AssistantServiceOptions): options is MultiSiteOptions =>
  'organizations' in options && 'domains' in options;

/**
 * Turns either options form into a checked `ServiceConfig`, generating keys that are not given.
 * Throws an error saying what to change when the options do not hold together.
 */
export function resolveServiceConfig(options: AssistantServiceOptions): ServiceConfig {
  if (options.retention?.days !== undefined) positive(options.retention.days, 1, 'retention.days');
  if (options.retention?.sweepIntervalMs !== undefined)
    positive(options.retention.sweepIntervalMs, 1, 'retention.sweepIntervalMs');
  if (options.databaseUrl !== undefined && !/^postgres(ql)?:\/\/./.test(options.databaseUrl)) {
    throw new Error('databaseUrl must be a PostgreSQL URL: postgres://user:password@host:5432/database.');
  }
  const common = {
    rateLimits: resolveRateLimits(options.rateLimits),
    maxBodyBytes: positive(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes'),
    limits: resolveAssistantLimits(options.limits),
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
        ...(options.site ? { site: options.site } : {}),
      },
    ],
    ...common,
  });
}
