/**
 * Schemas of the static export API (spec §2.5–2.6, §4.2–4.4) as the reference service answers it.
 * Shared by the admin client, the host handler and the service. No React, no Node APIs.
 */
import { z } from 'zod/v4-mini';
import { STATIC_EXPORT_JOBS_PATH } from './paths';

/** Job status values; a started job is `queued` before it runs (spec §3). */
export const STATIC_EXPORT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type StaticExportStatus = (typeof STATIC_EXPORT_STATUSES)[number];

export const StaticExportStatusSchema = z.enum(STATIC_EXPORT_STATUSES);

/** Body of `POST /v1/static-export/jobs`. */
export const StartStaticExportJobBodySchema = z.object({
  domain: z.string().check(z.minLength(1, 'domain must be a non-empty string')),
  version: z.optional(z.string().check(z.minLength(1, 'version, when given, must be a non-empty string'))),
  /** Page paths (or path prefixes) to export, each starting with `/`; all pages when absent. */
  paths: z.optional(
    z
      .array(
        z.string().check(z.regex(/^\/[^\s]*$/, 'each entry of paths must start with "/" and have no spaces')),
      )
      .check(z.minLength(1, 'paths, when given, must list at least one path')),
  ),
});
export type StartStaticExportJobBody = z.infer<typeof StartStaticExportJobBodySchema>;

/** A job as `GET /v1/static-export/jobs/{jobId}` answers it. */
export const StaticExportJobSchema = z.object({
  jobId: z.string(),
  status: StaticExportStatusSchema,
  /** Percentage, 0–100. */
  progress: z.number().check(z.gte(0), z.lte(100)),
  /** Pages exported so far. */
  pageCount: z.number().check(z.int(), z.gte(0)),
  createdAt: z.string(),
  updatedAt: z.string(),
  domain: z.optional(z.string()),
  version: z.optional(z.string()),
  /** Why a `failed` job failed. */
  error: z.optional(z.string()),
});
export type StaticExportJob = z.infer<typeof StaticExportJobSchema>;

/** Answer of `POST /v1/static-export/jobs/{jobId}/bundle`. */
export const StaticExportBundleSchema = z.object({
  jobId: z.string(),
  bundleUrl: z.string(),
  sizeBytes: z.number().check(z.int(), z.gte(0)),
  /** ISO 8601 timestamp after which `bundleUrl` stops working. */
  expiresAt: z.string(),
});
export type StaticExportBundle = z.infer<typeof StaticExportBundleSchema>;

/** Path of the presigned bundle download (the query carries `expires` and `signature`). */
export const STATIC_EXPORT_BUNDLES_PATH = '/v1/static-export/bundles';
export const staticExportBundleDownloadPath = (jobId: string): string =>
  `${STATIC_EXPORT_BUNDLES_PATH}/${encodeURIComponent(jobId)}.tar.gz`;

/** Re-exported so static export code needs one import. */
export { STATIC_EXPORT_JOBS_PATH };
