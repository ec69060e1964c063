/**
 * Static export jobs: a small queue with bounded concurrency that renders a domain's docs into a
 * bundle. With a data folder, every job record is persisted atomically (temp file + rename) and
 * bundles are kept on disk, so jobs and their bundles survive a restart. A job found `queued` or
 * `running` at start-up is run again from the beginning (rendering is deterministic, so a re-run
 * gives the same bundle), or marked failed once it has been interrupted too often.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StaticExportJob, StaticExportStatus } from 'docs-assistant/protocol';
import type { ServiceConfig } from '../config.js';
import { createTarGz } from './bundle.js';
import { loadDocs, renderSite } from './render.js';

export interface JobRecord {
  jobId: string;
  organization: string;
  domain: string;
  version?: string;
  paths?: string[];
  status: StaticExportStatus;
  progress: number;
  pageCount: number;
  createdAt: string;
  updatedAt: string;
  error?: string;
  sizeBytes?: number;
  /** Runs started for this job; a restart mid-run starts another. */
  attempts: number;
}

export interface JobHooks {
  /** Awaited before each page is rendered; tests use it to hold a job mid-way. */
  beforePage?: (job: Readonly<JobRecord>, index: number, total: number) => void | Promise<void>;
}

export interface JobManagerOptions {
  config: ServiceConfig;
  /** Where job records and bundles persist; in memory only when absent. */
  dataDir?: string;
  /** Jobs rendered at the same time. @default 2 */
  concurrency?: number;
  /** Runs a job may start before an interrupted one is marked failed. @default 3 */
  maxAttempts?: number;
  now?: () => number;
  hooks?: JobHooks;
}

/** Default number of jobs rendered at the same time. */
const DEFAULT_CONCURRENCY = 2;
/** Default number of runs a job gets across restarts. */
const DEFAULT_MAX_ATTEMPTS = 3;
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

async function writeAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
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

export class StaticExportJobs {
  readonly #config: ServiceConfig;
  readonly #dataDir: string | undefined;
  readonly #concurrency: number;
  readonly #maxAttempts: number;
  readonly #now: () => number;
  readonly #hooks: JobHooks;
  readonly #jobs = new Map<string, JobRecord>();
  /** Bundles of completed jobs when there is no data folder. */
  readonly #bundles = new Map<string, Buffer>();
  readonly #queue: string[] = [];
  readonly #running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  /** Per job: the write in flight and whether another is wanted after it. */
  readonly #writes = new Map<string, { pending: Promise<void>; again: boolean }>();
  #closed = false;
  readonly ready: Promise<void>;

  constructor(options: JobManagerOptions) {
    this.#config = options.config;
    this.#dataDir = options.dataDir;
    this.#concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
    this.#maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
    this.#now = options.now ?? Date.now;
    this.#hooks = options.hooks ?? {};
    this.ready = this.#restore();
  }

  get #jobsDir(): string | undefined {
    return this.#dataDir && join(this.#dataDir, 'static-export', 'jobs');
  }

  get #bundlesDir(): string | undefined {
    return this.#dataDir && join(this.#dataDir, 'static-export', 'bundles');
  }

  #stamp(): string {
    return new Date(this.#now()).toISOString();
  }

  async #restore(): Promise<void> {
    const jobsDir = this.#jobsDir;
    const bundlesDir = this.#bundlesDir;
    if (!jobsDir || !bundlesDir) return;
    await mkdir(jobsDir, { recursive: true });
    await mkdir(bundlesDir, { recursive: true });
    const resumed: JobRecord[] = [];
    for (const dir of [jobsDir, bundlesDir]) {
      for (const name of await readdir(dir)) {
        // A temp file is a write that a stop cut short; the record or bundle before it still stands.
        if (name.endsWith('.tmp')) await rm(join(dir, name), { force: true });
      }
    }
    for (const name of (await readdir(jobsDir)).sort()) {
      if (!name.endsWith('.json')) continue;
      let job: JobRecord;
      try {
        job = JSON.parse(await readFile(join(jobsDir, name), 'utf8')) as JobRecord;
      } catch {
        continue; // unreadable records are skipped, not fatal to the service
      }
      if (!isJobId(job.jobId)) continue;
      this.#jobs.set(job.jobId, job);
      if (job.status === 'queued' || job.status === 'running') {
        if (job.status === 'running' && job.attempts >= this.#maxAttempts) {
          this.#fail(
            job,
            `the service stopped while this job was running, ${job.attempts} times; start a new export job`,
          );
        } else {
          Object.assign(job, { status: 'queued', progress: 0, pageCount: 0, updatedAt: this.#stamp() });
          this.#persist(job);
          resumed.push(job);
        }
      }
    }
    resumed.sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
    for (const job of resumed) this.#queue.push(job.jobId);
    this.#pump();
  }

  /** Queues a new job. The caller has checked the organization owns the domain. */
  start(input: { organization: string; domain: string; version?: string; paths?: string[] }): JobRecord {
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
    this.#jobs.set(job.jobId, job);
    this.#persist(job);
    // The answer shows the job as queued even when a free slot starts it at once.
    const queued = { ...job };
    this.#queue.push(job.jobId);
    this.#pump();
    return queued;
  }

  get(jobId: string): JobRecord | undefined {
    return isJobId(jobId) ? this.#jobs.get(jobId) : undefined;
  }

  /** The bundle of a completed job, or undefined when it is gone. */
  async readBundle(jobId: string): Promise<Buffer | undefined> {
    const job = this.get(jobId);
    if (job?.status !== 'completed') return undefined;
    const bundlesDir = this.#bundlesDir;
    if (!bundlesDir) return this.#bundles.get(jobId);
    try {
      return await readFile(join(bundlesDir, `${jobId}.tar.gz`));
    } catch {
      return undefined;
    }
  }

  #pump(): void {
    while (!this.#closed && this.#running.size < this.#concurrency && this.#queue.length > 0) {
      const jobId = this.#queue.shift()!;
      const job = this.#jobs.get(jobId);
      if (job?.status !== 'queued') continue;
      const controller = new AbortController();
      const done = this.#run(job, controller.signal).finally(() => {
        this.#running.delete(jobId);
        this.#pump();
      });
      this.#running.set(jobId, { controller, done });
    }
  }

  #update(job: JobRecord, patch: Partial<JobRecord>): void {
    Object.assign(job, patch, { updatedAt: this.#stamp() });
    this.#persist(job);
  }

  #fail(job: JobRecord, reason: string): void {
    this.#update(job, { status: 'failed', error: reason });
  }

  async #run(job: JobRecord, signal: AbortSignal): Promise<void> {
    this.#update(job, { status: 'running', progress: 0, pageCount: 0, attempts: job.attempts + 1 });
    // Make the `running` record durable before work starts, so a stop from here on is seen as one.
    await this.#flush(job.jobId);
    try {
      const domain = this.#config.domains.find((d) => d.domain === job.domain);
      if (!domain) throw new Error(`the domain "${job.domain}" is no longer configured on the service`);
      const source = await loadDocs(domain.docs, { version: job.version, paths: job.paths });
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
        siteTitle: domain.title,
        ...(domain.siteUrl ? { siteUrl: domain.siteUrl } : {}),
        version: job.version,
        signal,
        beforePage: (index, total) => untilAborted(this.#hooks.beforePage?.(job, index, total), signal),
        onPage: (done, total) => {
          if (signal.aborted) return;
          this.#update(job, { pageCount: done, progress: Math.floor((done / total) * RENDER_SHARE) });
        },
      });
      signal.throwIfAborted();
      const archive = createTarGz(entries);
      const bundlesDir = this.#bundlesDir;
      if (bundlesDir) await writeAtomic(join(bundlesDir, `${job.jobId}.tar.gz`), archive);
      else this.#bundles.set(job.jobId, archive);
      signal.throwIfAborted();
      this.#update(job, { status: 'completed', progress: 100, sizeBytes: archive.byteLength });
    } catch (error) {
      // A stop of the service aborts the run; the record stays `running` on disk and is resumed.
      if (signal.aborted) return;
      this.#fail(job, error instanceof Error ? error.message : String(error));
    }
  }

  #persist(job: JobRecord): void {
    const jobsDir = this.#jobsDir;
    if (!jobsDir) return;
    const state = this.#writes.get(job.jobId);
    if (state) {
      state.again = true;
      return;
    }
    const entry = { pending: Promise.resolve(), again: false };
    const write = async (): Promise<void> => {
      do {
        entry.again = false;
        await writeAtomic(join(jobsDir, `${job.jobId}.json`), `${JSON.stringify(job, null, 2)}\n`);
      } while (entry.again);
    };
    entry.pending = write()
      .catch((error: unknown) => {
        console.error(`static export: could not save job ${job.jobId}: ${(error as Error).message}`);
      })
      .finally(() => this.#writes.delete(job.jobId));
    this.#writes.set(job.jobId, entry);
  }

  async #flush(jobId?: string): Promise<void> {
    for (;;) {
      const pending = jobId
        ? [this.#writes.get(jobId)?.pending].filter((p): p is Promise<void> => p !== undefined)
        : [...this.#writes.values()].map((w) => w.pending);
      if (pending.length === 0) return;
      await Promise.all(pending);
    }
  }

  /**
   * Stops taking work: running jobs are aborted and keep their `running` record, which the next
   * start resumes. Resolves once every record is written.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.ready.catch(() => {});
    for (const { controller } of this.#running.values()) controller.abort();
    await Promise.all([...this.#running.values()].map((r) => r.done));
    await this.#flush();
  }
}
