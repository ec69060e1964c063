/**
 * `docs-assistant/static-export`: the server-side admin client of the static export API and the
 * handler a host mounts for the dashboard panel. Never import this in browser code.
 */
export type {
  StartStaticExportJobBody,
  StaticExportBundle,
  StaticExportJob,
  StaticExportLiveFigure,
  StaticExportStartedJob,
  StaticExportStatus,
} from '../protocol/static-export.js';
export {
  bundleExpiryTime,
  isTerminalStatus,
  progressPercent,
  STATIC_EXPORT_STATUSES,
  StaticExportBundleSchema,
  StaticExportJobSchema,
  StaticExportStartedJobSchema,
} from '../protocol/static-export.js';
export {
  createStaticExportClient,
  type ExportSiteOptions,
  type ExportSiteResult,
  type StaticExportClient,
  type StaticExportClientOptions,
  type StaticExportJobStatus,
  type WaitForJobOptions,
} from './client.js';
export { StaticExportError, type StaticExportErrorCode } from './errors.js';
export {
  createStaticExportHandler,
  type StaticExportHandler,
  type StaticExportHandlerOptions,
  type StaticExportRateLimit,
} from './handler.js';
