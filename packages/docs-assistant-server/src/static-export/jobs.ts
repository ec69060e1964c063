/**
 * Static export jobs: a queue with bounded concurrency that renders a domain's docs into a bundle,
 * kept in the service's storage. Any replica on the same database may run a job: a runner claims
 * it with a lease it renews while it works; when the runner stops (a crash, a kill -9, a clean
 * stop), the job is claimed again, by the next start of an embedded service or by any replica once
 * the lease expires, and run from the beginning (rendering is deterministic, so a re-run gives the
 * same bundle), or marked failed once it was interrupted `maxAttempts` times. The bundle is stored
 * before the job is marked completed, so a completed job always has its bundle.
 */
import { randomBytes } from 'node:crypto';
import { STATIC_EXPORT_JOBS_PATH, type StaticExportJob } from 'docs-assistant/protocol';
import { agentBundleEntries } from '../agents/bundle.js';
import type { ServiceConfig } from '../config.js';
import { siteTitle } from '../docs/sites/published.js';
import { BundleEvictedError, type JobPatch, type JobRecord, type JobStorage } from '../storage/types.js';
import { createTarGz } from './bundle.js';
import { loadDocs, renderSite } from './render.js';

export type { JobRecord } from '../storage/types.js';

export interface JobHooks {
  /** Awaited before each page is rendered; tests use it to hold a job mid-way. */
  beforePage?: (job: Readonly<JobRecord>, index: number, total: number) => void | Promise<void>;
}

export interface JobManagerOptions {
  config: ServiceConfig;
  /** Where jobs and bundles live (shared by replicas on PostgreSQL). */
  storage: JobStorage & { open(): Promise<void> };
  /** Jobs rendered at the same time by this process. @default 2 */
  concurrency?: number;
  /** Runs a job may start before an interrupted one is marked failed. @default 3 */
  maxAttempts?: number;
  /** How long a claim holds without renewal; a runner that stops loses its jobs after it. @default 30_000 */
  leaseMs?: number;
  /** How often this process looks for jobs to run (queued elsewhere, or left by a stopped runner). @default 2_000 */
  pollMs?: number;
  now?: () => number;
  hooks?: JobHooks;
}

const DEFAULT_CONCURRENCY = 2;
const DEFAULT_MAX_ATTEMPTS = 3;
const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_POLL_MS = 2_000;
/** Share of progress (in percent) given to rendering pages; the rest is packing the bundle. */
const RENDER_SHARE = 90;

const JOB_ID = /^exp_[0-9a-f]{24}$/;
export const isJobId = (id: string): boolean => JOB_ID.test(id);

/** The job as the status endpoint shows it (no organization, no internal fields). */
export function publicJob(job: JobRecord): StaticExportJob {
  const view: StaticExportJob = {
    jobId: job.jobId,
    status: job.status,
    progress: job.progress,
    pageCount: job.pageCount,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    domain: job.domain,
  };
  if (job.version) view.version = job.version;
  if (job.error) view.error = job.error;
  return view;
}

/** Waits for `work` unless the signal aborts first (a stop must not wait on a held hook). */
function untilAborted(work: void | Promise<void>, signal: AbortSignal): Promise<void> {
  if (!work) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The lease of a job was taken over by another runner: this run stops without writing. */
class LeaseLost extends Error {}

export class StaticExportJobs {
  readonly #config: ServiceConfig;
  readonly #storage: JobManagerOptions['storage'];
  readonly #concurrency: number;
  readonly #maxAttempts: number;
  readonly #leaseMs: number;
  readonly #now: () => number;
  readonly #hooks: JobHooks;
  /** Names this process's claims in the database. */
  readonly #runner = `runner_${randomBytes(8).toString('hex')}`;
  readonly #running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  /**
   * Jobs that failed while the database refused the write that says so (a full disk): shown as
   * failed from here, written at each tick until the database takes it. Their leases are renewed
   * meanwhile, so no other runner takes them up again.
   */
  readonly #unsavedFailures = new Map<string, JobPatch>();
  #pumping: Promise<void> | undefined;
  #pumpAgain = false;
  #closed = false;
  readonly #timer: ReturnType<typeof setInterval>;
  readonly ready: Promise<void>;

  constructor(options: JobManagerOptions) {
    this.#config = options.config;
    this.#storage = options.storage;
    this.#concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
    this.#maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
    this.#leaseMs = Math.max(100, options.leaseMs ?? DEFAULT_LEASE_MS);
    this.#now = options.now ?? Date.now;
    this.#hooks = options.hooks ?? {};
    this.ready = this.#storage.open();
    this.ready.then(
      () => this.#pump(),
      () => {},
    );
    // Picks up jobs other replicas queued or left behind, and keeps this runner's leases fresh.
    const every = Math.min(options.pollMs ?? DEFAULT_POLL_MS, Math.floor(this.#leaseMs / 3));
    this.#timer = setInterval(() => this.#tick(), every);
    this.#timer.unref();
  }

  #stamp(): string {
    return new Date(this.#now()).toISOString();
  }

  #tick(): void {
    if (this.#closed) return;
    if (this.#running.size || this.#unsavedFailures.size) {
      this.#storage.renewLeases(this.#runner, this.#now() + this.#leaseMs).catch(() => {});
    }
    this.#saveFailures();
    this.#pump();
  }

  /** Writes the failures the database refused before; one pass at a time. */
  #savingFailures = false;
  #saveFailures(): void {
    if (this.#savingFailures || !this.#unsavedFailures.size) return;
    this.#savingFailures = true;
    (async () => {
      for (const [jobId, patch] of this.#unsavedFailures) {
        try {
          await this.#storage.updateJob(jobId, this.#runner, patch, this.#now() + this.#leaseMs);
          // Written, or the job is no longer this runner's: either way nothing is left to say here.
          this.#unsavedFailures.delete(jobId);
        } catch {
          return;
        }
      }
    })().finally(() => {
      this.#savingFailures = false;
    });
  }

  /** Queues a new job. The caller has checked the organization owns the domain. */
  async start(input: {
    organization: string;
    domain: string;
    version?: string;
    paths?: string[];
  }): Promise<JobRecord> {
    if (this.#closed) throw new Error('the static export job queue is closed');
    const stamp = this.#stamp();
    const job: JobRecord = {
      jobId: `exp_${randomBytes(12).toString('hex')}`,
      organization: input.organization,
      domain: input.domain,
      status: 'queued',
      progress: 0,
      pageCount: 0,
      createdAt: stamp,
      updatedAt: stamp,
      attempts: 0,
    };
    if (input.version) job.version = input.version;
    if (input.paths) job.paths = [...input.paths];
    await this.#storage.insertJob(job);
    this.#pump();
    return job;
  }

  async get(jobId: string): Promise<JobRecord | undefined> {
    if (!isJobId(jobId)) return undefined;
    const job = await this.#storage.getJob(jobId);
    const failure = this.#unsavedFailures.get(jobId);
    // Stored as still running only because the database refused to store that it failed.
    return job && failure && job.status === 'running' ? { ...job, ...failure } : job;
  }

  /**
   * The bundle of a completed job, or undefined when it is gone; a 410 saying how to make it again
   * when a service without a data folder evicted it for newer ones.
   */
  async readBundle(jobId: string): Promise<Buffer | undefined> {
    const job = await this.get(jobId);
    if (job?.status !== 'completed') return undefined;
    let bytes: Uint8Array | undefined;
    try {
      bytes = await this.#storage.getBundle(jobId);
    } catch (error) {
      if (!(error instanceof BundleEvictedError)) throw error;
      const body = JSON.stringify({
        domain: job.domain,
        ...(job.version ? { version: job.version } : {}),
        ...(job.paths ? { paths: job.paths } : {}),
      });
      throw new BundleEvictedError(
        jobId,
        error.keptBytes,
        `Run the export again (POST ${STATIC_EXPORT_JOBS_PATH} with ${body}) and generate the new job's link once it completes`,
      );
    }
    return bytes && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Claims jobs while this process has free slots; one pass at a time. */
  #pump(): void {
    if (this.#closed) return;
    if (this.#pumping) {
      this.#pumpAgain = true;
      return;
    }
    this.#pumping = (async () => {
      do {
        this.#pumpAgain = false;
        while (!this.#closed && this.#running.size < this.#concurrency) {
          const job = await this.#storage.claimJob(
            this.#runner,
            this.#now(),
            this.#leaseMs,
            this.#maxAttempts,
          );
          if (!job) break;
          const controller = new AbortController();
          const done = this.#run(job, controller.signal).finally(() => {
            this.#running.delete(job.jobId);
            this.#pump();
          });
          this.#running.set(job.jobId, { controller, done });
        }
      } while (this.#pumpAgain && !this.#closed);
    })()
      // The database may be down: the next tick tries again.
      .catch(() => {})
      .finally(() => {
        this.#pumping = undefined;
      });
  }

  async #run(job: JobRecord, signal: AbortSignal): Promise<void> {
    // Progress writes go one after another, the latest wins; a lost lease stops the run.
    let writing: Promise<void> = Promise.resolve();
    let lost = false;
    const save = (patch: Omit<JobPatch, 'updatedAt'>): Promise<void> => {
      Object.assign(job, patch, { updatedAt: this.#stamp() });
      const full: JobPatch = { ...patch, updatedAt: job.updatedAt };
      // After a refused write too: a later one (the failure) may go through.
      writing = writing
        .catch(() => {})
        .then(async () => {
          if (lost) return;
          const held = await this.#storage.updateJob(
            job.jobId,
            this.#runner,
            full,
            this.#now() + this.#leaseMs,
          );
          if (!held) lost = true;
        });
      return writing;
    };
    try {
      const domain = this.#config.domains.find((d) => d.domain === job.domain);
      if (!domain) throw new Error(`the domain "${job.domain}" is no longer configured on the service`);
      const source = await loadDocs(domain.docs, {
        version: job.version,
        paths: job.paths,
        ...(domain.site ? { site: domain.site } : {}),
      });
      if (source.pages.length === 0) {
        const filters = [
          job.version ? `version "${job.version}"` : '',
          job.paths ? `paths ${job.paths.join(', ')}` : '',
        ].filter(Boolean);
        throw new Error(
          filters.length
            ? `no page of "${job.domain}" matches ${filters.join(' and ')}; check the filter against the docs`
            : `the docs folder of "${job.domain}" holds no .md or .mdx page`,
        );
      }
      const entries = await renderSite(source, {
        domain: job.domain,
        siteTitle: siteTitle(domain, source.docs),
        ...(domain.siteUrl ? { siteUrl: domain.siteUrl } : {}),
        version: job.version,
        signal,
        beforePage: (index, total) => untilAborted(this.#hooks.beforePage?.(job, index, total), signal),
        onPage: (done, total) => {
          if (signal.aborted) return;
          save({ pageCount: done, progress: Math.floor((done / total) * RENDER_SHARE) }).catch(() => {});
        },
      });
      signal.throwIfAborted();
      // llms.txt, llms-full.txt and the pages as Markdown (agents/bundle.ts); a file of the docs' own wins.
      const taken = new Set(entries.map((entry) => entry.path));
      // From the pages the HTML was rendered from: one reading of the docs for the whole bundle.
      const agentEntries = await agentBundleEntries(domain, {}, source.docs);
      for (const entry of agentEntries) if (!taken.has(entry.path)) entries.push(entry);
      await writing.catch(() => {});
      if (lost) throw new LeaseLost();
      const archive = createTarGz(entries);
      await this.#storage.putBundle(job.jobId, archive);
      signal.throwIfAborted();
      await save({ status: 'completed', progress: 100, sizeBytes: archive.byteLength });
      if (lost) throw new LeaseLost();
    } catch (error) {
      // A stop aborts the run and a lost lease means another runner has the job: the row stays
      // `running` for whoever runs it next.
      if (signal.aborted || error instanceof LeaseLost) return;
      const failure = {
        status: 'failed' as const,
        error: error instanceof Error ? error.message : String(error),
      };
      await save(failure).catch(() => {
        // The database refused it too (a full disk): said from memory until it takes it.
        if (!lost) this.#unsavedFailures.set(job.jobId, { ...failure, updatedAt: job.updatedAt });
      });
    }
  }

  /**
   * Stops taking work: running jobs are aborted and released, so the next start (or another
   * replica) runs them again at once. Resolves once every write is done.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    await this.ready.catch(() => {});
    await this.#pumping;
    for (const { controller } of this.#running.values()) controller.abort();
    await Promise.all([...this.#running.values()].map((r) => r.done));
    await this.#storage.releaseJobs(this.#runner).catch(() => {});
  }
}
