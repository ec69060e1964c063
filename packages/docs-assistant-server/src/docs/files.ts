/**
 * The one rule for every file the service reads from a docs folder (pages, snippets a page
 * imports, the framework's config files, the export's assets): the file is opened, its real path
 * (every symlink resolved) must be inside the real docs root, the open file must be the file at
 * that real path (so a swap between the check and the read is caught), and neither the path asked
 * for nor the real one may be a hidden file, sit under `node_modules`, or be named by the root's
 * ignore files (`.docsassistantignore`, `.mintignore`, gitignore's syntax through `ignore`). A
 * symlink whose target is inside the root is followed, as every framework read here follows it.
 * The rule is checked at every read (start, re-read, watch), never remembered from an earlier one.
 */
import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  type Stats,
  statSync,
} from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { type IgnoreMatcher, parseIgnore } from './ignore.js';

/** Markdown and MDX: what pages and snippets are. */
export const DOC_FILE = /\.mdx?$/i;

/** Ignore files read at the root, in order: ours, then Mintlify's (same syntax). */
export const IGNORE_FILES = ['.docsassistantignore', '.mintignore'] as const;

/**
 * What a read is for: a `page` or `snippet` must be Markdown and not ignored; a `config` is a file
 * the framework reads by name (ignore rules do not apply, the root rule does); an `asset` is a file
 * a page links to (ignore rules apply).
 */
export type FileKind = 'page' | 'snippet' | 'config' | 'asset';

/** Why a file is not read. */
export class RefusedFileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'RefusedFileError';
  }
}

/** A file the walk found, relative to the root with `/` separators. */
export interface WalkedFile {
  file: string;
  size: number;
  mtimeMs: number;
}

/** A path the walk left out, and why (a symlink out of the root, an ignored file). */
export interface WalkSkip {
  file: string;
  reason: string;
}

export interface WalkOptions {
  /** Walk hidden files and folders too (`.vitepress/`, `.docsassistantignore`); `.git` never. @default false */
  hidden?: boolean;
  /** Leave out what the ignore files name (reported as skipped). @default true */
  ignored?: boolean;
  /** An absolute folder not to walk (the data folder inside the docs). */
  skip?: string;
  /** Which files to list. @default every file */
  filter?: (file: string) => boolean;
  /**
   * Look up each file's size and time. Without it (`false`) both read 0 and only symlinks cost a
   * look-up (the listing says what the rest are). @default true
   */
  stats?: boolean;
}

/** `a/b/../c` and the like never reach here: paths are joined from `/`-separated relative parts. */
const hiddenSegment = (file: string): boolean =>
  file.split('/').some((segment) => segment.startsWith('.') || segment === 'node_modules');

// Non-blocking, so a FIFO named like a page cannot hold the read forever.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** One docs folder and the rule for reading from it. Open it with `docsRoot(path)`. */
export class DocsRoot {
  /** The folder as configured, absolute. */
  readonly path: string;
  /** Its real path when first opened: what "inside the root" means from then on. */
  readonly realPath: string;
  private matcher: { key: string; ignore: IgnoreMatcher; files: string[] } | undefined;
  /** Runs of `withRules` under way: the ignore rules stay as they were when the first began. */
  private pinned = 0;

  constructor(path: string) {
    this.path = resolve(path);
    let real: string;
    let info: Stats;
    try {
      real = realpathSync.native(this.path);
      info = statSync(real);
    } catch {
      throw new Error(
        `Docs folder "${path}" does not exist or is not a folder; pass a folder of .md/.mdx files.`,
      );
    }
    if (!info.isDirectory()) {
      throw new Error(
        `Docs folder "${path}" does not exist or is not a folder; pass a folder of .md/.mdx files.`,
      );
    }
    this.realPath = real;
  }

  /** Whether an absolute real path is the root or inside it. */
  contains(real: string): boolean {
    return (
      real === this.realPath ||
      real.startsWith(this.realPath.endsWith(sep) ? this.realPath : this.realPath + sep)
    );
  }

  /** `file` (relative, `/` separators) as an absolute path under the configured folder. */
  absolute(file: string): string {
    return join(this.path, ...file.split('/'));
  }

  /** The real path as a relative `/` path, or undefined when outside the root. */
  private relativeOf(real: string): string | undefined {
    if (!this.contains(real)) return undefined;
    return real.slice(this.realPath.length).split(sep).filter(Boolean).join('/');
  }

  /**
   * The ignore files' rules, read again when one of them changes (size or time), so a rule added
   * while serving holds at the next read. The ignore files are read through the root rule too.
   * Inside `withRules` they are looked at once for the whole run.
   */
  private rules(): { ignore: IgnoreMatcher; files: string[] } {
    if (this.matcher && this.pinned > 0) return this.matcher;
    const stats = IGNORE_FILES.map((name) => {
      try {
        const info = statSync(join(this.path, name));
        return info.isFile() ? `${info.size}:${info.mtimeMs}` : '';
      } catch {
        return '';
      }
    });
    const key = stats.join('|');
    if (this.matcher?.key === key) return this.matcher;
    const texts: string[] = [];
    const files: string[] = [];
    for (const [i, name] of IGNORE_FILES.entries()) {
      if (!stats[i]) continue;
      const text = this.tryRead(name, 'config');
      if (text === undefined) continue;
      texts.push(text.toString('utf8'));
      files.push(name);
    }
    this.matcher = { key, ignore: parseIgnore(...texts), files };
    return this.matcher;
  }

  /**
   * Runs `run` (sync or async) with one look at the ignore files for all its reads, where each
   * read would look again: a start reads thousands of files, and two looks per file were a tenth
   * of a 10,000-page start. A rule saved meanwhile holds from the next run or read after it, as if
   * saved just after this one.
   */
  withRules<T>(run: () => T): T {
    this.rules();
    this.pinned++;
    let result: T;
    try {
      result = run();
    } catch (error) {
      this.pinned--;
      throw error;
    }
    if (result instanceof Promise) {
      return result.finally(() => {
        this.pinned--;
      }) as T;
    }
    this.pinned--;
    return result;
  }

  /** The ignore files in force (names relative to the root). */
  ignoreFiles(): string[] {
    return this.rules().files;
  }

  /** Whether the ignore files leave `file` out (`folder` for a folder). */
  ignores(file: string, folder = false): boolean {
    return this.rules().ignore.ignores(file, folder);
  }

  /** Why `file` may not be read as `kind` by its path alone, or undefined when it may. */
  private pathRefusal(file: string, kind: FileKind): string | undefined {
    if (!file || file.split('/').some((segment) => segment === '..' || segment === '.' || segment === '')) {
      return 'not a plain path inside the docs folder';
    }
    if (kind === 'config') return undefined;
    if (hiddenSegment(file)) return 'a hidden file or under node_modules';
    if ((kind === 'page' || kind === 'snippet') && !DOC_FILE.test(file)) return 'not a Markdown file';
    if (this.ignores(file)) return `named by ${this.ignoreFiles().join(' / ')}`;
    return undefined;
  }

  /**
   * Reads `file` (relative to the root, `/` separators) by the rule; throws `RefusedFileError`
   * saying why when it may not be read, and the system's error when it cannot (missing).
   */
  read(file: string, kind: FileKind): Buffer {
    const refused = this.pathRefusal(file, kind);
    if (refused) throw new RefusedFileError(file, refused);
    const absolute = this.absolute(file);
    const fd = openSync(absolute, OPEN_FLAGS);
    try {
      const opened = fstatSync(fd);
      if (!opened.isFile()) throw new RefusedFileError(file, 'not a file');
      // The open file's real path: every symlink on the way resolved.
      const real = realpathSync.native(absolute);
      const relative = this.relativeOf(real);
      if (relative === undefined) throw new RefusedFileError(file, 'resolves outside the docs folder');
      const there = statSync(real);
      // Swapped between the open and the check: what was opened is not what is inside.
      if (there.ino !== opened.ino || there.dev !== opened.dev) {
        throw new RefusedFileError(file, 'changed while it was read');
      }
      if (relative !== file) {
        const target = this.pathRefusal(relative, kind);
        if (target) throw new RefusedFileError(file, `links to ${relative}, ${target}`);
      }
      return readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** `read` as text, or undefined when the file is missing or refused (`onRefused` hears why). */
  readText(file: string, kind: FileKind, onRefused?: (error: RefusedFileError) => void): string | undefined {
    return this.tryRead(file, kind, onRefused)?.toString('utf8');
  }

  private tryRead(
    file: string,
    kind: FileKind,
    onRefused?: (error: RefusedFileError) => void,
  ): Buffer | undefined {
    try {
      return this.read(file, kind);
    } catch (error) {
      if (error instanceof RefusedFileError) onRefused?.(error);
      return undefined;
    }
  }

  /** `read` as bytes, or undefined when missing or refused. */
  readBytes(file: string, kind: FileKind, onRefused?: (error: RefusedFileError) => void): Buffer | undefined {
    return this.tryRead(file, kind, onRefused);
  }

  /** Whether `file` exists as a file inside the root (symlinks resolved), for config lookups. */
  isFile(file: string): boolean {
    try {
      const real = realpathSync.native(this.absolute(file));
      return this.contains(real) && statSync(real).isFile();
    } catch {
      return false;
    }
  }

  /**
   * Every file under the root, sorted, following symlinks that stay inside it (a folder that is
   * already on the way down is not entered again, so a link loop ends); symlinks out of the root,
   * and ignored paths, are reported skipped.
   * `.git` and `node_modules` are never walked.
   */
  walk(options: WalkOptions = {}): { files: WalkedFile[]; skipped: WalkSkip[] } {
    const files: WalkedFile[] = [];
    const skipped: WalkSkip[] = [];
    const skipIgnored = options.ignored ?? true;
    const reason = () => `matched ${this.ignoreFiles().join(' / ')}`;
    // `realDir`: the real path of `dir`; `above`: the real folders on the way down to it.
    const visit = (dir: string, realDir: string, prefix: string, above: ReadonlySet<string>) => {
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        const name = entry.name;
        if (name === '.git' || name === 'node_modules') continue;
        if (!options.hidden && name.startsWith('.')) continue;
        const file = `${prefix}${name}`;
        const absolute = join(dir, name);
        if (options.skip && (absolute === options.skip || absolute.startsWith(options.skip + sep))) continue;
        // Left out by name before anything is looked up.
        if (entry.isFile() && options.filter && !options.filter(file)) continue;
        let info: Stats | undefined;
        let real = absolute;
        if (entry.isSymbolicLink()) {
          try {
            real = realpathSync.native(absolute);
            info = statSync(real);
          } catch {
            skipped.push({ file, reason: 'broken symlink' });
            continue;
          }
          if (!this.contains(real)) {
            skipped.push({ file, reason: 'symlink to outside the docs folder' });
            continue;
          }
        } else if (entry.isDirectory() || entry.isFile()) {
          if (options.stats !== false) {
            try {
              info = statSync(absolute);
            } catch {
              continue;
            }
          }
        } else {
          continue;
        }
        if (info ? info.isDirectory() : entry.isDirectory()) {
          if (skipIgnored && this.ignores(file, true)) {
            skipped.push({ file: `${file}/`, reason: reason() });
            continue;
          }
          const realChild = entry.isSymbolicLink() ? real : join(realDir, name);
          if (above.has(realChild)) {
            skipped.push({ file, reason: 'symlink loop' });
            continue;
          }
          visit(absolute, realChild, `${file}/`, new Set([...above, realChild]));
          continue;
        }
        if (info ? !info.isFile() : !entry.isFile()) continue;
        if (options.filter && !options.filter(file)) continue;
        if (skipIgnored && this.ignores(file)) {
          skipped.push({ file, reason: reason() });
          continue;
        }
        files.push({ file, size: info?.size ?? 0, mtimeMs: info?.mtimeMs ?? 0 });
      }
    };
    this.withRules(() => visit(this.path, this.realPath, '', new Set([this.realPath])));
    return { files, skipped };
  }
}

const roots = new Map<string, DocsRoot>();

/** The root a page was read from: its source file less its path in the folder. */
export function rootOfPage(page: { sourceFile?: string; file: string }): DocsRoot | undefined {
  const source = page.sourceFile;
  if (!source) return undefined;
  const suffix = sep + page.file.split('/').join(sep);
  if (!source.endsWith(suffix)) return undefined;
  try {
    return docsRoot(source.slice(0, -suffix.length));
  } catch {
    return undefined;
  }
}

/**
 * The `DocsRoot` of a folder, one per absolute path for the life of the process: its real path is
 * fixed when first opened, so a root swapped for a symlink later does not move "inside".
 */
export function docsRoot(path: string): DocsRoot {
  const absolute = resolve(path);
  let root = roots.get(absolute);
  // A folder removed since it was first opened is missing again, with the same error.
  if (root && !statSync(absolute, { throwIfNoEntry: false })?.isDirectory()) {
    roots.delete(absolute);
    root = undefined;
  }
  if (!root) {
    root = new DocsRoot(absolute);
    roots.set(absolute, root);
  }
  return root;
}
