/**
 * Typed admin client for the static export API (spec §4.2–4.4). Server-side only: it carries an
 * admin API key and refuses to run in a browser.
 */
import { type Fetch, globalFetch } from '../protocol/fetch.js';
import { describeIssues, type IssueLike, problemList } from '../protocol/issues.js';
import { keyKind } from '../protocol/keys.js';
import {
  joinUrl,
  STATIC_EXPORT_JOBS_PATH,
  staticExportBundlePath,
  staticExportJobPath,
} from '../protocol/paths.js';
import {
  isTerminalStatus,
  progressPercent,
  type StartStaticExportJobBody,
  type StaticExportBundle,
  StaticExportBundleSchema,
  type StaticExportJob,
  StaticExportJobSchema,
  type StaticExportStartedJob,
  StaticExportStartedJobSchema,
} from '../protocol/static-export.js';
import { assertServerSide, errorFromResponse, StaticExportError } from './errors.js';

export interface StaticExportClientOptions {
  /** Base URL of the service, e.g. `https://api.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** Admin API key (`svc_…`, not `svc_dsc_…`). A server-side secret. */
  adminKey: string;
  /** @default globalThis.fetch */
  fetch?: Fetch;
  /**
   * Allow running in a browser page or worker. Only for tests and mock setups whose key is
   * not a real secret. @default false
   */
  dangerouslyAllowBrowser?: boolean;
}

/** A job's status as the client returns it: `jobId` is filled in when the service leaves it out. */
export type StaticExportJobStatus = StaticExportJob & { jobId: string };

export interface WaitForJobOptions {
  /**
   * Called with every status seen while waiting. `status` may be a value the spec does not name
   * (spec §3): show it as it is; polling goes on until `completed`, `failed` or `timeoutMs`.
   */
  onProgress?: (job: StaticExportJobStatus) => void;
  signal?: AbortSignal;
  /** Time between polls (in ms). @default 1000 */
  intervalMs?: number;
  /** Give up after this long (in ms). @default no limit */
  timeoutMs?: number;
}

export interface ExportSiteOptions extends StartStaticExportJobBody, WaitForJobOptions {}

export interface ExportSiteResult {
  /** The id `startJob` got (spec §4.2). */
  jobId: string;
  job: StaticExportJobStatus;
  bundle: StaticExportBundle;
}

export interface StaticExportClient {
  /** Starts a job; the spec guarantees only `jobId` in the answer (the reference service sends more). */
  startJob(
    body: StartStaticExportJobBody,
    options?: { signal?: AbortSignal },
  ): Promise<StaticExportStartedJob>;
  /** The job's status; the spec guarantees only `status` (and `progress`, `pageCount` while it runs). */
  getJob(jobId: string, options?: { signal?: AbortSignal }): Promise<StaticExportJobStatus>;
  /**
   * Polls until the job completes; throws `job_failed` with the job's reason when it fails, and
   * `timeout` after `timeoutMs`. Statuses other than those two (spec §3 leaves them open) are
   * waited through.
   */
  waitForJob(jobId: string, options?: WaitForJobOptions): Promise<StaticExportJobStatus>;
  /** A presigned link for a completed job; call again after `expiresAt` for a fresh one. */
  generateBundle(jobId: string, options?: { signal?: AbortSignal }): Promise<StaticExportBundle>;
  /** Opens a presigned link (no key is sent), checking the status; the body is the `.tar.gz`. */
  openBundle(bundleUrl: string, options?: { signal?: AbortSignal }): Promise<Response>;
  /** Downloads a presigned link into memory. */
  downloadBundle(bundleUrl: string, options?: { signal?: AbortSignal }): Promise<Uint8Array>;
  /** Start → wait → bundle, in one call. */
  exportSite(options: ExportSiteOptions): Promise<ExportSiteResult>;
}

/** Default time between two status polls (in ms). */
const DEFAULT_INTERVAL_MS = 1000;

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Throws for a `baseUrl` that is not an http(s) URL and for a key that is not an admin key. */
function checkClientOptions({ baseUrl, adminKey }: StaticExportClientOptions): void {
  if (typeof baseUrl !== 'string' || !/^https?:\/\//i.test(baseUrl)) {
    throw new StaticExportError(
      0,
      'invalid_configuration',
      `baseUrl must be an absolute http(s) URL of the service, like "https://api.example.com" (got ${JSON.stringify(baseUrl)}).`,
    );
  }
  const kind = keyKind(adminKey);
  if (kind !== 'admin') {
    throw new StaticExportError(
      0,
      'invalid_configuration',
      kind === 'assistant'
        ? 'adminKey is an assistant API key (svc_dsc_…); the static export API needs an admin API key (svc_…) from the API keys page of the dashboard settings.'
        : 'adminKey must be an admin API key: a string starting with "svc_" (and not "svc_dsc_").',
    );
  }
}

/** What `call` checks an answer's JSON with: one of the protocol's schemas. */
interface AnswerSchema<T> {
  safeParse(
    data: unknown,
    params: { reportInput: boolean },
  ): { success: true; data: T } | { success: false; error: { issues: readonly IssueLike[] } };
}

/**
 * The client's requests: `send` fetches and turns a failure or an error answer into a
 * `StaticExportError`; `call` sends a request of the API with the admin key and checks its answer.
 */
function createTransport(options: StaticExportClientOptions) {
  const { baseUrl, adminKey } = options;
  const doFetch: Fetch = options.fetch ?? globalFetch;

  async function send(url: string, init: RequestInit): Promise<Response> {
    let response: Response;
    try {
      response = await doFetch(url, init);
    } catch (error) {
      if (init.signal?.aborted) throw init.signal.reason;
      throw new StaticExportError(
        0,
        'network_error',
        `Could not reach the static export service at ${url}: ${(error as Error).message}. Check baseUrl and that the service is running.`,
        { cause: error },
      );
    }
    if (!response.ok) throw await errorFromResponse(response);
    return response;
  }

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: AnswerSchema<T>,
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${adminKey}`,
      Accept: 'application/json',
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await send(joinUrl(baseUrl, path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    let data: unknown;
    try {
      data = await response.json();
    } catch {
      throw new StaticExportError(
        response.status,
        'invalid_response',
        `${method} ${path} answered a body that is not JSON.`,
      );
    }
    const parsed = schema.safeParse(data, { reportInput: true });
    if (!parsed.success) {
      throw new StaticExportError(
        response.status,
        'invalid_response',
        `${method} ${path} answered an unexpected shape: ${problemList(describeIssues(parsed.error.issues))}.`,
      );
    }
    return parsed.data;
  }
  return { send, call };
}

/** Polls the job until it completes (its last state), fails, or `timeoutMs` would pass. */
async function waitForJob(
  client: StaticExportClient,
  jobId: string,
  { onProgress, signal, intervalMs = DEFAULT_INTERVAL_MS, timeoutMs }: WaitForJobOptions = {},
): Promise<StaticExportJobStatus> {
  const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  for (;;) {
    const job = await client.getJob(jobId, { signal });
    onProgress?.(job);
    if (job.status === 'completed') return job;
    if (isTerminalStatus(job.status)) {
      throw new StaticExportError(
        200,
        'job_failed',
        `Static export job ${jobId} failed: ${job.error ?? 'no reason given'}`,
      );
    }
    if (Date.now() + intervalMs > deadline) {
      const percent = progressPercent(job.progress);
      throw new StaticExportError(
        0,
        'timeout',
        `Static export job ${jobId} was still ${JSON.stringify(job.status)}${percent === undefined ? '' : ` (${percent}%)`} after ${timeoutMs} ms; wait longer (timeoutMs) or check the service.`,
      );
    }
    await sleep(intervalMs, signal);
  }
}

export function createStaticExportClient(options: StaticExportClientOptions): StaticExportClient {
  assertServerSide('The static export client', options.dangerouslyAllowBrowser);
  checkClientOptions(options);
  const { send, call } = createTransport(options);

  const client: StaticExportClient = {
    startJob: (body, { signal } = {}) =>
      call('POST', STATIC_EXPORT_JOBS_PATH, StaticExportStartedJobSchema, body, signal),
    getJob: async (jobId, { signal } = {}) => ({
      ...(await call('GET', staticExportJobPath(jobId), StaticExportJobSchema, undefined, signal)),
      jobId,
    }),
    generateBundle: (jobId, { signal } = {}) =>
      call('POST', staticExportBundlePath(jobId), StaticExportBundleSchema, undefined, signal),
    waitForJob: (jobId, wait) => waitForJob(client, jobId, wait),

    async openBundle(bundleUrl, { signal } = {}) {
      // No Authorization header: the link is presigned, and the key must not travel to storage.
      return send(bundleUrl, { method: 'GET', signal });
    },

    async downloadBundle(bundleUrl, options) {
      const response = await client.openBundle(bundleUrl, options);
      return new Uint8Array(await response.arrayBuffer());
    },

    async exportSite({ domain, version, paths, ...wait }) {
      const body: StartStaticExportJobBody = { domain };
      if (version !== undefined) body.version = version;
      if (paths !== undefined) body.paths = paths;
      const started = await client.startJob(body, { signal: wait.signal });
      // The reference service answers the start with the whole queued job; the spec only with jobId.
      if (typeof started.status === 'string') wait.onProgress?.({ ...started, status: started.status });
      const job = await client.waitForJob(started.jobId, wait);
      const bundle = await client.generateBundle(started.jobId, { signal: wait.signal });
      return { jobId: started.jobId, job, bundle };
    },
  };
  return client;
}
