/**
 * A deterministic `.tar.gz`: the same files give the same bytes. Entries are sorted by path, every
 * header carries fixed mtime/uid/gid/mode and empty owner names, and the gzip header has no
 * timestamp or file name. Headers are encoded and archives read by the `tar` package (`Header`,
 * `Pax` for long paths, `Parser`); its `create` is not used because it reads mtimes and owners
 * from the file system.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { Header, Parser, Pax, type ReadEntry } from 'tar';
export interface BundleEntry {
  /** Path inside the archive, `/`-separated, relative (no leading `/`, no `..`). */
  path: string;
  data: Uint8Array;
}

const BLOCK = 512;
/** Fixed modification time of every entry: 2000-01-01T00:00:00Z. */
const FIXED_MTIME = new Date(946_684_800_000);
/** Mode of every file entry: rw-r--r--. */
const FILE_MODE = 0o644;

export function assertSafeEntryPath(path: string): void {
  if (
    path === '' ||
    path.startsWith('/') ||
    path.includes('\\') ||
    path.includes('\0') ||
    path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')
  ) {
    throw new Error(`unsafe bundle entry path "${path}": use a relative path without "..", "." or "//"`);
  }
}

/** The header blocks of one file: a pax header first when the path does not fit ustar's fields. */
function headerBlocks(path: string, size: number): Buffer[] {
  const fields = { path, mode: FILE_MODE, uid: 0, gid: 0, size, mtime: FIXED_MTIME, uname: '', gname: '' };
  const block = Buffer.alloc(BLOCK);
  const header = new Header({ ...fields, type: 'File' });
  header.encode(block);
  return header.needPax ? [new Pax({ path, mtime: FIXED_MTIME }).encode(), block] : [block];
}

/** Builds the uncompressed tar. Duplicate paths are an error, not a silent overwrite. */
export function createTar(entries: readonly BundleEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const chunks: Buffer[] = [];
  let previous: string | undefined;
  for (const entry of sorted) {
    assertSafeEntryPath(entry.path);
    if (entry.path === previous) throw new Error(`duplicate bundle entry "${entry.path}"`);
    previous = entry.path;
    chunks.push(...headerBlocks(entry.path, entry.data.byteLength), Buffer.from(entry.data));
    const padding = (BLOCK - (entry.data.byteLength % BLOCK)) % BLOCK;
    if (padding) chunks.push(Buffer.alloc(padding));
  }
  chunks.push(Buffer.alloc(BLOCK * 2)); // end-of-archive marker
  return Buffer.concat(chunks);
}

/** Builds the `.tar.gz`. zlib writes a gzip header with mtime 0 and no name, so it is deterministic. */
export function createTarGz(entries: readonly BundleEntry[]): Buffer {
  return gzipSync(createTar(entries), { level: 9 });
}

/** The reader's error for a problem `tar` reports: what is wrong with the archive, in our words. */
function tarProblem(message: string): Error {
  if (/checksum/i.test(message)) return new Error('corrupt tar header: checksum mismatch');
  if (/truncated/i.test(message)) return new Error(`truncated tar: ${message.replace(/^TAR_\w+: /, '')}`);
  return new Error(`corrupt tar: ${message.replace(/^TAR_\w+: /, '')}`);
}

/**
 * The bytes of a tar entry the parser reads: its size is known from its header, so they fill one
 * array as they come (complete once the entry has ended).
 */
export function entryBytes(entry: ReadEntry): Uint8Array {
  const data = new Uint8Array(entry.size);
  let filled = 0;
  entry.on('data', (chunk: Buffer) => {
    data.set(chunk, filled);
    filled += chunk.byteLength;
  });
  return data;
}

/**
 * Reads an uncompressed tar through `tar`'s parser (regular files only; directories and other
 * entries are skipped). Throws a clear error on anything truncated, corrupt or compressed again.
 */
export function readTar(tar: Buffer): BundleEntry[] {
  // The parser would inflate a compressed stream itself; an archive inside the archive is refused.
  if (tar.length >= 2 && tar[0] === 0x1f && tar[1] === 0x8b)
    throw new Error('corrupt tar: it is gzip inside gzip');
  const entries: BundleEntry[] = [];
  let failure: Error | undefined;
  let ended = false;
  const parser = new Parser({
    filter: (path, entry) => {
      const regular = (entry as ReadEntry).type === 'File' || (entry as ReadEntry).type === 'OldFile';
      if (regular) assertSafeEntryPath(path);
      return regular;
    },
    onReadEntry: (entry) => entries.push({ path: entry.path, data: entryBytes(entry) }),
  });
  parser.on('warn', (_code: string, message: string) => {
    failure ??= tarProblem(message);
  });
  parser.on('error', (error: Error) => {
    failure ??= tarProblem(error.message);
  });
  parser.on('eof', () => {
    ended = true;
  });
  try {
    parser.end(tar);
  } catch (error) {
    failure ??=
      error instanceof Error && /unsafe bundle entry/.test(error.message) ? error : tarProblem(String(error));
  }
  if (failure) throw failure;
  if (!ended) throw new Error('truncated tar: the end-of-archive marker is missing');
  return entries;
}

/** Gunzips and reads a `.tar.gz`; throws a clear error when it is not one. */
export function readTarGz(archive: Uint8Array): BundleEntry[] {
  let tar: Buffer;
  try {
    tar = gunzipSync(archive);
  } catch (error) {
    throw new Error(`not a gzip archive: ${(error as Error).message}`);
  }
  return readTar(tar);
}
