/**
 * The static export API (spec §4.2–4.4) as a Hono sub-app, plus the presigned bundle download.
 * Mount it on the service's app with `app.route('/', staticExport.app)`.
 *
 *   POST /v1/static-export/jobs                   start a job          → 202 job
 *   GET  /v1/static-export/jobs/:jobId            job status           → 200 job
 *   POST /v1/static-export/jobs/:jobId/bundle     presigned link       → 200 bundle (409 until completed)
 *   GET  /v1/static-export/bundles/:jobId/bundle.tar.gz  download (signed, no Authorization header;
 *                                                 links of older versions, `…/bundles/:jobId.tar.gz`, still work)
 */

import { randomBytes } from 'node:crypto';
import {
  describeIssues,
  problemList,
  STATIC_EXPORT_BUNDLE_FILE,
  STATIC_EXPORT_BUNDLES_PATH,
  STATIC_EXPORT_JOBS_PATH,
  StartStaticExportJobBodySchema,
  type StaticExportBundle,
  staticExportBundleDownloadPath,
} from 'docs-assistant/protocol';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { ServiceConfig } from '../config.js';
import {
  adminWrongMethod,
  admission,
  bodyCap,
  HttpError,
  RouteFamily,
  readJsonBody,
  type ServiceEnv,
} from '../http/index.js';
import { createStorage } from '../storage/index.js';
import { type Storage, StorageUnavailableError } from '../storage/types.js';
import { type JobHooks, type JobRecord, publicJob, StaticExportJobs } from './jobs.js';
import { loadSigningSecret, signBundleLink, verifyBundleLink } from './signing.js';
import { normalizeExportPath, resolveExportDomain } from './start-request.js';

export interface StaticExportRoutesOptions {
  /** Where jobs and bundles persist. @default config.dataDir, else in memory */
  dataDir?: string;
  /** Lifetime of a presigned bundle link (in ms). @default 3_600_000 (1 hour) */
  linkLifetimeMs?: number;
  /** Jobs rendered at the same time. @default 2 */
  concurrency?: number;
  /** Secret bundle links are signed with. @default kept in dataDir, else random per process */
  signingSecret?: string;
  /** Origin (and path prefix) the service is reached at, for `bundleUrl`. @default the request's origin */
  publicBaseUrl?: string;
  /** Clock (ms since the epoch), injectable for tests of expiry. @default Date.now */
  now?: () => number;
  /** Runs a job may start across restarts before it is marked failed. @default 3 */
  maxAttempts?: number;
  /** Where jobs and bundles live; shared with the service's threads. @default SQLite in `dataDir`, else in memory */
  storage?: Storage;
  /** How long a runner's claim on a job holds without renewal (ms). @default 30_000 */
  leaseMs?: number;
  /** How often a replica looks for jobs to run (ms). @default 2_000 */
  pollMs?: number;
  hooks?: JobHooks;
}

export interface StaticExportRoutes {
  /** The static export route family; mount with `app.route('/', routes.app)`. */
  app: Hono<ServiceEnv>;
  jobs: StaticExportJobs;
  /** Resolves once persisted jobs are loaded (requests wait for it by themselves). */
  ready: Promise<void>;
  /** Stops the queue; running jobs stay `running` on disk and resume on the next start. */
  close: () => Promise<void>;
}

/** Default lifetime of a presigned bundle link (in ms): one hour. */
export const DEFAULT_LINK_LIFETIME_MS = 60 * 60 * 1000;

/** What the route handlers share. */
interface RoutesContext {
  config: ServiceConfig;
  jobs: StaticExportJobs;
  /** The links' signing secret. */
  secret: () => Promise<string>;
  now: () => number;
  /** A link's lifetime (ms). */
  lifetime: number;
  publicBaseUrl: string | undefined;
}

const organizationOf = (c: Context<ServiceEnv>) => c.get('owner').organization;

/** The links' secret: the one given, else one kept in the database (replicas on it share it), else in the data folder. */
function loadSecret(
  given: string | undefined,
  storage: Storage,
  dataDir: string | undefined,
): Promise<string> {
  if (given) return Promise.resolve(given);
  return storage.mode === 'postgres'
    ? storage.setting('static_export_signing_secret', randomBytes(32).toString('hex'))
    : loadSigningSecret(dataDir);
}

/** `load` once it succeeded; until then each call tries again (the database down at start-up). */
function untilLoaded<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    if (!loading) {
      const attempt = load();
      loading = attempt;
      attempt.catch(() => {
        if (loading === attempt) loading = undefined;
      });
    }
    return loading;
  };
}

/**
 * Middleware that waits for the storage and the secret; each request tries again what failed
 * before, so the routes recover with the database. An unreachable database is the storage's 503.
 */
function storageReady(
  storage: Storage,
  secret: () => Promise<string>,
  dataDir: string | undefined,
): MiddlewareHandler<ServiceEnv> {
  return async (_c, next) => {
    try {
      await Promise.all([storage.open(), secret()]);
    } catch (error) {
      if (error instanceof StorageUnavailableError) throw error;
      throw new HttpError(
        500,
        'internal',
        `Static export storage${dataDir ? ` in ${dataDir}` : ''} is unavailable: ${(error as Error).message}. Fix the data folder and restart the service.`,
      );
    }
    await next();
  };
}

/** An organization on the Enterprise plan only (spec §5). */
const enterprise: MiddlewareHandler<ServiceEnv> = async (c, next) => {
  const { organization } = c.get('owner');
  if (organization.plan !== 'enterprise') {
    throw new HttpError(
      403,
      'forbidden',
      `Static export needs the Enterprise plan; organization "${organization.id}" is on the ${organization.plan} plan. Upgrade the plan to use it.`,
    );
  }
  await next();
};

/** The organization's job `jobId`; another organization's is reported exactly like a missing one. */
async function ownJob(jobs: StaticExportJobs, organizationId: string, jobId: string): Promise<JobRecord> {
  const job = await jobs.get(jobId);
  // Another organization's job is reported exactly like a missing one, so ids leak nothing.
  if (!job || job.organization !== organizationId) {
    throw new HttpError(
      404,
      'not_found',
      `No static export job "${jobId}" for this organization; check the jobId.`,
    );
  }
  return job;
}

/** POST /v1/static-export/jobs: validates the request, resolves its domain, queues the job (202). */
async function startJob({ config, jobs }: RoutesContext, c: Context<ServiceEnv>): Promise<Response> {
  const organization = organizationOf(c);
  const body = await readJsonBody(c.req.raw, config.maxBodyBytes);
  const parsed = StartStaticExportJobBodySchema.safeParse(body, { reportInput: true });
  if (!parsed.success) {
    const issues = describeIssues(parsed.error.issues);
    throw new HttpError(
      400,
      'invalid_request',
      `Invalid static export request: ${problemList(issues)}. Send { "domain": string, "version"?: string, "paths"?: string[] }.`,
      { issues },
    );
  }
  const { version, paths } = parsed.data;
  // Start answers 400, 401 or 403 (never 404), like the real service.
  const { domain } = resolveExportDomain(config, organization.id, parsed.data.domain);
  const job = await jobs.start({
    organization: organization.id,
    domain,
    version,
    paths: paths && [...new Set(paths.map(normalizeExportPath))],
  });
  return c.json(publicJob(job), 202, { Location: `${STATIC_EXPORT_JOBS_PATH}/${job.jobId}` });
}

/** POST …/jobs/{jobId}/bundle: a fresh signed link to a completed job's bundle. */
async function bundleLink(routes: RoutesContext, c: Context<ServiceEnv>): Promise<Response> {
  const { jobs, now, lifetime, secret } = routes;
  const job = await ownJob(jobs, organizationOf(c).id, c.req.param('jobId') ?? '');
  if (job.status !== 'completed') {
    const advice =
      job.status === 'failed'
        ? `it failed (${job.error ?? 'no reason recorded'}); start a new export job`
        : `poll GET ${STATIC_EXPORT_JOBS_PATH}/${job.jobId} until status is "completed", then ask again`;
    throw new HttpError(409, 'conflict', `The job is ${job.status}, not completed: ${advice}.`);
  }
  if (!(await jobs.readBundle(job.jobId))) {
    throw new HttpError(
      404,
      'not_found',
      `The bundle of job "${job.jobId}" is no longer stored; start a new export job.`,
    );
  }
  // A fresh link every call: after expiry the same job gets a new one (spec §3 rule 2).
  const expires = now() + lifetime;
  const signature = signBundleLink(await secret(), job.jobId, expires);
  const base = (routes.publicBaseUrl ?? new URL(c.req.url).origin).replace(/\/+$/, '');
  const bundle: StaticExportBundle = {
    jobId: job.jobId,
    bundleUrl: `${base}${staticExportBundleDownloadPath(job.jobId)}?expires=${expires}&signature=${signature}`,
    sizeBytes: job.sizeBytes ?? 0,
    expiresAt: new Date(expires).toISOString(),
  };
  return c.json(bundle);
}

/** GET of a bundle link: the archive, when the link's signature holds and it has not expired. */
async function download({ jobs, now, secret }: RoutesContext, c: Context, jobId: string): Promise<Response> {
  const expiresText = c.req.query('expires') ?? '';
  const signature = c.req.query('signature') ?? '';
  const expires = /^\d{1,15}$/.test(expiresText) ? Number(expiresText) : Number.NaN;
  if (
    !jobId ||
    Number.isNaN(expires) ||
    !signature ||
    !verifyBundleLink(await secret(), jobId, expires, signature)
  ) {
    throw new HttpError(
      403,
      'forbidden',
      'This bundle link is not valid: its signature does not match (was it changed or cut?). Use the bundleUrl exactly as returned, or generate a new one.',
    );
  }
  if (now() >= expires) {
    throw new HttpError(
      403,
      'forbidden',
      `This bundle link expired at ${new Date(expires).toISOString()}. Generate a fresh link: POST ${STATIC_EXPORT_JOBS_PATH}/${jobId}/bundle.`,
    );
  }
  const archive = await jobs.readBundle(jobId);
  if (!archive) {
    throw new HttpError(
      404,
      'not_found',
      `The bundle of job "${jobId}" is no longer stored; start a new export job.`,
    );
  }
  return new Response(new Uint8Array(archive), {
    headers: {
      'Content-Type': 'application/gzip',
      'Content-Length': String(archive.byteLength),
      'Content-Disposition': `attachment; filename="${STATIC_EXPORT_BUNDLE_FILE}"`,
      // The link is a capability that expires: do not let shared caches keep it past then.
      'Cache-Control': 'private, no-store',
    },
  });
}

export function createStaticExportRoutes(
  config: ServiceConfig,
  options: StaticExportRoutesOptions = {},
): StaticExportRoutes {
  const now = options.now ?? Date.now;
  const lifetime = options.linkLifetimeMs ?? DEFAULT_LINK_LIFETIME_MS;
  if (!(lifetime > 0)) throw new Error('linkLifetimeMs must be a positive number of milliseconds');
  const dataDir = options.dataDir ?? config.dataDir;
  // Without a storage of the service's, the routes keep their own (closed with them).
  const ownStorage = options.storage ? undefined : createStorage(dataDir ? { dataDir } : {});
  const storage = options.storage ?? ownStorage!;
  const jobs = new StaticExportJobs({
    config,
    storage,
    concurrency: options.concurrency,
    maxAttempts: options.maxAttempts,
    leaseMs: options.leaseMs,
    pollMs: options.pollMs,
    now,
    hooks: options.hooks,
  });
  // Loaded once; a failure (the database down at start-up) is tried again by the next request.
  const secret = untilLoaded(() => loadSecret(options.signingSecret, storage, dataDir));
  const ready = Promise.all([jobs.ready, secret()]).then(() => undefined);
  // Requests report a failed start-up themselves; an idle service must not crash on it.
  ready.catch(() => {});
  const loaded = storageReady(storage, secret, dataDir);
  // An admin key (spec §5) of an organization on the Enterprise plan; nothing is counted.
  const admitted = admission(
    { config },
    { key: 'admin', domain: 'none', countIp: false, countOrganization: false },
  );
  const admin = [loaded, admitted, enterprise];
  const routes: RoutesContext = { config, jobs, secret, now, lifetime, publicBaseUrl: options.publicBaseUrl };

  const downloadPurpose = 'Use GET with the bundleUrl exactly as returned to download a bundle.';
  // No CORS: admin routes are for servers, and a browser page must not be let in. A wrong method
  // gets 405 naming the right call; OPTIONS only the Allow list.
  const family = new RouteFamily({ cors: 'none', wrongMethod: adminWrongMethod })
    .post(
      STATIC_EXPORT_JOBS_PATH,
      `Use POST ${STATIC_EXPORT_JOBS_PATH} to start a static export job.`,
      ...admin,
      bodyCap(config.maxBodyBytes),
      (c) => startJob(routes, c),
    )
    .get(
      `${STATIC_EXPORT_JOBS_PATH}/:jobId`,
      `Use GET ${STATIC_EXPORT_JOBS_PATH}/{jobId} to read a job's status.`,
      ...admin,
      async (c) => c.json(publicJob(await ownJob(jobs, organizationOf(c).id, c.req.param('jobId') ?? ''))),
    )
    .post(
      `${STATIC_EXPORT_JOBS_PATH}/:jobId/bundle`,
      `Use POST ${STATIC_EXPORT_JOBS_PATH}/{jobId}/bundle to generate a bundle link.`,
      ...admin,
      (c) => bundleLink(routes, c),
    )
    // The link is the credential: no Authorization header.
    .get(`${STATIC_EXPORT_BUNDLES_PATH}/:jobId/${STATIC_EXPORT_BUNDLE_FILE}`, downloadPurpose, loaded, (c) =>
      download(routes, c, c.req.param('jobId') ?? ''),
    )
    // Links in the form of earlier versions (`…/bundles/{jobId}.tar.gz`), still valid until they expire.
    .get(`${STATIC_EXPORT_BUNDLES_PATH}/:file`, downloadPurpose, loaded, (c) => {
      const file = c.req.param('file') ?? '';
      return download(routes, c, file.endsWith('.tar.gz') ? file.slice(0, -'.tar.gz'.length) : '');
    });

  return {
    app: family.app,
    jobs,
    ready,
    close: async () => {
      await jobs.close();
      await ownStorage?.close();
    },
  };
}
