/**
 * Conversation threads. A thread belongs to the domain and the `fp` that created it; it holds the
 * finished turns, whose questions inform the retrieval of follow-ups. A thread is stored when it
 * is created, before its id is sent to the client, so a follow-up or a retry with that id works
 * even when its first answer failed or was stopped. With a data folder, the new thread and then
 * every finished turn are appended to `threads.jsonl`, one complete line each, so threads survive
 * a restart and a crash mid-write loses at most that one line. Once the file holds more than twice the
 * records still in memory (threads forgotten past `maxThreads`, turns past the last 20), it is
 * rewritten with only those, into a temporary file renamed over the old one, so it never grows
 * without bound and a crash mid-rewrite leaves the old file whole. A temporary file left by a
 * rewrite that was killed is removed at the next start.
 *
 * What is kept is bounded by bytes too, since anyone holding the public key can write here: each
 * thread keeps its newest turns within `maxThreadBytes`, all threads together stay within
 * `maxStoredBytes` (the least recently used are forgotten first), and the file is compacted once it
 * holds more than twice the bytes still kept, so it stays within about twice `maxStoredBytes`.
 *
 * A thread's key is a bearer secret: it is handed out once, when the thread is created, and only its
 * SHA-256 hash is kept (in memory and in the file), so neither a leaked file nor the service can give
 * it out again. A lookup hashes the key it is given and compares the hashes in constant time.
 */

// Types only: erased from every build, so nothing here loads Node's modules eagerly.
import type * as NodeFs from 'node:fs/promises';
import type * as NodePath from 'node:path';
import { DEFAULT_ASSISTANT_LIMITS, utf8Length } from './limits.js';

export interface ThreadTurn {
  question: string;
  answer: string;
  /** Paths of the pages the answer cited. */
  sources: string[];
  /** ISO timestamp of when the turn finished. */
  at: string;
}

export interface Thread {
  id: string;
  /** SHA-256 (hex) of the thread's key; the key itself is returned once, by `create`. */
  keyHash: string;
  domain: string;
  fp: string;
  createdAt: string;
  turns: ThreadTurn[];
}

/**
 * One line of the file: a finished turn, or (without `turn`) a thread created with no turn yet.
 * Files written before keys were hashed carry `threadKey` instead; it is hashed when read.
 */
interface TurnRecord {
  v: 1;
  threadId: string;
  threadKeyHash: string;
  domain: string;
  fp: string;
  createdAt: string;
  turn?: ThreadTurn;
}

export const THREADS_FILE = 'threads.jsonl';

/**
 * Node's file modules, loaded only when a data folder is given. The specifier is opaque to bundlers
 * on purpose: with the built-in's name written into `import()`, a browser build of the in-memory
 * service (Storybook's mock fetch) still resolves it and ships a stub for it; here nothing is pulled
 * in, and Node loads the built-in at run time as usual.
 */
const loadBuiltin = (name: string): Promise<unknown> => import(/* @vite-ignore */ name);
const nodeFs = () => loadBuiltin('node:fs/promises') as Promise<typeof NodeFs>;
const nodePath = () => loadBuiltin('node:path') as Promise<typeof NodePath>;

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

const randomId = (prefix: string): string => prefix + hex(crypto.getRandomValues(new Uint8Array(16)));

/** SHA-256 of a thread key, hex. Web Crypto, so the in-memory service runs in a browser too. */
export async function hashThreadKey(key: string): Promise<string> {
  // Browsers expose `crypto.subtle` in secure contexts only (https, localhost).
  if (!globalThis.crypto?.subtle) {
    throw new Error(
      'Web Crypto (crypto.subtle) is not available here, and thread keys are hashed with it: run the service in Node 20+, or serve the page that runs it over https or from localhost.',
    );
  }
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key))));
}

/**
 * Compares two strings in time that depends only on their length, not on where they differ. Used on
 * hashes, whose length (64) is no secret.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** A record as read from the file: hashed key, or a plain key from a file of an older version. */
type StoredRecord = Omit<TurnRecord, 'threadKeyHash'> & { threadKeyHash?: string; threadKey?: string };

function isTurnRecord(value: unknown): value is StoredRecord {
  if (!value || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  const turn = record.turn as Record<string, unknown> | undefined;
  return (
    record.v === 1 &&
    typeof record.threadId === 'string' &&
    (typeof record.threadKeyHash === 'string' || typeof record.threadKey === 'string') &&
    typeof record.domain === 'string' &&
    typeof record.fp === 'string' &&
    (turn === undefined || (!!turn && typeof turn.question === 'string' && typeof turn.answer === 'string'))
  );
}

export interface ThreadStoreOptions {
  /** Folder of `threads.jsonl`; in memory only when absent. */
  dataDir?: string;
  /**
   * Threads kept in memory; past it the least recently used is forgotten (a follow-up to it then
   * gets 404, like an unknown thread). @default 10_000
   */
  maxThreads?: number;
  /**
   * The file is compacted once it holds at least this many records and more than twice those still
   * in memory. @default 1_000
   */
  compactAfter?: number;
  /**
   * The file is also compacted once it holds at least this many bytes and more than twice the bytes
   * of the records still in memory. @default 1 MiB
   */
  compactAfterBytes?: number;
  /** Bytes of turns kept per thread; the oldest go first, the newest always stays. @default 256 KiB */
  maxThreadBytes?: number;
  /** Bytes of all threads kept; the least recently used go first. @default 128 MiB */
  maxStoredBytes?: number;
  warn?: (message: string) => void;
}

/** Turns of a thread kept in memory; only the latest few inform retrieval anyway. */
const MAX_TURNS_IN_MEMORY = 20;

/** Lines a thread takes in a compacted file: one per turn, or one for a thread with none yet. */
const lines = (thread: Thread): number => Math.max(1, thread.turns.length);

/** A thread's line for one turn (or, without a turn, for the thread alone), as the file holds it. */
function recordLine(thread: Thread, turn?: ThreadTurn): string {
  const { id: threadId, keyHash: threadKeyHash, domain, fp, createdAt } = thread;
  const record: TurnRecord = {
    v: 1,
    threadId,
    threadKeyHash,
    domain,
    fp,
    createdAt,
    ...(turn ? { turn } : {}),
  };
  return `${JSON.stringify(record)}\n`;
}

/** Bytes a thread takes in a compacted file. */
const threadBytes = (thread: Thread): number =>
  thread.turns.length
    ? thread.turns.reduce((sum, turn) => sum + utf8Length(recordLine(thread, turn)), 0)
    : utf8Length(recordLine(thread));

/** Temporary files of compactions (`threads.jsonl.<random>.tmp`). */
const TEMPORARY_FILE = /^threads\.jsonl\.[^/]*\.tmp$/;

export type ThreadLookup =
  | { ok: true; thread: Thread }
  /** Unknown, owned by another fp/domain, no key or a wrong key: all look the same to the caller. */
  | { ok: false };

/** A thread just created, with its key: the only time the key is known. */
export interface CreatedThread {
  thread: Thread;
  key: string;
}

export class ThreadStore {
  private readonly threads = new Map<string, Thread>();
  private readonly dataDir: string | undefined;
  private readonly maxThreads: number;
  private readonly warn: (message: string) => void;
  private loaded: Promise<void> | undefined;
  // Appends run one after another so lines never interleave.
  private writing: Promise<void> = Promise.resolve();
  // Set when the file ends in a torn line: the next record starts on a fresh line.
  private needsNewline = false;
  private readonly compactAfter: number;
  // Lines in the file (records, and any skipped line), to know when compaction pays.
  private fileLines = 0;
  // Lines a compacted file would hold (each thread's turns, or one line for a thread with none). Kept by `apply`.
  private liveRecords = 0;
  // After a failed compaction, the next try waits for this many lines (not one try per answer).
  private compactAt = 0;
  private readonly compactAfterBytes: number;
  private readonly maxThreadBytes: number;
  private readonly maxStoredBytes: number;
  // Bytes in the file, and bytes a compacted file would hold (each thread's lines); kept like the line counts.
  private fileBytes = 0;
  private liveBytes = 0;
  private compactAtBytes = 0;
  // Bytes of each thread in memory, to keep `liveBytes` as threads change and go.
  private readonly bytesOf = new Map<string, number>();

  constructor(options: ThreadStoreOptions = {}) {
    this.dataDir = options.dataDir;
    this.maxThreads = options.maxThreads ?? 10_000;
    this.compactAfter = Math.max(1, options.compactAfter ?? 1_000);
    this.compactAfterBytes = Math.max(1, options.compactAfterBytes ?? 1024 * 1024);
    this.maxThreadBytes = options.maxThreadBytes ?? DEFAULT_ASSISTANT_LIMITS.maxThreadBytes;
    this.maxStoredBytes = options.maxStoredBytes ?? DEFAULT_ASSISTANT_LIMITS.maxStoredBytes;
    this.warn = options.warn ?? ((message) => console.warn(`[docs-assistant] ${message}`));
  }

  /** Reads the threads file once; later calls wait for the same read. */
  load(): Promise<void> {
    this.loaded ??= this.readFile();
    return this.loaded;
  }

  private async readFile(): Promise<void> {
    if (!this.dataDir) return;
    const [{ readFile }, { join }] = await Promise.all([nodeFs(), nodePath()]);
    await this.removeTemporaryFiles();
    const file = join(this.dataDir, THREADS_FILE);
    let text: string;
    try {
      const raw = await readFile(file);
      this.fileBytes = raw.byteLength;
      text = raw.toString('utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    this.needsNewline = text.length > 0 && !text.endsWith('\n');
    const lines = text.split('\n');
    const records: StoredRecord[] = [];
    lines.forEach((line, index) => {
      if (!line.trim()) return;
      this.fileLines++;
      const last = index === lines.length - 1;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        // A last line without its newline is a write cut short by a crash: expected, not fatal.
        this.warn(
          last
            ? `${file}: skipped an incomplete last line (a write cut short, e.g. by a crash)`
            : `${file}: skipped line ${index + 1}, which is not valid JSON`,
        );
        return;
      }
      if (!isTurnRecord(record)) {
        this.warn(`${file}: skipped line ${index + 1}, which is not a thread record`);
        return;
      }
      records.push(record);
    });
    // Plain keys of an older file, hashed once each (a thread has one line per turn).
    const legacyHashes = new Map<string, string>();
    for (const { threadKey, threadKeyHash, ...rest } of records) {
      let hash = threadKeyHash;
      if (!hash) {
        const plain = threadKey ?? '';
        hash = legacyHashes.get(plain) ?? (await hashThreadKey(plain));
        legacyHashes.set(plain, hash);
      }
      this.apply({ ...rest, threadKeyHash: hash });
    }
    // A file with plain keys is rewritten at once, so no plain key stays on disk.
    if (legacyHashes.size > 0) {
      await this.queueWrite(() => this.compact()).catch((error) => this.warnCompaction(error));
      return;
    }
    if (this.shouldCompact())
      this.queueWrite(() => this.compact()).catch((error) => this.warnCompaction(error));
  }

  /**
   * Removes the temporary files of compactions that never finished (the process was killed between
   * writing and renaming): each is as large as the thread file, and nothing else would ever remove
   * it. The data folder belongs to one service, so no compaction of another process is running.
   */
  private async removeTemporaryFiles(): Promise<void> {
    if (!this.dataDir) return;
    const [{ readdir, rm }, { join }] = await Promise.all([nodeFs(), nodePath()]);
    let names: string[];
    try {
      names = await readdir(this.dataDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const leftovers = names.filter((name) => TEMPORARY_FILE.test(name));
    for (const name of leftovers) await rm(join(this.dataDir, name), { force: true });
    if (leftovers.length) {
      this.warn(
        `removed ${leftovers.length} temporary file(s) of an interrupted compaction of ${THREADS_FILE}: ${leftovers.join(', ')}`,
      );
    }
  }

  private shouldCompact(): boolean {
    if (!this.dataDir) return false;
    const byLines =
      this.fileLines >= Math.max(this.compactAfter, this.compactAt) && this.fileLines > 2 * this.liveRecords;
    const byBytes =
      this.fileBytes >= Math.max(this.compactAfterBytes, this.compactAtBytes) &&
      this.fileBytes > 2 * this.liveBytes;
    return byLines || byBytes;
  }

  /** Runs file work after the work queued before it, so lines never interleave with a rewrite. */
  private queueWrite(work: () => Promise<void>): Promise<void> {
    const run = this.writing.then(work);
    // The caller gets the failure; the queue goes on.
    this.writing = run.catch(() => {});
    return run;
  }

  /**
   * Rewrites the file with the records in memory, least recently used thread first (so a restart
   * rebuilds the same order), via a temporary file that replaces the old one in one rename.
   */
  private async compact(): Promise<void> {
    const dataDir = this.dataDir;
    if (!dataDir) return;
    const [{ open, rename, rm }, { join }] = await Promise.all([nodeFs(), nodePath()]);
    const file = join(dataDir, THREADS_FILE);
    const temporary = `${file}.${randomId('')}.tmp`;
    const lines: string[] = [];
    for (const thread of this.threads.values()) {
      if (!thread.turns.length) lines.push(recordLine(thread));
      for (const turn of thread.turns) lines.push(recordLine(thread, turn));
    }
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(lines.join(''), 'utf8');
      await handle.sync();
    } catch (error) {
      await handle.close();
      await rm(temporary, { force: true });
      throw error;
    }
    await handle.close();
    await rename(temporary, file);
    this.fileLines = lines.length;
    this.fileBytes = lines.reduce((sum, line) => sum + utf8Length(line), 0);
    this.needsNewline = false;
  }

  private apply(record: TurnRecord): Thread {
    let thread = this.threads.get(record.threadId);
    let before = 0;
    if (thread) {
      before = lines(thread);
      // Re-inserted so the map's order is least recently used first.
      this.threads.delete(thread.id);
      this.threads.set(thread.id, thread);
    } else {
      thread = {
        id: record.threadId,
        keyHash: record.threadKeyHash,
        domain: record.domain,
        fp: record.fp,
        createdAt: record.createdAt,
        turns: [],
      };
      this.threads.set(thread.id, thread);
    }
    if (record.turn) {
      thread.turns.push(record.turn);
      if (thread.turns.length > MAX_TURNS_IN_MEMORY) {
        thread.turns.splice(0, thread.turns.length - MAX_TURNS_IN_MEMORY);
      }
    }
    let bytes = threadBytes(thread);
    while (thread.turns.length > 1 && bytes > this.maxThreadBytes) {
      bytes -= utf8Length(recordLine(thread, thread.turns.shift()));
    }
    this.liveRecords += lines(thread) - before;
    this.liveBytes += bytes - (this.bytesOf.get(thread.id) ?? 0);
    this.bytesOf.set(thread.id, bytes);
    // Least recently used first; the thread just written is the most recent, so it always stays.
    for (const [id, oldest] of this.threads) {
      if (this.threads.size <= this.maxThreads && this.liveBytes <= this.maxStoredBytes) break;
      if (id === thread.id) break;
      this.threads.delete(id);
      this.liveRecords -= lines(oldest);
      this.liveBytes -= this.bytesOf.get(id) ?? 0;
      this.bytesOf.delete(id);
    }
    return thread;
  }

  /**
   * A thread for this domain, fp and key. Another domain or fp, a missing key or a wrong one gets
   * nothing, the same as an unknown id, so thread ids can be neither probed nor used without the key.
   */
  async find(id: string, owner: { domain: string; fp: string; key?: string | null }): Promise<ThreadLookup> {
    await this.load();
    // Hashed whatever happens, so a missing thread takes as long as a wrong key.
    const hash = await hashThreadKey(owner.key ?? '');
    const thread = this.threads.get(id);
    if (!thread || thread.domain !== owner.domain || thread.fp !== owner.fp) return { ok: false };
    if (!owner.key || !constantTimeEqual(hash, thread.keyHash)) return { ok: false };
    return { ok: true, thread };
  }

  /**
   * A new thread, stored (and persisted) before it resolves: its id is sent to the client before
   * the first answer finishes, and must name a thread from then on. Turns come with `append`.
   */
  async create(owner: { domain: string; fp: string }): Promise<CreatedThread> {
    await this.load();
    const key = randomId('thk_');
    const record: TurnRecord = {
      v: 1,
      threadId: randomId('thr_'),
      threadKeyHash: await hashThreadKey(key),
      domain: owner.domain,
      fp: owner.fp,
      createdAt: new Date().toISOString(),
    };
    // The stored thread itself, so turns appended to it show in later lookups.
    const thread = this.apply(record);
    try {
      await this.persist(record);
    } catch (error) {
      // The thread lives in memory all the same; only a restart would lose it.
      this.warn(
        `could not persist thread ${thread.id}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return { thread, key };
  }

  /** Records a finished turn of a thread; persisted before it resolves. */
  async append(thread: Thread, turn: ThreadTurn): Promise<void> {
    await this.load();
    const record: TurnRecord = {
      v: 1,
      threadId: thread.id,
      threadKeyHash: thread.keyHash,
      domain: thread.domain,
      fp: thread.fp,
      createdAt: thread.createdAt,
      turn,
    };
    this.apply(record);
    await this.persist(record);
  }

  /** Appends one record to the file (nothing without a data folder). */
  private async persist(record: TurnRecord): Promise<void> {
    if (!this.dataDir) return;
    const dataDir = this.dataDir;
    await this.queueWrite(async () => {
      const [{ mkdir, open }, { join }] = await Promise.all([nodeFs(), nodePath()]);
      await mkdir(dataDir, { recursive: true });
      const handle = await open(join(dataDir, THREADS_FILE), 'a');
      try {
        // One write of a whole line, then fsync: a crash leaves at most a torn last line.
        const line = `${this.needsNewline ? '\n' : ''}${JSON.stringify(record)}\n`;
        await handle.appendFile(line, 'utf8');
        this.needsNewline = false;
        this.fileLines++;
        this.fileBytes += utf8Length(line);
        await handle.sync();
      } finally {
        await handle.close();
      }
      // The turn is on disk either way; a failed compaction is reported and tried again later.
      if (this.shouldCompact()) await this.compact().catch((error: unknown) => this.warnCompaction(error));
    });
  }

  private warnCompaction(error: unknown): void {
    this.compactAt = this.fileLines + this.compactAfter;
    this.compactAtBytes = this.fileBytes + this.compactAfterBytes;
    this.warn(`compacting ${THREADS_FILE} failed: ${error instanceof Error ? error.message : String(error)}`);
  }

  /** Waits for pending writes. */
  async flush(): Promise<void> {
    await this.writing;
  }

  get size(): number {
    return this.threads.size;
  }

  /** Bytes of the threads kept (as lines of a compacted file). */
  get storedBytes(): number {
    return this.liveBytes;
  }
}
