/**
 * `<StaticExportPanel>`: the dashboard panel of the static export. It calls the host's backend
 * route (a `createStaticExportHandler`), never the service with a key: start an export, watch its
 * progress and page count, get the bundle link with its expiry counting down, regenerate it after
 * expiry, see a failure with its reason and retry.
 */
import { type HTMLAttributes, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { readErrorBody } from '../protocol/error-body.js';
import { globalFetch } from '../protocol/fetch.js';
import {
  bundleExpiryTime,
  isTerminalStatus,
  progressPercent,
  type StaticExportBundle,
  StaticExportBundleSchema,
  type StaticExportJob,
  StaticExportJobSchema,
  StaticExportStartedJobSchema,
} from '../protocol/static-export.js';
import { STATIC_EXPORT_CSS } from './styles.js';

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * Every string the panel shows (English), each with what it is: the one place a string's type, its
 * meaning and its default are written (`StaticExportPanelLabels` is their shape). Functions take
 * the values they show. `labels` overrides any of them.
 */
export const defaultStaticExportLabels = {
  /** The panel's heading. */
  title: 'Static export',
  /** The button that starts the first export. */
  start: 'Start export',
  /** The start button's text while the export is being started. */
  starting: 'Starting…',
  /** Label of the progress bar. */
  progressLabel: 'Export progress',
  /** Beside the progress bar: how many pages are exported so far. */
  pages: (count: number) => `${count} ${count === 1 ? 'page' : 'pages'} exported`,
  /**
   * The job's status, announced as it changes. A status the spec does not name (spec §3 leaves
   * them open) should be shown as it is.
   */
  status: (status: string): string =>
    (
      ({
        queued: 'Queued',
        running: 'Exporting',
        completed: 'Export complete',
        failed: 'Export failed',
      }) as Record<string, string | undefined>
    )[status] ?? status,
  /** The button that gets the bundle's link once the export is complete. */
  getLink: 'Get bundle link',
  /** The bundle button's text while the link is being generated. */
  generating: 'Generating link…',
  /** The bundle's download link. */
  download: 'Download bundle (.tar.gz)',
  /** Beside the download link: how long it still works, given the time left. */
  expiresIn: (time: string) => `Link expires in ${time}`,
  /** Said in place of the download link once it has expired. */
  expired: 'The link has expired.',
  /** The bundle button after the link expired: generates a new one. */
  regenerate: 'Generate a new link',
  /** Said when the export failed, given the reason. */
  failed: (reason: string) => `The export failed: ${reason}`,
  /** The start button after a failed export, and the button that retries a failed request. */
  retry: 'Retry',
  /** The start button after a complete export. */
  exportAgain: 'Export again',
  /** Said when a request to the host's route failed, given the error. */
  requestFailed: (message: string) => `Request failed: ${message}`,
};

type StaticExportDefaults = typeof defaultStaticExportLabels;

/** Every string the panel shows; functions take the values they show (see `defaultStaticExportLabels`). */
export interface StaticExportPanelLabels extends StaticExportDefaults {}

export interface StaticExportPanelProps extends Omit<HTMLAttributes<HTMLElement>, 'children'> {
  /** URL of the host's route that runs `createStaticExportHandler`, e.g. `/api/static-export`. */
  endpoint: string;
  /** Domain to export; may be left out when the handler is restricted to one. */
  domain?: string;
  /** Docs version to export. */
  version?: string;
  /** Watch this job from the start (e.g. one started before a reload). */
  defaultJobId?: string;
  /** @default globalThis.fetch */
  fetch?: Fetch;
  /** Time between status polls (in ms). @default 1000 */
  pollIntervalMs?: number;
  /**
   * Stop polling a job that is neither completed nor failed after this long (in ms) and offer a
   * retry, which polls again. @default no limit
   */
  pollTimeoutMs?: number;
  /** Time between countdown updates (in ms). @default 1000 */
  tickMs?: number;
  /** Clock for the expiry countdown (ms since the epoch). @default Date.now */
  now?: () => number;
  labels?: Partial<StaticExportPanelLabels>;
  /** Called with every job status the panel sees. */
  onJobChange?: (job: StaticExportJob) => void;
  /**
   * Leaves out the panel's own small stylesheet (scoped to `[data-docs-assistant="static-export"]`,
   * on the widget's `--da-*` tokens), for a panel styled by the host's CSS. @default false
   */
  unstyled?: boolean;
  /**
   * The nonce of the page's Content-Security-Policy, put on the panel's `<style>`: a policy whose
   * `style-src` lists `'nonce-…'` and not `'unsafe-inline'` refuses the stylesheet without it.
   */
  nonce?: string;
}

type Busy = 'idle' | 'starting' | 'bundling';

/** Default time between two status polls (in ms). */
const DEFAULT_POLL_MS = 1000;
/** Default time between two countdown updates (in ms). */
const DEFAULT_TICK_MS = 1000;

async function readJson<T>(
  response: Response,
  schema: { safeParse(data: unknown): { success: true; data: T } | { success: false } },
): Promise<T> {
  let data: unknown;
  try {
    data = await response.json();
  } catch {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) {
    // Any error shape: the real service's string `error`, an object `error`, a `message`.
    throw new Error(readErrorBody(data)?.message ?? `the server answered ${response.status}`);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new Error('the server answered an unexpected shape');
  return parsed.data;
}

function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return hours ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}

type PanelError = { message: string; retry: () => void };

/** What the panel's requests need: where to send them, with what, and when "now" is. */
interface RequestSetup {
  base: string;
  domain: string | undefined;
  version: string | undefined;
  now: () => number;
  fetchRef: { current: Fetch };
  onJobChangeRef: { current: ((job: StaticExportJob) => void) | undefined };
}

/**
 * The panel's state and its two requests: start a job (`start`) and get a bundle link
 * (`generate`); the job as last seen (`seeJob` tells `onJobChange`), the link, what is on its way
 * and the last error with what retries it.
 */
function useExportRequests({ base, domain, version, now, fetchRef, onJobChangeRef }: RequestSetup) {
  const [job, setJob] = useState<StaticExportJob>();
  const [bundle, setBundle] = useState<StaticExportBundle>();
  const [busy, setBusy] = useState<Busy>('idle');
  const [error, setError] = useState<PanelError>();
  const [clock, setClock] = useState(now);
  // When the current run of polls began, for pollTimeoutMs.
  const pollSince = useRef<number | undefined>(undefined);

  const seeJob = useCallback(
    (next: StaticExportJob) => {
      setJob(next);
      onJobChangeRef.current?.(next);
    },
    [onJobChangeRef],
  );

  const start = useCallback(
    async (setJobId: (jobId: string) => void) => {
      setBusy('starting');
      setError(undefined);
      setBundle(undefined);
      try {
        const body: Record<string, string> = {};
        if (domain) body.domain = domain;
        if (version) body.version = version;
        const response = await fetchRef.current(`${base}/jobs`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
        const started = await readJson(response, StaticExportStartedJobSchema);
        pollSince.current = now();
        setJobId(started.jobId);
        // The spec's answer is only { jobId }; the reference service sends the queued job too.
        if (typeof started.status === 'string') seeJob({ ...started, status: started.status });
        else setJob(undefined);
      } catch (cause) {
        setError({ message: (cause as Error).message, retry: () => void start(setJobId) });
      } finally {
        setBusy('idle');
      }
    },
    [base, domain, version, seeJob, now, fetchRef],
  );

  const generate = useCallback(
    async (jobId: string | undefined) => {
      if (!jobId) return;
      setBusy('bundling');
      setError(undefined);
      try {
        const response = await fetchRef.current(`${base}/jobs/${encodeURIComponent(jobId)}/bundle`, {
          method: 'POST',
        });
        setBundle(await readJson(response, StaticExportBundleSchema));
        setClock(now());
      } catch (cause) {
        setError({ message: (cause as Error).message, retry: () => void generate(jobId) });
      } finally {
        setBusy('idle');
      }
    },
    [base, now, fetchRef],
  );
  return { job, bundle, busy, error, setError, clock, setClock, pollSince, seeJob, start, generate };
}

type ExportRequests = ReturnType<typeof useExportRequests>;

/**
 * Polls the job until it completes or fails (statuses the spec does not name are polled through),
 * and once for a job given by id; past `pollTimeoutMs` it stops with an error that resumes it.
 */
function useJobPolling(
  jobId: string | undefined,
  requests: ExportRequests,
  setup: RequestSetup & { pollIntervalMs: number; pollTimeoutMs: number | undefined },
): void {
  const { job, error, setError, pollSince, seeJob } = requests;
  const { base, now, fetchRef, pollIntervalMs, pollTimeoutMs } = setup;
  const active = job === undefined || !isTerminalStatus(job.status);
  useEffect(() => {
    if (!jobId || !active || error) return;
    const controller = new AbortController();
    const poll = async () => {
      pollSince.current ??= now();
      if (pollTimeoutMs !== undefined && job && now() - pollSince.current > pollTimeoutMs) {
        setError({
          message: `the export was still "${job.status}" after ${Math.round(pollTimeoutMs / 1000)} s`,
          retry: () => {
            pollSince.current = now();
            setError(undefined);
          },
        });
        return;
      }
      try {
        const response = await fetchRef.current(`${base}/jobs/${encodeURIComponent(jobId)}`, {
          signal: controller.signal,
        });
        seeJob({ ...(await readJson(response, StaticExportJobSchema)), jobId });
      } catch (cause) {
        if (controller.signal.aborted) return;
        setError({ message: (cause as Error).message, retry: () => setError(undefined) });
      }
    };
    // The first look at a job given by id is immediate; later polls wait the interval.
    const timer = setTimeout(poll, job ? pollIntervalMs : 0);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [
    jobId,
    job,
    active,
    error,
    base,
    pollIntervalMs,
    pollTimeoutMs,
    now,
    seeJob,
    setError,
    pollSince,
    fetchRef,
  ]);
}

/** The job's progress bar, percent and pages (not for a failed job). */
function JobProgress({
  job,
  id,
  labels,
}: {
  job: StaticExportJob;
  id: string;
  labels: StaticExportPanelLabels;
}) {
  const percent = progressPercent(job.progress) ?? (job.status === 'completed' ? 100 : undefined);
  const progressText =
    percent !== undefined ? `${percent}%` : typeof job.progress === 'string' ? job.progress : '';
  return (
    <div data-static-export="progress">
      <label htmlFor={`${id}-progress`}>{labels.progressLabel}</label>
      {/* Without a numeric progress the bar is indeterminate (no value). */}
      <progress id={`${id}-progress`} max={100} value={percent} aria-valuetext={progressText || undefined}>
        {progressText}
      </progress>
      {progressText ? <span data-static-export="percent">{progressText}</span> : null}
      {typeof job.pageCount === 'number' ? (
        <span data-static-export="pages">{labels.pages(job.pageCount)}</span>
      ) : typeof job.pageCount === 'string' ? (
        <span data-static-export="pages">{job.pageCount}</span>
      ) : null}
    </div>
  );
}

/** Start (or export again, or retry a failed job), get the link, retry a failed request. */
function ExportActions({
  requests,
  expired,
  labels,
  onStart,
  onGenerate,
}: {
  requests: ExportRequests;
  expired: boolean;
  labels: StaticExportPanelLabels;
  onStart: () => void;
  onGenerate: () => void;
}) {
  const { job, busy, bundle, error } = requests;
  return (
    <div data-static-export="actions">
      {!job || job.status === 'failed' || job.status === 'completed' ? (
        <button type="button" data-static-export="start" onClick={onStart} disabled={busy !== 'idle'}>
          {busy === 'starting'
            ? labels.starting
            : job?.status === 'failed'
              ? labels.retry
              : job
                ? labels.exportAgain
                : labels.start}
        </button>
      ) : null}
      {job?.status === 'completed' && (!bundle || expired) ? (
        <button type="button" data-static-export="bundle" onClick={onGenerate} disabled={busy !== 'idle'}>
          {busy === 'bundling' ? labels.generating : bundle ? labels.regenerate : labels.getLink}
        </button>
      ) : null}
      {error ? (
        <button type="button" data-static-export="retry" onClick={error.retry}>
          {labels.retry}
        </button>
      ) : null}
    </div>
  );
}

/** The download link and the time left on it, or that it expired. */
function BundleLink({
  bundle,
  clock,
  labels,
}: {
  bundle: StaticExportBundle;
  clock: number;
  labels: StaticExportPanelLabels;
}) {
  const { expired, expiry, remaining } = expiryOf(bundle, clock);
  return (
    <div data-static-export="link" data-expired={expired ? '' : undefined}>
      {expired ? (
        <p data-static-export="expiry">{labels.expired}</p>
      ) : (
        <>
          <a href={bundle.bundleUrl} download data-static-export="download">
            {labels.download}
          </a>
          <p data-static-export="expiry">
            {Number.isFinite(expiry) ? (
              <time dateTime={new Date(expiry).toISOString()}>
                {labels.expiresIn(formatRemaining(remaining))}
              </time>
            ) : (
              labels.expiresIn(String(bundle.expiresAt))
            )}
          </p>
        </>
      )}
    </div>
  );
}

/** When the link expires and the time left: an expiry that cannot be read is shown as it came, and the link is offered as still valid. */
function expiryOf(bundle: StaticExportBundle | undefined, clock: number) {
  const expiry = bundle ? bundleExpiryTime(bundle.expiresAt) : Number.NaN;
  const remaining = Number.isFinite(expiry) ? expiry - clock : Number.POSITIVE_INFINITY;
  return { expiry, remaining, expired: bundle !== undefined && remaining <= 0 };
}

/** Moves the clock every `tickMs` while there is a link, so its expiry counts down. */
function useCountdown(linked: boolean, tickMs: number, now: () => number, setClock: (time: number) => void) {
  useEffect(() => {
    if (!linked) return;
    const timer = setInterval(() => setClock(now()), tickMs);
    return () => clearInterval(timer);
  }, [linked, tickMs, now, setClock]);
}

export function StaticExportPanel({
  endpoint,
  domain,
  version,
  defaultJobId,
  fetch: fetchProp,
  pollIntervalMs = DEFAULT_POLL_MS,
  pollTimeoutMs,
  tickMs = DEFAULT_TICK_MS,
  now = Date.now,
  labels: labelsProp,
  onJobChange,
  unstyled,
  nonce,
  className,
  ...props
}: StaticExportPanelProps) {
  const labels = useMemo(() => ({ ...defaultStaticExportLabels, ...labelsProp }), [labelsProp]);
  const doFetch: Fetch = fetchProp ?? globalFetch;
  const fetchRef = useRef(doFetch);
  fetchRef.current = doFetch;
  const onJobChangeRef = useRef(onJobChange);
  onJobChangeRef.current = onJobChange;
  const base = endpoint.replace(/\/+$/, '');
  const id = useId();
  const [jobId, setJobId] = useState(defaultJobId);
  const setup = { base, domain, version, now, fetchRef, onJobChangeRef };
  const requests = useExportRequests(setup);
  const { job, bundle, busy, error, clock, setClock } = requests;
  useJobPolling(jobId, requests, { ...setup, pollIntervalMs, pollTimeoutMs });

  useCountdown(Boolean(bundle), tickMs, now, setClock);
  const { expired } = expiryOf(bundle, clock);
  const status = error ? 'error' : busy === 'starting' ? 'starting' : (job?.status ?? 'idle');

  return (
    <section
      data-docs-assistant="static-export"
      data-status={status}
      aria-labelledby={`${id}-title`}
      className={['da-static-export', className].filter(Boolean).join(' ')}
      {...props}
    >
      {unstyled ? null : <style nonce={nonce}>{STATIC_EXPORT_CSS}</style>}
      <h2 id={`${id}-title`} data-static-export="title">
        {labels.title}
      </h2>
      {/* Polite live region: status changes (queued → running → complete) are announced once each. */}
      <p role="status" aria-live="polite" data-static-export="status">
        {job ? labels.status(job.status) : ''}
      </p>
      {job && job.status !== 'failed' ? <JobProgress job={job} id={id} labels={labels} /> : null}
      {job?.status === 'failed' ? (
        <p role="alert" data-static-export="failure">
          {labels.failed(job.error ?? 'no reason given')}
        </p>
      ) : null}
      {error ? (
        <p role="alert" data-static-export="error">
          {labels.requestFailed(error.message)}
        </p>
      ) : null}
      <ExportActions
        requests={requests}
        expired={expired}
        labels={labels}
        onStart={() => void requests.start(setJobId)}
        onGenerate={() => void requests.generate(jobId)}
      />
      {bundle && job?.status === 'completed' ? (
        <BundleLink bundle={bundle} clock={clock} labels={labels} />
      ) : null}
    </section>
  );
}
