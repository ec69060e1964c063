/** Endpoint paths of the spec (§4, §9). */

export const assistantMessagePath = (domain: string): string =>
  `/discovery/v1/assistant/${encodeURIComponent(domain)}/message`;

export const STATIC_EXPORT_JOBS_PATH = '/v1/static-export/jobs';

export const staticExportJobPath = (jobId: string): string =>
  `${STATIC_EXPORT_JOBS_PATH}/${encodeURIComponent(jobId)}`;

export const staticExportBundlePath = (jobId: string): string => `${staticExportJobPath(jobId)}/bundle`;

/** Joins a base URL (with or without a trailing slash, possibly with a path) and an absolute path. */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}
