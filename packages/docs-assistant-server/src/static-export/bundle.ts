/**
 * A deterministic `.tar.gz`: the same files give the same bytes. Entries are sorted by path, every
 * header carries fixed mtime/uid/gid/mode and empty owner names, and the gzip header has no
 * timestamp or file name. A small ustar writer is used instead of the `tar` package because `tar`
 * reads mtimes and owners from the file system.
 */
import { gunzipSync, gzipSync } from 'node:zlib';

export interface BundleEntry {
  /** Path inside the archive, `/`-separated, relative (no leading `/`, no `..`). */
  path: string;
  data: Uint8Array;
}

const BLOCK = 512;
/** Fixed modification time of every entry (in seconds since the epoch): 2000-01-01T00:00:00Z. */
const FIXED_MTIME = 946_684_800;
/** Mode of every file entry: rw-r--r--. */
const FILE_MODE = 0o644;

function writeString(header: Buffer, value: string, offset: number, length: number): void {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length > length) throw new Error(`tar header field "${value}" is longer than ${length} bytes`);
  bytes.copy(header, offset);
}

function writeOctal(header: Buffer, value: number, offset: number, length: number): void {
  // Octal digits, zero-padded, followed by a NUL (the ustar convention).
  writeString(header, `${value.toString(8).padStart(length - 1, '0')}\0`, offset, length);
}

/** Splits a long path into ustar `prefix` (≤155 bytes) and `name` (≤100 bytes) at a `/`. */
function splitPath(path: string): { name: string; prefix: string } {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: '' };
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { name, prefix };
  }
  throw new Error(`path "${path}" is too long for a ustar archive (name ≤100 bytes, prefix ≤155)`);
}

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

function header(path: string, size: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  const { name, prefix } = splitPath(path);
  writeString(block, name, 0, 100);
  writeOctal(block, FILE_MODE, 100, 8);
  writeOctal(block, 0, 108, 8); // uid
  writeOctal(block, 0, 116, 8); // gid
  writeOctal(block, size, 124, 12);
  writeOctal(block, FIXED_MTIME, 136, 12);
  block.fill(0x20, 148, 156); // checksum is computed with its own field as spaces
  block[156] = 0x30; // typeflag '0': regular file
  writeString(block, 'ustar\0', 257, 6);
  writeString(block, '00', 263, 2);
  writeString(block, prefix, 345, 155);
  let sum = 0;
  for (const byte of block) sum += byte;
  writeString(block, `${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return block;
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
    chunks.push(header(entry.path, entry.data.byteLength), Buffer.from(entry.data));
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

function readString(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString('utf8');
}

function readOctal(block: Buffer, offset: number, length: number): number {
  const text = readString(block, offset, length).trim();
  if (!/^[0-7]*$/.test(text)) throw new Error(`corrupt tar header: "${text}" is not an octal number`);
  return text ? Number.parseInt(text, 8) : 0;
}

/**
 * Reads a tar (regular files only; directories are skipped) and checks each header's checksum.
 * Throws a clear error on anything truncated or corrupt.
 */
export function readTar(tar: Buffer): BundleEntry[] {
  const entries: BundleEntry[] = [];
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const block = tar.subarray(offset, offset + BLOCK);
    if (block.every((byte) => byte === 0)) return entries;
    const stored = readOctal(block, 148, 8);
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (block[i] ?? 0);
    if (sum !== stored) throw new Error(`corrupt tar header at byte ${offset}: checksum mismatch`);
    const name = readString(block, 0, 100);
    const prefix = readString(block, 345, 155);
    const size = readOctal(block, 124, 12);
    const type = String.fromCharCode(block[156] ?? 0);
    const dataStart = offset + BLOCK;
    if (dataStart + size > tar.length) throw new Error(`truncated tar: entry "${name}" needs ${size} bytes`);
    if (type === '0' || type === '\0') {
      const path = prefix ? `${prefix}/${name}` : name;
      assertSafeEntryPath(path);
      entries.push({ path, data: Buffer.from(tar.subarray(dataStart, dataStart + size)) });
    }
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new Error('truncated tar: the end-of-archive marker is missing');
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
