/**
 * Configuration of the reference service. Shared by the assistant endpoint and the static export
 * API: both authenticate against the same organizations and serve the same domains.
 *
 * Contract: the assistant service and the static export routes both read `ServiceConfig`; the
 * normaliser (`resolveServiceConfig`, in `service.ts`) turns the short single-site options into it.
 */

import type { AssistantLimits } from './limits.js';

/** Plans of an organization; static export needs `enterprise` (spec §1). */
export type Plan = 'free' | 'pro' | 'enterprise';

export interface OrganizationConfig {
  id: string;
  plan: Plan;
  /** Assistant keys (`svc_dsc_…`), public, valid for this organization's domains. */
  assistantKeys: string[];
  /** Admin keys (`svc_…`), secret, for the static export API. */
  adminKeys: string[];
}

export interface DomainConfig {
  /** The domain identifier (spec §4.1 path parameter). */
  domain: string;
  /** Id of the organization that owns it. */
  organization: string;
  /** Folders of Markdown/MDX docs. */
  docs: string[];
  /** Public URL of the docs site, for absolute `url`s in search results. @default none (paths only) */
  siteUrl?: string;
  /** Site title, for exports and the demo. */
  title?: string;
  /** How the docs folders' site navigation is applied (hidden pages, default language). */
  site?: SiteOptions;
}

export interface RateLimitConfig {
  /** Requests per organization per window. @default 10_000 per hour (spec §8) */
  perOrganization: { limit: number; windowMs: number };
  /** Requests per IP address per window. @default 10_000 per day (spec §8) */
  perIp: { limit: number; windowMs: number };
}

export interface ServiceConfig {
  organizations: OrganizationConfig[];
  domains: DomainConfig[];
  rateLimits: RateLimitConfig;
  /** Where threads (and export jobs) persist; in memory only when absent. */
  dataDir?: string;
  /** Largest accepted request body (in bytes). @default 1 MiB */
  maxBodyBytes: number;
  /** Caps on what requests store (`fp`, message text, bytes per thread and in all). @default DEFAULT_ASSISTANT_LIMITS */
  limits?: AssistantLimits;
}

/** How the loader treats what the site's navigation leaves out. */
export interface SiteOptions {
  /**
   * Pages the site builds but its navigation does not list: `'exclude'` leaves them out of the
   * index, `'include'` indexes them (marked hidden). @default 'exclude' (unless the site's config
   * makes them searchable, as Mintlify's `seo.indexing: "all"` does)
   */
  hiddenPages?: 'exclude' | 'include';
  /** Language of pages no config or folder names one for, when the site has translations. @default 'en' */
  defaultLanguage?: string;
  /** `false` reads the folder as plain Markdown even when a docs framework's config is there. @default true */
  detectFramework?: boolean;
}
