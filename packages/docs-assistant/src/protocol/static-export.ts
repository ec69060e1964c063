/**
 * Schemas of the static export API (spec §2.5–2.6, §4.2–4.4): what the spec guarantees is required,
 * what the reference service adds is optional, so clients work with any service that follows the
 * spec. Shared by the admin client, the host handler and the service. No React, no Node APIs.
 */

import { describeValue } from './issues.js';
import { STATIC_EXPORT_JOBS_PATH } from './paths.js';
import { buildingJitless, z } from './zod.js';

// No `new Function` while these are built (`./zod.ts`): a strict CSP would refuse and report it.
const built = buildingJitless();

/**
 * Status values the reference service uses; a started job is `queued` before it runs (spec §3).
 * The spec names only `completed` and `failed` and leaves other values open, so a response may
 * carry any string: clients show an unknown one as it is and keep polling.
 */
export const STATIC_EXPORT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type StaticExportStatus = (typeof STATIC_EXPORT_STATUSES)[number];

export const StaticExportStatusSchema = z.enum(STATIC_EXPORT_STATUSES);

/** Statuses after which a job no longer changes (spec §3): polling stops there. */
export const isTerminalStatus = (status: string): boolean => status === 'completed' || status === 'failed';

const hint = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? `required, ${what}` : `expected ${what}, got ${describeValue(issue.input)}`;

/** Body of `POST /v1/static-export/jobs`. */
export const StartStaticExportJobBodySchema = z.object(
  {
    /** The domain's name, or the docs site's hostname (`docs.example.com`, no protocol or path). */
    domain: z
      .string({ error: hint('a string (the domain to export)') })
      .check(z.minLength(1, 'must be a non-empty string (the domain to export)')),
    version: z.optional(
      z
        .string({ error: hint('a string (the docs version to export)') })
        .check(z.minLength(1, 'must be a non-empty string when given (or leave it out)')),
    ),
    /**
     * Page paths (or path prefixes) to export, with or without a leading `/` (the real service's
     * form is `"guides/getting-started"`, `"index"` for the home page); all pages when absent.
     */
    paths: z.optional(
      z
        .array(
          z
            .string({ error: hint('a string (a page path, like "guides/getting-started")') })
            .check(
              z.regex(
                /^\S+$/,
                'must be a page path like "guides/getting-started", non-empty, with no spaces',
              ),
            ),
          { error: hint('an array of page paths, like ["guides/getting-started"]') },
        )
        .check(z.minLength(1, 'must list at least one path when given (or leave it out)')),
    ),
  },
  { error: hint('a JSON object { "domain": string, "version"?: string, "paths"?: string[] }') },
);
export type StartStaticExportJobBody = z.infer<typeof StartStaticExportJobBodySchema>;

/**
 * `progress` and `pageCount` (spec §2.5): their type and unit are not shown, so a number or a
 * string is accepted (and null, for "not running"). The reference service sends a percentage
 * 0–100 and a whole count.
 */
const LiveFigureSchema = z.nullish(z.union([z.number(), z.string()]));
export type StaticExportLiveFigure = z.infer<typeof LiveFigureSchema>;

/** Everything beyond the spec's fields is optional: the reference service sends it, others may not. */
const jobFields = {
  jobId: z.optional(z.string()),
  progress: LiveFigureSchema,
  pageCount: LiveFigureSchema,
  createdAt: z.optional(z.string()),
  updatedAt: z.optional(z.string()),
  domain: z.optional(z.string()),
  version: z.optional(z.string()),
  /** Why a `failed` job failed. */
  error: z.optional(z.string()),
};

/**
 * A job as `GET /v1/static-export/jobs/{jobId}` answers it (spec §4.3): `status` (any string; see
 * `STATIC_EXPORT_STATUSES`), plus `progress` and `pageCount` while it runs.
 */
export const StaticExportJobSchema = z.object({ ...jobFields, status: z.string() });
export type StaticExportJob = z.infer<typeof StaticExportJobSchema>;

/** The answer of `POST /v1/static-export/jobs` (spec §4.2): `jobId`, and whatever else the service adds. */
export const StaticExportStartedJobSchema = z.object({
  ...jobFields,
  jobId: z.string(),
  status: z.optional(z.string()),
});
export type StaticExportStartedJob = z.infer<typeof StaticExportStartedJobSchema>;

/**
 * Answer of `POST /v1/static-export/jobs/{jobId}/bundle` (spec §4.4): `bundleUrl` and `expiresAt`,
 * a timestamp (an ISO 8601 string from the reference service; epoch seconds or milliseconds are
 * read too, see `bundleExpiryTime`).
 */
export const StaticExportBundleSchema = z.object({
  bundleUrl: z.string(),
  expiresAt: z.union([z.string(), z.number()]),
  jobId: z.optional(z.string()),
  /** Size of the archive in bytes (the reference service sends it). */
  sizeBytes: z.optional(z.number()),
});
export type StaticExportBundle = z.infer<typeof StaticExportBundleSchema>;

/** `expiresAt` in ms since the epoch, or NaN when it cannot be read. */
export function bundleExpiryTime(expiresAt: string | number): number {
  if (typeof expiresAt === 'number') {
    // Below 1e11 a timestamp in ms would be in 1973, so it is in seconds.
    return expiresAt < 1e11 ? expiresAt * 1000 : expiresAt;
  }
  if (/^\d+(\.\d+)?$/.test(expiresAt.trim())) return bundleExpiryTime(Number(expiresAt));
  return Date.parse(expiresAt);
}

/**
 * `progress` as a percentage for a progress bar: a number (or a numeric string like "40" or
 * "40%") read as percent and kept within 0–100; undefined when there is none to read.
 */
export function progressPercent(progress: StaticExportLiveFigure | undefined): number | undefined {
  const value =
    typeof progress === 'number'
      ? progress
      : typeof progress === 'string' && /^\s*\d+(\.\d+)?\s*%?\s*$/.test(progress)
        ? Number.parseFloat(progress)
        : Number.NaN;
  return Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : undefined;
}

/** File name of every export bundle, the last segment of its presigned link. */
export const STATIC_EXPORT_BUNDLE_FILE = 'bundle.tar.gz';

/**
 * Path of the presigned bundle download, `/v1/static-export/bundles/{jobId}/bundle.tar.gz` (the
 * query carries `expires` and `signature`).
 */
export const STATIC_EXPORT_BUNDLES_PATH = '/v1/static-export/bundles';
export const staticExportBundleDownloadPath = (jobId: string): string =>
  `${STATIC_EXPORT_BUNDLES_PATH}/${encodeURIComponent(jobId)}/${STATIC_EXPORT_BUNDLE_FILE}`;

/** Re-exported so static export code needs one import. */
export { STATIC_EXPORT_JOBS_PATH };

built();
