/**
 * The docs index of one domain, built once and kept: saved under `<dataDir>/index/` with a content
 * hash of every file of its docs folders, restored at the next start when no file changed,
 * rebuilt with only the changed files parsed again when some did, and (with `watch`) rebuilt the
 * same way while serving, a short while after the files stop changing.
 *
 * The saved file: a fixed header (magic, format version, length of the JSON part), a JSON part
 * (file hashes, start-up reports, pages, term list) and the term index's postings as raw typed
 * arrays. An unreadable, corrupt or other-version file is discarded with a warning and rebuilt.
 */
import { createHash } from 'node:crypto';
import { type FSWatcher, watch as watchFolder } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { DOC_FILE, type DocsRoot, docsRoot } from '../docs/files.js';
import { type LoadDocsOptions, loadDocs, type SiteReport } from '../docs/load.js';
import { type DocPage, type ParseOptions, parseDocument } from '../docs/parse.js';
import type { SiteOptions } from '../docs/sites/types.js';
import { DocsIndex } from './search-index.js';
import type { TermIndexSnapshot } from './term-index.js';

/** Bumped whenever the saved layout or what parsing produces changes: older files are rebuilt. */
export const INDEX_FORMAT_VERSION = 6;
const MAGIC = 'DAINDEX\n';
// Magic, format version, JSON byte length.
const HEAD_BYTES = MAGIC.length + 8;
/** Quiet time after the last change before a watched folder is indexed again (ms). */
export const DEFAULT_WATCH_DEBOUNCE_MS = 150;

export interface PersistedIndexOptions {
  folders: string[];
  site?: SiteOptions;
  /** Folder to keep the index in (`<dataDir>/index/`); without it, nothing is saved. */
  dataDir?: string;
  /**
   * Whether `update()` will be called (watch mode): files are then hashed and parsed pages kept,
   * so an update parses only what changed. Always so with `dataDir`. @default false
   */
  incremental?: boolean;
  warn: (message: string) => void;
}

/** How an index came to be, for logs and the benchmark. */
export interface IndexBuild {
  index: DocsIndex;
  reports: SiteReport[];
  /** `restored`: read back unchanged; `updated`: some files changed; `built`: from nothing. */
  how: 'restored' | 'updated' | 'built';
  /** Files (Markdown and others) added, changed or removed since the saved or previous index. */
  changedFiles: string[];
  /** Markdown files parsed for this build (0 when restored). */
  parsedFiles: number;
  /**
   * Files read to hash them: those whose size or modification time changed since the last
   * hashing, or that changed too close to it (all of them at a first start).
   */
  readFiles: number;
  ms: number;
}

interface SavedHeader {
  version: number;
  key: string;
  files: Record<string, string>;
  /** Size and modification time of each file when hashed, and when that hashing started. */
  stats: Record<string, FileStat>;
  hashedAt: number;
  reports: SiteReport[];
  pages: DocPage[];
  terms: {
    size: number;
    averageLengths: number[];
    terms: string[];
    counts: number;
    postings: number;
    fields: number;
  };
}

type FileHashes = Map<string, string>;

const sha1 = (text: string | Buffer): string => createHash('sha1').update(text).digest('hex');

// Files that cannot change what the index holds (images, media, fonts, archives): not hashed.
const NOT_INDEXED =
  /\.(png|jpe?g|gif|svg|webp|avif|ico|bmp|tiff?|mp4|webm|mov|mp3|wav|ogg|woff2?|ttf|otf|eot|pdf|zip|gz|tgz|br|wasm)$/i;
// Larger files are no docs page or config: not hashed.
const MAX_HASHED_BYTES = 8 * 1024 * 1024;

/** Size and modification time of a file when it was hashed. */
type FileStat = [size: number, mtimeMs: number];

/** What an earlier hashing knew: a file with the same size and time need not be read again. */
interface KnownFiles {
  hashes: FileHashes;
  stats: Map<string, FileStat>;
  /** When that hashing started (ms since the epoch). */
  at: number;
}

// A file changed this close to (or after) the earlier hashing may have changed again within the
// same timestamp: it is read again whatever its time says (git's "racy" files).
const RACY_MS = 2000;

interface Hashed {
  /** Content hash of each file, keyed `<folder index>:<path in the folder>`, in walk order. */
  hashes: FileHashes;
  stats: Map<string, FileStat>;
  at: number;
  /** Files read (the others kept their known hash). */
  read: number;
  /** The text of each Markdown file by absolute path, for the loader (read once, not twice). */
  texts: Map<string, string>;
  /** The hash of each of those texts, so parsing does not hash them again. */
  textHashes: Map<string, string>;
}

/**
 * Every file under the folders (not `node_modules`, `.git`, media or `skip`), with the hash of its
 * content. Config files count: a changed navigation changes pages without any Markdown file
 * changing. A file whose size and modification time are what `known` saw keeps its hash unread
 * (as git does), unless it changed too close to that hashing to be sure. Read synchronously:
 * thousands of small reads through the thread pool cost several times more than the reads.
 */
function hashFiles(
  folders: string[],
  skip: string | undefined,
  known: KnownFiles | undefined,
  track: boolean,
): Hashed {
  const at = Date.now();
  const hashes: FileHashes = new Map();
  const stats = new Map<string, FileStat>();
  let read = 0;
  const texts = new Map<string, string>();
  const textHashes = new Map<string, string>();
  for (const [folder, path] of folders.entries()) {
    // Every file by the docs root's rule (`docs/files.ts`): symlinks out of the folder are not
    // followed, and a file swapped for one between the walk and the read is not read.
    const root = docsRoot(path);
    const walked = root.walk({
      hidden: true,
      ignored: false,
      ...(skip ? { skip } : {}),
      filter: (file) => (track ? !NOT_INDEXED.test(file) : DOC_FILE.test(file)),
      // Sizes and times are kept only to compare with a later hashing.
      stats: track,
    });
    for (const entry of walked.files) {
      const absolute = join(path, ...entry.file.split('/'));
      if (!track) {
        // Nothing to compare with later: the pages' texts are all that is needed.
        const text = root.readText(entry.file, 'config');
        if (text === undefined) continue;
        texts.set(absolute, text);
        read++;
        continue;
      }
      if (entry.size > MAX_HASHED_BYTES) continue;
      const key = `${folder}:${entry.file}`;
      const stat: FileStat = [entry.size, entry.mtimeMs];
      const before = known?.stats.get(key);
      const knownHash = known?.hashes.get(key);
      if (
        known &&
        knownHash &&
        before &&
        before[0] === stat[0] &&
        before[1] === stat[1] &&
        stat[1] < known.at - RACY_MS
      ) {
        hashes.set(key, knownHash);
        stats.set(key, stat);
        continue;
      }
      // Removed (or refused) since the walk: simply not there.
      const content = root.readBytes(entry.file, 'config');
      if (!content) continue;
      read++;
      const hash = sha1(content);
      hashes.set(key, hash);
      stats.set(key, stat);
      if (DOC_FILE.test(entry.file)) {
        const text = content.toString('utf8');
        texts.set(absolute, text);
        textHashes.set(text, hash);
      }
    }
  }
  return { hashes, stats, at, read, texts, textHashes };
}

/** Files added, changed or removed between two hashings. */
function changes(before: FileHashes | undefined, after: FileHashes): string[] {
  if (!before) return [...after.keys()];
  const changed = [...after].filter(([key, hash]) => before.get(key) !== hash).map(([key]) => key);
  for (const key of before.keys()) if (!after.has(key)) changed.push(key);
  return changed;
}

/**
 * Pages by file path and hash of text (`path\u0000hash`; parsing is pure in both): what `parse`
 * gives back instead of parsing again. A page restored from the
 * saved index carries its site placement (URL, breadcrumb); placing it again with the same config
 * gives the same page, which is why a changed config empties the cache.
 */
type ParseCache = Map<string, DocPage>;

export class PersistedDocsIndex {
  private readonly options: PersistedIndexOptions;
  private readonly folders: string[];
  /** `<dataDir>/index/<key>.bin`, or undefined without a data folder. */
  private readonly file: string | undefined;
  private readonly key: string;
  /** Whether files are hashed and pages kept for a later update (`dataDir` or `incremental`). */
  private track: boolean;
  /** The files as the latest build hashed them. */
  private known: KnownFiles | undefined;
  private parsed: ParseCache = new Map();
  private last: IndexBuild | undefined;
  private active: Promise<unknown> = Promise.resolve();
  private saving: Promise<void> = Promise.resolve();
  private queued: Promise<IndexBuild> | undefined;

  constructor(options: PersistedIndexOptions) {
    this.options = options;
    this.folders = options.folders.map((folder) => resolve(folder));
    // One file per set of folders and site options: two domains over other folders do not collide.
    this.key = sha1(JSON.stringify({ folders: this.folders, site: options.site ?? null })).slice(0, 16);
    this.file = options.dataDir ? join(resolve(options.dataDir), 'index', `${this.key}.bin`) : undefined;
    this.track = !!options.dataDir || !!options.incremental;
  }

  /** The saved index's path (undefined without `dataDir`). */
  get path(): string | undefined {
    return this.file;
  }

  /** Resolves once the latest build is saved (at once without `dataDir`). */
  saved(): Promise<void> {
    return this.saving;
  }

  /** The latest build. */
  get current(): IndexBuild | undefined {
    return this.last;
  }

  /** The index at start: the saved one when no file changed, else built (reusing what it can). */
  async open(): Promise<IndexBuild> {
    return this.serialize(() => this.openOnce());
  }

  /**
   * Indexes the folders again after a change: files whose content did not change are not parsed
   * again. Calls made while one runs share the next run.
   */
  async update(): Promise<IndexBuild> {
    return this.serialize(() => this.build(this.last ? 'updated' : 'built'));
  }

  /** Runs builds one at a time; calls made while one waits to start share it. */
  private serialize(run: () => Promise<IndexBuild>): Promise<IndexBuild> {
    if (this.queued) return this.queued;
    const queued = this.active
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return run();
      });
    this.queued = queued;
    this.active = queued;
    return queued;
  }

  private async openOnce(): Promise<IndexBuild> {
    const start = performance.now();
    const saved = await this.readSaved();
    // Files with the size and time they had when saved are not read again.
    const hashed = hashFiles(
      this.folders,
      this.skipFolder(),
      saved
        ? {
            hashes: new Map(Object.entries(saved.header.files)),
            stats: new Map(Object.entries(saved.header.stats)),
            at: saved.header.hashedAt,
          }
        : undefined,
      this.track,
    );
    const hashes = hashed.hashes;
    if (saved) {
      const changed = changes(new Map(Object.entries(saved.header.files)), hashes);
      const reusable = changed.every((key) => DOC_FILE.test(key));
      if (reusable) {
        // The site's config is as saved: the saved pages stand for their files' texts, each under
        // the hash its file had when saved (a later change parses only the files that changed).
        for (const page of saved.header.pages) {
          const folder = this.folders.findIndex((f) => page.sourceFile?.startsWith(f + sep));
          const hash = saved.header.files[`${Math.max(folder, 0)}:${page.file}`];
          if (hash) this.parsed.set(`${page.file}\u0000${hash}`, page);
        }
      }
      let restored: DocsIndex | undefined;
      try {
        // Unchanged, it is the index; else its terms are taken over for the unchanged pages.
        if (reusable) restored = new DocsIndex(saved.header.pages, saved.terms);
      } catch (error) {
        this.options.warn(`${this.file}: saved index does not fit its pages (${message(error)}); rebuilding`);
      }
      if (!changed.length && restored) {
        this.known = hashed;
        this.last = {
          index: restored,
          reports: saved.header.reports,
          how: 'restored',
          changedFiles: [],
          parsedFiles: 0,
          readFiles: hashed.read,
          ms: performance.now() - start,
        };
        return this.last;
      }
      // What changed since the save is what this build reports.
      this.known = {
        hashes: new Map(Object.entries(saved.header.files)),
        stats: new Map(Object.entries(saved.header.stats)),
        at: saved.header.hashedAt,
      };
      return this.build('updated', hashed, start, restored);
    }
    return this.build('built', hashed, start);
  }

  private skipFolder(): string | undefined {
    return this.options.dataDir ? resolve(this.options.dataDir) : undefined;
  }

  /** `replaced`: the index these files replace (the latest, or the saved one), whose unchanged sections are not read again. */
  private async build(
    how: IndexBuild['how'],
    known?: Hashed,
    started?: number,
    replaced: DocsIndex | undefined = this.last?.index,
  ): Promise<IndexBuild> {
    const start = started ?? performance.now();
    const hashed = known ?? hashFiles(this.folders, this.skipFolder(), this.known, this.track);
    const { hashes, texts, textHashes } = hashed;
    const changed = changes(this.known?.hashes, hashes);
    // A changed config can place the same text elsewhere (URL, language): everything is parsed.
    const configChanged = changed.some((key) => !DOC_FILE.test(key));
    const previous = configChanged ? new Map<string, DocPage>() : this.parsed;
    const next: ParseCache = new Map();
    let parsedFiles = 0;
    const reports: SiteReport[] = [];
    const roots: DocsRoot[] = [];
    const parse = (file: string, source: string, options: ParseOptions): DocPage => {
      if (!this.track) {
        parsedFiles++;
        return parseDocument(file, source, options);
      }
      const key = `${file}\u0000${textHashes.get(source) ?? sha1(source)}`;
      let page = previous.get(key);
      if (!page) {
        page = parseDocument(file, source, options);
        parsedFiles++;
      }
      next.set(key, page);
      return page;
    };
    const loadOptions: LoadDocsOptions = {
      warn: this.options.warn,
      ...(this.options.site ? { site: this.options.site } : {}),
      onReport: (report) => reports.push(report),
      parse,
      // Files not read while hashing (unchanged since the last hashing) are read now, by the rule.
      read: async (path) => {
        const text = texts.get(path);
        if (text !== undefined) return text;
        const at = this.folders.findIndex((f) => path.startsWith(f + sep));
        if (at < 0) return '';
        const file = relative(this.folders[at]!, path).split(sep).join('/');
        // One root per folder for the build: `docsRoot` looks the folder up at every call.
        roots[at] ??= docsRoot(this.folders[at]!);
        const read = roots[at].readText(file, 'page') ?? '';
        // Its size and time are as hashed, so is its hash (hashing 10,000 texts again to find
        // their parsed pages was a fifth of a restart with one file changed).
        const hash = hashes.get(`${at}:${file}`);
        if (hash) textHashes.set(read, hash);
        return read;
      },
    };
    const pages = await loadDocs(this.folders, loadOptions);
    const index = new DocsIndex(pages, replaced);
    this.parsed = next;
    this.known = hashed;
    this.last = {
      index,
      reports,
      how,
      changedFiles: changed,
      parsedFiles,
      readFiles: hashed.read,
      ms: performance.now() - start,
    };
    // Saved after the index is handed out: the service answers meanwhile; `saved()` waits for it.
    if (this.file) {
      const file = this.file;
      this.saving = new Promise<void>((done) => setImmediate(done))
        .then(() => this.save(hashed, reports, pages, index))
        .catch((error: unknown) =>
          this.options.warn(`could not save the index to ${file}: ${message(error)}`),
        );
    }
    return this.last;
  }

  private async readSaved(): Promise<{ header: SavedHeader; terms: TermIndexSnapshot } | undefined> {
    if (!this.file) return undefined;
    let bytes: Buffer;
    try {
      bytes = await readFile(this.file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.options.warn(`${this.file}: cannot read the saved index (${message(error)}); rebuilding`);
      }
      return undefined;
    }
    try {
      return decode(bytes, this.key);
    } catch (error) {
      this.options.warn(`${this.file}: ${message(error)}; discarded, rebuilding the index`);
      await rm(this.file, { force: true });
      return undefined;
    }
  }

  private async save(hashed: KnownFiles, reports: SiteReport[], pages: DocPage[], index: DocsIndex) {
    if (!this.file) return;
    const bytes = encode(this.key, hashed, reports, pages, index.snapshot());
    await mkdir(join(this.file, '..'), { recursive: true });
    // Written aside, then renamed: a reader never sees half a file, a crash leaves the old one.
    const temporary = `${this.file}.${process.pid}.tmp`;
    try {
      await writeFile(temporary, bytes);
      await rename(temporary, this.file);
    } catch (error) {
      // A full disk leaves the part written so far: nothing reads it, and it holds space.
      await rm(temporary, { force: true });
      throw error;
    }
  }

  /**
   * Watches the folders and indexes them again a short while (`debounceMs`) after the last change;
   * `onUpdate` gets each new index, `onError` a failed rebuild (the previous index stays).
   * Returns the function that stops watching.
   */
  watch(handlers: {
    onUpdate: (build: IndexBuild) => void;
    onError?: (error: unknown) => void;
    debounceMs?: number;
  }): () => void {
    // Opened without `incremental`: the first update reads and parses everything, later ones not.
    this.track = true;
    const debounce = handlers.debounceMs ?? DEFAULT_WATCH_DEBOUNCE_MS;
    const skip = this.skipFolder();
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const fire = () => {
      timer = undefined;
      if (stopped) return;
      this.update().then(
        (build) => {
          if (!stopped && build.changedFiles.length) handlers.onUpdate(build);
        },
        (error: unknown) => {
          if (stopped) return;
          if (handlers.onError) handlers.onError(error);
          else this.options.warn(`re-indexing after a change failed: ${message(error)}`);
        },
      );
    };
    const watchers: FSWatcher[] = this.folders.map((folder) =>
      watchFolder(folder, { recursive: true }, (_event, name) => {
        const path = name ? join(folder, String(name)) : folder;
        // Saving the index inside a watched folder must not set off another round.
        if (skip && (path === skip || path.startsWith(`${skip}${sep}`))) return;
        if (timer) clearTimeout(timer);
        timer = setTimeout(fire, debounce);
      }),
    );
    for (const watcher of watchers) {
      watcher.on('error', (error) => this.options.warn(`watching the docs stopped: ${message(error)}`));
    }
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    };
  }
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Four-byte alignment for the typed arrays that follow the JSON. */
const aligned = (n: number) => (n + 3) & ~3;

function encode(
  key: string,
  hashed: KnownFiles,
  reports: SiteReport[],
  pages: DocPage[],
  terms: TermIndexSnapshot,
): Buffer {
  const fields = terms.fieldLengths.length;
  const header: SavedHeader = {
    version: INDEX_FORMAT_VERSION,
    key,
    files: Object.fromEntries(hashed.hashes),
    stats: Object.fromEntries(hashed.stats),
    hashedAt: hashed.at,
    reports,
    pages,
    terms: {
      size: terms.size,
      averageLengths: terms.averageLengths,
      terms: terms.terms,
      counts: terms.counts.length,
      postings: terms.docs.length,
      fields,
    },
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const start = aligned(HEAD_BYTES + json.length);
  const arrays = [terms.counts, terms.docs, terms.freqs, ...terms.fieldLengths];
  const total = start + arrays.reduce((sum, array) => sum + array.byteLength, 0);
  const bytes = Buffer.alloc(total);
  bytes.write(MAGIC, 0, 'latin1');
  bytes.writeUInt32LE(INDEX_FORMAT_VERSION, MAGIC.length);
  bytes.writeUInt32LE(json.length, MAGIC.length + 4);
  json.copy(bytes, HEAD_BYTES);
  let at = start;
  for (const array of arrays) {
    Buffer.from(array.buffer, array.byteOffset, array.byteLength).copy(bytes, at);
    at += array.byteLength;
  }
  return bytes;
}

function decode(bytes: Buffer, key: string): { header: SavedHeader; terms: TermIndexSnapshot } {
  if (bytes.length < HEAD_BYTES || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) {
    throw new Error('not a docs-assistant index file');
  }
  const version = bytes.readUInt32LE(MAGIC.length);
  if (version !== INDEX_FORMAT_VERSION) {
    throw new Error(`index format ${version}, this version reads ${INDEX_FORMAT_VERSION}`);
  }
  const jsonLength = bytes.readUInt32LE(MAGIC.length + 4);
  if (HEAD_BYTES + jsonLength > bytes.length) throw new Error('index file is cut short');
  const header = JSON.parse(bytes.toString('utf8', HEAD_BYTES, HEAD_BYTES + jsonLength)) as SavedHeader;
  if (header.version !== version || header.key !== key || !Array.isArray(header.pages)) {
    throw new Error('index file does not match its docs folders');
  }
  const { size, counts, postings, fields } = header.terms;
  // Copied into fresh, aligned memory: the file's buffer may start anywhere in a shared pool.
  let at = aligned(HEAD_BYTES + jsonLength);
  const take = <T>(make: (buffer: ArrayBuffer) => T, length: number): T => {
    const end = at + length * 4;
    if (end > bytes.length) throw new Error('index file is cut short');
    const copy = new ArrayBuffer(length * 4);
    bytes.copy(Buffer.from(copy), 0, at, end);
    at = end;
    return make(copy);
  };
  const terms: TermIndexSnapshot = {
    size,
    averageLengths: header.terms.averageLengths,
    terms: header.terms.terms,
    counts: take((b) => new Uint32Array(b), counts),
    docs: take((b) => new Int32Array(b), postings),
    freqs: take((b) => new Uint32Array(b), postings),
    fieldLengths: Array.from({ length: fields }, () => take((b) => new Uint32Array(b), size)),
  };
  if (at !== bytes.length) throw new Error('index file has bytes after its postings');
  return { header, terms };
}
