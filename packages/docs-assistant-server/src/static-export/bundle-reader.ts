/**
 * Reads a bundle the way `serve-bundle` must: as a stream, with every size capped. The bundle comes
 * from a URL or a file that whoever runs the Helm chart configured, and a `.tar.gz` of 1 MB can
 * inflate to gigabytes, so the compressed bytes, the inflated bytes, the file count and each file's
 * size are counted as they arrive and the read stops at the first cap. A download also has a
 * connect and an idle timeout, so a server that never answers, or stops sending, fails start-up
 * instead of hanging it.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { assertSafeEntryPath, entryBytes } from './bundle.js';

export interface BundleLimits {
  /**
   * Largest bundle as downloaded (gzip-compressed, in bytes). A static export is HTML, CSS and a few
   * assets; a docs site of 10,000 pages compresses to well under 100 MB. @default 256 MiB
   */
  maxBundleBytes: number;
  /**
   * Largest bundle once inflated (in bytes). The files are held in memory to be served, so this is
   * also the memory the server needs for them. @default 512 MiB
   */
  maxUnpackedBytes: number;
  /** Most files in a bundle: a page per doc plus its assets. @default 50,000 */
  maxFiles: number;
  /** Largest single file (in bytes): a page, a stylesheet, an image. @default 64 MiB */
  maxFileBytes: number;
  /** Time to wait for the bundle URL to answer (in ms). @default 30 s */
  connectTimeoutMs: number;
  /** Time to wait for the next bytes of a download before giving up (in ms). @default 30 s */
  idleTimeoutMs: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_BUNDLE_LIMITS: Readonly<BundleLimits> = {
  maxBundleBytes: 256 * MiB,
  maxUnpackedBytes: 512 * MiB,
  maxFiles: 50_000,
  maxFileBytes: 64 * MiB,
  connectTimeoutMs: 30_000,
  idleTimeoutMs: 30_000,
};

/** A refusal with a message for the operator; other errors are wrapped with where they happened. */
export class BundleError extends Error {
  override name = 'BundleError';
}

/** `1536 MiB`, `64 KiB`, `12 bytes`: sizes as an operator reads them. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * MiB && bytes % (1024 * MiB) === 0) return `${bytes / (1024 * MiB)} GiB`;
  if (bytes >= MiB) return `${Math.round((bytes / MiB) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/**
 * `tar`'s parser fed chunk by chunk, the caps checked on each header before its data is taken
 * (its `filter` runs on the header): each regular file is copied into a buffer of its declared
 * size, other entries are skipped. Inflating stays ours (`unpackBundle`), so the inflated bytes are
 * counted whatever the tar says; a compressed stream inside is refused, not inflated again.
 */
class TarStream {
  readonly files = new Map<string, Uint8Array>();
  ended = false;
  private declared = 0;
  private entries = 0;
  private failure: unknown;
  private first = true;
  private readonly parser: Parser;

  constructor(private readonly limits: BundleLimits) {
    this.parser = new Parser({
      filter: (path, entry) => this.admit(path, entry as ReadEntry),
      onReadEntry: (entry) => this.files.set(entry.path, entryBytes(entry)),
    });
    const fail = (message: string) => {
      this.failure ??= new BundleError(
        /checksum/i.test(message)
          ? 'corrupt tar header: checksum mismatch'
          : /truncated/i.test(message)
            ? `truncated tar: ${message.replace(/^TAR_\w+: /, '')}`
            : `corrupt tar: ${message.replace(/^TAR_\w+: /, '')}`,
      );
    };
    this.parser.on('warn', (_code: string, message: string) => fail(message));
    this.parser.on('error', (error: Error) => fail(error.message));
    this.parser.on('eof', () => {
      this.ended = true;
    });
  }

  /** The caps, on a header: throws past one; `true` for a regular file to keep. */
  private admit(path: string, entry: ReadEntry): boolean {
    const size = entry.size;
    const { maxFileBytes, maxFiles, maxUnpackedBytes } = this.limits;
    if (size > maxFileBytes) {
      throw new BundleError(
        `the bundle's entry "${path}" is ${formatBytes(size)}, over the limit of ${formatBytes(maxFileBytes)} per file; refusing the bundle (raise --max-file-bytes if it is genuine)`,
      );
    }
    this.declared += size;
    if (this.declared > maxUnpackedBytes) {
      throw new BundleError(
        `the bundle unpacks to more than ${formatBytes(maxUnpackedBytes)}; refusing it (a decompression bomb? raise --max-unpacked-bytes if it is genuine)`,
      );
    }
    if (entry.type !== 'File' && entry.type !== 'OldFile') return false;
    try {
      assertSafeEntryPath(path);
    } catch (error) {
      throw new BundleError((error as Error).message);
    }
    if (++this.entries > maxFiles) {
      throw new BundleError(
        `the bundle holds more than ${maxFiles} files; refusing it (raise --max-files if it is genuine)`,
      );
    }
    return true;
  }

  push(chunk: Uint8Array): void {
    if (this.first && chunk.length >= 2) {
      this.first = false;
      // gzip or zstd magic where a tar header starts: the parser would inflate it past our count.
      if ((chunk[0] === 0x1f && chunk[1] === 0x8b) || (chunk[0] === 0x28 && chunk[1] === 0xb5))
        throw new BundleError('corrupt tar: a compressed stream inside the bundle');
    }
    this.parser.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (this.failure) throw this.failure;
  }

  end(): void {
    this.parser.end();
    if (this.failure) throw this.failure;
  }
}

/** Inflates and reads a `.tar.gz` stream within `limits`; resolves with its files by path. */
export async function unpackBundle(
  source: AsyncIterable<Uint8Array>,
  limits: BundleLimits = DEFAULT_BUNDLE_LIMITS,
): Promise<Map<string, Uint8Array>> {
  const tar = new TarStream(limits);
  let inflated = 0;
  // The first failure of the source or of the reader: tearing the pipeline down makes the other
  // streams fail too (an abort), and that must not hide why.
  let failure: unknown;
  async function* guarded(): AsyncGenerator<Uint8Array> {
    try {
      yield* source;
    } catch (error) {
      failure ??= error;
      throw error;
    }
  }
  try {
    await pipeline(Readable.from(guarded()), createGunzip(), async (stream: AsyncIterable<Buffer>) => {
      try {
        for await (const chunk of stream) {
          // Counted whatever the tar says, so bytes past the end-of-archive marker cannot run on either.
          inflated += chunk.byteLength;
          if (inflated > limits.maxUnpackedBytes) {
            throw new BundleError(
              `the bundle unpacks to more than ${formatBytes(limits.maxUnpackedBytes)}; refusing it (a decompression bomb? raise --max-unpacked-bytes if it is genuine)`,
            );
          }
          if (!tar.ended) tar.push(chunk);
        }
      } catch (error) {
        failure ??= error;
        throw error;
      }
    });
  } catch (error) {
    const cause = failure ?? error;
    if (cause instanceof BundleError) throw cause;
    const code = (cause as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('Z_'))
      throw new BundleError(`not a gzip archive: ${(cause as Error).message}`);
    throw cause;
  }
  if (!tar.ended) {
    tar.end();
    throw new BundleError('truncated tar: the end-of-archive marker is missing');
  }
  return tar.files;
}

/** The chunks of a file, within the compressed-size cap. */
export async function* readBundleFile(path: string, limits: BundleLimits): AsyncGenerator<Uint8Array> {
  const { size } = await stat(path);
  if (size > limits.maxBundleBytes) {
    throw new BundleError(
      `the bundle file is ${formatBytes(size)}, over the limit of ${formatBytes(limits.maxBundleBytes)}; refusing it (raise --max-bundle-bytes if it is genuine)`,
    );
  }
  let read = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    read += chunk.byteLength;
    if (read > limits.maxBundleBytes) {
      throw new BundleError(
        `the bundle file is over the limit of ${formatBytes(limits.maxBundleBytes)}; refusing it (raise --max-bundle-bytes if it is genuine)`,
      );
    }
    yield chunk;
  }
}

/**
 * Resolves with `promise`, or rejects with `message` once `ms` pass; `onTimeout` then runs (it
 * aborts the request, so nothing is left holding the process open).
 */
async function within<T>(
  promise: Promise<T>,
  ms: number,
  onTimeout: () => void,
  message: string,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Settled before the abort, so the race reports the timeout, not the aborted read.
      reject(new BundleError(message));
      onTimeout();
    }, ms);
  });
  // The loser of the race may still reject (an aborted read); that is no unhandled rejection.
  promise.catch(() => {});
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The URL as shown in messages: a presigned link's query is a secret. */
export const shownUrl = (url: string): string => url.split('?')[0]!;

/** A response being read: the parts of `fetch`'s and of `node:http`'s that the download needs. */
interface Transfer {
  status: number;
  header: (name: string) => string | null;
  /** The next chunk; `undefined` at the end. */
  next: () => Promise<Uint8Array | undefined>;
  /** Drops the connection; reads pending reject. */
  close: () => void;
}

/** Through an injected `fetch` (tests, custom transports). */
async function fetchTransfer(url: string, fetchImpl: typeof fetch, timeout: Timeouts): Promise<Transfer> {
  const controller = new AbortController();
  const close = () => controller.abort();
  const response = await timeout.connect(fetchImpl(url, { signal: controller.signal }), close);
  const reader = response.body?.getReader();
  return {
    status: response.status,
    header: (name) => response.headers.get(name),
    next: async () => {
      if (!reader) return undefined;
      const { done, value } = await reader.read();
      return done ? undefined : value;
    },
    close: () => {
      close();
      reader?.cancel().catch(() => {});
    },
  };
}

/** Redirects followed before giving up (a presigned link may sit behind one or two). */
const MAX_REDIRECTS = 5;

/**
 * Through Node's own client. Not `fetch`: Node 20's fetch reads the socket ahead of a consumer that
 * is slower than the network and then spends quadratic time joining what it buffered (a 256 MiB
 * download took minutes behind gunzip); a Node stream keeps the socket paused instead.
 */
async function nodeTransfer(url: string, timeout: Timeouts, redirects = 0): Promise<Transfer> {
  const { request } = url.startsWith('https:') ? await import('node:https') : await import('node:http');
  const outgoing = request(url, { method: 'GET' });
  const response = await timeout.connect(
    new Promise<IncomingMessage>((resolve, reject) => {
      outgoing.once('response', resolve);
      outgoing.once('error', reject);
      outgoing.end();
    }),
    () => outgoing.destroy(),
  );
  const status = response.statusCode ?? 0;
  const location = response.headers.location;
  if (status >= 300 && status < 400 && location) {
    outgoing.destroy();
    if (redirects >= MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
    return nodeTransfer(new URL(location, url).href, timeout, redirects + 1);
  }
  const chunks = response[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return {
    status,
    header: (name) => {
      const value = response.headers[name.toLowerCase()];
      return value === undefined ? null : String(value);
    },
    next: async () => {
      const { done, value } = await chunks.next();
      return done ? undefined : value;
    },
    close: () => outgoing.destroy(),
  };
}

interface Timeouts {
  connect: <T>(promise: Promise<T>, onTimeout: () => void) => Promise<T>;
}

/**
 * The chunks of a download, within the compressed-size cap and the timeouts. Throws a clear error
 * for an HTTP error, a too-large `Content-Length`, a server that does not answer or that stalls.
 */
export async function* downloadBundle(
  url: string,
  limits: BundleLimits,
  fetchImpl?: typeof fetch,
): AsyncGenerator<Uint8Array> {
  const shown = shownUrl(url);
  const timeouts: Timeouts = {
    connect: (promise, onTimeout) =>
      within(
        promise,
        limits.connectTimeoutMs,
        onTimeout,
        `cannot fetch the bundle from ${shown}: no response within ${seconds(limits.connectTimeoutMs)} (raise --timeout if the server is just slow)`,
      ),
  };
  let transfer: Transfer;
  try {
    transfer = fetchImpl ? await fetchTransfer(url, fetchImpl, timeouts) : await nodeTransfer(url, timeouts);
  } catch (error) {
    if (error instanceof BundleError) throw error;
    throw new BundleError(`cannot fetch the bundle from ${shown}: ${(error as Error).message}`);
  }
  try {
    const next = (received: number) =>
      within(
        transfer.next(),
        limits.idleTimeoutMs,
        transfer.close,
        `the bundle download from ${shown} stalled: no data for ${seconds(limits.idleTimeoutMs)} after ${formatBytes(received)} (raise --timeout if the server is just slow)`,
      );
    if (transfer.status < 200 || transfer.status >= 300) {
      // A little of the error page, never all of it.
      const first = await next(0).catch(() => undefined);
      const detail = first ? Buffer.from(first.subarray(0, 300)).toString('utf8').trim() : '';
      throw new BundleError(
        `cannot fetch the bundle from ${shown}: HTTP ${transfer.status}${detail ? ` ${detail}` : ''}` +
          (transfer.status === 403 ? ' (an expired link? generate a fresh bundleUrl and upgrade)' : ''),
      );
    }
    const declared = Number(transfer.header('content-length'));
    if (declared > limits.maxBundleBytes) {
      throw new BundleError(
        `the bundle at ${shown} is ${formatBytes(declared)}, over the limit of ${formatBytes(limits.maxBundleBytes)}; refusing it (raise --max-bundle-bytes if it is genuine)`,
      );
    }
    let received = 0;
    for (;;) {
      const chunk = await next(received);
      if (!chunk) return;
      received += chunk.byteLength;
      if (received > limits.maxBundleBytes) {
        throw new BundleError(
          `the bundle at ${shown} is larger than ${formatBytes(limits.maxBundleBytes)}; refusing it after reading that much (raise --max-bundle-bytes if it is genuine)`,
        );
      }
      yield chunk;
    }
  } finally {
    // Whether done, refused or abandoned by the unpacker: the connection goes, so nothing holds the process.
    transfer.close();
  }
}

const SIZE = /^(\d+(?:\.\d+)?)\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?$/i;
const UNIT: Record<string, number> = { b: 1, k: 1024, m: MiB, g: 1024 * MiB };

/** `64MiB`, `512M`, `1GiB`, `1048576`: a size for a flag, in bytes (units are powers of 1024). */
export function parseByteSize(text: string): number | undefined {
  const match = SIZE.exec(text.trim());
  if (!match) return undefined;
  const bytes = Math.floor(Number(match[1]) * UNIT[(match[2] ?? 'b')[0]!.toLowerCase()]!);
  return bytes > 0 ? bytes : undefined;
}

/** The limits with defaults filled in; throws saying which one is wrong. */
export function resolveBundleLimits(options: Partial<BundleLimits> = {}): BundleLimits {
  const limits = { ...DEFAULT_BUNDLE_LIMITS };
  for (const name of Object.keys(DEFAULT_BUNDLE_LIMITS) as (keyof BundleLimits)[]) {
    const value = options[name];
    if (value === undefined) continue;
    if (!Number.isFinite(value) || value <= 0)
      throw new Error(`${name} must be a positive number (got ${value}).`);
    limits[name] = value;
  }
  return limits;
}
