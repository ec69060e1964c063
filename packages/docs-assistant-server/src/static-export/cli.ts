/**
 * `docs-assistant export` and `docs-assistant serve-bundle`. Each command is a function of
 * (argv, io) returning an exit code, so tests run it with fake streams and a fake interrupt.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { parseArgs } from 'node:util';
import { keyKind, progressPercent, type StaticExportJob } from 'docs-assistant/protocol';
import { createStaticExportClient, StaticExportError } from 'docs-assistant/static-export';
import { stringify as toYaml } from 'yaml';
import {
  type BundleLimits,
  DEFAULT_BUNDLE_LIMITS,
  parseByteSize,
  readBundleFile,
  unpackBundle,
} from './bundle-reader.js';
import { serveBundle } from './serve-bundle.js';

export interface CliOutput {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface CliIO {
  stdout: CliOutput;
  stderr: CliOutput;
  env: Record<string, string | undefined>;
  cwd?: string;
  fetch?: typeof fetch;
  /** Registers a Ctrl-C handler; returns its remover. @default process SIGINT */
  onInterrupt?: (handler: () => void) => () => void;
  /** Time between status polls (in ms). @default 1000 */
  pollIntervalMs?: number;
}

/** Exit code for a command stopped by Ctrl-C (128 + SIGINT). */
export const EXIT_INTERRUPTED = 130;
/** Exit code for a usage or configuration mistake. */
export const EXIT_USAGE = 2;

export const EXPORT_USAGE = `Usage: docs-assistant export --domain <domain> [options]

Exports a domain's docs as a static site bundle (.tar.gz). Needs DOCS_ASSISTANT_ADMIN_KEY set to
an admin API key (svc_…) of an organization on the Enterprise plan.

Options:
  --domain <domain>        the domain to export: its name or the docs site's hostname,
                           e.g. docs.example.com (required)
  --base-url <url>         the service (default http://127.0.0.1:8787)
  --out <file>             where to save the bundle (default <domain>-static-export.tar.gz)
  --helm-values <file>     also write Helm values (staticExport.enabled/bundleUrl/version)
  --version <version>      export the pages of this docs version and pin it in the Helm values
  --database-url <url>     also put this PostgreSQL URL in the Helm values (assistant.databaseUrl),
                           for replicas of the service that share threads, jobs and rate limits
                           (default: DATABASE_URL when set)
  --replicas <n>           replicas of the service in the Helm values (default 2 with a database URL)
  --timeout <seconds>      give up waiting for the job after this long (default: wait until it
                           completes or fails; statuses the CLI does not know are waited through)
`;

export const SERVE_BUNDLE_USAGE = `Usage: docs-assistant serve-bundle <bundleUrl|file> [--port 8080] [--host 127.0.0.1]

Fetches a static export bundle and serves it, as the Helm chart does. A bundle over a limit, or a
download that does not answer or stalls, stops start-up with exit code 1.

Options:
  --port <n>                  port, 0 for any free one (default 8080)
  --host <addr>               address to listen on (default 127.0.0.1)
  --max-bundle-bytes <size>   largest bundle as downloaded, compressed (default 256MiB)
  --max-unpacked-bytes <size> largest bundle once inflated, held in memory (default 512MiB)
  --max-files <n>             most files in the bundle (default 50000)
  --max-file-bytes <size>     largest single file (default 64MiB)
  --timeout <seconds>         wait this long for the URL to answer, and for each next bytes (default 30)
`;

const defaultInterrupt = (handler: () => void): (() => void) => {
  process.once('SIGINT', handler);
  return () => process.off('SIGINT', handler);
};

/** Width of the TTY progress bar (in characters). */
const BAR_WIDTH = 30;

/**
 * One progress line. The spec leaves the type and unit of `progress` and `pageCount` open and
 * allows status values it does not name: a numeric progress draws the bar, anything else is shown
 * as it came, and an unknown status is printed as is.
 */
function progressLine(job: StaticExportJob): string {
  const percent = progressPercent(job.progress);
  const fields: string[] = [];
  if (percent !== undefined) {
    const filled = Math.round((percent / 100) * BAR_WIDTH);
    fields.push(
      `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`,
      `${String(Math.round(percent)).padStart(3)}%`,
    );
  } else if (job.progress !== undefined && job.progress !== null) {
    fields.push(`progress ${job.progress}`);
  }
  if (typeof job.pageCount === 'number') {
    fields.push(`${job.pageCount} page${job.pageCount === 1 ? '' : 's'}`);
  } else if (job.pageCount !== undefined && job.pageCount !== null) {
    fields.push(`pages ${job.pageCount}`);
  }
  fields.push(`(${job.status})`);
  return fields.join(' ');
}

interface ExportFlags {
  domain?: string;
  'base-url'?: string;
  out?: string;
  'helm-values'?: string;
  version?: string;
  timeout?: string;
  'database-url'?: string;
  replicas?: string;
  help?: boolean;
}

/** What `export` was asked to do, its flags checked. */
interface ExportPlan {
  flags: ExportFlags & { domain: string };
  adminKey: string;
  timeoutSeconds: number | undefined;
  databaseUrl: string | undefined;
  replicas: number | undefined;
}

/** The flags as given, or the exit code after the usage or the help was printed. */
function readExportFlags(argv: string[], io: CliIO): ExportFlags | number {
  let values: ExportFlags;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        domain: { type: 'string' },
        'base-url': { type: 'string', default: 'http://127.0.0.1:8787' },
        out: { type: 'string' },
        'helm-values': { type: 'string' },
        version: { type: 'string' },
        timeout: { type: 'string' },
        'database-url': { type: 'string' },
        replicas: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.stderr.write(`export: ${(error as Error).message}\n\n${EXPORT_USAGE}`);
    return EXIT_USAGE;
  }
  if (values.help) {
    io.stdout.write(EXPORT_USAGE);
    return 0;
  }
  if (!values.domain) {
    io.stderr.write(`export: --domain is required\n\n${EXPORT_USAGE}`);
    return EXIT_USAGE;
  }
  return values;
}

/** Why `DOCS_ASSISTANT_ADMIN_KEY` cannot start an export, or `undefined` when it is an admin key. */
function adminKeyProblem(adminKey: string | undefined): string | undefined {
  const kind = keyKind(adminKey);
  if (kind === 'admin') return undefined;
  if (kind === 'assistant')
    return 'DOCS_ASSISTANT_ADMIN_KEY holds an assistant API key (svc_dsc_…); static export needs an admin API key (svc_…).';
  return adminKey
    ? 'DOCS_ASSISTANT_ADMIN_KEY is not an admin API key; it must start with "svc_" (and not "svc_dsc_").'
    : 'set DOCS_ASSISTANT_ADMIN_KEY to an admin API key (svc_…) from the dashboard API keys page.';
}

/** The flags and the environment checked together: the plan, or a message saying what to change. */
function exportPlan(flags: ExportFlags & { domain: string }, env: CliIO['env']): ExportPlan | string {
  const timeoutSeconds = flags.timeout === undefined ? undefined : Number(flags.timeout);
  if (timeoutSeconds !== undefined && !(Number.isFinite(timeoutSeconds) && timeoutSeconds > 0)) {
    return `--timeout must be a positive number of seconds (got "${flags.timeout}")`;
  }
  const adminKey = env.DOCS_ASSISTANT_ADMIN_KEY;
  const keyProblem = adminKeyProblem(adminKey);
  if (keyProblem) return keyProblem;
  const databaseUrl = flags['database-url'] ?? (env.DATABASE_URL || undefined);
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/./.test(databaseUrl)) {
    return '--database-url must be a PostgreSQL URL: postgres://user:password@host:5432/database';
  }
  const replicas = flags.replicas === undefined ? (databaseUrl ? 2 : undefined) : Number(flags.replicas);
  if (replicas !== undefined && !(Number.isInteger(replicas) && replicas >= 1)) {
    return `--replicas must be a whole number of at least 1 (got "${flags.replicas}")`;
  }
  if (replicas !== undefined && replicas > 1 && !databaseUrl) {
    return '--replicas above 1 needs --database-url (or DATABASE_URL): replicas share their state through PostgreSQL';
  }
  return { flags, adminKey: adminKey!, timeoutSeconds, databaseUrl, replicas };
}

/**
 * Draws the job's progress: one line redrawn in place on a TTY, a line per change elsewhere.
 * `end` ends the redrawn line.
 */
function progressPrinter(io: CliIO): { show: (job: StaticExportJob) => void; end: () => void } {
  const tty = Boolean(io.stdout.isTTY);
  let lastLine = '';
  let longest = 0;
  return {
    show: (job) => {
      const line = progressLine(job);
      if (line === lastLine) return;
      // Pad to the longest line drawn so far, so a shorter redraw leaves no stale characters.
      longest = Math.max(longest, line.length);
      lastLine = line;
      io.stdout.write(tty ? `\r${line.padEnd(longest)}` : `${line}\n`);
    },
    end: () => {
      if (tty && lastLine) io.stdout.write('\n');
    },
  };
}

/**
 * Downloads the bundle to `temp` (beside the target, renamed once whole, so an interrupted run
 * leaves no half-written bundle under the final name) and checks it as serve-bundle will read it:
 * streamed, within its default limits, never inflated whole. Returns its files.
 */
async function downloadBundle(
  response: Response,
  temp: string,
  signal: AbortSignal,
): Promise<Map<string, Uint8Array>> {
  if (!response.body) throw new Error('the bundle download has no body');
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), createWriteStream(temp), {
    signal,
  });
  let files: Map<string, Uint8Array>;
  try {
    files = await unpackBundle(readBundleFile(temp, DEFAULT_BUNDLE_LIMITS));
  } catch (error) {
    const reason = (error as Error).message.replace(/ \(raise --[^)]*\)$/, '');
    throw new Error(`the downloaded bundle is not one serve-bundle can serve: ${reason}`);
  }
  if (!files.has('index.html')) throw new Error('the downloaded bundle has no index.html');
  return files;
}

/** Writes the Helm values for this export (`--helm-values`), through a temp file renamed into place. */
async function writeHelmValues(
  file: string,
  plan: ExportPlan,
  exported: { jobId: string; bundleUrl: string; expiresAt: string | number },
): Promise<void> {
  const { replicas, databaseUrl } = plan;
  const staticExport: { enabled: true; bundleUrl: string; version: string } = {
    enabled: true,
    bundleUrl: exported.bundleUrl,
    // Without --version the job id pins this exact export, for reproducible rollouts.
    version: plan.flags.version ?? exported.jobId,
  };
  // Replicas share threads, export jobs and rate limits through one PostgreSQL database.
  const assistant =
    replicas === undefined ? undefined : { replicas, ...(databaseUrl ? { databaseUrl } : {}) };
  const yamlText = `# Written by docs-assistant export. The bundleUrl expires at ${exported.expiresAt}:\n# export again (or regenerate the link) and upgrade the release after that.\n${toYaml({ staticExport, ...(assistant ? { assistant } : {}) })}`;
  const tempValues = `${file}.${process.pid}.tmp`;
  await writeFile(tempValues, yamlText);
  await rename(tempValues, file);
}

/** What a failed export prints, and its exit code. */
function exportFailure(error: unknown, interrupted: boolean, io: CliIO): number {
  if (interrupted) {
    io.stderr.write('\nexport: interrupted; nothing was saved.\n');
    return EXIT_INTERRUPTED;
  }
  if (error instanceof StaticExportError) {
    io.stderr.write(
      error.code === 'job_failed'
        ? `export: ${error.message}\n`
        : `export: ${error.message}${error.status ? ` (HTTP ${error.status}, ${error.code})` : ''}\n`,
    );
    return 1;
  }
  io.stderr.write(`export: ${(error as Error).message}\n`);
  return 1;
}

/** Starts the export job, follows it to the end, saves the bundle and the Helm values. */
async function runExport(plan: ExportPlan, io: CliIO, out: string, temp: string, signal: AbortSignal) {
  const { flags, timeoutSeconds } = plan;
  const { domain } = flags;
  const client = createStaticExportClient({
    baseUrl: flags['base-url']!,
    adminKey: plan.adminKey,
    fetch: io.fetch,
  });
  const started = await client.startJob(
    { domain, ...(flags.version ? { version: flags.version } : {}) },
    { signal },
  );
  io.stdout.write(`Export job ${started.jobId} started for ${domain}\n`);
  const progress = progressPrinter(io);
  if (typeof started.status === 'string') progress.show({ ...started, status: started.status });
  let job: StaticExportJob;
  try {
    job = await client.waitForJob(started.jobId, {
      signal,
      onProgress: progress.show,
      intervalMs: io.pollIntervalMs,
      ...(timeoutSeconds === undefined ? {} : { timeoutMs: timeoutSeconds * 1000 }),
    });
  } finally {
    progress.end();
  }
  const bundle = await client.generateBundle(started.jobId, { signal });
  io.stdout.write(
    bundle.sizeBytes === undefined ? 'Downloading the bundle…\n' : `Downloading ${bundle.sizeBytes} bytes…\n`,
  );
  const files = await downloadBundle(await client.openBundle(bundle.bundleUrl, { signal }), temp, signal);
  signal.throwIfAborted();
  await rename(temp, out);
  const pages = typeof job.pageCount === 'number' ? `, ${job.pageCount} pages` : '';
  io.stdout.write(`Saved ${out} (${files.size} files${pages})\n`);
  io.stdout.write(`Bundle link (expires ${bundle.expiresAt}):\n${bundle.bundleUrl}\n`);
  if (flags['helm-values']) {
    const file = resolve(io.cwd ?? process.cwd(), flags['helm-values']);
    await writeHelmValues(file, plan, { jobId: started.jobId, ...bundle });
    io.stdout.write(`Wrote Helm values to ${file}\n`);
  }
}

export async function exportCommand(argv: string[], io: CliIO): Promise<number> {
  const flags = readExportFlags(argv, io);
  if (typeof flags === 'number') return flags;
  const plan = exportPlan(flags as ExportFlags & { domain: string }, io.env);
  if (typeof plan === 'string') {
    io.stderr.write(`export: ${plan}\n`);
    return EXIT_USAGE;
  }
  const out = resolve(io.cwd ?? process.cwd(), flags.out ?? `${plan.flags.domain}-static-export.tar.gz`);
  const temp = join(dirname(out), `.${basename(out)}.${process.pid}.part`);
  const controller = new AbortController();
  let interrupted = false;
  const removeInterrupt = (io.onInterrupt ?? defaultInterrupt)(() => {
    interrupted = true;
    controller.abort(new Error('interrupted'));
  });
  try {
    await runExport(plan, io, out, temp, controller.signal);
    return 0;
  } catch (error) {
    await rm(temp, { force: true });
    return exportFailure(error, interrupted, io);
  } finally {
    removeInterrupt();
  }
}

const SERVE_BUNDLE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'max-bundle-bytes': { type: 'string' },
  'max-unpacked-bytes': { type: 'string' },
  'max-files': { type: 'string' },
  'max-file-bytes': { type: 'string' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The bundle limits given as flags; throws naming the flag whose value is not usable. */
function bundleLimitFlags(
  values: Partial<Record<keyof typeof SERVE_BUNDLE_OPTIONS, unknown>>,
): Partial<BundleLimits> {
  const limits: Partial<BundleLimits> = {};
  const size = (flag: 'max-bundle-bytes' | 'max-unpacked-bytes' | 'max-file-bytes'): number | undefined => {
    const text = values[flag];
    if (typeof text !== 'string') return undefined;
    const bytes = parseByteSize(text);
    if (bytes === undefined)
      throw new Error(`--${flag} must be a size such as 64MiB, 1GiB or 1048576 (got "${text}")`);
    return bytes;
  };
  const count = (flag: 'max-files' | 'timeout'): number | undefined => {
    const text = values[flag];
    if (typeof text !== 'string') return undefined;
    const value = Number(text);
    if (!(value > 0) || !Number.isFinite(value) || (flag === 'max-files' && !Number.isInteger(value))) {
      throw new Error(
        `--${flag} must be a positive ${flag === 'timeout' ? 'number of seconds' : 'whole number'} (got "${text}")`,
      );
    }
    return value;
  };
  const maxBundleBytes = size('max-bundle-bytes');
  const maxUnpackedBytes = size('max-unpacked-bytes');
  const maxFileBytes = size('max-file-bytes');
  const maxFiles = count('max-files');
  const timeout = count('timeout');
  if (maxBundleBytes !== undefined) limits.maxBundleBytes = maxBundleBytes;
  if (maxUnpackedBytes !== undefined) limits.maxUnpackedBytes = maxUnpackedBytes;
  if (maxFileBytes !== undefined) limits.maxFileBytes = maxFileBytes;
  if (maxFiles !== undefined) limits.maxFiles = maxFiles;
  if (timeout !== undefined) {
    limits.connectTimeoutMs = timeout * 1000;
    limits.idleTimeoutMs = timeout * 1000;
  }
  return limits;
}

/**
 * Serves a bundle until interrupted. Resolves with the exit code: 0 after Ctrl-C, 1 when the
 * bundle cannot be fetched or unpacked (nothing is served then).
 */
export async function serveBundleCommand(argv: string[], io: CliIO): Promise<number> {
  let parsed: ReturnType<
    typeof parseArgs<{
      options: typeof SERVE_BUNDLE_OPTIONS;
      allowPositionals: true;
      strict: true;
    }>
  >;
  try {
    parsed = parseArgs({
      args: argv,
      options: SERVE_BUNDLE_OPTIONS,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    io.stderr.write(`serve-bundle: ${(error as Error).message}\n\n${SERVE_BUNDLE_USAGE}`);
    return EXIT_USAGE;
  }
  if (parsed.values.help) {
    io.stdout.write(SERVE_BUNDLE_USAGE);
    return 0;
  }
  const [source, ...extra] = parsed.positionals;
  if (!source || extra.length) {
    io.stderr.write(`serve-bundle: give exactly one bundle URL or file\n\n${SERVE_BUNDLE_USAGE}`);
    return EXIT_USAGE;
  }
  const port = parsed.values.port === undefined ? 8080 : Number(parsed.values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    io.stderr.write(
      `serve-bundle: --port must be a whole number from 0 to 65535 (got "${parsed.values.port}")\n`,
    );
    return EXIT_USAGE;
  }
  let limits: Partial<BundleLimits>;
  try {
    limits = bundleLimitFlags(parsed.values);
  } catch (error) {
    io.stderr.write(`serve-bundle: ${(error as Error).message}\n`);
    return EXIT_USAGE;
  }
  const file = /^https?:\/\//i.test(source) ? source : resolve(io.cwd ?? process.cwd(), source);
  let served: Awaited<ReturnType<typeof serveBundle>>;
  try {
    served = await serveBundle({
      source: file,
      port,
      host: parsed.values.host ?? '127.0.0.1',
      fetch: io.fetch,
      limits,
    });
  } catch (error) {
    io.stderr.write(`serve-bundle: ${(error as Error).message}\n`);
    return 1;
  }
  io.stdout.write(`Serving ${served.fileCount} files at ${served.url} (Ctrl-C to stop)\n`);
  await new Promise<void>((done) => {
    const remove = (io.onInterrupt ?? defaultInterrupt)(() => {
      remove();
      done();
    });
  });
  await served.close();
  return 0;
}

/**
 * The process's own streams: the progress bar redraws with `\r`, which the line-based `CliIo` of
 * `src/cli.ts` cannot carry, and TTY detection needs the real `stdout`.
 */
const processIo = (): CliIO => ({ stdout: process.stdout, stderr: process.stderr, env: process.env });

/** The commands for `src/cli.ts`'s table (its `CliCommand` shape). */
export const staticExportCliCommands = {
  export: {
    summary: 'Export a domain as a static site bundle (.tar.gz) and write Helm values',
    usage: EXPORT_USAGE.trimEnd(),
    run: (args: string[]) => exportCommand(args, processIo()),
  },
  'serve-bundle': {
    summary: 'Serve a static export bundle (URL or file), as the Helm chart does',
    usage: SERVE_BUNDLE_USAGE.trimEnd(),
    run: (args: string[]) => serveBundleCommand(args, processIo()),
  },
};
